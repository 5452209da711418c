"""McMahon scores, round by round (AGA Swiss McMahon Pairing Protocol, "Game Results").

Points a player earns in a round:

=====================================  =======
win, including a win by forfeit        1
loss, including a loss by forfeit      0
jigo, no result                        0.5
double forfeit                         0
forced bye                             1
voluntary bye                          0
absent, no bye recorded                0
paired, result not entered yet         0 (for now)
=====================================  =======

"Absent" covers a dropped player and one who registered after the round was paired.
Byes come from ``Round.byes`` only; ``Player.bye_requests`` are requests, not results.
Rounds up to ``after_round`` that are missing from ``Tournament.rounds`` count as absent
for everybody.

Everything here is pure: it reads a :class:`~addin.core.model.Tournament` and returns new
objects, never touching a spreadsheet.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from addin.core.model import ByeKind, Color, Game, PlayerId, Result, Round, Tournament

__all__ = [
    "Outcome",
    "RoundRecord",
    "initial_score",
    "last_round",
    "mcmahon_scores",
    "player_ids",
    "player_records",
    "round_points",
    "score_history",
    "wins",
]


class Outcome(enum.Enum):
    """What one round meant for one player."""

    WIN = "Win"
    LOSS = "Loss"
    FORFEIT_WIN = "Win by forfeit"
    FORFEIT_LOSS = "Loss by forfeit"
    JIGO = "Jigo"
    NO_RESULT = "No result"
    DOUBLE_FORFEIT = "Double forfeit"
    PENDING = "Not played yet"
    FORCED_BYE = "Forced bye"
    VOLUNTARY_BYE = "Voluntary bye"
    ABSENT = "Absent"

    @property
    def points(self) -> float:
        """McMahon points earned (protocol, Game Results)."""
        return _POINTS[self]

    @property
    def win_points(self) -> float:
        """Contribution to the raw score: wins (forfeit wins too) 1, jigo / no result 0.5.

        Byes are not games and add nothing (the Bob example counts "3 Wins + Forced Bye").
        """
        return _WIN_POINTS.get(self, 0.0)

    @property
    def is_game(self) -> bool:
        """The player was paired against an opponent this round (whatever happened)."""
        return self in _GAMES

    @property
    def is_bye(self) -> bool:
        return self in (Outcome.FORCED_BYE, Outcome.VOLUNTARY_BYE)

    @property
    def bye(self) -> ByeKind | None:
        return {Outcome.FORCED_BYE: ByeKind.FORCED, Outcome.VOLUNTARY_BYE: ByeKind.VOLUNTARY}.get(
            self
        )

    @property
    def missed_game(self) -> bool:
        """The player lost a game's worth of chances: voluntary bye, double forfeit, absence.

        These are the instances for which the protocol credits the player's opponents
        0.5 McMahon point in their tiebreaks (Final Standings--Tiebreaks).
        """
        return self in (Outcome.VOLUNTARY_BYE, Outcome.DOUBLE_FORFEIT, Outcome.ABSENT)


_POINTS: dict[Outcome, float] = {
    Outcome.WIN: 1.0,
    Outcome.LOSS: 0.0,
    Outcome.FORFEIT_WIN: 1.0,
    Outcome.FORFEIT_LOSS: 0.0,
    Outcome.JIGO: 0.5,
    Outcome.NO_RESULT: 0.5,
    Outcome.DOUBLE_FORFEIT: 0.0,
    Outcome.PENDING: 0.0,
    Outcome.FORCED_BYE: 1.0,
    Outcome.VOLUNTARY_BYE: 0.0,
    Outcome.ABSENT: 0.0,
}
_WIN_POINTS: dict[Outcome, float] = {
    Outcome.WIN: 1.0,
    Outcome.FORFEIT_WIN: 1.0,
    Outcome.JIGO: 0.5,
    Outcome.NO_RESULT: 0.5,
}
_GAMES = frozenset(
    {
        Outcome.WIN,
        Outcome.LOSS,
        Outcome.FORFEIT_WIN,
        Outcome.FORFEIT_LOSS,
        Outcome.JIGO,
        Outcome.NO_RESULT,
        Outcome.DOUBLE_FORFEIT,
        Outcome.PENDING,
    }
)


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One player's round, as cross tables, tiebreak lists and pairing cards show it."""

    round: int
    player: PlayerId
    outcome: Outcome
    score_before: float
    """McMahon score at the start of the round."""
    score_after: float
    """McMahon score at the end of the round (what a pairing card's bottom box shows)."""
    opponent: PlayerId | None = None
    color: Color | None = None
    handicap: int = 0
    komi: float = 0.0
    board: int | None = None
    game: Game | None = None

    @property
    def points(self) -> float:
        return self.outcome.points

    @property
    def bye(self) -> ByeKind | None:
        return self.outcome.bye

    @property
    def gives_handicap(self) -> bool:
        """White in a handicap game: the stronger player giving stones."""
        return self.handicap > 0 and self.color is Color.WHITE


def initial_score(t: Tournament, player: PlayerId) -> float:
    """``Player.initial_score``; 0.0 when unset or the player is not registered."""
    p = t.players.get(player)
    return float(p.initial_score) if p is not None and p.initial_score is not None else 0.0


