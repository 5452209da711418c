"""The workbook as an operation reads it, the warnings it asks the TD to confirm, and the
Log stamps that let the next action notice a hand edit."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from types import ModuleType

from addin.actions import intake, needs
from addin.actions.session import Session
from addin.core import consistency
from addin.core.model import Round, Tournament
from addin.core.scoring import last_round
from addin.workbook import book
from addin.workbook.gateway import Gateway, LogEntry
from addin.workbook.log_sheet import read_log


def log_lines(gw: Gateway) -> list[consistency.LogLine]:
    """(level, message) of every Log row, oldest first."""
    return read_log(gw)


def edited_round_warnings(t: Tournament, log: Sequence[consistency.LogLine]) -> list[str]:
    """Rule breaks in rounds edited by hand since the last check that the TD has not accepted."""
    return consistency.warnings_to_confirm(t, log)


def stamp_pairings(
    session: Session, rounds: Iterable[Round], log: Sequence[consistency.LogLine]
) -> None:
    """Log the pairings as they now stand, so that the next action notices hand edits."""
    rounds = list(rounds)
    last = consistency.last_stamp(m for _, m in log)
    if rounds and last != _pairing_digests(rounds):
        session.log.append(
            LogEntry("Action", session.action, f"Checked the {consistency.stamp(rounds)}")
        )


def _pairing_digests(rounds: Iterable[Round]) -> dict[int, str]:
    return {r.number: consistency.pairing_digest(r) for r in rounds}


def _standings() -> ModuleType:
    """addin.actions.standings, imported when used: it imports this package for its checks."""
    from addin.actions import standings

    return standings


@dataclass
class Desk:
    """What every operation starts from: the workbook as read, and its Log."""

    b: book.Book
    log: list[consistency.LogLine]

    @property
    def t(self) -> Tournament:
        return self.b.tournament


def open_desk(session: Session) -> Desk:
    b = intake.settled_book(session, needs.director())
    return Desk(b, log_lines(session.gw))


def check_warnings(
    session: Session,
    desk: Desk,
    after: Tournament | None = None,
    own: Collection[consistency.Rule] = (),
) -> list[str]:
    """Warnings besides the operation's own: breaks of the ``own`` rules that its change of
    the rounds makes (``after``), rule breaks in rounds edited by hand, and earlier results
    changed by hand."""
    standings = _standings()
    changed = standings.changed_earlier_rounds(desk.t, standings.last_logged_digests(desk.log))
    results = [
        f"results of round {n} changed after a later round was paired: "
        "every score and tiebreak after it is recomputed"
        for n in changed
    ]
    if after is None:
        return results + consistency.warnings_to_confirm(desk.t, desk.log)
    rules = consistency.warnings_to_confirm(after, desk.log, desk.t, own)
    return results + rules


def finish(session: Session, desk: Desk, after: Tournament, message: str) -> None:
    """Stamp the rounds as they now stand, then log ``message``.

    The stamp holds every round's pairing digest and, in the form the standings read, the
    results digest of every round but the latest: results of the round in play are still
    coming in, and only a change to an earlier round's results is worth a question.
    """
    standings = _standings()
    latest = last_round(after)
    results = {n: d for n, d in standings.digests(after).items() if n < latest}
    logged = standings.last_logged_digests(desk.log)
    pairings = _pairing_digests(after.rounds)
    stamped = consistency.last_stamp(m for _, m in desk.log)
    if pairings and (stamped != pairings or any(logged.get(n) != d for n, d in results.items())):
        text = f"Checked the {consistency.stamp(after.rounds)}"
        if results:
            text += "; results digest " + " ".join(f"{n}:{d}" for n, d in results.items())
        session.log.append(LogEntry("Action", session.action, text))
    session.done(message)
