"""The rating projection beside the AGA's own program: ``python benchmarks/bench_ratings.py
[--save] [--speed]``.

``AGA_RATINGS_GIT`` names a clone of hauensteina/aga-ratings (the AGA's BayRate with a CSV front
end, ``bayrate/bayrate_csv``; GPLv3): the benchmark builds it (g++, libgsl-dev,
libboost-date-time-dev) and runs it on every event, as an oracle only: nothing of its code is
in this project. Without the clone, the AGA program's figures kept in tests/data/ratings are
compared instead (what tests/test_rating_projection.py checks).

Events (each saved with ``--save`` to tests/data/ratings/NAME.json: inputs and the AGA
program's figures):

* ``demo-60``, ``demo-300``: the demo's events (``python -m addin demo``), 5 rounds;
* ``handicap-komi``: 80 players, 5 rounds, handicap games of 0 to 9 stones at komi -9 to 9;
* ``new-and-promoted``: 60 players, 5 rounds, a third new members (no rating), a fifth
  promoted by 1 to 5 stones (kyu to dan among them);
* ``forfeits-byes``: 40 players, 5 rounds, forfeits, jigo, no-result games and byes (not rated);
* ``aga-report-2014-02``: the Seattle Go Center's February 2014 AGA report (tests/data/aga-xml),
  its players' ratings, sigmas and dates from the real TDListA snapshot (tests/data/tdlista).

The AGA's CSV front end reads no rating date (it never widens a sigma for time), so the six
events are compared with the dates left out (``project(..., on=None)``). A seventh,
``rating-dates`` (60 players rated 0 to 3,000 days before the event), checks the widening: it is
run by a second build of the front end whose only change is one line that reads the rating
date it already receives (``DATED_PATCH``), as the AGA's database version reads its own.

``--speed``: a 600-player, 6-round event's projection timed (least of 3), beside the AGA
program's on the same event.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from addin.core.model import Result
from addin.core.rating_projection import Entrant, RatedGame, project

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "ratings"
RATING_TOLERANCE = 0.01
SIGMA_TOLERANCE = 0.005


EVENT_DAY = date(2026, 11, 28)
"""The day of the ``rating-dates`` event (the others' rating dates are unknown)."""


@dataclass
class Event:
    name: str
    entrants: list[Entrant]
    games: list[RatedGame]
    on: date | None = None
    """The event's day, when its players' rating dates count."""

    def to_json(self, aga: dict[int, tuple[float, float]] | None) -> dict[str, object]:
        return {
            "name": self.name,
            "date": self.on.isoformat() if self.on else None,
            "entrants": [
                [e.player, e.seed, e.rating, e.sigma, e.rated_on and e.rated_on.isoformat()]
                for e in self.entrants
            ],
            "games": [[g.white, g.black, g.handicap, g.komi, g.white_wins] for g in self.games],
            "aga": {str(p): list(v) for p, v in sorted((aga or {}).items())},
        }


def event_from_json(data: dict) -> tuple[Event, dict[int, tuple[float, float]]]:
    entrants = [
        Entrant(int(p), s, r, sg, date.fromisoformat(d) if d else None)
        for p, s, r, sg, d in data["entrants"]
    ]
    games = [RatedGame(w, b, h, k, bool(ww)) for w, b, h, k, ww in data["games"]]
    aga = {int(p): (v[0], v[1]) for p, v in data["aga"].items()}
    on = date.fromisoformat(data["date"]) if data.get("date") else None
    return Event(data["name"], entrants, games, on), aga


# --- the AGA program ------------------------------------------------------------------------


DATED_PATCH = (
    "        p.initial_rating = stof( rating);\n",
    "        p.initial_rating = stof( rating);\n"
    "        p.rating_date = bg::from_string( rating_date);\n",
)
"""The one line the dated build adds: the front end keeps the rating date it reads."""


def build_oracle(clone: Path, into: Path, *, dated: bool = False) -> Path:
    """bayrate_csv built from the clone's bayrate/ sources (dynamically linked); ``dated``:
    with ``DATED_PATCH``."""
    src = into / ("bayrate-dated" if dated else "bayrate")
    shutil.copytree(clone / "bayrate", src, ignore=shutil.ignore_patterns("*.o", "bayrate_csv"))
    if dated:
        code = (src / "collection.cpp").read_text()
        if DATED_PATCH[0] not in code:
            raise SystemExit("the front end's storePlayer changed: DATED_PATCH does not apply")
        (src / "collection.cpp").write_text(code.replace(*DATED_PATCH))
    sources = ["collection.cpp", "game.cpp", "player.cpp", "bayrate_csv.cpp"]
    libs = ["-lgsl", "-lgslcblas", "-lm", "-lboost_date_time"]
    subprocess.run(["g++", "-O2", *sources, *libs, "-o", "bayrate_csv"], cwd=src, check=True)
    return src / "bayrate_csv"


def _rank(seed: float) -> str:
    return f"{int(seed - 0.5)}D" if seed > 0 else f"{int(-seed - 0.5)}K"


def run_oracle(
    oracle: Path, event: Event, work: Path
) -> tuple[dict[int, tuple[float, float]], float]:
    """The AGA program's new rating and sigma of every player, and its seconds."""
    by_id = {e.player: e for e in event.entrants}
    header = (
        "pb_id,pb_name,pb_rank,pb_rating,pb_sigma,pb_rating_date,"
        "pw_id,pw_name,pw_rank,pw_rating,pw_sigma,pw_rating_date,komi,handicap,result"
    )
    lines = [header]

    day = event.on or EVENT_DAY

    def side(p: int) -> str:
        e = by_id[p]
        rated = (e.rated_on or day).isoformat()
        return f"{p},P{p},{_rank(e.seed)},{e.rating or 0},{e.sigma or 0},{rated}"

    for g in event.games:
        result = "W+R" if g.white_wins else "B+R"
        lines.append(f"{side(g.black)},{side(g.white)},{g.komi},{g.handicap},{result}")
    infile, outfile = work / f"{event.name}.csv", work / f"{event.name}.out.csv"
    infile.write_text("\n".join(lines) + "\n")
    start = time.perf_counter()
    done = subprocess.run(
        [str(oracle), "--in", str(infile), "--out", str(outfile), "--tournament_date",
         day.isoformat()],
        capture_output=True,
        text=True,
    )  # fmt: skip
    seconds = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"the AGA program failed on {event.name}: {done.stderr[-500:]}")
    if "0 simplex" not in done.stdout:
        print(f"  note: the AGA program fell back to its simplex search: {done.stdout.strip()}")
    found = {}
    for line in outfile.read_text().splitlines()[1:]:
        pid, _, _, rating, sigma = line.split(",")
        found[int(pid)] = (float(rating), float(sigma))
    return found, seconds


