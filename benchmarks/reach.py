"""How far one command reaches: the project files in which a function runs.

    python benchmarks/reach.py                 # result and pair, on a 30-player demo
    python benchmarks/reach.py --functions     # the same, naming each function run
    python benchmarks/reach.py -- result BOOK.xlsx --round 3 --board 1 --result "W"

A command runs as ``python -m addin ARGS`` does, in this process, under a profile hook
that notes the files of ``addin/`` whose functions run. Module import code is left aside:
the body of a module, of each class in it and the comprehensions in them run once, when
the module is imported; that is start-up, not what the action reaches. It prints the
count, the count outside ``addin/core`` ("above the core": the code a newcomer walks
through to follow the action) and, asked, each file.

Without a command, it measures the two walks docs/architecture.md describes, on the
demo's 30-player tournament after round 3 (5 rounds planned): ``result`` changes round
3, board 1, and ``pair`` pairs round 4 (tests/test_reach.py holds them to their limits).
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import io
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
INLINE = ("<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>", "<lambda>")
"""Code that runs inside the code that makes it (Python 3.11 gives comprehensions frames)."""
LIMITS = {"result": 21, "pair": 26, "result in Calc": 26}
"""Files above the core each walk may reach (issue 39's acceptance; a Calc press walks the
same action and store, through its door's files instead of the command line's, and since
the stations came it also looks for their entries waiting beside the workbook:
``addin/station/entries.py``, one file more than issue 39's 24). The journal keeps its
states as parts in a module of their own (``addin/journal/parts.py``, issue 51): one file
more on every walk that writes."""


@dataclass
class Reach:
    code: int
    functions: dict[str, set[str]] = field(default_factory=dict)
    """The functions that ran, by file (relative to the checkout: ``addin/...``)."""

    @property
    def files(self) -> set[str]:
        return set(self.functions)

    @property
    def above_core(self) -> set[str]:
        return {f for f in self.functions if not f.startswith("addin/core/")}


def reach(argv: list[str]) -> Reach:
    """Run ``python -m addin argv`` here and note where its functions ran."""
    from addin.cli import main

    return reach_of(lambda: main(argv))


def reach_of(press: Callable[[], int]) -> Reach:
    """Run ``press`` here and note where its functions ran; its exit code."""
    import addin

    root = Path(addin.__file__).resolve().parent.parent
    package = str(root / "addin") + os.sep
    found = Reach(0)

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        code = frame.f_code
        if not code.co_flags & inspect.CO_OPTIMIZED:  # a module's or a class's body: import
            return
        caller = frame.f_back
        if code.co_name in INLINE and caller and not caller.f_code.co_flags & inspect.CO_OPTIMIZED:
            return  # a comprehension in a module's or a class's body: import too
        if code.co_filename.startswith(package):
            where = Path(code.co_filename).relative_to(root).as_posix()
            found.functions.setdefault(where, set()).add(code.co_qualname)

    sys.setprofile(hook)
    try:
        try:
            found.code = press()
        except SystemExit as stop:
            found.code = stop.code if isinstance(stop.code, int) else 1
    finally:
        sys.setprofile(None)
    return found


@contextlib.contextmanager
def demo_after_round_3() -> Iterator[Path]:
    """The demo's 30-player, 5-round tournament, as it stood after round 3."""
    from addin.cli import main

    with tempfile.TemporaryDirectory() as folder:
        book = Path(folder) / "walk.xlsx"
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            assert main(["demo", str(book), "--players", "30", "--rounds", "5"]) == 0
            for number in (5, 4):
                assert main(["unpair", str(book), "--round", str(number), "--yes"]) == 0
        yield book


def walks() -> dict[str, Reach]:
    """``result`` on round 3, board 1 (its result turned), and ``pair`` of round 4, each on
    the tournament after round 3."""
    import openpyxl

    found: dict[str, Reach] = {}
    with demo_after_round_3() as book:
        result_book = book.with_name("result.xlsx")
        shutil.copyfile(book, result_book)
        sheet = openpyxl.load_workbook(book, read_only=True)["Round 3"]
        was = str(next(sheet.iter_rows(min_row=2, max_row=2, values_only=True))[5])
        turned = "Black wins" if was.startswith("White") else "White wins"
        with contextlib.redirect_stdout(io.StringIO()):
            board = ["--round", "3", "--board", "1", "--result", turned, "--yes"]
            found["result"] = reach(["result", str(result_book), *board])
            found["pair"] = reach(["pair", str(book), "--yes"])
    return found


def calc_walk() -> Reach:
    """The ``result`` walk pressed on Calc's toolbar: the same workbook open in a live,
    headless LibreOffice, the button's dispatch run in this process."""
    import openpyxl

    from addin.calc.dialogs import AcceptAll
    from addin.calc.entry import dispatch
    from addin.calc.office import Office

    with demo_after_round_3() as book, Office() as office:
        sheet = openpyxl.load_workbook(book, read_only=True)["Round 3"]
        was = str(next(sheet.iter_rows(min_row=2, max_row=2, values_only=True))[5])
        turned = "Black wins" if was.startswith("White") else "White wins"
        doc = office.open(book)
        params = {"round": 3, "board": 1, "result": turned}

        def press() -> int:
            outcome = dispatch("result", doc, office.ctx, params, dialogs=AcceptAll(), yes=True)
            return 0 if outcome.status == "done" else 1

        return reach_of(press)


def report(name: str, walked: Reach, *, functions: bool) -> None:
    limit = f" (at most {LIMITS[name]})" if name in LIMITS else ""
    print(
        f"{name}: exit {walked.code}, {len(walked.files)} project files run code, "
        f"{len(walked.above_core)} above addin/core{limit}"
    )
    for where in sorted(walked.files):
        print(("  " if where in walked.above_core else "  (core) ") + where)
        if functions:
            print("      " + ", ".join(sorted(walked.functions[where])))


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--functions", action="store_true", help="name the functions run too")
    parser.add_argument("--calc", action="store_true", help="and a result pressed in Calc")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then a command")
    args = parser.parse_args()
    if "PYTHONPATH" not in os.environ:
        sys.path.insert(0, str(ROOT))  # this checkout's addin, unless told otherwise
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if command:
        report(command[0], reach(command), functions=args.functions)
        return 0
    for name, walked in walks().items():
        report(name, walked, functions=args.functions)
    if args.calc:
        report("result in Calc", calc_walk(), functions=args.functions)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
