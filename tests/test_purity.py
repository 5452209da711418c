"""The pure core never imports a spreadsheet library (data flows one way)."""

from __future__ import annotations

import ast
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