# --- the events ----------------------------------------------------------------------------


def _workbook_event(name: str, path: Path) -> Event:
    from addin.actions.ratings import read_inputs
    from addin.workbook import book
    from addin.workbook.openpyxl_gateway import OpenpyxlGateway

    gw = OpenpyxlGateway.open(path)
    got = read_inputs(gw, book.read_book(gw))
    entrants = [Entrant(e.player, e.seed, e.rating, e.sigma) for e in got.entrants]
    return Event(name, entrants, got.games)


def _cli(*args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "addin", *args], cwd=ROOT, capture_output=True, text=True
    )
    if done.returncode not in (0, 3):
        raise SystemExit(f"addin {' '.join(args)} failed: {done.stderr[-1000:]}")


def demo_event(players: int, work: Path) -> Event:
    path = work / f"demo-{players}.xlsx"
    _cli("demo", str(path), "--players", str(players), "--rounds", "5", "--seed", "1")
    return _workbook_event(f"demo-{players}", path)


def report_event(work: Path) -> Event:
    path = work / "report.xlsx"
    _cli("new", str(path), "--yes")
    _cli("import-tdlista", str(path), str(ROOT / "tests/data/tdlista/tdlista-snapshot.txt"),
         "--yes")  # fmt: skip
    _cli("import-aga-xml", str(path), str(ROOT / "tests/data/aga-xml/2014-02.xml"), "--yes")
    return _workbook_event("aga-report-2014-02", path)


