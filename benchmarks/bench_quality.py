"""Pairing quality on real tournaments: ``python benchmarks/bench_quality.py [--rounds]
[--opengotha DIR] [--synthetic [DIR]]``.

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

With ``--opengotha`` it also lists every round in which this project does worse than
OpenGotha on a figure, and where the two pairings part, weighed tier by tier as the engine
weighs its own (:mod:`addin.core.pairing.assess`): a round is worse only as far as the
rule forces when OpenGotha's pairing keeps a higher rule less well.

``--synthetic`` measures instead the synthetic fields of ``synthetic_fields.py`` (8-round
events of 300, 700 and 2,000 players, rounds 1-5, every game even): made afresh and, when
``OPENGOTHA_GIT`` names a clone of OpenGotha, paired by OpenGotha in the same run (its
``run.sh``, round 1 included, each round timed warm); or ``--synthetic DIR``, the
``synthetic-N.xml`` files in DIR with OpenGotha's ``synthetic-N.json`` beside them (the
test keeps one such pair). Per field: Σ(ΔMMS)² beside its floor, players off colour balance,
same-club games where both avoid, floats twice the same way, seconds (this project and
OpenGotha, least of ``--repeat`` warm runs), and the rounds in which this project does worse.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
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
    ColorPolicy,
    Player,
    PlayerId,
    Round,
    Settings,
    Tournament,
)
from addin.core.pairing import PairingInput, pair_round
from addin.core.pairing.assess import colour_rule_breaks, game_tier_totals
from addin.core.scoring import mcmahon_scores
from addin.formats.opengotha_write import NO_GIVEN_NAME
from benchmarks.synthetic_fields import PLAYED, SEED, SIZES, write_field
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
        if s.rs:
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
    string (family + given name, blanks removed, upper case), as games are in the file; a
    player without a given name is written with "-" (``export-opengotha``)."""
    path = directory / f"{name}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise SystemExit(
            f"{path}: {err.strerror if isinstance(err, OSError) else err}; "
            "write it with benchmarks/opengotha_side/run.sh DIR"
        ) from None
    ids = {
        key_of(p.family_name + (p.given_name or NO_GIVEN_NAME)): p.aga_id
        for p in t.players.values()
    }
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


def parting(s: State, settings: Settings, mine: Pairing, theirs: Pairing) -> str:
    """Where this project's pairing of the round and OpenGotha's part, weighed as the engine
    weighs its own (:func:`addin.core.pairing.assess.game_tier_totals`, score difference
    in 1/q points squared): the first tier, most important first, whose totals differ,
    and which pairing keeps that rule better; and the forced byes' scores when they differ.
    A round where this project does worse on a lower tier is forced by the rule when
    OpenGotha's pairing keeps a higher one less well."""
    inp = PairingInput(s.number, settings.rounds, s.players, s.scores, s.history, (), settings)
    totals = [
        game_tier_totals(inp, [(w, b) for w, b, _ in games], byes[0] if byes else None)
        for games, byes in (mine, theirs)
    ]
    ours_, theirs_ = totals
    first = next((name for name in ours_ if ours_[name] != theirs_[name]), None)
    if first is not None:
        better = "this project" if ours_[first] < theirs_[first] else "OpenGotha"
        said = f"{first} {ours_[first]} / {theirs_[first]}, {better} keeps it better"
    else:
        said = "nowhere, equal in every tier"
        breaks = [colour_rule_breaks(inp, games) for games, _ in (mine, theirs)]
        if settings.color_policy is ColorPolicy.RESTRICTED and breaks[0] != breaks[1]:
            said += f"; criterion 4 broken by the colours given {breaks[0]} / {breaks[1]}"
    byes = [s.scores[b[0]] if b else None for _, b in (mine, theirs)]
    if byes[0] != byes[1]:
        said += f"; forced bye at score {byes[0]:g} / {byes[1]:g}"
    return said


