"""Pairing cost against history: ``python benchmarks/bench_rounds.py [--players 2000]``.

Plays a whole tournament (default 2,000 players, 10 rounds) through the engine, results
drawn from a seeded RNG by rating (:mod:`addin.core.pairing.simulate`), and times the
pairing of every round twice, in the same run and on the same input: the engine as it is
and its reference path that recomputes everything and solves the whole field every pass
(``reuse=False, local=False``, the engine before issue 18). The two pairings must be of the
same quality, tier by tier (the benchmark stops if the engine's is worse in any tier, and
says whether the games themselves are identical). The baseline is round 2 of the same path
(the first round with a history): each round's cost is printed as a ratio to it.
Times are CPU seconds of this process (the machine is shared), the best of ``--runs``, the
rounds timed in turn within each run (see :func:`play_tournament`).
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from addin.core.model import Round, Settings
from addin.core.pairing import PairingInput, PairingResult, pair_round
from addin.core.pairing.simulate import SimTournament, make_players, play

TARGET = 1.3
"""Round 10 may cost at most this many times round 2 (issue 18)."""
BASELINE_ROUND = 2


def timed(inp: PairingInput, reference: bool) -> tuple[float, PairingResult]:
    gc.collect()  # every timing starts from the same heap, not from the last one's garbage
    start = time.process_time()
    result = pair_round(inp, reuse=not reference, local=not reference)
    return time.process_time() - start, result


Row = tuple[int, float, float, str]
"""(round, seconds now, seconds of the reference path, graph used and games)."""


def compare(number: int, now: PairingResult, reference: PairingResult) -> str:
    """How the engine's pairing compares with the reference's; stops when it is worse."""
    if (now.games, now.byes) == (reference.games, reference.byes):
        return "identical"
    ours = [total for _, total in now.stats.tier_totals]
    theirs = [total for _, total in reference.stats.tier_totals]
    if ours > theirs:
        worse = next(
            name for (name, a), b in zip(now.stats.tier_totals, theirs, strict=True) if a != b
        )
        raise SystemExit(f"round {number}: the pairing is worse than the reference's in {worse}")
    return "same quality" if ours == theirs else "better"


def play_tournament(players: int, rounds: int, seed: int, runs: int) -> list[Row]:
    """One :data:`Row` per round.

    The tournament is played once (each round paired by the engine, results drawn), then
    every round of both paths is timed ``runs`` times, the rounds interleaved run by run,
    so that a busy moment of the shared machine slows all rounds alike rather than one."""
    rng = random.Random(seed)
    t = SimTournament(make_players(players, rng), Settings(rounds=rounds, seed=seed))
    ratings = t.ratings
    inputs: list[PairingInput] = []
    notes: list[str] = []
    for number in range(1, rounds + 1):
        inp = t.input_for(number)
        _, reference = timed(inp, True)
        _, result = timed(inp, False)
        same = compare(number, result, reference)
        s = result.stats
        notes.append(f"{s.graph}, {s.solves} solves, {s.edges} edges; {same}")
        games = tuple(play(g, ratings, rng) for g in result.games)
        t.rounds.append(Round(number, games, result.byes))
        inputs.append(inp)
    now = [float("inf")] * rounds
    before = [float("inf")] * rounds
    for run in range(runs):
        for k, inp in enumerate(inputs):
            before[k] = min(before[k], timed(inp, True)[0])
            now[k] = min(now[k], timed(inp, False)[0])
        print(f"run {run + 1} of {runs} timed", file=sys.stderr)
    return [(k + 1, now[k], before[k], notes[k]) for k in range(rounds)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3, help="best of this many timings")
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {args.players} players, "
        f"{args.rounds} rounds, seed {args.seed}; CPU s, best of {args.runs}; "
        f"baseline: round {BASELINE_ROUND} of the same path\n"
    )
    rows = play_tournament(args.players, args.rounds, args.seed, args.runs)
    base_now, base_before = rows[BASELINE_ROUND - 1][1], rows[BASELINE_ROUND - 1][2]
    print("| round | before s | x round 2 | now s | x round 2 | now / before | graph |")
    print("|------:|---------:|----------:|------:|----------:|-------------:|:------|")
    for number, now, before, graph in rows:
        print(
            f"| {number} | {before:.2f} | {before / base_before:.2f} | {now:.2f} "
            f"| {now / base_now:.2f} | {now / before:.2f} | {graph} |"
        )
    last = args.rounds
    ratio, old = rows[-1][1] / base_now, rows[-1][2] / base_before
    verdict = "within" if ratio <= TARGET else "ABOVE"
    print(
        f"\nround {last} / round {BASELINE_ROUND}: {ratio:.2f} now, {old:.2f} before "
        f"({verdict} the {TARGET}x target)"
    )


if __name__ == "__main__":
    main()
