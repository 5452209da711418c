"""Start-up costs little more than Python itself: ``--version`` and the command line's own
import load no workbook code, no spreadsheet library and no action."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import addin

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("openpyxl", "xlwings", "reportlab", "rustworkx", "numpy", "addin.actions.change")


def _loaded_after(code: str) -> tuple[str, list[str]]:
    probe = (
        f"import sys\n{code}\n"
        f"print([m for m in sys.modules if m.startswith({HEAVY!r})], file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    return done.stdout, eval(done.stderr.strip().splitlines()[-1])


def test_version_prints_the_version_and_loads_nothing_heavy() -> None:
    out, loaded = _loaded_after("from addin.cli import main\nmain(['--version'])")
    assert out == f"python -m addin {addin.__version__}\n"
    assert loaded == []


def test_python_m_addin_version_is_the_same_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "addin", "--version"], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0 and done.stdout == f"python -m addin {addin.__version__}\n"


def test_each_command_imports_only_the_module_that_declares_it() -> None:
    """Every action declared anywhere in ``addin.actions`` is in the table, by its module
    (``load_all`` imports only the table's modules: an action left out would vanish)."""
    import importlib
    import pkgutil

    import addin.actions
    from addin.actions.registry import ACTIONS, MODULES

    for module in pkgutil.walk_packages(addin.actions.__path__, "addin.actions."):
        importlib.import_module(module.name)
    declared = {spec.id: spec.run.__module__ for spec in ACTIONS.values()}
    assert declared == MODULES, "update addin.actions.registry.MODULES"


def test_a_desk_command_loads_no_other_action() -> None:
    _, loaded = _loaded_after(
        "from addin.cli import _parser_for\n"
        "_parser_for(['lookup', 'book.xlsx', 'smith'])\n"
        "from addin.actions.registry import ACTIONS\n"
        "assert set(ACTIONS) == {'lookup'}, sorted(ACTIONS)"
    )
    assert loaded == ["addin.actions.change"]  # lookup's own: no spreadsheet or PDF library
