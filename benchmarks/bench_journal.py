"""What a desk's entry costs the journal as the event grows: ``python benchmarks/bench_journal.py``.

For each field size (``--sizes``, 60 300 800): a workbook holding the real 22,410-member
TDListA (tests/data), the field pre-registered and paired in round 1, Check-in on and
80 more pre-registered players Not arrived. Then ``--entries`` (200) desk entries through
the store, as the command line runs them (``addin.cli.main``, in this process: the
process's start-up is not the journal's), shuffled: registrations of walk-ins from the
list (2/5), check-ins (2/5), results of round 1 (1/5; each board once, then corrections).

It reports, at each size: the journal's bytes per entry (the ``NAME.history`` folder's
growth), median and p95; the seconds per entry, median and p95, and the journal's share
of them (keeping the states and appending the line); where the bytes go (the members
whose parts were new, summed over the entries); and it undoes the last 20 entries one by
one, each time comparing the workbook's members (names and uncompressed bytes) with the
workbook as it was before that entry.

``--code DIR`` runs another checkout's code (e.g. ``--code /work/main --entries 40`` for
the figures before the journal kept parts). Exit code 1 when an undo does not give back
the state before its entry, or (with this checkout's code) the per-entry median at the
largest size is over ``--target-kb`` (64) or over 3 times the smallest size's.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
import zipfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_stations import TDLISTA, csv_of, members, percentile, set_check_in  # noqa: E402

EXPECTED = 80
WALK_INS = 80
UNDONE = 20


def cli(*args: object) -> tuple[int, str]:
    """``python -m addin ARGS`` in this process: exit code, what it said."""
    from addin.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main([str(a) for a in args])
    return code, out.getvalue()


def must(*args: object) -> str:
    code, said = cli(*args)
    if code != 0:
        raise SystemExit(f"{args[0]} failed ({code}): {said}")
    return said


def make_event(folder: Path, size: int) -> tuple[Path, list[list[object]]]:
    """The event, and its desk entries (argument lists for the command line)."""
    book = folder / "event.xlsx"
    people = members(size + EXPECTED + WALK_INS)
    field, expected = people[:size], people[size : size + EXPECTED]
    walk_ins = people[size + EXPECTED :]
    must("new", book, "--name", "Journal bench", "--start", "2026-07-04", "--rounds", "6")
    must("import-tdlista", book, TDLISTA, "--yes")
    must("preregister", book, csv_of(folder / "field.csv", field), "--yes")
    set_check_in(book, "Yes")
    must("preregister", book, csv_of(folder / "expected.csv", expected), "--yes")
    must("bands", book, "--yes")
    must("pair", book, "--yes")
    for extra in folder.glob("event*"):  # the journal starts with the desk's entries
        if extra != book:
            shutil.rmtree(extra) if extra.is_dir() else extra.unlink()
    return book, [["checkin", "--player", p[0]] for p in expected] + [
        ["register", "--aga", p[0]] for p in walk_ins
    ]


def entries_for(count: int, desk: list[list[object]], boards: int) -> list[list[object]]:
    """``count`` entries: 2/5 check-ins, 2/5 registrations, 1/5 results, shuffled."""
    rng = random.Random(count)
    checkins = [e for e in desk if e[0] == "checkin"][: count * 2 // 5]
    registers = [e for e in desk if e[0] == "register"][: count * 2 // 5]
    results: list[list[object]] = []
    for n in range(count - len(checkins) - len(registers)):
        board = n % boards + 1
        results.append(["result", "--board", board, "--result", "BW"[(n // boards) % 2]])
    chosen = checkins + registers + results
    rng.shuffle(chosen)
    return chosen


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def parts_of(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        return {info.filename: package.read(info) for info in package.infolist()}


class JournalClock:
    """The seconds this checkout's journal spends keeping states and appending lines."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def wrap(self, owner: Any, name: str) -> None:
        original: Callable[..., Any] = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start

        setattr(owner, name, timed)


def new_members(history: Path, before: str | None, after: str) -> Counter[str]:
    """Bytes of the parts the state ``after`` added to the journal, by member (read from
    the manifests: a chunked member's new chunks, another member's new part), and the
    manifest itself."""

    def pieces(state: str | None) -> tuple[dict[str, set[str]], dict[str, list[Any]]]:
        path = history / "states" / f"{state}.json.gz"
        if state is None or not path.is_file():
            return {}, {}
        manifest = json.loads(gzip.decompress(path.read_bytes()))
        named = {
            str(p.get("name", "(whole file)")): set(p.get("chunks") or [p["part"]])
            for p in manifest["pieces"]
            if isinstance(p, dict)
        }
        return named, manifest.get("packed", {})

    (old, _), (new, packed) = pieces(before), pieces(after)
    seen = set().union(*old.values()) if old else set()
    found: Counter[str] = Counter()
    for name, parts in new.items():
        for part in parts - seen:
            path = history / "parts" / part[:2] / part[2:]
            if part in packed:
                found[name] += packed[part][2]
            elif path.is_file():
                found[name] += path.stat().st_size
    manifest = history / "states" / f"{after}.json.gz"
    if manifest.is_file():
        found["(the manifest)"] += manifest.stat().st_size
    return found