def worse_than_opengotha(
    label: str,
    s: State,
    settings: Settings,
    mine: Pairing,
    theirs: Pairing,
    figures: Sequence[tuple[str, float, float]],
) -> list[str]:
    """One line for each figure (name, ours, OpenGotha's) on which this project does worse
    in the round, saying where the two pairings part."""
    worse = [f"{name} {a:g} / {b:g}" for name, a, b in figures if a > b]
    if not worse:
        return []
    return [f"- {label}: {', '.join(worse)}; they part: {parting(s, settings, mine, theirs)}"]


def figures_of(ours: Measures, theirs: Measures) -> list[tuple[str, float, float]]:
    """The figures the rule ranks, this project's and OpenGotha's (same settings)."""
    return [
        ("Σ(ΔMMS)²", ours.msd2, theirs.msd2),
        ("|W-B|>=2", ours.colour, theirs.colour),
        ("float", ours.floats, theirs.floats),
    ]


def real_rounds(args: argparse.Namespace) -> None:
    """The table of the 38 real rounds."""
    total_a, total_o, total_g, rounds = Measures(), Measures(), Measures(), 0
    thesis_a = thesis_o = thesis_g = 0.0
    egf = Measures()
    presets = {McMahonRules.BGA: Measures(), McMahonRules.EGF: Measures()}
    lines: list[str] = []
    worse: list[str] = []
    both, both_g, both_rounds = Measures(), Measures(), 0
    versions: set[str] = set()
    for name, t in events(sorted(DATA.glob("*.xml"))):
        rs = relative_strengths(t)
        on = replace(t.settings, avoid_same_club=True, **handicap_settings(DATA / f"{name}.xml"))
        off = replace(on, avoid_same_club=False)
        theirs: dict[int, Pairing] = {}
        if args.opengotha:
            version, theirs = opengotha_rounds(args.opengotha, name, t)
            versions.add(version)
        og_avoids = read_opengotha(DATA / f"{name}.xml").settings.avoid_same_club
        event_a, event_o, event_g = Measures(), Measures(), Measures()
        for rnd in t.rounds:
            if rnd.number == 1 or not rnd.games:
                continue
            s = state_of(t, rnd.number, rs)
            a = measure(s, actual(s))
            mine = ours(s, on)
            o = measure(s, mine)
            o.club_off = measure(s, ours(s, off)).club_on
            o.floor = club_floor(s, False)
            o.floor3 = club_floor(s, True)
            o.msd2_floor = score_floor(s)
            egf_settings = replace(on, avoidance_points=EGF_POINTS)
            egf_pairing = ours(s, egf_settings)
            e = measure(s, egf_pairing)
            egf.add(e)
            for rules, measures in presets.items():
                preset = replace(on, mcmahon_rules=rules, avoidance_points=PRESET_POINTS[rules])
                measures.add(measure(s, ours(s, preset)))
            a.club_off = a.club_on
            g = opengotha_measures(s, theirs, name) if args.opengotha else None
            if g is not None:
                label = f"{name} r{rnd.number}"
                worse += worse_than_opengotha(
                    label, s, on, mine, theirs[rnd.number], figures_of(o, g)
                )
                if og_avoids and s.first_half:
                    both.add(e)
                    both_g.add(g)
                    both_rounds += 1
                    egf_figures = [("same club EGF style", e.club_on, g.club_on)]
                    worse += worse_than_opengotha(
                        label, s, egf_settings, egf_pairing, theirs[rnd.number], egf_figures
                    )
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
        f"\nEGF style (avoidance may cost {EGF_POINTS}, as OpenGotha reads it: "
        f"{1.2 * EGF_POINTS + 0.5:g} McMahon points in total; the files' own "
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
    if args.opengotha:
        print(
            f"\nEGF style where both avoid (the file asks OpenGotha to, first half): "
            f"{both_rounds} rounds, same-club games OpenGotha {both_g.club_on} / this project "
            f"{both.club_on}, Σ(ΔMMS)² {both_g.msd2:g} / {both.msd2:g}"
        )
        print_worse(worse)


