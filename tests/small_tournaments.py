"""Small hand-built and randomly drawn tournaments for the scoring and tiebreak tests."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from addin.core.model import (
    Bye,
    ByeKind,
    Game,
    Player,
    PlayerId,
    Result,
    Round,
    Settings,
    Tournament,
)


def tournament(initial: dict[PlayerId, float | None], *rounds: Round, seed: int = 0) -> Tournament:
    """Players P1, P2, ... with the given initial McMahon scores, and these rounds."""
    players = {p: Player(p, f"P{p}", initial_score=s) for p, s in initial.items()}
    return Tournament(settings=Settings(seed=seed), players=players, rounds=list(rounds))


@st.composite
def random_tournaments(
    draw: st.DrawFn,
    results: Sequence[Result | None],
    initial_scores: Sequence[float | None],
) -> Tournament:
    """2-10 players, 1-5 rounds of arbitrary pairings with voluntary and forced byes."""
    n = draw(st.integers(2, 10))
    ids = list(range(1, n + 1))
    initial = {p: draw(st.sampled_from(list(initial_scores))) for p in ids}
    rounds = []
    for number in range(1, draw(st.integers(1, 5)) + 1):
        order = draw(st.permutations(ids))
        away = draw(st.integers(0, n // 3))
        byes = [Bye(p, ByeKind.VOLUNTARY) for p in order[:away] if draw(st.booleans())]
        present = list(order[away:])
        if len(present) % 2:
            byes.append(Bye(present.pop(), ByeKind.FORCED))
        games = tuple(
            Game(present[i], present[i + 1], result=draw(st.sampled_from(list(results))))
            for i in range(0, len(present), 2)
        )
        rounds.append(Round(number, games, tuple(byes)))
    return tournament(initial, *rounds, seed=draw(st.integers(0, 1000)))
