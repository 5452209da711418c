"""Pairing quality on real tournaments: ``python benchmarks/bench_quality.py [--rounds]
[--opengotha DIR]``.

For every round of the OpenGotha files in ``tests/data/opengotha`` (round 1 excepted: its
pairing has no history to weigh) the engine pairs the players who actually played that
round, from the state the file records before it (same scores, same earlier games), and
the result is measured beside the pairing the TD actually made:

* ``Σ(ΔMMS)²``: sum over games of the squared McMahon score difference (points);
* ``|W-B|>=2``: players in an even game this round whose Whites and Blacks in even
  games, this round included, differ by two or more;
* ``club on`` / ``club off``: same-club games in the first half of each event (round <=
  rounds / 2), with club avoidance on and off (the other measures are with it on);
* ``handicap``: handicap games (the handicap scheme the file's own settings ask for);
* ``float``: players floating the same way as in the previous round (criterion 3);
* ``error``: Vuorinen's total error (thesis, eq. 7.1), from relative strengths (appendix
  B) computed on the file's final results; summed over the events.

With ``--opengotha DIR`` each cell also holds, between the two, OpenGotha's own pairing of
the same rounds from the same state, as ``benchmarks/opengotha_side/run.sh DIR`` writes it
(OpenGotha keeps the file's own settings: its ``club on`` and ``club off`` are one pairing,
with club avoidance as the file sets it).

``club floor`` is the fewest same-club games any pairing can have at the same total score
difference, the AGA rule's limit: the least same-club total of a maximum-weight matching
whose weights are the score difference first and same-club games second.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import rustworkx as rx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from addin.core.european import PRESET_SETTINGS, PRESETS, McMahonRules
from addin.core.model import (
    ByeKind,
    Color,
    Player,
    PlayerId,
    Round,
    Settings,
    Tournament,
)
from addin.core.pairing import PairingInput, pair_round
from addin.core.scoring import mcmahon_scores
from tests.opengotha import handicap_settings, key_of, plain_settings, rank_value, read_opengotha

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "opengotha"
Pairing = tuple[tuple[tuple[PlayerId, PlayerId, int], ...], tuple[PlayerId, ...]]
"""(white, black, handicap) of every game, and the forced byes."""


@dataclass
class Measures:
    msd2: float = 0.0
    colour: int = 0
    club_on: int = 0
    club_off: int = 0
    handicap: int = 0
    floats: int = 0
    error: float = 0.0
    floor: int = 0
    floor3: int = 0
    msd2_floor: float = 0.0

    def add(self, other: Measures) -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))


# --- relative strength and the thesis's total error ------------------------------------


def relative_strengths(t: Tournament) -> dict[PlayerId, float]:
    """Vuorinen's appendix B: results push the players' strengths apart or together until
    they settle; normalised to 0..N-1."""
    ids = sorted(t.players)
    n = max(len(ids), 2)
    base = math.log(max(n / 5, 1.5))
    rs = {p: (n - 1) / 2 for p in ids}
    games = [g for r in t.rounds for g in r.games if g.result is not None]
    for _ in range(200):
        old = dict(rs)
        for g in games:
            winner = g.result.winner if g.result else None
            for me, other in ((g.white, g.black), (g.black, g.white)):
                sdiff = old[me] - old[other]
                step = math.log(abs(sdiff) + 1) / base
                if winner is None:
                    rs[me] += -min(step, 1) if sdiff > 0 else min(step, 1)
                elif (winner is Color.WHITE) == (me == g.white):
                    rs[me] += max(1 - step, 0) if sdiff > 0 else 1 + min(step, 1)
                else:
                    rs[me] -= 1 + min(step, 1) if sdiff > 0 else max(1 - step, 0)
                rs[me] = min(max(rs[me], 0.0), n - 1)
        lo, hi = min(rs.values()), max(rs.values())
        span = (hi - lo) or 1.0
        rs = {p: (v - lo) / span * (n - 1) for p, v in rs.items()}
        if sum((rs[p] - old[p]) ** 2 for p in ids) <= 0.001 * n:
            break
    return rs


# --- measures of one round's pairing -------------------------------------------------


def even_colours(history: Iterable[Round]) -> dict[PlayerId, int]:
    """Whites minus Blacks of each player, even games only."""
    balance: dict[PlayerId, int] = {}
    for rnd in history:
        for g in rnd.games:
            if g.handicap == 0:
                balance[g.white] = balance.get(g.white, 0) + 1
                balance[g.black] = balance.get(g.black, 0) - 1
    return balance


def floats_of(
    games: Iterable[tuple[PlayerId, PlayerId]], scores: Mapping[PlayerId, float]
) -> dict[PlayerId, int]:
    out: dict[PlayerId, int] = {}
    for a, b in games:
        if scores[a] != scores[b]:
            up, down = (a, b) if scores[a] < scores[b] else (b, a)
            out[up], out[down] = 1, -1
    return out


@dataclass(frozen=True)
class State:
    """Everything about one round that does not depend on who pairs it."""

    t: Tournament
    number: int
    players: tuple[Player, ...]
    scores: dict[PlayerId, float]
    history: tuple[Round, ...]
    balance: dict[PlayerId, int]
    last_float: dict[PlayerId, int]
    first_half: bool
    rs: dict[PlayerId, float]


def state_of(t: Tournament, number: int, rs: dict[PlayerId, float]) -> State:
    rnd = t.round(number)
    assert rnd is not None
    playing = {p for g in rnd.games for p in g.players} | {
        b.player for b in rnd.byes if b.kind is ByeKind.FORCED
    }
    history = tuple(r for r in t.rounds if r.number < number)
    scores = mcmahon_scores(replace(t, rounds=list(history)), after_round=number - 1)
    previous = t.round(number - 1)
    last: dict[PlayerId, int] = {}
    if previous is not None:
        before = mcmahon_scores(replace(t, rounds=list(history[:-1])), after_round=number - 2)
        last = floats_of(((g.white, g.black) for g in previous.games), before)
    return State(
        t=t,
        number=number,
        players=tuple(t.players[p] for p in sorted(playing)),
        scores=scores,
        history=history,
        balance=even_colours(history),
        last_float=last,
        first_half=2 * number <= t.settings.rounds,
        rs=rs,
    )


def same_club(s: State, a: PlayerId, b: PlayerId) -> bool:
    ca, cb = s.t.players[a].chapter.strip().casefold(), s.t.players[b].chapter.strip().casefold()
    return bool(ca) and ca == cb


def measure(s: State, pairing: Pairing) -> Measures:
    games, _ = pairing
    m = Measures()
    balance = dict(s.balance)
    even: set[PlayerId] = set()
    for w, b, h in games:
        m.msd2 += (s.scores[w] - s.scores[b]) ** 2
        m.handicap += h > 0
        m.error += 2 * (s.rs[w] - s.rs[b]) ** 2
        if h == 0:
            balance[w] = balance.get(w, 0) + 1
            balance[b] = balance.get(b, 0) - 1
            even |= {w, b}
        if s.first_half and same_club(s, w, b):
            m.club_on += 1
    m.colour = sum(abs(balance[p]) >= 2 for p in even)
    now = floats_of(((w, b) for w, b, _ in games), s.scores)
    m.floats = sum(1 for p, d in now.items() if s.last_float.get(p) == d)
    return m


def actual(s: State) -> Pairing:
    rnd = s.t.round(s.number)
    assert rnd is not None
    games = tuple((g.white, g.black, g.handicap) for g in rnd.games)
    return games, tuple(b.player for b in rnd.byes if b.kind is ByeKind.FORCED)


def ours(s: State, settings: Settings) -> Pairing:
    inp = PairingInput(s.number, settings.rounds, s.players, s.scores, s.history, (), settings)
    result = pair_round(inp)
    games = tuple((g.white, g.black, g.handicap) for g in result.games)
    return games, tuple(b.player for b in result.byes if b.kind is ByeKind.FORCED)


def opengotha_rounds(directory: Path, name: str, t: Tournament) -> tuple[str, dict[int, Pairing]]:
    """OpenGotha's version and its pairing of each round, from ``directory/name.json`` as
    ``opengotha_side/OpenGothaSide.java`` writes it. Players are named by OpenGotha's key
    string (family + given name, blanks removed, upper case), as games are in the file."""
    path = directory / f"{name}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise SystemExit(
            f"{path}: {err.strerror if isinstance(err, OSError) else err}; "
            "write it with benchmarks/opengotha_side/run.sh DIR"
        ) from None
    ids = {key_of(p.family_name + p.given_name): p.aga_id for p in t.players.values()}
    rounds: dict[int, Pairing] = {}
    for rnd in data["rounds"]:
        games = tuple(
            (ids[key_of(g["white"])], ids[key_of(g["black"])], int(g["handicap"]))
            for g in rnd["games"]
        )
        byes = (ids[key_of(rnd["bye"])],) if rnd["bye"] else ()
        rounds[int(rnd["round"])] = games, byes
    return str(data["opengotha"]), rounds


def check_players(s: State, pairing: Pairing, source: str) -> None:
    """A pairing of other players than those who played the round would not compare."""
    games, byes = pairing
    paired = sorted([p for g in games for p in g[:2]] + list(byes))
    if paired != [p.aga_id for p in s.players]:
        raise SystemExit(f"{source} round {s.number}: not the players who played it")


def club_floor(s: State, criterion3: bool) -> int:
    """Fewest same-club games among the pairings (no rematch; the bye to someone who had
    none) with the least total squared score difference and then, with ``criterion3``, the
    fewest players floating the same way twice running: a lower bound on what the AGA
    rule allows, since avoidance may never cost score difference (nor, after the protocol's
    criteria, a repeated float). Criterion 4 is left out, which can only lower the bound."""
    if not s.first_half:
        return 0
    ids = [p.aga_id for p in s.players]
    n = len(ids)
    played = {frozenset((g.white, g.black)) for r in s.history for g in r.games}
    had_bye = {b.player for r in s.history for b in r.byes if b.kind is ByeKind.FORCED}
    rounds = s.t.settings.rounds
    crit3 = criterion3 and s.number <= rounds - (1 if rounds < 6 else 2)
    floats = n + 1
    mms = (n + 1) * floats + 1
    span = max(s.scores[p] for p in ids) - min(s.scores[p] for p in ids)
    top = (round(4 * span * span) * n + 1) * mms
    graph = rx.PyGraph()
    graph.add_nodes_from(range(n + n % 2))
    for i, a in enumerate(ids):
        for j in range(i + 1, n):
            b = ids[j]
            if frozenset((a, b)) in played:
                continue
            repeat = 0
            if crit3 and s.scores[a] != s.scores[b]:
                up, down = (a, b) if s.scores[a] < s.scores[b] else (b, a)
                repeat = (s.last_float.get(up) == 1) + (s.last_float.get(down) == -1)
            cost = round(4 * (s.scores[a] - s.scores[b]) ** 2) * mms + repeat * floats
            graph.add_edge(i, j, top - cost - same_club(s, a, b))
    if n % 2:
        for i, a in enumerate(ids):
            if a not in had_bye:
                graph.add_edge(i, n, top)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return sum(same_club(s, ids[i], ids[j]) for i, j in matching if i < n and j < n)


def score_floor(s: State) -> float:
    """The least total squared score difference of any pairing (no rematch) whose forced
    bye goes to the lowest score group that can take it (the protocol's bye rule) and to
    someone who had none."""
    ids = [p.aga_id for p in s.players]
    n = len(ids)
    played = {frozenset((g.white, g.black)) for r in s.history for g in r.games}
    had_bye = {b.player for r in s.history for b in r.byes if b.kind is ByeKind.FORCED}
    span = max(s.scores[p] for p in ids) - min(s.scores[p] for p in ids)
    top = round(4 * span * span) * n + 1
    graph = rx.PyGraph()
    graph.add_nodes_from(range(n + n % 2))
    for i, a in enumerate(ids):
        for j in range(i + 1, n):
            if frozenset((a, ids[j])) not in played:
                graph.add_edge(i, j, top - round(4 * (s.scores[a] - s.scores[ids[j]]) ** 2))
    groups = sorted({s.scores[p] for p in ids}) if n % 2 else [None]
    for group in groups:
        trial = graph.copy()
        for i, a in enumerate(ids):
            if group is not None and s.scores[a] == group and a not in had_bye:
                trial.add_edge(i, n, top)
        matching = rx.max_weight_matching(trial, max_cardinality=True, weight_fn=int)
        if 2 * len(matching) == n + n % 2:
            return sum(
                (s.scores[ids[i]] - s.scores[ids[j]]) ** 2 for i, j in matching if max(i, j) < n
            )
    return math.inf


# --- the table -----------------------------------------------------------------------

EGF_POINTS = 3
PRESET_POINTS = {r: int(PRESET_SETTINGS[r]["avoidance_points"]) for r in McMahonRules}  # type: ignore[call-overload]
"""Each preset's "Avoidance may cost (points)" (its handicap rows: the files' own)."""
COLUMNS = ("Σ(ΔMMS)²", "|W-B|>=2", "club on", "club off", "handicap", "float", "error")


def row(label: str, a: Measures, o: Measures, g: Measures | None = None, error: str = ".0f") -> str:
    """One line of the table: the actual pairing, OpenGotha's (``g``, when measured) and
    ours; the brackets are the floors measured with ours."""
    pairings = (a, o) if g is None else (a, g, o)

    def cell(name: str, spec: str = "") -> str:
        return " / ".join(format(getattr(m, name), spec) for m in pairings)

    cells = [
        f"{cell('msd2', 'g')} ({o.msd2_floor:g})",
        cell("colour"),
        f"{cell('club_on')} ({o.floor}, {o.floor3})",
        cell("club_off"),
        cell("handicap"),
        cell("floats"),
        cell("error", error),
    ]
    return f"| {label} | " + " | ".join(cells) + " |"


def aga_rating(rank: str) -> float:
    """The midpoint AGA rating of an OpenGotha rank, clamped to 30k..9d as OpenGotha does."""
    value = rank_value(rank)
    return value + 1.5 if value >= 0 else value - 0.5


def events(paths: Sequence[Path]) -> list[tuple[str, Tournament]]:
    out = []
    for path in paths:
        t = read_opengotha(path)
        players = {k: replace(p, rating=aga_rating(p.rank)) for k, p in t.players.items()}
        out.append((path.stem, replace(t, players=players, settings=plain_settings(t))))
    return out


def opengotha_measures(s: State, theirs: Mapping[int, Pairing], name: str) -> Measures:
    """OpenGotha's pairing of the round, measured as the others are."""
    pairing = theirs.get(s.number)
    if pairing is None:
        raise SystemExit(f"no OpenGotha pairing of {name} round {s.number}")
    check_players(s, pairing, f"OpenGotha {name}")
    m = measure(s, pairing)
    m.club_off = m.club_on
    return m


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", action="store_true", help="print one row per round")
    parser.add_argument(
        "--opengotha",
        type=Path,
        metavar="DIR",
        help="also measure OpenGotha's pairings, as benchmarks/opengotha_side/run.sh DIR writes",
    )
    args = parser.parse_args()
    start = time.perf_counter()
    total_a, total_o, total_g, rounds = Measures(), Measures(), Measures(), 0
    thesis_a = thesis_o = thesis_g = 0.0
    egf = Measures()
    presets = {McMahonRules.BGA: Measures(), McMahonRules.EGF: Measures()}
    lines = []
    versions: set[str] = set()
    for name, t in events(sorted(DATA.glob("*.xml"))):
        rs = relative_strengths(t)
        on = replace(t.settings, avoid_same_club=True, **handicap_settings(DATA / f"{name}.xml"))
        off = replace(on, avoid_same_club=False)
        theirs: dict[int, Pairing] = {}
        if args.opengotha:
            version, theirs = opengotha_rounds(args.opengotha, name, t)
            versions.add(version)
        event_a, event_o, event_g = Measures(), Measures(), Measures()
        for rnd in t.rounds:
            if rnd.number == 1 or not rnd.games:
                continue
            s = state_of(t, rnd.number, rs)
            a = measure(s, actual(s))
            o = measure(s, ours(s, on))
            o.club_off = measure(s, ours(s, off)).club_on
            o.floor = club_floor(s, False)
            o.floor3 = club_floor(s, True)
            o.msd2_floor = score_floor(s)
            egf.add(measure(s, ours(s, replace(on, avoidance_points=EGF_POINTS))))
            for rules, measures in presets.items():
                preset = replace(on, mcmahon_rules=rules, avoidance_points=PRESET_POINTS[rules])
                measures.add(measure(s, ours(s, preset)))
            a.club_off = a.club_on
            g = opengotha_measures(s, theirs, name) if args.opengotha else None
            event_a.add(a)
            event_o.add(o)
            event_g.add(g or Measures())
            rounds += 1
            lines.append(row(f"{name} r{rnd.number}", a, o, g))
        n, k = len(t.players), max(1, len([r for r in t.rounds if r.number > 1 and r.games]))
        thesis_a += math.sqrt(event_a.error) / (2 * k * n)
        thesis_o += math.sqrt(event_o.error) / (2 * k * n)
        thesis_g += math.sqrt(event_g.error) / (2 * k * n)
        total_a.add(event_a)
        total_o.add(event_o)
        total_g.add(event_g)
    them = f"OpenGotha {', '.join(sorted(versions))} / " if args.opengotha else ""
    print(f"{rounds} rounds; each cell: the TD's actual pairing / {them}this project")
    print(
        "(in brackets, the least any pairing can reach under the rules: Σ(ΔMMS)² with the\n"
        "forced bye in the lowest score group that can take it; same-club games at that\n"
        "least score difference, then also keeping criterion 3)\n"
    )
    print("| round | " + " | ".join(COLUMNS) + " |")
    print("|:--|" + "--:|" * len(COLUMNS))
    if args.rounds:
        print("\n".join(lines))
    total_a.error, total_o.error, total_g.error = thesis_a, thesis_o, thesis_g
    print(row("**total**", total_a, total_o, total_g if args.opengotha else None, error=".3f"))
    print(
        f"\nEGF style (avoidance may cost up to {EGF_POINTS} McMahon points, the files' own "
        f"preferMMSDiffRatherThanSameClub): Σ(ΔMMS)² {egf.msd2:g}, same-club games in the "
        f"first half {egf.club_on}, |W-B|>=2 {egf.colour}"
    )
    for rules, m in presets.items():
        chosen = PRESETS[rules]
        print(
            f"{rules.value} preset ({chosen.group_seeding.value} seeding, "
            f"{chosen.group_pairing.value.lower()}, floats {chosen.float_choice.value}, "
            f"avoidance up to {PRESET_POINTS[rules]} points): Σ(ΔMMS)² {m.msd2:g}, same-club "
            f"games in the first half {m.club_on}, |W-B|>=2 {m.colour}, float {m.floats}"
        )
    print(f"\n{time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