def run_size(
    size: int, count: int, clock: JournalClock | None, keep: Path | None = None
) -> dict[str, Any]:
    from addin.journal.store import Journal

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if keep is not None:
            folder = keep / f"{size}"
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
        started = time.perf_counter()
        book, desk = make_event(folder, size)
        setup = time.perf_counter() - started
        history = folder / "event.history"
        plan = entries_for(count, desk, size // 2)
        grown: list[int] = []
        seconds: list[float] = []
        journal_seconds: list[float] = []
        kept: list[bytes] = []
        where: Counter[str] = Counter()
        refused = 0
        for n, entry in enumerate(plan):
            if n >= count - UNDONE:
                kept.append(book.read_bytes())
            size_before = folder_bytes(history) if history.exists() else 0
            if clock is not None:
                clock.seconds = 0.0
            start = time.perf_counter()
            code, said = cli(entry[0], book, *entry[1:], "--yes")
            seconds.append(time.perf_counter() - start)
            if clock is not None:
                journal_seconds.append(clock.seconds)
            if code != 0:
                refused += 1
                print(f"  refused: {' '.join(map(str, entry))}: {said.strip()}", file=sys.stderr)
            grown.append(folder_bytes(history) - size_before)
            if code == 0:
                last = Journal.load(book).entries[-1]
                if n > 0:  # the first entry keeps the whole workbook once: its "before"
                    where += new_members(history, last.before, last.after)
        workbook = book.stat().st_size
        total = folder_bytes(history)
        undo_ok, undo_seconds = 0, []
        for expected in reversed(kept):
            start = time.perf_counter()
            code, said = cli("undo", book, "--yes")
            undo_seconds.append(time.perf_counter() - start)
            if code == 0 and parts_of(book.read_bytes()) == parts_of(expected):
                undo_ok += 1
            else:
                print(f"  undo differs or refused: {said.strip()}", file=sys.stderr)
        return {
            "size": size,
            "setup": setup,
            "workbook": workbook,
            "total": total,
            "grown": grown[1:],  # the first entry keeps the workbook whole: said apart
            "first": grown[0],
            "seconds": seconds,
            "journal_seconds": journal_seconds,
            "where": where,
            "refused": refused,
            "undo_ok": undo_ok,
            "undone": len(kept),
            "undo_seconds": undo_seconds,
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[60, 300, 800])
    parser.add_argument("--entries", type=int, default=200)
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose code runs")
    parser.add_argument("--target-kb", type=float, default=64)
    parser.add_argument("--keep", type=Path, help="keep each size's event in this folder")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.code.resolve()))
    import addin

    print(f"code: {Path(addin.__file__).parent}")
    clock: JournalClock | None = None
    from addin.journal import store

    if hasattr(store.Journal, "keep_state"):
        clock = JournalClock()
        clock.wrap(store.Journal, "keep_state")
        clock.wrap(store.Journal, "append")
    results = []
    for size in args.sizes:
        r = run_size(size, args.entries, clock, args.keep)
        results.append(r)
        kb = [g / 1024 for g in r["grown"]]
        ms = [s * 1000 for s in r["seconds"]]
        print(
            f"{size} players ({r['workbook'] / 1e6:.2f} MB workbook, setup {r['setup']:.0f} s): "
            f"{args.entries} entries, {r['refused']} refused; journal {r['total'] / 1e6:.1f} MB "
            f"(the first entry {r['first'] / 1e6:.2f} MB: the workbook as it was, kept once)"
        )
        print(
            f"  bytes per entry: median {statistics.median(kb):.1f} KB, "
            f"p95 {percentile(kb, 95):.1f} KB, max {max(kb):.1f} KB"
        )
        line = (
            f"  seconds per entry: median {statistics.median(ms):.0f} ms, "
            f"p95 {percentile(ms, 95):.0f} ms"
        )
        if r["journal_seconds"]:
            js = [s * 1000 for s in r["journal_seconds"]]
            line += (
                f"; the journal's share: median {statistics.median(js):.1f} ms, "
                f"p95 {percentile(js, 95):.1f} ms"
            )
        print(line)
        if r["where"]:
            spent = sum(r["where"].values())
            top = ", ".join(
                f"{name} {b / len(r['grown']) / 1024:.1f} KB ({b / spent:.0%})"
                for name, b in r["where"].most_common(5)
            )
            print(f"  new parts per entry, by member: {top}")
        us = [s * 1000 for s in r["undo_seconds"]]
        print(
            f"  undo of the last {r['undone']} entries: {r['undo_ok']} gave back the state "
            f"before their entry, part for part; median {statistics.median(us):.0f} ms"
        )
    failed = any(r["undo_ok"] != r["undone"] for r in results)
    if clock is not None and len(results) > 1:
        first, last = results[0], results[-1]
        small = statistics.median(first["grown"])
        large = statistics.median(last["grown"])
        ratio = large / small if small else float("inf")
        print(
            f"at {last['size']} players {large / 1024:.1f} KB per entry (target <= "
            f"{args.target_kb:.0f} KB), {ratio:.2f}x the {first['size']} players' (target <= 3x)"
        )
        failed |= large / 1024 > args.target_kb or ratio > 3
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
