"""Pairing cost against history: ``python benchmarks/bench_rounds.py [--players 2000]``.

Plays a whole tournament (default 2,000 players, 10 rounds) through the engine, results
drawn from a seeded RNG by rating (:mod:`addin.core.pairing.simulate`), and times the
pairing of every round. The baseline, measured in the same run, is round 2 (the first
round with a history): each round's cost is printed as a ratio to it. Times are CPU
seconds of this process (the machine is shared; wall time is printed beside them).
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from addin.core.model import Round, Settings
from addin.core.pairing import pair_round
from addin.core.pairing.simulate import SimTournament, make_players, play

TARGET = 1.3
"""Round 10 may cost at most this many times round 2 (issue 18)."""
BASELINE_ROUND = 2


def play_tournament(players: int, rounds: int, seed: int) -> list[tuple[int, float, float, str]]:
    """(round, CPU s, wall s, graph/solves/edges) of every round's pairing."""
    rng = random.Random(seed)
    t = SimTournament(make_players(players, rng), Settings(rounds=rounds, seed=seed))
    ratings = t.ratings
    rows = []
    for number in range(1, rounds + 1):
        inp = t.input_for(number)
        cpu, wall = time.process_time(), time.perf_counter()
        result = pair_round(inp)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        s = result.stats
        rows.append((number, cpu, wall, f"{s.graph}, {s.solves} solves, {s.edges} edges"))
        games = tuple(play(g, ratings, rng) for g in result.games)
        t.rounds.append(Round(number, games, result.byes))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {args.players} players, "
        f"{args.rounds} rounds, seed {args.seed}; baseline: round {BASELINE_ROUND}\n"
    )
    rows = play_tournament(args.players, args.rounds, args.seed)
    base = rows[BASELINE_ROUND - 1][1]
    print("| round | CPU s | wall s | x round 2 | graph |")
    print("|------:|------:|-------:|----------:|:------|")
    for number, cpu, wall, graph in rows:
        print(f"| {number} | {cpu:.2f} | {wall:.2f} | {cpu / base:.2f} | {graph} |")
    ratio = rows[-1][1] / base
    verdict = "within" if ratio <= TARGET else "ABOVE"
    last = args.rounds
    print(f"\nround {last} / round {BASELINE_ROUND}: {ratio:.2f} ({verdict} the {TARGET}x target)")


if __name__ == "__main__":
    main()
