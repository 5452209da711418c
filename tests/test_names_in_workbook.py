"""A sheet's tables and columns are named in ``addin/workbook/`` only (issue 32, "One spine").

Actions speak the model; the workbook layer speaks tables. Outside ``addin/workbook/``
a module of ``addin`` fails here, naming file and line, when it

1. imports from ``addin.workbook.layout`` anything but the types ``Table``, ``Column``
   and ``Kind`` (a gateway implementation needs them) and ``Section`` with the functions
   that tell a table's or a sheet's section (what an action declares it reads and writes,
   and how a draft holds it to that): no table, no table-making function
   (``players_table``, ``round_sheet`` ...), no declaration (``SETTINGS``, ``LOG_LEVELS``);
2. uses a declared sheet or Excel table name ("Players", "Round1Games") as a name: in a
   comparison with a sheet (``p.sheet != "Players"``, ``"Log" in gw.sheet_names()``), as
   a dictionary key, as the sheet of a ``Problem``/``Cell``, or as an argument of a
   gateway call (``remove_sheet``, ``read_table``, ...);
3. uses a declared column header ("Rating", "AGA #") as the column of a ``Problem`` or
   ``Cell`` (positionally or as ``column=``);
4. uses a declared column key as a row key: subscripted or looked up (``.get``, ``.pop``,
   ``.setdefault``) on a row's maps (``x.values``, ``x.cells``, ``x.unread``) or on a row
   (a name ``row``, ``r``, ``..._row``, or ``rows[i]``), or passed to ``Row.where``,
   ``TableData.problem`` or a function of ``addin.workbook``.

Words that merely coincide with a sheet's names are not naming and pass: a report's
column heading ("Name", "AGA #"), a page title ("Standings"), an XML element ("name",
"Tournament"), a command's parameter (``params["round"]``), a Log level ("Action"). So
does a :class:`~addin.core.model.Player` field name in a dictionary of changes given to
``players_sheet.write_fields`` (``{"band": 3}``): that is the model's word, which the
Players sheet happens to use for its column.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from addin.workbook import layout

PACKAGE = Path(__file__).resolve().parents[1] / "addin"
WORKBOOK = PACKAGE / "workbook"
TYPES = frozenset(
    {"Table", "Column", "Kind", "Section", "section_of", "section_of_sheet", "section_sheets"}
)
GATEWAY_CALLS = frozenset(
    {"read_table", "write_table", "remove_sheet", "sheet_names", "read_tables", "read"}
)
ROW_MAPS = frozenset({"values", "cells", "unread"})
LOOKUPS = frozenset({"get", "pop", "setdefault"})
CELL_MAKERS = frozenset({"Problem", "Cell"})

TODO: frozenset[str] = frozenset()
"""Modules still naming a sheet's tables or columns, to be moved into ``addin/workbook/``
(issue 32). The list only shrinks."""


def _tables() -> list[layout.Table]:
    tiebreaks = ("SOS", "SODOS")
    return [
        *layout.fixed_tables(9, tiebreaks),
        *layout.round_tables(1),
        layout.codes_table(1),
    ]


TABLES = _tables()
SHEETS = frozenset({t.sheet for t in TABLES} | {t.name for t in TABLES} | set(layout.SHEET_ORDER))
HEADERS = frozenset(c.header for t in TABLES for c in t.columns)
KEYS = frozenset(c.key for t in TABLES for c in t.columns)


def outside_workbook() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if WORKBOOK not in p.parents)


def _text(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _last_name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _is_row(node: ast.AST) -> bool:
    """A row's maps, a name that holds a row, or an element of ``rows``."""
    name = _last_name(node)
    if isinstance(node, ast.Attribute) and name in ROW_MAPS:
        return True
    if name in ("row", "r") or name.endswith("_row"):
        return True
    return isinstance(node, ast.Subscript) and _last_name(node.value) == "rows"


