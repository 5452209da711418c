"""How far one command reaches: the project files in which a function runs.

    python benchmarks/reach.py [--list] -- result BOOK.xlsx --round 3 --board 1 --result "White wins"

runs ``python -m addin ARGS`` in this process under a profile hook and counts the files of
``addin/`` whose functions run, module import code aside (the body of a module runs once,
when it is imported: that is start-up, not the action's reach). It prints the count, the
count outside ``addin/core`` ("above the core"), and with ``--list`` each file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "addin"


def reach(argv: list[str]) -> tuple[int, set[str]]:
    """The exit code of ``python -m addin argv`` and the project files its functions ran in."""
    from addin.cli import main

    files: set[str] = set()
    package = str(PACKAGE) + "/"

    def hook(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        code = frame.f_code
        if code.co_name == "<module>":
            return
        name = code.co_filename
        if name.startswith(package):
            files.add(str(Path(name).relative_to(ROOT)))

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
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    sys.path.insert(0, str(ROOT))
    code, files = reach(command)
    above = above_core(files)
    if args.list:
        for name in sorted(files):
            print(("  " if name in above else "  (core) ") + name)
    print(f"exit {code}: {len(files)} project files run code, {len(above)} above addin/core")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
