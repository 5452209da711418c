"""Players rows as the TD typed them, settled before any action uses them.

One rule for every way a player arrives (``register``, ``preregister``, a row typed
into Players): the next action completes what the TDListA or the typed rank gives
(only blank cells), hands a temporary 9xxxx number to a new player, places a late
arrival in the current bands, and asks the TD about exactly what ``register`` asks
about. A warning the Log shows as accepted is not asked again; a Log stamp of the
Players' registration cells spares reading the TDListA when nothing was typed since.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date

from addin.actions.late_arrivals import place_late_arrivals
from addin.actions.member_list import read_egd, read_members
from addin.actions.needs import Needs, screen
from addin.actions.paired_check import with_paired_round_problems
from addin.actions.session import Session
from addin.core.lookup import MemberIndex, fold
from addin.core.model import Player, Settings
from addin.core.ratings import RatingError, parse_rating, rank_of
from addin.workbook import book, parts, players_sheet
from addin.workbook.gateway import Gateway, LogEntry, Problem, Row
from addin.workbook.log_sheet import read_log
from addin.workbook.players_intake import (
    Examiner,
    Intake,
    rebuilt,
    registration_digest,
    settled_rows,
)

STAMP = "Checked the players' registration: digest "
"""Log text before the digest of the Players' registration cells."""

# --- the Log --------------------------------------------------------------------------


def _log(gw: Gateway) -> list[tuple[str, str]]:
    return read_log(gw)


def last_stamp(log: Sequence[tuple[str, str]]) -> str | None:
    stamps = [m.removeprefix(STAMP) for _, m in log if m.startswith(STAMP)]
    return stamps[-1] if stamps else None


def accepted_in(log: Sequence[tuple[str, str]]) -> Callable[[str], bool]:
    """Whether a warning's core text was accepted before (register logs the same text)."""
    warned = [m for level, m in log if level == "Warning"]
    return lambda core: any(core in m for m in warned)


def duplicate_warnings(existing: Sequence[Player], new: Sequence[Player]) -> list[str]:
    """``register`` and ``preregister``: a new player with the name and rank of another."""
    seen: dict[tuple[str, str, str], Player] = {}
    warnings = []
    for p in [*existing, *new]:
        key = _player_identity(p)
        first = seen.setdefault(key, p)
        if first is not p and p in new:
            warnings.append(
                f"{p.name} ({key[2]}) is entered twice: AGA # {first.aga_id} and AGA # {p.aga_id}"
            )
    return warnings


def _player_identity(p: Player) -> tuple[str, str, str]:
    try:
        label = rank_of(parse_rating(p.rank)) if p.rank else rank_of(p.rating or 0.0)
    except (RatingError, ValueError):
        label = p.rank
    return fold(p.family_name), fold(p.given_name), label


# --- the entry points -----------------------------------------------------------------


def examine(
    b: book.Book,
    gw: Gateway,
    log: Sequence[tuple[str, str]],
    index: MemberIndex | None = None,
) -> Intake:
    """Complete and check every Players row (reads the TDListA only when rows changed)."""
    data = b.players_data
    settings = b.tournament.settings
    start = settings.start_date or date.today()
    digest = registration_digest(data.rows, settings)
    if digest == last_stamp(log):
        intake = settled_rows(data)
    else:
        index = index if index is not None else read_members(gw)
        intake = Examiner(
            data,
            index if len(index) else None,
            start,
            accepted_in(log),
            settings.end_date,
            egd=lambda: read_egd(gw),
            scale=settings.options.grade_scale,
        ).examine()
    intake.digest = registration_digest(intake.rows, settings)
    return intake


def settled_book(
    session: Session,
    wanted: Needs | Callable[[book.Book], Needs],
    *,
    writes_players: bool = False,
    index: MemberIndex | None = None,
) -> book.Book:
    """The workbook read, with every Players row settled, and screened for what the action
    needs (``addin.actions.needs``): a problem there stops it, the others are warnings.

    Asks the TD about new warnings (``Cancelled`` if declined). With ``writes_players``
    the caller writes the Players table from ``players_data`` (one block); otherwise the
    rows are written here when anything was filled.
    """
    gw = session.gw
    b = book.read_book(gw)
    log = _log(gw)
    intake = examine(b, gw, log, index)
    b = with_intake_problems(rebuilt(b, intake), intake)
    b = with_paired_round_problems(b, gw, log)
    ignored = screen(session, b, wanted)
    late, late_notes, placed = place_late_arrivals(b, intake.rows)
    session.warn(ignored + [w.shown for w in intake.warnings] + late)
    if placed:
        b = rebuilt(b, intake)
    changed = intake.changed or placed
    if changed and not writes_players:
        players_sheet.write_rows(gw, b, intake.rows)
    session.log += [LogEntry("Action", session.action, n) for n in intake.notes + late_notes]
    if intake.digest != last_stamp(log) and not intake.problems:
        session.log.append(LogEntry("Action", session.action, STAMP + intake.digest))
    return b


def with_intake_problems(b: book.Book, intake: Intake) -> book.Book:
    """The rows that cannot be completed, as problems screened like any other: a row that is
    not yet a player stops what reads every row (pairing, bands), not what prints around it."""
    if not intake.problems:
        return b
    placed = parts.with_parts(
        intake.problems, b.tables, b.settings.data.table.sheet, b.tournament.players
    )
    return replace(b, problems=[*placed, *b.problems])


def stamp_rows(session: Session, rows: Sequence[Row], settings: Settings) -> None:
    """After an action wrote Players rows it checked itself (register, preregister)."""
    session.log = [e for e in session.log if not e.message.startswith(STAMP)]
    session.log.append(
        LogEntry("Action", session.action, STAMP + registration_digest(rows, settings))
    )


def check_report(gw: Gateway, b: book.Book) -> tuple[list[Problem], list[str], list[str]]:
    """For ``check``: problems (the reader's, as settled), warnings not yet accepted, and
    what the next action would fill in."""
    log = _log(gw)
    intake = examine(b, gw, log)
    settled = with_paired_round_problems(rebuilt(b, intake), gw, log)
    problems = [*intake.problems, *settled.problems]
    warnings = [w.shown for w in intake.warnings]
    notes = [f"{n} (by the next action)" for n in intake.notes]
    if not problems:
        late, _, _ = place_late_arrivals(
            settled,
            [book.copy_row(r) for r in intake.rows],
        )
        warnings += late
    return problems, warnings, notes
