"""The pure core never imports a spreadsheet library (data flows one way), and the layers
are checked rules: every package of ``addin`` imports only the packages below it (the
table), no door imports another, and no module imports itself round a cycle (imports
inside functions and type-only imports included). A wrong-way import fails here, naming
the file and the import."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "addin"
PURE = sorted([*PACKAGE.glob("core/**/*.py"), *PACKAGE.glob("formats/**/*.py")])
FORBIDDEN = {"openpyxl", "xlwings", "addin.workbook", "addin.actions", "addin.excel"}


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", PURE, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_pure_modules_import_no_spreadsheet_code(path: Path) -> None:
    bad = {
        m for m in imported_modules(path) if any(m == f or m.startswith(f + ".") for f in FORBIDDEN)
    }
    assert not bad, f"{path.name} imports {sorted(bad)}"


LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    # (part, the parts it may import), lowest first: a part names only parts above it here.
    ("data", frozenset()),  # files shipped with the package (the sample TDListA)
    ("core", frozenset()),  # the pure model and computations; Member, PairingInput
    ("download", frozenset()),  # a rating list fetched from the web (the standard library)
    ("formats", frozenset({"core"})),  # file formats: TDListA, AGA text and XML, eggplant
    ("reports", frozenset({"core"})),  # reports as data, and renderers that take that data
    ("workbook", frozenset({"core", "reports"})),  # the only code that knows sheets
    ("journal", frozenset({"core", "workbook"})),
    # The stations' side of the served site: their pages, their desk, the entries they keep.
    ("station", frozenset({"core", "reports", "workbook"})),
    ("publish", frozenset({"core", "reports", "workbook", "station"})),
    (
        "actions",
        frozenset(
            {"core", "download", "formats", "reports", "workbook", "journal", "station", "publish"}
        ),
    ),
    # The tournament store: it loads for an action and commits its change, for every door.
    # It fetches what an action asks for from the web (a rating list) before committing.
    ("store", frozenset({"core", "download", "workbook", "journal", "actions"})),
    ("demo", frozenset({"core", "formats", "workbook", "actions", "store"})),
    # What the window doors share; it counts the stations' entries waiting (publish).
    (
        "door",
        frozenset(
            {"core", "reports", "workbook", "journal", "station", "publish", "actions", "store"}
        ),
    ),
    # The doors, side by side: none imports another.
    ("excel", frozenset({"core", "workbook", "actions", "door"})),
    ("calc", frozenset({"core", "workbook", "actions", "door"})),
    # The stations' writer: entries the stations kept, run through the store
    # (addin/station/writer.py, beside the pages and entries of its package).
    ("station.writer", frozenset({"core", "workbook", "station", "store"})),
    (
        "cli",
        frozenset(
            {"core", "formats", "reports", "workbook", "journal", "actions", "store", "demo"}
        ),
    ),
    ("__main__", frozenset({"cli"})),
)
"""Every part of ``addin``: a subpackage, or a top-level module (``cli``, ``demo``)."""

DOORS = ("cli", "excel", "calc", "station.writer")
INSTALLERS = frozenset(
    {"addin.excel.install", "addin.excel.build", "addin.calc.install", "addin.calc.extension"}
)
"""The command line installs the window doors (``install-excel``, ``build-calc``, ...): it
may import their installers, and nothing else of them."""

PURE = ("core", "formats", "reports")
SPREADSHEET_LIBRARIES = ("openpyxl", "xlwings", "uno", "python_calamine")


def part_of(module: str) -> str | None:
    """The part a module of ``addin`` belongs to; None for ``addin`` itself (its version)."""
    parts = module.split(".")
    if parts[1:3] in (["station", "writer"], ["station", "__main__"]):
        return "station.writer"  # the stations' door, in the one package of the stations
    return parts[1] if len(parts) > 1 else None


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "oxt" not in p.parts)


def imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, module) of each import: at the top, under ``if TYPE_CHECKING`` and inside
    functions alike."""
    nodes = list(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], base]).rstrip(".")
            for alias in node.names:  # ``from addin.excel import install``: the module
                name = f"{base}.{alias.name}"
                yield node.lineno, name if _is_module(name) else base