def print_worse(worse: Sequence[str]) -> None:
    """The rounds in which this project does worse than OpenGotha on a figure."""
    print(
        f"\nRounds worse than OpenGotha ({len(worse)}), this project / OpenGotha; where the "
        "two pairings part, weighed as the engine weighs (tier totals, score difference in "
        "1/q points squared):"
    )
    print("\n".join(worse) if worse else "(none)")


# --- synthetic fields ----------------------------------------------------------------

RUN_SH = Path(__file__).resolve().parent / "opengotha_side" / "run.sh"


def score_bound(s: State) -> float:
    """The least Σ(ΔMMS)² of any pairing of the round when rematches are left out, with the
    forced bye in the lowest score group that has a player who had none (the protocol's
    bye rule): players paired as neighbours in score order, since a convex cost of the
    difference never gains by crossing two games. A lower bound of :func:`score_floor`
    that large fields can afford: a pairing that reaches it is at the floor, and only one
    that does not needs :func:`score_floor`'s complete graph (25 s a round at 2,000)."""
    had_bye = {b.player for r in s.history for b in r.byes if b.kind is ByeKind.FORCED}
    scores = sorted(s.scores[p.aga_id] for p in s.players)
    if len(scores) % 2:
        lowest = min(s.scores[p.aga_id] for p in s.players if p.aga_id not in had_bye)
        scores.remove(lowest)
    return sum((scores[k + 1] - scores[k]) ** 2 for k in range(0, len(scores), 2))


def timed_ours(s: State, settings: Settings, repeat: int) -> tuple[Pairing, float]:
    """This project's pairing and its least time over ``repeat`` warm runs (one run first,
    untimed, when ``repeat`` > 0: the same warm-up OpenGotha's driver gets)."""
    inp = PairingInput(s.number, settings.rounds, s.players, s.scores, s.history, (), settings)
    best = math.inf
    for k in range(1 + repeat if repeat else 1):
        start = time.perf_counter()
        result = pair_round(inp)
        if k or not repeat:
            best = min(best, time.perf_counter() - start)
    games = tuple((g.white, g.black, g.handicap) for g in result.games)
    return (games, tuple(b.player for b in result.byes if b.kind is ByeKind.FORCED)), best


def opengotha_seconds(directory: Path, name: str) -> dict[int, float]:
    """OpenGotha's time for each round, as the driver measured it (``--repeat``)."""
    data = json.loads((directory / f"{name}.json").read_text(encoding="utf-8"))
    return {int(r["round"]): float(r.get("seconds", math.nan)) for r in data["rounds"]}