def _rating_of(rng: random.Random) -> float:
    r = rng.uniform(-25.0, 6.0)
    return r + 2.0 if r > -1.0 else r  # nothing between -1 and 1


def _seed_of(rating: float) -> float:
    from addin.core.rating_projection import seed_of_rank

    return seed_of_rank(rating)


def synthetic_event(
    name: str,
    players: int,
    rounds: int,
    seed: int,
    *,
    handicaps: bool = False,
    new_share: float = 0.0,
    promoted_share: float = 0.0,
    unrated_share: float = 0.0,
) -> Event:
    """Players paired round by round with a near neighbour by rating, results drawn from the
    ratings' difference; handicap and komi, new members, self-promotions and unrated games
    as asked."""
    rng = random.Random(seed)
    entrants = []
    strength = {}
    for i in range(players):
        pid = 1000 + i
        rating = _rating_of(rng)
        sigma = rng.uniform(0.2, 1.5)
        seed_rank = _seed_of(rating)
        draw = rng.random()
        if draw < new_share:
            entrants.append(Entrant(pid, seed_rank))
        elif draw < new_share + promoted_share:
            stones = rng.choice([1, 2, 3, 4, 5])
            promoted = rating + stones
            if rating < 0 <= promoted or -1 < promoted < 1:
                promoted += 2  # across the gap
            promoted = min(promoted, 8.9)
            entrants.append(Entrant(pid, _seed_of(promoted), rating, sigma))
        else:
            entrants.append(Entrant(pid, seed_rank, rating, sigma))
        strength[pid] = rating + rng.gauss(0, 1.0)
    games = []
    ids = [e.player for e in entrants]
    for _ in range(rounds):
        order = sorted(ids, key=lambda p: strength[p] + rng.gauss(0, 2.0))
        for a, b in zip(order[::2], order[1::2], strict=False):
            if rng.random() < unrated_share:
                continue  # a forfeit, a jigo, a bye or no result: not rated
            white, black = (b, a) if strength[b] >= strength[a] else (a, b)
            if handicaps:
                handicap = rng.choice([0, 0, 2, 3, 4, 5, 6, 7, 8, 9])
                komi = (
                    rng.choice([-9, -5, -1, 0, 5, 6, 7, 9])
                    if handicap == 0
                    else rng.choice([-5, 0, 0, 5, 9])
                )
            else:
                handicap, komi = 0, 7
            edge = strength[white] - strength[black] - (handicap or 0.5)
            white_wins = rng.random() < 0.5 * (1 + edge / (abs(edge) + 1.5))
            games.append(RatedGame(white, black, handicap, komi, white_wins))
    return Event(name, entrants, games)


def dated_event() -> Event:
    """60 players whose ratings are 0 to 3,000 days old on the event's day."""
    rng = random.Random(11)
    event = synthetic_event("rating-dates", 60, 5, 11)
    event.entrants = [
        replace(e, rated_on=EVENT_DAY - timedelta(days=rng.randrange(0, 3000)))
        for e in event.entrants
    ]
    event.on = EVENT_DAY
    return event


def forfeits_event() -> Event:
    """40 players whose workbook-level results include forfeits, jigo, no result and byes:
    only the rated ones reach the projection (``rated_game``), which this checks on the way."""
    from addin.core.model import Game, Rules
    from addin.core.rating_projection import rated_game

    rng = random.Random(5)
    event = synthetic_event("forfeits-byes", 40, 5, 5)
    results = [
        Result.WHITE_WINS, Result.BLACK_WINS, Result.WHITE_WINS_BY_FORFEIT,
        Result.BLACK_WINS_BY_FORFEIT, Result.JIGO, Result.NO_RESULT, Result.DOUBLE_FORFEIT,
    ]  # fmt: skip
    games = []
    for g in event.games:
        result = rng.choices(results, weights=[8, 8, 1, 1, 1, 1, 1])[0]
        rated = rated_game(Game(g.white, g.black, 0, 7.5, result), Rules.AGA)
        if rated is not None:
            games.append(rated)
    event.games = games
    return event


