"""Time the registration desk's commands, each beside its floor in the same run.

A 300-player event (``demo``) holding the 22,410-member TDListA (tests/data/tdlista): every
command runs as a whole process (``python -m addin ...``), as a TD runs it, and so does
its floor, alternately (command, floor, command, floor, ...), so the ratio holds when the
machine's speed drifts:

- ``lookup`` (reads the TDListA): a bare python-calamine read of the TDListA sheet; as
  the desk runs it (the list's index kept by an earlier look-up), as the first look-up
  after ``import-tdlista`` (which keeps the new list's index), and with no index kept
  (the user's cache emptied, or a workbook whose list was imported on another machine);
- ``check`` (reads every sheet): a bare python-calamine read of every sheet;
- ``register``, ``result``, ``drop``, ``import-tdlista`` (write): a plain zip copy of the
  workbook;
- ``--version``: ``python -c pass``.

Each write runs on a fresh copy of the event (copied outside the timed process). The package
is byte-compiled first, as ``pip install`` leaves it: a process that compiles its modules
from source on every start measures the compiler, not the command. The
Excel door's button cost is measured in one process through xlwings' remote engine: the
dispatcher's time for each button on the same workbook, its JSON snapshot made once.

    python benchmarks/bench_desk.py [--players 300] [--members N] [--runs 5] [--no-excel]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SNAPSHOT = ROOT / "tests" / "data" / "tdlista" / "tdlista-snapshot.txt"
PY = sys.executable
ROUNDS = 5
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

CALAMINE_SHEET = (
    "import sys;from python_calamine import CalamineWorkbook as W;"
    "W.from_path(sys.argv[1]).get_sheet_by_name(sys.argv[2]).to_python()"
)
CALAMINE_ALL = (
    "import sys;from python_calamine import CalamineWorkbook as W;w=W.from_path(sys.argv[1]);"
    "[w.get_sheet_by_name(n).to_python() for n in w.sheet_names]"
)
ZIP_COPY = (
    "import sys,zipfile;s=zipfile.ZipFile(sys.argv[1]);"
    "d=zipfile.ZipFile(sys.argv[2],'w',zipfile.ZIP_DEFLATED);"
    "[d.writestr(i,s.read(i)) for i in s.infolist()];d.close()"
)


@dataclass
class Timing:
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


def timed(
    argv: list[str],
    prepare: Callable[[], None] | None = None,
    env: dict[str, str] | None = None,
) -> tuple[float, float]:
    """(wall, cpu) seconds of one whole process; ``prepare`` runs first, untimed."""
    if prepare is not None:
        prepare()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, env=env or ENV, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stdout}{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def run(cmd: str, *args: object, env: dict[str, str] | None = None) -> None:
    argv = [PY, "-m", "addin", cmd, *map(str, args)]
    done = subprocess.run(argv, env=env or ENV, capture_output=True)
    if done.returncode != 0:
        raise SystemExit(f"{cmd} failed: {done.stderr.decode()}")


def build_event(folder: Path, players: int, members: Path) -> Path:
    book = folder / "event.xlsx"
    run("demo", book, "--players", players, "--rounds", ROUNDS)
    run("import-tdlista", book, members, "--yes")
    for extra in folder.glob("event*"):
        if extra != book:
            shutil.rmtree(extra) if extra.is_dir() else extra.unlink()
    return book


def generated_members(folder: Path, count: int) -> Path:
    """A TDListA of ``count`` members: the snapshot's lines, repeated with new numbers."""
    lines = SNAPSHOT.read_text(encoding="utf-8").splitlines()
    out = []
    for i in range(count):
        fields = lines[i % len(lines)].split("\t")
        fields[1] = str(100000 + i) if i >= len(lines) else fields[1]
        out.append("\t".join(fields))
    path = folder / "members.txt"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def desk_choices(book: Path) -> dict[str, object]:
    """A member not yet registered, a player to drop, and board 1's result turned over."""
    from addin.core.model import Result
    from addin.workbook.layout import TDLISTA, games_table, players_table
    from addin.workbook.openpyxl_gateway import OpenpyxlGateway

    gw = OpenpyxlGateway.open(book)
    registered = {r["aga_id"] for r in gw.read_table(players_table(ROUNDS)).rows}
    member = next(r["aga_id"] for r in gw.read_table(TDLISTA).rows if r["aga_id"] not in registered)
    board = next(r for r in gw.read_table(games_table(ROUNDS)).rows if r["board"] == 1)
    result = "B" if board["result"] is Result.WHITE_WINS else "W"
    return {"member": member, "player": min(registered), "result": result}  # type: ignore[type-var]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--members", type=int, default=0, help="generate a list this long")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-excel", action="store_true", help="skip the Excel door's figures")
    args = parser.parse_args()
    subprocess.run([PY, "-m", "compileall", "-q", str(ROOT / "addin")], check=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cache = folder / "cache"
        ENV["XDG_CACHE_HOME"] = str(cache)  # lookup's kept index: here, not the user's
        members = generated_members(folder, args.members) if args.members else SNAPSHOT
        pristine = build_event(folder, args.players, members)
        choice = desk_choices(pristine)
        work = folder / "work" / "event.xlsx"
        work.parent.mkdir()
        copy_out = folder / "copy.xlsx"

        def fresh() -> None:
            shutil.rmtree(work.parent)
            work.parent.mkdir()
            shutil.copyfile(pristine, work)

        cold = {**ENV, "XDG_CACHE_HOME": str(folder / "cold-cache")}
        """The first look-ups keep their index apart: emptying the desk's cache for them
        would make every later command of the round miss the index the desk keeps."""

        def forget() -> None:
            shutil.rmtree(cold["XDG_CACHE_HOME"], ignore_errors=True)

        def imported_anew() -> None:
            fresh()
            forget()
            run("import-tdlista", work, members, "--yes", env=cold)

        fresh()
        addin = [PY, "-m", "addin"]
        read_floor = [PY, "-c", CALAMINE_SHEET, str(work), "TDListA"]
        all_floor = [PY, "-c", CALAMINE_ALL, str(work)]
        zip_floor = [PY, "-c", ZIP_COPY, str(work), str(copy_out)]
        cases: list[tuple[str, list[str], list[str], str, Callable[[], None] | bool]] = [
            ("--version", [*addin, "--version"], [PY, "-c", "pass"], "python -c pass", False),
            (
                "lookup",
                [*addin, "lookup", str(work), "smith"],
                read_floor,
                "calamine TDListA",
                False,
            ),
            (
                "lookup*",
                [*addin, "lookup", str(work), "smith"],
                read_floor,
                "calamine TDListA",
                imported_anew,
            ),
            (
                "lookup0",
                [*addin, "lookup", str(work), "smith"],
                read_floor,
                "calamine TDListA",
                forget,
            ),
            (
                "import",
                [*addin, "import-tdlista", str(work), str(members), "--yes"],
                zip_floor,
                "zip copy",
                True,
            ),
            (
                "register",
                [*addin, "register", str(work), "--aga", str(choice["member"]), "--yes"],
                zip_floor,
                "zip copy",
                True,
            ),
            (
                "result",
                [
                    *addin,
                    "result",
                    str(work),
                    "--round",
                    str(ROUNDS),
                    "--board",
                    "1",
                    "--result",
                    str(choice["result"]),
                    "--yes",
                ],
                zip_floor,
                "zip copy",
                True,
            ),
            (
                "drop",
                [*addin, "drop", str(work), "--player", str(choice["player"]), "--yes"],
                zip_floor,
                "zip copy",
                True,
            ),
            ("check", [*addin, "check", str(work)], all_floor, "calamine, every sheet", False),
        ]
        results = {name: (Timing(), Timing()) for name, *_ in cases}
        envs = {"lookup*": cold, "lookup0": cold}
        for name, command, floor, _, prepare in cases:  # a warm-up of each, not counted
            timed(command, _prepare(prepare, fresh), envs.get(name))
            timed(floor)
        for _ in range(args.runs):
            for name, command, floor, _, prepare in cases:
                mine, base = results[name]
                wall, cpu = timed(command, _prepare(prepare, fresh), envs.get(name))
                mine.wall.append(wall)
                mine.cpu.append(cpu)
                wall, cpu = timed(floor)
                base.wall.append(wall)
                base.cpu.append(cpu)
        size = pristine.stat().st_size
        print(
            f"{args.players} players, {sum(1 for _ in members.open(encoding='utf-8')):,}-member "
            f"TDListA, {size / 1e6:.1f} MB workbook; medians of {args.runs} alternating runs, "
            "whole processes"
        )
        print(
            f"{'command':<10} {'wall s':>7} {'cpu s':>7}  {'floor':<22} {'wall s':>7} "
            f"{'cpu s':>7}  {'x floor (cpu)':>13} {'x floor (wall)':>14}"
        )
        for name, _, _, floor_name, _ in cases:
            mine, base = results[name]
            ratio_cpu = statistics.median(a / b for a, b in zip(mine.cpu, base.cpu, strict=True))
            ratio_wall = statistics.median(a / b for a, b in zip(mine.wall, base.wall, strict=True))
            print(
                f"{name:<10} {statistics.median(mine.wall):>7.2f} "
                f"{statistics.median(mine.cpu):>7.2f}  {floor_name:<22} "
                f"{statistics.median(base.wall):>7.2f} {statistics.median(base.cpu):>7.2f}  "
                f"{ratio_cpu:>13.2f} {ratio_wall:>14.2f}"
            )
        print("lookup*: the first look-up after import-tdlista (the import kept the index)")
        print("lookup0: a look-up with no index kept (the cache emptied)")
        if not args.no_excel:
            excel_buttons(pristine, choice, args.runs)


def _prepare(
    prepare: Callable[[], None] | bool, fresh: Callable[[], None]
) -> Callable[[], None] | None:
    """What runs untimed before a command: a fresh copy for a write (True), or the given."""
    if prepare is True:
        return fresh
    return prepare or None


def excel_buttons(book: Path, choice: dict[str, object], runs: int) -> None:
    """The dispatcher's time for each button through xlwings' remote engine (in process)."""
    os.environ.setdefault("XLWINGS_LICENSE_KEY", "noncommercial")
    from addin.excel.remote_json import book_json, enable_remote_engine

    if not enable_remote_engine():
        print("Excel door: xlwings' remote engine is not available here")
        return
    import xlwings as xw

    from addin.excel.entry import dispatch

    snapshot = book_json(book)
    buttons: list[tuple[str, dict[str, object]]] = [
        ("lookup", {"query": "smith"}),
        ("register", {"aga": choice["member"]}),
        ("result", {"round": ROUNDS, "board": 1, "result": choice["result"]}),
        ("drop", {"player": choice["player"]}),
        ("check", {}),
    ]
    print("Excel door (remote engine, in process): seconds per button, median of", runs)
    for button, params in buttons:
        seconds = []
        for _ in range(runs):
            remote = xw.Book(json=snapshot)
            start = time.perf_counter()
            outcome = dispatch(button, remote, params, yes=True)
            seconds.append(time.perf_counter() - start)
            if outcome.status != "done":
                raise SystemExit(f"{button}: {outcome.status} {outcome.messages}")
        print(f"  {button:<10} {statistics.median(seconds):>6.2f}")


if __name__ == "__main__":
    main()
