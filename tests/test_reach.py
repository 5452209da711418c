"""A desk action reads as a short walk: the files above the pure core in which a function
runs during one command (``benchmarks/reach.py``), on the demo's tournament after round 3.

Before the tournament store, a ``result`` ran code in 43 files above the core and a
``pair`` in 42 (measured the same way); a newcomer following either climbed back up the
layers again and again. docs/architecture.md walks both as they are now.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from tests.calc_support import require_office

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _reach() -> ModuleType:
    spec = importlib.util.spec_from_file_location("reach", BENCHMARKS / "reach.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["reach"] = module
    spec.loader.exec_module(module)
    return module


def test_a_result_and_a_pairing_each_walk_few_modules_above_the_core() -> None:
    reach = _reach()
    walked = reach.walks()
    for name in ("result", "pair"):
        found, limit = walked[name], reach.LIMITS[name]
        assert found.code == 0, name
        above = sorted(found.above_core)
        assert len(above) <= limit, f"{name} reaches {len(above)} files above the core: {above}"


def test_the_walks_described_in_the_architecture_are_the_walks_taken() -> None:
    """docs/architecture.md names each file a walk passes through, above the core."""
    reach = _reach()
    text = (Path(__file__).resolve().parents[1] / "docs" / "architecture.md").read_text("utf-8")
    for name, found in reach.walks().items():
        section = text.split(f"### The walk of `{name}`", 1)[1].split("\n### ", 1)[0]
        missing = [f for f in sorted(found.above_core) if f"`{f}`" not in section]
        assert not missing, f"docs/architecture.md's walk of {name} does not name {missing}"


def test_a_result_pressed_in_calc_walks_as_short_as_on_the_command_line() -> None:
    """The same result from Calc's toolbar, on a live LibreOffice (its door instead of the
    command line's: the dispatcher, the buttons, the window, its dialogs and storage)."""
    require_office()
    reach = _reach()
    found = reach.calc_walk()
    assert found.code == 0
    above = sorted(found.above_core)
    assert len(above) <= reach.LIMITS["result in Calc"], above