def events(work: Path, names: list[str] | None) -> list[Event]:
    makers = {
        "demo-60": lambda: demo_event(60, work),
        "demo-300": lambda: demo_event(300, work),
        "handicap-komi": lambda: synthetic_event("handicap-komi", 80, 5, 2, handicaps=True),
        "new-and-promoted": lambda: synthetic_event(
            "new-and-promoted", 60, 5, 3, new_share=0.33, promoted_share=0.2
        ),
        "forfeits-byes": forfeits_event,
        "aga-report-2014-02": lambda: report_event(work),
        "rating-dates": dated_event,
    }
    return [make() for name, make in makers.items() if not names or name in names]


# --- the comparison ------------------------------------------------------------------------


def compare(event: Event, aga: dict[int, tuple[float, float]]) -> tuple[float, float, float]:
    """The worst rating and sigma differences from the AGA program's, and our seconds."""
    start = time.perf_counter()
    ours = project(event.entrants, event.games, event.on)
    seconds = time.perf_counter() - start
    worst_r = max(abs(ours[p].rating - r) for p, (r, _) in aga.items())
    worst_s = max(abs(ours[p].sigma - s) for p, (_, s) in aga.items())
    if set(ours) != set(aga):
        raise SystemExit(f"{event.name}: players differ from the AGA program's")
    return worst_r, worst_s, seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--save", action="store_true", help="keep the events in tests/data")
    parser.add_argument("--speed", action="store_true", help="time a 600-player event")
    parser.add_argument("--events", nargs="*", help="only these events")
    args = parser.parse_args()
    clone = os.environ.get("AGA_RATINGS_GIT")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        oracle = build_oracle(Path(clone), work) if clone else None
        dated = build_oracle(Path(clone), work, dated=True) if clone else None
        failed = False
        if oracle is None:
            kept = [event_from_json(json.loads(p.read_text())) for p in sorted(DATA.glob("*.json"))]
            pairs = [(e, aga, None) for e, aga in kept if not args.events or e.name in args.events]
        else:
            pairs = []
            for event in events(work, args.events):
                assert dated is not None
                aga, aga_seconds = run_oracle(dated if event.on else oracle, event, work)
                pairs.append((event, aga, aga_seconds))
                if args.save:
                    DATA.mkdir(parents=True, exist_ok=True)
                    (DATA / f"{event.name}.json").write_text(
                        json.dumps(event.to_json(aga), separators=(",", ":")) + "\n"
                    )
        print(f"{'event':22} {'players':>7} {'games':>6} {'worst rating':>12} {'worst sigma':>11}")
        for event, aga, _ in pairs:
            worst_r, worst_s, _ = compare(event, aga)
            ok = worst_r <= RATING_TOLERANCE and worst_s <= SIGMA_TOLERANCE
            failed |= not ok
            print(
                f"{event.name:22} {len(aga):7} {len(event.games):6} {worst_r:12.5f} "
                f"{worst_s:11.5f}{'' if ok else '  OVER'}"
            )
        if args.speed:
            big = synthetic_event("speed-600", 600, 6, 7, handicaps=True, new_share=0.1)
            times = []
            for _ in range(3):
                start = time.perf_counter()
                project(big.entrants, big.games, None)
                times.append(time.perf_counter() - start)
            line = f"600 players, 6 rounds ({len(big.games)} games): {min(times):.3f} s"
            if oracle is not None:
                aga, aga_seconds = run_oracle(oracle, big, work)
                worst_r, worst_s, _ = compare(big, aga)
                line += (
                    f"; the AGA program {aga_seconds:.3f} s, {aga_seconds / min(times):.1f} "
                    f"times ours (worst rating {worst_r:.5f}, sigma {worst_s:.5f})"
                )
            failed |= min(times) >= 1.0
            print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