def _workbook_modules(tree: ast.Module) -> set[str]:
    """Local names bound to modules of ``addin.workbook`` (``from addin.workbook import book``)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "addin.workbook":
            names |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            names |= {
                a.asname or a.name for a in node.names if a.name.startswith("addin.workbook.")
            }
    return names


def _calls_a_name(call: ast.Call, names: frozenset[str]) -> bool:
    return _last_name(call.func) in names


def violations(path: Path, root: Path = PACKAGE.parent) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = path.relative_to(root)
    modules = _workbook_modules(tree)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.ImportFrom) and node.module == "addin.workbook.layout":
            for alias in node.names:
                if alias.name not in TYPES:
                    yield f"{where}:{line}: imports {alias.name} from addin.workbook.layout"
        elif isinstance(node, ast.ImportFrom) and node.module == "addin.workbook":
            if any(a.name == "layout" for a in node.names):
                yield f"{where}:{line}: imports addin.workbook.layout whole"
        elif isinstance(node, ast.Import):
            if any(a.name == "addin.workbook.layout" for a in node.names):
                yield f"{where}:{line}: imports addin.workbook.layout whole"
        elif isinstance(node, ast.Compare) and "sheet" in ast.unparse(node):
            for side in (node.left, *node.comparators):
                elements = side.elts if isinstance(side, ast.Tuple | ast.List | ast.Set) else [side]
                for element in elements:
                    if (text := _text(element)) in SHEETS:
                        yield f"{where}:{line}: compares with the sheet or table name {text!r}"
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                if (text := _text(key)) in SHEETS:
                    yield f"{where}:{line}: the sheet or table name {text!r} as a key"
        elif isinstance(node, ast.Subscript):
            if (text := _text(node.slice)) in KEYS and _is_row(node.value):
                yield f"{where}:{line}: the column key {text!r} as a row key"
        elif isinstance(node, ast.Call):
            yield from _call_violations(node, where, modules)


def _call_violations(call: ast.Call, where: Path, modules: set[str]) -> Iterator[str]:
    line = call.lineno
    func = call.func
    args = [_text(a) for a in call.args]
    lookup = isinstance(func, ast.Attribute) and func.attr in LOOKUPS and _is_row(func.value)
    if lookup and args and args[0] in KEYS:
        yield f"{where}:{line}: the column key {args[0]!r} as a row key"
    if _calls_a_name(call, CELL_MAKERS):
        if args and args[0] in SHEETS:
            yield f"{where}:{line}: the sheet name {args[0]!r} in a {_last_name(func)}"
        if any(a in HEADERS for a in args[2:]):
            yield f"{where}:{line}: a column header as a {_last_name(func)}'s column"
    for keyword in call.keywords:
        text = _text(keyword.value)
        if keyword.arg == "column" and text in HEADERS:
            yield f"{where}:{line}: the column header {text!r} as a column"
        if keyword.arg == "sheet" and text in SHEETS:
            yield f"{where}:{line}: the sheet name {text!r} as a sheet"
    if _calls_a_name(call, GATEWAY_CALLS) and any(a in SHEETS for a in args):
        yield f"{where}:{line}: a sheet or table name in a gateway call"
    by_key = _calls_a_name(call, frozenset({"where", "problem"})) and args[1:2] != [None]
    of_workbook = isinstance(func, ast.Attribute) and _last_name(func.value) in modules
    if (by_key and args[1] in KEYS) or (of_workbook and any(a in KEYS for a in args)):
        yield f"{where}:{line}: a column key passed to {ast.unparse(func)}"


def test_the_rule_sees_every_kind_of_naming(tmp_path: Path) -> None:
    """The checker itself: each naming it forbids is found, the coincidences are not."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from addin.workbook.layout import Table, players_table\n"
        "from addin.workbook import book\n"
        "ok = ('Name', 'AGA #', 'Standings')\n"
        "title = params.get('round') or el.get('name')\n"
        "if sel.sheet == 'Players': pass\n"
        "x = row.get('aga_id')\n"
        "y = rows[0].values['result']\n"
        "z = data.cells.get('rating')\n"
        "Problem('Tournament', 'bad', 'B2', 'Value')\n"
        "Cell(s, ref, column='Rating')\n"
        "gw.remove_sheet('Round 1')\n"
        "book.merge_rows(data, 'aga_id', updates)\n"
        "HELP = {'Log': 'the-log'}\n",
        encoding="utf-8",
    )
    lines = sorted(int(v.split(":")[1]) for v in violations(sample, tmp_path))
    assert lines == [1, 5, 6, 7, 8, 9, 9, 10, 11, 12, 13]


def test_no_module_outside_the_workbook_names_a_sheets_tables_or_columns() -> None:
    found: list[str] = []
    for path in outside_workbook():
        name = str(path.relative_to(PACKAGE))
        if name in TODO:
            continue
        found += violations(path)
    assert not found, "\n".join(found)


def test_the_list_of_modules_still_to_move_is_true() -> None:
    """A module moved is taken off the list: the list never hides a module that passes."""
    clean = [m for m in sorted(TODO) if not list(violations(PACKAGE / m))]
    assert not clean, f"these no longer name a sheet's tables or columns: {clean}"
