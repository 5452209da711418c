"""A US Go Congress's worth of entries: ``python benchmarks/bench_congress.py [--players 600]``.

The event: a workbook holding the real 22,410-member TDListA (tests/data), Check-in on,
``--players`` (600) members of the list pre-registered (Not arrived) and banded. Then, with
the stations' writer running as ``serve`` runs it (``python -m addin.station BOOK``, a
process of its own):

* check-in: ``--desks`` (4) registration desks send a check-in for every player, each desk
  its share, one entry after another (kept on disk as the server keeps a desk's entry);
* ``--rounds`` (6) rounds: the TD runs ``pair``; a results desk enters every board's result
  from its slip, one slip at a time (each slip its own entry, sent once the one before is
  kept); the TD runs ``standings`` once the round's results are written;
* at the end the TD runs ``undo`` (the last result taken back) and ``check``.

It prints the time of each ``pair`` and ``standings``, the writer's time per entry
(check-ins, results), how long an entry waited to be written (p50, p95), the journal's
total size on disk (``NAME.history``), the time of ``undo`` and what it took back. Exit code
1 when an entry is not written exactly once, ``undo`` does not take back the last result,
or ``check`` fails.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_stations import addin, csv_of, members, percentile, set_check_in  # noqa: E402

MAX_SECONDS = 7200
FINAL = {"written", "refused", "declined", "answered"}


def must(*args: object) -> float:
    """``python -m addin ARGS``; its seconds (the run stops when it fails)."""
    code, seconds, err = addin(*args)
    if code != 0:
        raise SystemExit(f"{args[0]} failed ({code}): {err[-500:]}")
    return seconds


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


class Writer:
    """The stations' writer, as ``serve`` starts it: a process of its own."""

    def __init__(self, book: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "addin.station", str(book), "--parent", str(os.getpid())],
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=60)


