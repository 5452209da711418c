"""How far one command reaches: the project files in which a function runs.

    python benchmarks/reach.py [--list] -- result BOOK.xlsx --round 3 --board 1 --result "White wins"

runs ``python -m addin ARGS`` in this process under a profile hook and counts the files of
``addin/`` whose functions run, module import code aside (the body of a module, and of each
class in it, runs once, when it is imported: that is start-up, not the action's reach). It
prints the count, the count outside ``addin/core`` ("above the core"), and with ``--list``
each file.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


INLINE = ("<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>", "<lambda>")
"""Code that runs inside the code that makes it (Python 3.11 gives comprehensions frames)."""


def reach(argv: list[str], functions: dict[str, set[str]] | None = None) -> tuple[int, set[str]]:
    """The exit code of ``python -m addin argv`` and the project files its functions ran in
    (``functions``: filled with the functions that ran, by file)."""
    import addin
    from addin.cli import main

    files: set[str] = set()
    root = Path(addin.__file__).resolve().parent.parent
    package = str(root / "addin") + "/"

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        code = frame.f_code
        if not code.co_flags & inspect.CO_OPTIMIZED:  # a module's or a class's body: import
            return
        caller = frame.f_back
        if code.co_name in INLINE and caller and not caller.f_code.co_flags & inspect.CO_OPTIMIZED:
            return  # a comprehension in a module's or a class's body: import too
        name = code.co_filename
        if name.startswith(package):
            where = str(Path(name).relative_to(root))
            files.add(where)
            if functions is not None:
                functions.setdefault(where, set()).add(code.co_qualname)

    sys.setprofile(hook)
    try:
        try:
            code = main(argv)
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else 1
    finally:
        sys.setprofile(None)
    return int(code or 0), files


def above_core(files: set[str]) -> set[str]:
    return {f for f in files if not f.startswith("addin/core/")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="name each file")
    parser.add_argument("--functions", action="store_true", help="and the functions run in it")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if "PYTHONPATH" not in __import__("os").environ:
        sys.path.insert(0, str(ROOT))  # this checkout's addin, unless told otherwise
    functions: dict[str, set[str]] = {}
    code, files = reach(command, functions)
    above = above_core(files)
    if args.list or args.functions:
        for name in sorted(files):
            print(("  " if name in above else "  (core) ") + name)
            if args.functions:
                print("      " + ", ".join(sorted(functions[name])))
    print(f"exit {code}: {len(files)} project files run code, {len(above)} above addin/core")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
