"""When ``pair`` warns that criterion 3 (no float in the same direction twice running) gave
way, no valid pairing with the same least score difference keeps it.

The cases are every round of the real OpenGotha tournaments in ``tests/data/opengotha``,
re-paired from the state the file records. For each round where the engine warns, an
independent exhaustive check (a matching over every allowed game, weighted by score
difference first and repeated floats second, the forced bye anywhere in the engine's bye
group to anyone without one) finds the fewest repeated floats a pairing of the least
score difference can have: it must equal the engine's count.
"""

from __future__ import annotations

from dataclasses import replace

import rustworkx as rx

from addin.core.model import ByeKind, PlayerId, Round, Tournament
from addin.core.pairing import PairingInput, pair_round
from addin.core.ratings import parse_rating
from addin.core.scoring import mcmahon_scores
from tests.helpers import DATA
from tests.opengotha import handicap_settings, plain_settings, read_opengotha

FILES = sorted((DATA / "opengotha").glob("*.xml"))


def floats(games: list[tuple[PlayerId, PlayerId]], score: dict[PlayerId, float]) -> dict:
    out: dict[PlayerId, int] = {}
    for a, b in games:
        if score[a] != score[b]:
            up, down = (a, b) if score[a] < score[b] else (b, a)
            out[up], out[down] = 1, -1
    return out


def least_repeats(
    ids: list[PlayerId],
    score: dict[PlayerId, float],
    last: dict[PlayerId, int],
    history: tuple[Round, ...],
    bye_group: float | None,
) -> tuple[float, int]:
    """(least Σ squared score difference, then fewest repeated floats) over every valid
    pairing with the bye (if any) in the score group ``bye_group``."""
    n = len(ids)
    played = {frozenset((g.white, g.black)) for r in history for g in r.games}
    had = {b.player for r in history for b in r.byes if b.kind is ByeKind.FORCED}
    unit = 4 * (n + 1)  # one quarter point squared outweighs every repeated float
    top = unit * 4 * 10_000
    graph = rx.PyGraph()
    graph.add_nodes_from(range(n + n % 2))
    for i, a in enumerate(ids):
        for j in range(i + 1, n):
            b = ids[j]
            if frozenset((a, b)) in played:
                continue
            repeat = 0
            if score[a] != score[b]:
                up, down = (a, b) if score[a] < score[b] else (b, a)
                repeat = (last.get(up) == 1) + (last.get(down) == -1)
            graph.add_edge(i, j, top - round(4 * (score[a] - score[b]) ** 2) * unit - repeat)
    if n % 2:
        for i, a in enumerate(ids):
            if score[a] == bye_group and a not in had:
                graph.add_edge(i, n, top)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    games = [(ids[i], ids[j]) for i, j in matching if max(i, j) < n]
    now = floats(games, score)
    return (
        sum((score[a] - score[b]) ** 2 for a, b in games),
        sum(1 for p, d in now.items() if last.get(p) == d),
    )


def cases() -> list[tuple[str, int]]:
    out = []
    for path in FILES:
        t = read_opengotha(path)
        out += [(path.name, r.number) for r in t.rounds if r.number > 1 and r.games]
    return out


def rated(t: Tournament) -> Tournament:
    return replace(
        t, players={k: replace(p, rating=parse_rating(p.rank)) for k, p in t.players.items()}
    )


def test_every_warned_float_break_is_unavoidable() -> None:
    warned = 0
    for name, number in cases():
        path = DATA / "opengotha" / name
        t = read_opengotha(path)
        if any(p.rank.upper().startswith(("99", "0")) for p in t.players.values()):
            continue  # placeholder ranks that are not ranks
        t = rated(t)
        rnd = t.round(number)
        assert rnd is not None
        ids = sorted(
            {p for g in rnd.games for p in g.players}
            | {b.player for b in rnd.byes if b.kind is ByeKind.FORCED}
        )
        history = tuple(r for r in t.rounds if r.number < number)
        score = mcmahon_scores(replace(t, rounds=list(history)), number - 1)
        settings = replace(plain_settings(t), **handicap_settings(path))
        inp = PairingInput(
            number, settings.rounds, tuple(t.players[p] for p in ids), score, history, (), settings
        )
        result = pair_round(inp)
        breaks = [w for w in result.warnings if "twice running" in w]
        if not breaks:
            continue
        warned += 1
        before = mcmahon_scores(replace(t, rounds=list(history[:-1])), number - 2)
        last = floats([(g.white, g.black) for g in history[-1].games], before)
        bye = [b.player for b in result.byes if b.kind is ByeKind.FORCED]
        least = least_repeats(ids, score, last, history, score[bye[0]] if bye else None)
        engine_sum = sum((score[g.white] - score[g.black]) ** 2 for g in result.games)
        assert least == (engine_sum, len(breaks)), (name, number)
    assert warned >= 5, "the real rounds hold several warned cases"