class Desks:
    """The stations' entries, kept as the server keeps them; their outcomes as written."""

    def __init__(self, book: Path) -> None:
        from addin.station.entries import EntryQueue, stations_folder

        self.queue = EntryQueue(stations_folder(book))
        self.sent: dict[str, float] = {}
        self.decided: dict[str, float] = {}

    def send(self, station: str, action: str, params: dict[str, object]) -> str:
        from addin.station.entries import Entry, new_id

        entry = Entry(new_id(), station, action, params)
        self.queue.submit(entry)
        self.sent[entry.id] = time.monotonic()
        return entry.id

    def wait(self, ids: list[str], deadline: float) -> None:
        """Until every entry of ``ids`` is decided (its outcome on disk)."""
        waiting = set(ids)
        while waiting:
            if time.monotonic() > deadline:
                raise SystemExit(f"{len(waiting)} entries still waiting at the deadline")
            now = time.monotonic()
            for entry_id in list(waiting):
                state = self.queue.outcome(entry_id).state
                if state in FINAL or state == "asks":
                    self.decided[entry_id] = now
                    waiting.discard(entry_id)
            time.sleep(0.05)

    def waits(self, ids: list[str]) -> list[float]:
        return [self.decided[i] - self.sent[i] for i in ids]

    def states(self, ids: list[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        for entry_id in ids:
            state = self.queue.outcome(entry_id).state
            found[state] = found.get(state, 0) + 1
        return found


def boards_of(book: Path, number: int) -> list[int]:
    from python_calamine import CalamineWorkbook

    rows = CalamineWorkbook.from_path(str(book)).get_sheet_by_name(f"Round {number}").to_python()
    at = rows[0].index("Board")
    return [int(float(str(r[at]))) for r in rows[1:] if r[at] not in ("", None)]


def result_of(book: Path, number: int, board: int) -> str:
    from python_calamine import CalamineWorkbook

    rows = CalamineWorkbook.from_path(str(book)).get_sheet_by_name(f"Round {number}").to_python()
    at, result = rows[0].index("Board"), rows[0].index("Result")
    for row in rows[1:]:
        if row[at] not in ("", None) and int(float(str(row[at]))) == board:
            return str(row[result])
    raise SystemExit(f"no board {board} in round {number}")


def logged_ids(book: Path) -> list[str]:
    from python_calamine import CalamineWorkbook

    from addin.store import entries_in

    rows = CalamineWorkbook.from_path(str(book)).get_sheet_by_name("Log").to_python()
    found: list[str] = []
    for row in rows[1:]:
        found += sorted(entries_in([str(row[3])]))
    return found


def take_back(book: Path, number: int, board: int, failures: list[str]) -> str:
    """``undo`` of the last entry (the round's last result); what it says it did."""
    before = result_of(book, number, board)
    seconds = must("undo", book, "--yes")
    after = result_of(book, number, board)
    if not before or after:
        failures.append(f"undo did not take back round {number} board {board}: {after!r}")
    return f"undo of the last entry: {seconds:.1f} s (round {number} board {board}: " + (
        f"{before!r} -> {after!r})"
    )


def describe(label: str, seconds: list[float]) -> str:
    if not seconds:
        return f"{label}: none"
    return (
        f"{label}: {len(seconds)}, p50 {statistics.median(seconds):.2f} s, "
        f"p95 {percentile(seconds, 95):.2f} s, max {max(seconds):.2f} s"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--desks", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5400, help="the most it runs")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.seconds > MAX_SECONDS:
        parser.error(f"at most {MAX_SECONDS} seconds")
    rng = random.Random(args.seed)
    deadline = time.monotonic() + args.seconds
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        book = folder / "congress.xlsx"
        people = members(args.players)
        started = time.monotonic()
        must("new", book, "--name", "Bench Congress", "--start", "2026-07-04",
             "--rounds", args.rounds)  # fmt: skip
        must("import-tdlista", book, ROOT / "tests" / "data" / "tdlista" / "tdlista-snapshot.txt")
        set_check_in(book, "Yes")
        must("preregister", book, csv_of(folder / "congress.csv", people), "--yes")
        must("bands", book, "--yes")
        setup = time.monotonic() - started
        history = book.with_name(f"{book.stem}.history")
        journal_before = folder_size(history)
        print(f"{args.players} players of the real TDListA, {args.rounds} rounds "
              f"(setup {setup:.0f} s; journal {journal_before / 1e6:.1f} MB)")  # fmt: skip

        desks = Desks(book)
        writer = Writer(book)
        failures: list[str] = []
        written: list[str] = []
        try:
            began = time.monotonic()
            checkins = [
                desks.send(f"Desk {i % args.desks + 1}", "checkin", {"player": str(p[0])})
                for i, p in enumerate(people)
            ]
            desks.wait(checkins, deadline)
            took = time.monotonic() - began
            states = desks.states(checkins)
            written += [i for i in checkins if desks.queue.outcome(i).state == "written"]
            each = took / len(checkins) * 1000
            print(f"check-in: {len(checkins)} entries from {args.desks} desks written in "
                  f"{took:.1f} s ({each:.0f} ms an entry); {states}")  # fmt: skip
            print("  " + describe("written after sent", desks.waits(checkins)))
            if states.get("written") != len(checkins):
                failures.append(f"check-in: {states}")

            pairs: list[float] = []
            standings: list[float] = []
            result_waits: list[float] = []
            result_times: list[float] = []
            undone, taken_back = "", ""
            for number in range(1, args.rounds + 1):
                pairs.append(must("pair", book, "--yes"))
                boards = boards_of(book, number)
                began = time.monotonic()
                slips = []
                for board in boards:  # one slip at a time: the next once this one is kept
                    result = rng.choice(["W+", "B+"])
                    params = {"round": number, "board": board, "result": result,
                              "if_blank": "yes"}  # fmt: skip
                    slips.append(desks.send("Results", "result", params))
                desks.wait(slips, deadline)
                took = time.monotonic() - began
                result_times.append(took / max(1, len(slips)))
                result_waits += desks.waits(slips)
                states = desks.states(slips)
                if states.get("written") != len(slips):
                    failures.append(f"round {number} results: {states}")
                written += [i for i in slips if desks.queue.outcome(i).state == "written"]
                if number == args.rounds:  # the TD takes back the last entry: a result
                    undone = take_back(book, number, boards[-1], failures)
                    taken_back = slips[-1]
                standings.append(must("standings", book))
                print(f"round {number}: pair {pairs[-1]:.1f} s; {len(slips)} results written "
                      f"in {took:.1f} s ({result_times[-1] * 1000:.0f} ms a result); "
                      f"standings {standings[-1]:.1f} s")  # fmt: skip
        finally:
            writer.stop()

        print(describe("results written after sent", result_waits))
        print(f"pair: mean {statistics.mean(pairs):.1f} s, max {max(pairs):.1f} s; "
              f"standings: mean {statistics.mean(standings):.1f} s; result: mean "
              f"{statistics.mean(result_times) * 1000:.0f} ms of the writer's time")  # fmt: skip
        ids = logged_ids(book)
        doubled = [i for i in written if ids.count(i) > 1]
        lost = [i for i in written if i not in ids and i != taken_back]
        print(f"entries written: {len(written)}; lost: {len(lost)}, doubled: {len(doubled)}; "
              f"the last taken back by undo: {taken_back not in ids}")  # fmt: skip
        if taken_back in ids:
            failures.append("the entry undo took back is still in the Log")
        failures += [f"lost {i}" for i in lost] + [f"doubled {i}" for i in doubled]

        from addin.journal.store import Journal

        count = len(Journal.load(book).entries)  # either format: the journal reads both
        size = folder_size(history)
        each = (size - journal_before) / max(1, len(written)) / 1e3
        print(f"journal: {size / 1e6:.1f} MB on disk for {count} entries "
              f"({each:.0f} KB an entry written)")  # fmt: skip

        print(undone)
        code, seconds, err = addin("check", book)
        print(f"check: exit {code} ({seconds:.1f} s)")
        if code != 0:
            failures.append(f"check: {err[-300:]}")
    for failure in failures[:20]:
        print("FAILED:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