def _is_module(name: str) -> bool:
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def test_the_table_goes_one_way() -> None:
    seen: set[str] = set()
    for part, allowed in LAYERS:
        assert allowed <= seen, f"{part} may import {sorted(allowed - seen)}, not below it"
        seen.add(part)


def test_every_part_is_in_the_table() -> None:
    parts = {part_of(module_name(p)) for p in sources()} - {None}
    assert parts == {part for part, _ in LAYERS}, parts ^ {part for part, _ in LAYERS}


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path: Path) -> None:
    table = dict(LAYERS)
    me = part_of(module_name(path))
    if me is None:
        return
    wrong = []
    for line, module in imports(path):
        if module != "addin" and not module.startswith("addin."):
            continue
        other = part_of(module)
        if other in (None, me) or other in table[me]:
            continue
        if me == "cli" and any(module.startswith(i) for i in INSTALLERS):
            continue
        wrong.append(f"line {line}: {module} ({me} may import {sorted(table[me]) or 'none'})")
    assert not wrong, f"{path.relative_to(PACKAGE)}: " + "; ".join(wrong)


def test_no_door_imports_another() -> None:
    table = dict(LAYERS)
    for door in DOORS:
        assert not (table[door] & set(DOORS)), door


@pytest.mark.parametrize(
    "path",
    [p for p in sources() if part_of(module_name(p)) in PURE],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_pure_parts_import_no_spreadsheet_library(path: Path) -> None:
    bad = [m for _, m in imports(path) if m.split(".")[0] in SPREADSHEET_LIBRARIES]
    assert not bad, f"{path.relative_to(PACKAGE)} imports {bad}"


def import_graph() -> dict[str, set[str]]:
    """Each module of ``addin`` and the modules of ``addin`` it imports, wherever the import
    stands: an import inside a function is a cycle deferred to the first call, and one under
    ``if TYPE_CHECKING`` a cycle in the design (the pairing input sits below the engine, not
    inside it). A module importing its own package (its ``__init__``) is no edge."""
    names = {module_name(p): p for p in sources()}
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        targets = set()
        for _, module in imports(path):
            while module and module not in names:
                module = module.rpartition(".")[0]
            if module and module != name and not name.startswith(module + "."):
                targets.add(module)
        graph[name] = targets
    return graph


def test_no_module_imports_itself_round_a_cycle() -> None:
    graph = import_graph()
    circles = _cycles(graph)
    assert not circles, "; ".join(_said(graph, c) for c in circles)


def test_a_circle_is_named_by_its_modules() -> None:
    graph = {"a.x": {"a.y"}, "a.y": {"a.z"}, "a.z": {"a.x", "a.w"}, "a.w": set(), "a.v": {"a.x"}}
    assert _cycles(graph) == [["a.x", "a.y", "a.z"]]
    assert _said(graph, ["a.x", "a.y", "a.z"]) == "a.x -> a.y -> a.z -> a.x"
    assert _cycles({"a.x": {"a.y"}, "a.y": set()}) == []


def _said(graph: dict[str, set[str]], group: list[str]) -> str:
    """A circle through the group's first module, shortest first, and the rest of the
    group when the circle does not pass through all of it."""
    first, members = group[0], set(group)
    paths: dict[str, list[str]] = {first: [first]}
    queue = [first]
    while queue:
        at = queue.pop(0)
        for nxt in sorted(graph[at] & members):
            if nxt == first:
                circle = [*paths[at], first]
                rest = sorted(members - set(circle))
                also = f" (and {len(rest)} more in the loop: {', '.join(rest)})" if rest else ""
                return " -> ".join(circle) + also
            if nxt not in paths:
                paths[nxt] = [*paths[at], nxt]
                queue.append(nxt)
    return ", ".join(group)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_takes_str_isdigit_for_a_number() -> None:
    """``"²".isdigit()`` is True and ``int("²")`` raises: a hostile "²" typed for a board or
    an AGA # once closed a connection unanswered, and a station's page with it never showed
    again. ``str.isdecimal`` is exactly what ``int`` reads."""
    said = '"²" is a digit to str.isdigit'  # the comments that say why
    found = [
        str(p.relative_to(PACKAGE))
        for p in sources()
        if ".isdigit()" in p.read_text(encoding="utf-8").replace(said, "")
    ]
    assert not found, f"use str.isdecimal (or isascii and isdecimal) in {found}"
