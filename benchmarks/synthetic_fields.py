"""Synthetic McMahon fields for ``bench_quality.py --synthetic``, as OpenGotha files.

An 8-round event of N players (random AGA ratings, one-rank McMahon bands under a 5d bar,
2 % voluntary byes a round, clubs and states; :func:`addin.core.pairing.simulate.simulate`
with a fixed seed), whose rounds 1-5 are paired by this project's engine and played with
results drawn from the rating difference. Every game is even (no handicap), so that every
game weighs on colour balance, the measure these fields were made to compare.

The file is the state each round is paired from, by this project and by OpenGotha alike:
round r's players are those the file has in round r, its history the file's rounds before
r. The file asks for OpenGotha's McMahon default of club avoidance (a score difference of
up to 3 rather than a same-club game), which this project pairs as its EGF style; its own
AGA pairing is measured beside it, as on the real files.

``python benchmarks/synthetic_fields.py DIR [SIZE ...]`` writes ``synthetic-N.xml`` files.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from addin.core.model import Band, HandicapPolicy, Settings, Tournament
from addin.core.pairing.simulate import initial_score, simulate
from addin.core.ratings import rank_floor
from addin.formats.opengotha_write import write_opengotha

SIZES = (300, 700, 2000)
TOTAL_ROUNDS = 8
PLAYED = 5
SEED = 42
BYES = 0.02
EGF_POINTS = 3


def synthetic_event(players: int, seed: int = SEED) -> Tournament:
    """The event after rounds 1-5, paired by this project's engine with its defaults."""
    even = Settings(rounds=TOTAL_ROUNDS, seed=seed, handicap_policy=HandicapPolicy.NONE)
    sim = simulate(players, PLAYED, total_rounds=TOTAL_ROUNDS, seed=seed, byes=BYES, settings=even)
    scored = {
        p.aga_id: replace(p, initial_score=initial_score(p.rating or 0.0)) for p in sim.players
    }
    settings = replace(
        sim.settings,
        name=f"synthetic-{players}",
        bar=5.0,
        avoid_same_club=True,
        avoidance_points=EGF_POINTS,
    )
    # the bands simulate() scores by: one a rank from the 5d bar down to the 11k floor
    bands = [Band(1, "5d", 5.0), Band(2, "11k", rank_floor("11k"), separation=1)]
    return Tournament(settings=settings, players=scored, bands=bands, rounds=list(sim.rounds))


def write_field(directory: Path, players: int, seed: int = SEED) -> Path:
    """``directory/synthetic-N.xml``, the OpenGotha file of :func:`synthetic_event`."""
    written = write_opengotha(synthetic_event(players, seed))
    path = directory / f"synthetic-{players}.xml"
    directory.mkdir(parents=True, exist_ok=True)
    path.write_bytes(written.data)
    return path


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit("usage: synthetic_fields.py DIR [SIZE ...]")
    sizes = [int(a) for a in sys.argv[2:]] or list(SIZES)
    for players in sizes:
        print(write_field(Path(sys.argv[1]), players))


if __name__ == "__main__":
    main()