def last_round(t: Tournament) -> int:
    """Highest round number present in the tournament (0 before round 1 is paired)."""
    return max((r.number for r in t.rounds), default=0)


def player_ids(t: Tournament) -> list[PlayerId]:
    """Registered players in sheet order, then any id only found in games or byes."""
    ids = list(t.players)
    known = set(ids)
    extra = {p for r in t.rounds for g in r.games for p in g.players}
    extra |= {b.player for r in t.rounds for b in r.byes}
    return ids + sorted(extra - known)


def _outcome(result: Result | None, color: Color) -> Outcome:
    if result is None:
        return Outcome.PENDING
    if result is Result.JIGO:
        return Outcome.JIGO
    if result is Result.NO_RESULT:
        return Outcome.NO_RESULT
    if result is Result.DOUBLE_FORFEIT:
        return Outcome.DOUBLE_FORFEIT
    won = result.winner is color
    if result.is_forfeit:
        return Outcome.FORFEIT_WIN if won else Outcome.FORFEIT_LOSS
    return Outcome.WIN if won else Outcome.LOSS


Entry = tuple[Outcome, Game | None, Color | None]
"""A player's outcome in one round, with the game and the colour played (None: no game)."""
ABSENT: Entry = (Outcome.ABSENT, None, None)


def _round_entries(rnd: Round | None) -> dict[PlayerId, Entry]:
    """Each player's outcome in one round; a game wins over a bye recorded by mistake."""
    if rnd is None:
        return {}
    entries: dict[PlayerId, Entry] = {}
    for bye in rnd.byes:
        kind = Outcome.FORCED_BYE if bye.kind is ByeKind.FORCED else Outcome.VOLUNTARY_BYE
        entries[bye.player] = (kind, None, None)
    for game in rnd.games:
        for player, color in ((game.white, Color.WHITE), (game.black, Color.BLACK)):
            if entries.get(player, ABSENT)[1] is None:
                entries[player] = (_outcome(game.result, color), game, color)
    return entries


def _record(number: int, player: PlayerId, entry: Entry, before: float) -> RoundRecord:
    outcome, game, color = entry
    after = before + outcome.points
    if game is None or color is None:
        return RoundRecord(number, player, outcome, before, after)
    opponent = game.black if color is Color.WHITE else game.white
    return RoundRecord(  # by position: a 2,000-player standings makes 20,000 of these
        number, player, outcome, before, after, opponent, color, game.handicap, game.komi,
        game.board, game,
    )  # fmt: skip


def _horizon(t: Tournament, after_round: int | None) -> int:
    if after_round is None:
        return last_round(t)
    if after_round < 0:
        raise ValueError(f"after_round must be >= 0, not {after_round}")
    return after_round


def player_records(
    t: Tournament, after_round: int | None = None
) -> dict[PlayerId, list[RoundRecord]]:
    """Every player's rounds 1..N (N = ``after_round``, default the last round present).

    The list for each player has exactly N records, index ``i`` for round ``i + 1``.
    """
    horizon = _horizon(t, after_round)
    ids = player_ids(t)
    scores = {p: initial_score(t, p) for p in ids}
    records: dict[PlayerId, list[RoundRecord]] = {p: [] for p in ids}
    for number in range(1, horizon + 1):
        entries = _round_entries(t.round(number))
        for p in ids:
            rec = _record(number, p, entries.get(p, ABSENT), scores[p])
            records[p].append(rec)
            scores[p] = rec.score_after
    return records


def score_history(t: Tournament, after_round: int | None = None) -> dict[PlayerId, list[float]]:
    """McMahon score after each round: index 0 is the initial score, index r after round r.

    The scores of :func:`player_records`, summed without building every round's record
    (pairing, standings and the rule checks each ask this of the whole history)."""
    ids = player_ids(t)
    history = {p: [initial_score(t, p)] for p in ids}
    for number in range(1, _horizon(t, after_round) + 1):
        entries = _round_entries(t.round(number))
        for p in ids:
            scores = history[p]
            scores.append(scores[-1] + entries.get(p, ABSENT)[0].points)
    return history


def mcmahon_scores(t: Tournament, after_round: int | None = None) -> dict[PlayerId, float]:
    """McMahon scores after ``after_round`` (0: initial scores; default: last round present)."""
    return {p: hist[-1] for p, hist in score_history(t, after_round).items()}


def round_points(t: Tournament, number: int) -> dict[PlayerId, float]:
    """McMahon points each player earned in round ``number``."""
    entries = _round_entries(t.round(number))
    return {p: entries[p][0].points if p in entries else 0.0 for p in player_ids(t)}


def wins(t: Tournament, after_round: int | None = None) -> dict[PlayerId, float]:
    """Raw score ("number of wins", interface document, Tiebreak List Report).

    A win (forfeit wins too) counts 1, a jigo or no-result game 0.5; byes count nothing.
    Never used to break ties unless the TD explicitly picks the "Wins" tiebreak.
    """
    return {
        p: sum(r.outcome.win_points for r in recs)
        for p, recs in player_records(t, after_round).items()
    }
