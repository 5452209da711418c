"""Pairing engine benchmark: ``python benchmarks/bench_pairing.py [--quick]``.

Builds realistic simulated tournaments (random AGA ratings, one-rank McMahon bands,
5 rounds paired by the engine with results drawn from the rating difference), then times
the pairing of round 6 of 10 (median of a few runs) against the targets, measures peak
memory at 2,000 players, and compares with the networkx complete-graph baseline at 400
players. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import platform
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from addin.core.pairing import PairingInput, pair_round
from addin.core.pairing.simulate import simulate

TARGETS = {100: 0.2, 700: 1.0, 2000: 3.0}
"""Seconds allowed for one pairing (pure core, 2-core machine)."""
BASELINE_PLAYERS = 400
PLAYED = 5
TOTAL_ROUNDS = 10


def field(players: int, seed: int = 1) -> PairingInput:
    t = simulate(players, PLAYED, total_rounds=TOTAL_ROUNDS, seed=seed, byes=0.02, drops=0.01)
    return t.input_for(PLAYED + 1)


def median_time(inp: PairingInput, runs: int, **kwargs: object) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = pair_round(inp, **kwargs)  # type: ignore[arg-type]
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def peak_memory(inp: PairingInput) -> float:
    """Peak Python memory of one pairing, MiB (tracemalloc)."""
    tracemalloc.start()
    pair_round(inp)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the networkx baseline")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, round 6 of 10\n")
    print("| players | graph | edges | solves | median s | target s | within |")
    print("|--------:|:------|------:|-------:|---------:|---------:|:------:|")
    fields = {}
    for players in (*TARGETS, BASELINE_PLAYERS):
        fields[players] = inp = field(players)
        seconds, result = median_time(inp, args.runs)
        stats = result.stats  # type: ignore[attr-defined]
        target = TARGETS.get(players)
        within = "" if target is None else ("yes" if seconds <= target else "NO")
        print(
            f"| {players} | {stats.graph} | {stats.edges} | {stats.solves} | {seconds:.3f} "
            f"| {target if target is not None else '-'} | {within} |"
        )
    print(
        f"\nPeak Python memory of one pairing at 2,000 players: {peak_memory(fields[2000]):.0f} MiB"
    )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"Peak resident memory of this whole process: {rss:.0f} MiB")
    if not args.quick:
        ours, _ = median_time(fields[BASELINE_PLAYERS], args.runs)
        base, _ = median_time(fields[BASELINE_PLAYERS], 1, backend="networkx", graph="complete")
        print(
            f"\nBaseline at {BASELINE_PLAYERS} players: networkx on the complete graph "
            f"{base:.2f} s, this engine {ours:.3f} s: {base / ours:.0f}x faster"
        )


if __name__ == "__main__":
    main()