def run_opengotha(files: Sequence[Path], out: Path, repeat: int) -> Path | None:
    """OpenGotha's pairing of every round of ``files`` into ``out`` (``run.sh``), when its
    harness is present (``OPENGOTHA_GIT`` names a clone); None when it is not."""
    if not os.environ.get("OPENGOTHA_GIT"):
        return None
    env = dict(os.environ, OPENGOTHA_FIRST="1", OPENGOTHA_REPEAT=str(repeat))
    done = subprocess.run(
        [str(RUN_SH), str(out), *map(str, files)], env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(f"OpenGotha's harness failed:\n{done.stderr[-2000:]}")
    return out


@dataclass
class Side:
    """One program's figures for one round (or summed over rounds)."""

    m: Measures
    seconds: float = 0.0


@dataclass
class Worse:
    """Rounds in which this project does worse than OpenGotha, per measure."""

    msd2: int = 0
    colour: int = 0
    floats: int = 0
    club: int = 0
    rounds: int = 0
    club_rounds: int = 0

    def add(self, ours: Measures, egf: Measures, theirs: Measures, avoid: bool) -> None:
        self.rounds += 1
        self.msd2 += ours.msd2 > theirs.msd2
        self.colour += ours.colour > theirs.colour
        self.floats += ours.floats > theirs.floats
        if avoid:
            self.club_rounds += 1
            self.club += egf.club_on > theirs.club_on

    def cell(self) -> str:
        return (
            f"{self.msd2} / {self.colour} / {self.floats} of {self.rounds}; "
            f"{self.club} of {self.club_rounds}"
        )


SYNTHETIC_COLUMNS = (
    "players",
    "Σ(ΔMMS)² OG / ours (floor)",
    "|W-B|>=2 OG / ours / EGF",
    "same club OG / EGF / ours",
    "float OG / ours",
    "seconds OG / ours",
)


def synthetic_row(
    label: str,
    players: int,
    g: Side | None,
    o: Side,
    e: Measures,
    floor: float,
    worse: Worse | None = None,
) -> str:
    """One line of the synthetic table: OpenGotha (``g``, when run), ours, ours EGF style."""
    them = (lambda name, spec="": format(getattr(g.m, name), spec) + " / ") if g else None

    def cell(name: str, *ms: Measures, spec: str = "") -> str:
        head = them(name, spec) if them else ""
        return head + " / ".join(format(getattr(m, name), spec) for m in ms)

    ratio = f" ({g.seconds / o.seconds:.1f}x)" if g and o.seconds else ""
    seconds = (f"{g.seconds:.2f} / " if g else "") + f"{o.seconds:.2f}{ratio}"
    cells = [
        str(players),
        f"{cell('msd2', o.m, spec='g')} ({floor:g})",
        cell("colour", o.m, e),
        cell("club_on", e, o.m),
        cell("floats", o.m),
        seconds,
    ]
    if worse is not None:
        cells.append(worse.cell() if g else "-")
    return f"| {label} | " + " | ".join(cells) + " |"


@dataclass
class FieldRows:
    """One synthetic field measured: its total row, its round rows, the rounds worse."""

    total: str
    rounds: list[str]
    worse: list[str]
    version: str | None
    """OpenGotha's version, when its pairings were read."""


def synthetic_field(
    name: str, t: Tournament, path: Path, theirs_dir: Path | None, repeat: int
) -> FieldRows:
    """Every round of one synthetic field, paired by this project (timed, AGA rule and EGF
    style) and measured beside OpenGotha's pairing in ``theirs_dir`` (when given)."""
    on = replace(t.settings, avoid_same_club=True, **handicap_settings(path))
    egf = replace(on, avoidance_points=EGF_POINTS)
    theirs: dict[int, Pairing] = {}
    seconds: dict[int, float] = {}
    version = None
    if theirs_dir is not None:
        version, theirs = opengotha_rounds(theirs_dir, name, t)
        seconds = opengotha_seconds(theirs_dir, name)
    sum_g, sum_o, sum_e = Side(Measures()), Side(Measures()), Measures()
    worse, floor_total = Worse(), 0.0
    rows, worse_lines = [], []
    for rnd in t.rounds:
        if not rnd.games:
            continue
        s = state_of(t, rnd.number, {})
        label = f"{name} r{rnd.number}"
        mine, took = timed_ours(s, on, repeat)
        o = Side(measure(s, mine), took)
        mine_egf = ours(s, egf)
        e = measure(s, mine_egf)
        floor = score_bound(s)
        if o.m.msd2 > floor:  # the bound is not reached: the exact floor says why
            floor = score_floor(s)
        g = None
        if theirs_dir is not None:
            g = Side(opengotha_measures(s, theirs, name), seconds[rnd.number])
            worse.add(o.m, e, g.m, s.first_half)
            worse_lines += worse_than_opengotha(
                label, s, on, mine, theirs[rnd.number], figures_of(o.m, g.m)
            )
            if s.first_half:
                club = [("same club EGF style", e.club_on, g.m.club_on)]
                worse_lines += worse_than_opengotha(
                    label, s, egf, mine_egf, theirs[rnd.number], club
                )
            sum_g.m.add(g.m)
            sum_g.seconds += g.seconds
        sum_o.m.add(o.m)
        sum_o.seconds += o.seconds
        sum_e.add(e)
        floor_total += floor
        rows.append(synthetic_row(label, len(s.players), g, o, e, floor))
    them = sum_g if theirs_dir is not None else None
    total = synthetic_row(f"**{name}**", len(t.players), them, sum_o, sum_e, floor_total, worse)
    return FieldRows(total, rows, worse_lines, version)


def synthetic(args: argparse.Namespace) -> None:
    """The table of the synthetic fields, beside OpenGotha where its harness is present."""
    given: Path | None = args.synthetic if args.synthetic != GENERATE else None
    if given is not None:
        files = sorted(given.glob("synthetic-*.xml"), key=lambda f: int(f.stem.split("-")[1]))
        kept = all(f.with_suffix(".json").exists() for f in files)
        theirs_dir: Path | None = given if kept else None
    else:
        work = Path(tempfile.mkdtemp(prefix="bench-quality-"))
        files = [write_field(work, n) for n in args.sizes]
        theirs_dir = run_opengotha(files, work, args.repeat)
        print(
            f"(the fields, and OpenGotha's pairings of them, are in {work}: "
            f"--synthetic {work} measures them again)\n"
        )
    if not files:
        raise SystemExit(f"{given}: no synthetic-N.xml files")
    fields = [
        synthetic_field(name, t, path, theirs_dir, args.repeat)
        for (name, t), path in zip(events(files), files, strict=True)
    ]
    versions = {f.version for f in fields if f.version}
    them = f"OpenGotha {', '.join(sorted(versions))}" if versions else "(OpenGotha not run)"
    print(
        f"Synthetic 8-round fields, rounds 1-{PLAYED} (seed {SEED}); {them} / this project "
        f"(AGA, club avoidance on) / this project EGF style (avoidance may cost "
        f"{EGF_POINTS} points, as the files ask OpenGotha)"
    )
    print(
        "(floor: the least Σ(ΔMMS)² any pairing can reach with the forced bye in the lowest\n"
        "score group that can take it; same club counted in the first half, where both\n"
        "avoid; worse than OpenGotha: rounds with more Σ(ΔMMS)² / players off colour\n"
        "balance / floats twice, of the rounds; same-club games EGF style, of the first-half\n"
        f"rounds; seconds: least of {max(args.repeat, 1)} warm runs, summed over the rounds)\n"
    )
    header = ("field", *SYNTHETIC_COLUMNS, "worse than OpenGotha")
    print("| " + " | ".join(header) + " |")
    print("|:--|" + "--:|" * (len(header) - 1))
    print("\n".join(f.total for f in fields))
    if args.rounds:
        print()
        print("| " + " | ".join(("round", *SYNTHETIC_COLUMNS)) + " |")
        print("|:--|" + "--:|" * len(SYNTHETIC_COLUMNS))
        print("\n".join(row for f in fields for row in f.rounds))
    if theirs_dir is not None:
        print_worse([line for f in fields for line in f.worse])


GENERATE = Path("-")
"""``--synthetic`` without a folder: make the fields (and OpenGotha's pairings) afresh."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", action="store_true", help="print one row per round")
    parser.add_argument(
        "--opengotha",
        type=Path,
        metavar="DIR",
        help="also measure OpenGotha's pairings, as benchmarks/opengotha_side/run.sh DIR writes",
    )
    parser.add_argument(
        "--synthetic",
        type=Path,
        nargs="?",
        const=GENERATE,
        metavar="DIR",
        help="measure the synthetic fields instead: made afresh (and paired by OpenGotha when "
        "OPENGOTHA_GIT names its clone), or the synthetic-N.xml files in DIR with "
        "OpenGotha's synthetic-N.json beside them",
    )
    parser.add_argument(
        "--sizes",
        type=lambda text: [int(n) for n in text.split(",")],
        default=list(SIZES),
        help=f"players of the synthetic fields made afresh (default {','.join(map(str, SIZES))})",
    )
    parser.add_argument(
        "--repeat", type=int, default=2, help="timed warm runs of each synthetic round (default 2)"
    )
    args = parser.parse_args()
    start = time.perf_counter()
    if args.synthetic is not None:
        synthetic(args)
    else:
        real_rounds(args)
    print(f"\n{time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
