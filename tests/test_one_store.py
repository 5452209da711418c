"""The journal and the save exist in one place: the tournament store (``addin/store.py``).

Every door (the command line, the Excel ribbon, the Calc toolbar, the demo) hands an action
to the store, which alone records the journal entry and saves the workbook. Here the
source is read as a newcomer would grep it: a module that records a journal entry or saves
a workbook outside the store fails, naming the file, the line and the call.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "addin"
STORE = PACKAGE / "store.py"

SAVES_ITS_OWN = {
    ("workbook/file_store.py", "FileStore.save"),
    ("workbook/openpyxl_gateway.py", "OpenpyxlGateway.save"),
    ("workbook/openpyxl_gateway.py", "OpenpyxlGateway._write_file"),
    ("excel/window.py", "ExcelWindow.save"),
    ("reports/render_pdf.py", "_HeaderCanvas.save"),
    ("publish/poster.py", "poster_pdf"),
}
"""``.save()`` calls that are a storage or window saving itself when the store asks it
to (a file store handing its save to openpyxl, Excel's own save), or no workbook at all
(reportlab's canvas: a PDF page)."""

ATOMIC_WRITERS = {
    "workbook/saving.py",  # its own helper: an output beside the workbook
    "workbook/file_store.py",  # FileStore.save: the store's save of a file
    "workbook/openpyxl_gateway.py",  # OpenpyxlGateway.save: the same, through openpyxl
    "workbook/template.py",  # ``template``: the blank template, a tool's file
    "journal/store.py",  # the journal's own files, and a snapshot put back
    "journal/undo.py",  # undo's restore, which the store runs (journal.commands.take_back)
    "publish/writing.py",  # the published site's files
}
"""Modules that write a file with ``save_atomically``; none saves a tournament on its own."""


def _calls(path: Path) -> list[tuple[int, str, str]]:
    """(line, enclosing function, call) for each call of ``record``, ``.save`` and
    ``save_atomically`` in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str, str]] = []

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = where
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{where}.{child.name}" if where else child.name
            if isinstance(child, ast.Call):
                func = child.func
                called = (
                    func.attr
                    if isinstance(func, ast.Attribute)
                    else func.id
                    if isinstance(func, ast.Name)
                    else ""
                )
                if called in ("record", "save", "save_atomically"):
                    kind = f".{called}" if isinstance(func, ast.Attribute) else called
                    found.append((child.lineno, where, kind))
            visit(child, name)

    visit(tree, "")
    return found


def test_only_the_store_records_a_journal_entry() -> None:
    outside = [
        f"{p.relative_to(PACKAGE)}:{line} {kind}()"
        for p in sorted(PACKAGE.rglob("*.py"))
        if p != STORE
        for line, _, kind in _calls(p)
        if kind == "record"
    ]
    assert outside == []


def test_only_the_store_saves_a_workbook() -> None:
    outside = [
        f"{rel}:{line} in {where}: {kind}()"
        for p in sorted(PACKAGE.rglob("*.py"))
        if p != STORE and (rel := p.relative_to(PACKAGE).as_posix())
        for line, where, kind in _calls(p)
        if (kind == ".save" and (rel, where) not in SAVES_ITS_OWN)
        or (kind == "save_atomically" and rel not in ATOMIC_WRITERS)
    ]
    assert outside == []


def test_the_store_is_where_the_journal_and_the_saves_are() -> None:
    kinds = {kind for _, _, kind in _calls(STORE)}
    assert {"record", ".save"} <= kinds
