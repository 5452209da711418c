"""Time the TDListA import against the cheapest possible reading of the same file.

The baseline decodes the bytes and splits every line at its tabs, nothing more: the
floor any parser pays. The ratio says what typing, validation and the members cost
on top. Both run in the same process, so the ratio is comparable across machines.

    python benchmarks/bench_tdlista.py [--runs N] [--file PATH]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from addin.core.lookup import MemberIndex  # noqa: E402
from addin.formats.tdlista import parse_tdlista  # noqa: E402

Case = tuple[str, Callable[[bytes], int]]
SNAPSHOT = ROOT / "tests" / "data" / "tdlista" / "tdlista-snapshot.txt"


def naive_split(data: bytes) -> int:
    """The baseline: decode, then ``line.split('\\t')`` for every line."""
    rows = [line.split("\t") for line in data.decode("utf-8").splitlines()]
    return len(rows)


def full_parse(data: bytes) -> int:
    return len(parse_tdlista(data).members)


def parse_and_index(data: bytes) -> int:
    return len(MemberIndex(parse_tdlista(data).members))


def timings(cases: list[Case], data: bytes, runs: int) -> dict[str, list[float]]:
    """Seconds per run for every case, the cases interleaved round by round.

    Interleaving spreads any background load over all cases alike, which keeps
    the ratio to the baseline honest on a shared machine.
    """
    seconds: dict[str, list[float]] = {name: [] for name, _ in cases}
    for _ in range(runs):
        for name, run in cases:
            start = time.perf_counter()
            run(data)
            seconds[name].append(time.perf_counter() - start)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--file", type=Path, default=SNAPSHOT)
    args = parser.parse_args()
    data = args.file.read_bytes()
    lines = data.count(b"\n")
    cases: list[Case] = [
        ("naive split (baseline)", naive_split),
        ("parse_tdlista", full_parse),
        ("parse_tdlista + MemberIndex", parse_and_index),
    ]
    seconds = timings(cases, data, args.runs)
    baseline = statistics.median(seconds[cases[0][0]])
    print(f"{args.file.name}: {lines:,} lines, {len(data):,} bytes, {args.runs} interleaved runs")
    print(f"{'case':<30} {'median ms':>10} {'min ms':>8} {'x baseline':>11} {'us/line':>8}")
    for name, values in seconds.items():
        median = statistics.median(values)
        print(
            f"{name:<30} {median * 1e3:>10.1f} {min(values) * 1e3:>8.1f} "
            f"{median / baseline:>11.1f} {median / lines * 1e6:>8.2f}"
        )


if __name__ == "__main__":
    main()
