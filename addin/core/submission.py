"""What the AGA rating office would reject or question in a tournament report.

Pure: the action (``addin.actions.aga_check``) reads the workbook and hands over the
players' rows (duplicates included), the TDListA's expiry dates, the cells of the games and
settings, and today's date. Each problem names the player or the game and, where it has one,
the cell to fix.

Severity, decided per cause (docs/decisions.md, "The AGA submission check"):

* ``INVALID``: a value no report can carry (a control character, a contact cell longer than
  :data:`MAX_CONTACT` characters). Nothing is exported, even with ``--force``.
* ``ERROR``: the rating office rejects it: a temporary number (90000-99999), the same AGA #
  on two rows, a membership that lapsed before the first day with no fee collected, a blank
  Tournament name, Start date, Rules or Director name. The export stops unless ``--force``.
* ``WARNING``: the rating office will ask about it: a membership ending before the last day,
  a member with no known expiry date, two rows with the same name, a game with no result, a
  player with no game, an end date more than :data:`LATE_AFTER_DAYS` days ago, a blank
  Venue, End date, Director email or phone (and the other settings the AGA asks for).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from addin.core.model import Player, PlayerId, Tournament
from addin.core.participants import no_shows

LATE_AFTER_DAYS = 30
"""A report sent more than this many days after the last day is late."""
MAX_CONTACT = 500
"""The longest email, phone, address or citizenship a membership record carries."""
MAX_LISTED = 40
"""The longest chapter, state or membership type: the TDListA's are a few letters."""
TEMPORARY = range(90000, 100000)

REQUIRED_SETTINGS = ("name", "start_date", "rules", "director_name")
"""Blank: an error (the label, the dates and the rules make the report; the TD signs it)."""
QUESTIONED_SETTINGS = (
    "venue", "end_date", "director_email", "director_phone",
    "pairing_format", "basic_time_minutes", "komi", "rounds",
)  # fmt: skip
"""Blank: a warning (the interface document asks for them)."""

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_CONTACT_FIELDS = {
    "email": MAX_CONTACT,
    "phone": MAX_CONTACT,
    "address": MAX_CONTACT,
    "citizenship": MAX_CONTACT,
    "chapter": MAX_LISTED,
    "state": MAX_LISTED,
    "membership_type": MAX_LISTED,
}
"""The membership record's text fields, with the most characters each may hold."""


class Severity(enum.Enum):
    INVALID = "invalid"
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Cell:
    """Where to fix it: ``Players!A7 (AGA #)``."""

    sheet: str
    ref: str | None = None
    header: str | None = None

    @property
    def place(self) -> str:
        """``Players!A7``: the sheet and cell without the header."""
        return f"{self.sheet}!{self.ref}" if self.ref else self.sheet

    def __str__(self) -> str:
        return f"{self.place} ({self.header})" if self.header else self.place


@dataclass(frozen=True)
class SubmissionProblem:
    severity: Severity
    message: str
    """Names the player (AGA # and name) or the game (round, board, players)."""
    cell: Cell | None = None

    def __str__(self) -> str:
        return f"{self.cell}: {self.message}" if self.cell else self.message


@dataclass(frozen=True)
class PlayerRow:
    """One Players row read as a player, with its cells: each by the :class:`Player` field
    it holds, and the two a problem most often names by name."""

    player: Player
    cells: Mapping[str, Cell] = field(default_factory=dict)
    id_cell: Cell | None = None
    """The AGA # cell."""
    expiry_cell: Cell | None = None
    """The membership's Expires cell."""


@dataclass(frozen=True)
class SettingField:
    """A Tournament setting: its key, label, whether the sheet leaves it blank, its cell."""

    key: str
    label: str
    blank: bool
    cell: Cell | None = None


@dataclass(frozen=True)
class Submission:
    """Everything the check reads."""

    tournament: Tournament
    rows: Sequence[PlayerRow]
    settings: Sequence[SettingField] = ()
    listed_expiry: Mapping[PlayerId, date | None] = field(default_factory=dict)
    """Expiry dates of the members the TDListA sheet lists (``None``: listed, no date)."""
    result_cells: Mapping[tuple[int, PlayerId, PlayerId], Cell] = field(default_factory=dict)
    """The Result cell of each game, by (round, white, black)."""
    today: date = field(default_factory=date.today)


def check_submission(s: Submission) -> list[SubmissionProblem]:
    """Every problem, invalid values and errors first, then warnings; each once.

    A player who never came (:func:`addin.core.participants.no_shows`) is not reported, so
    their row's membership, number and contact cells are not the report's concern; two rows
    with one AGA # still are (the sheet cannot say which row is the player)."""
    gone = set(no_shows(s.tournament))
    listed = [r for r in s.rows if r.player.aga_id not in gone]
    kept = replace(s, rows=listed)
    problems = [
        *_setting_problems(s),
        *_late(s),
        *_cell_problems(listed),
        *_duplicates(s.rows),
        *_temporary_numbers(listed),
        *_memberships(kept),
        *_unplayed(s),
        *_without_games(kept),
    ]
    order = list(Severity)
    return sorted(dict.fromkeys(problems), key=lambda p: order.index(p.severity))


def _who(p: Player) -> str:
    return f"AGA {p.aga_id} {p.name}"


def _setting_problems(s: Submission) -> list[SubmissionProblem]:
    found = []
    for f in s.settings:
        if not f.blank:
            continue
        if f.key in REQUIRED_SETTINGS:
            found.append(
                SubmissionProblem(
                    Severity.ERROR, f"{f.label} is blank; the AGA report needs it", f.cell
                )
            )
        elif f.key in QUESTIONED_SETTINGS:
            found.append(
                SubmissionProblem(
                    Severity.WARNING, f"{f.label} is blank; the AGA asks for it", f.cell
                )
            )
    return found


def _last_day(t: Tournament) -> date | None:
    return t.settings.end_date or t.settings.start_date


def _late(s: Submission) -> list[SubmissionProblem]:
    last = _last_day(s.tournament)
    if last is None or (s.today - last).days <= LATE_AFTER_DAYS:
        return []
    days = (s.today - last).days
    field_ = next((f for f in s.settings if f.key == "end_date"), None)
    return [
        SubmissionProblem(
            Severity.WARNING,
            f"the tournament ended on {last.isoformat()}, {days} days ago: the AGA asks for "
            f"the report within {LATE_AFTER_DAYS} days",
            field_.cell if field_ else None,
        )
    ]


def _cell_problems(rows: Sequence[PlayerRow]) -> list[SubmissionProblem]:
    found = []
    for row in rows:
        p = row.player
        for key, most in _CONTACT_FIELDS.items():
            value: str = getattr(p, key)
            cell = row.cells.get(key)
            if len(value) > most:
                found.append(
                    SubmissionProblem(
                        Severity.INVALID,
                        f"{_who(p)}: {len(value):,} characters; a membership record holds at "
                        f"most {most}",
                        cell,
                    )
                )
            elif control := _CONTROL.search(value):
                found.append(
                    SubmissionProblem(
                        Severity.INVALID,
                        f"{_who(p)}: holds a control character "
                        f"({control.group()!r}), which no report can carry",
                        cell,
                    )
                )
    return found


def _duplicates(rows: Sequence[PlayerRow]) -> list[SubmissionProblem]:
    found = []
    by_id: dict[PlayerId, list[PlayerRow]] = {}
    by_name: dict[tuple[str, str], list[PlayerRow]] = {}
    for row in rows:
        by_id.setdefault(row.player.aga_id, []).append(row)
        key = (_fold(row.player.family_name), _fold(row.player.given_name))
        by_name.setdefault(key, []).append(row)
    for aga_id, same in by_id.items():
        if len(same) > 1:
            cells = ", ".join(_place(r) for r in same)
            found.append(
                SubmissionProblem(
                    Severity.ERROR,
                    f"AGA {aga_id} is on {len(same)} rows ({cells}): one member, one row",
                    same[1].id_cell,
                )
            )
    for same in by_name.values():
        ids = sorted({r.player.aga_id for r in same})
        if len(ids) > 1:
            named = ", ".join(f"AGA {r.player.aga_id} ({r.id_cell or '?'})" for r in same)
            found.append(
                SubmissionProblem(
                    Severity.WARNING,
                    f"{same[0].player.name} is registered {len(same)} times, as {named}: "
                    "the same member twice?",
                    same[1].id_cell,
                )
            )
    return found


def _place(row: PlayerRow) -> str:
    cell = row.id_cell
    return cell.place if cell else "?"


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def _temporary_numbers(rows: Sequence[PlayerRow]) -> list[SubmissionProblem]:
    return [
        SubmissionProblem(
            Severity.ERROR,
            f"{_who(r.player)} has a temporary number; the AGA no longer accepts them: put "
            "in the member's AGA number once the membership form is processed",
            r.id_cell,
        )
        for r in rows
        if r.player.aga_id in TEMPORARY
    ]


def _memberships(s: Submission) -> list[SubmissionProblem]:
    """Lapsed before the first day: error; ending before the last day: warning.

    The later of the Players row's Expires and the TDListA's date counts; a fee collected at
    the desk renews the membership, so the member is not questioned.
    """
    settings = s.tournament.settings
    first, last = settings.start_date, _last_day(s.tournament)
    found = []
    seen: set[PlayerId] = set()
    for row in s.rows:
        p = row.player
        if p.aga_id in TEMPORARY or p.aga_id in seen or p.aga_fee:
            continue
        seen.add(p.aga_id)
        cell = row.expiry_cell
        dates = [d for d in (p.membership_expiry, s.listed_expiry.get(p.aga_id)) if d]
        if not dates:
            where = "" if p.aga_id in s.listed_expiry else " and the TDListA sheet does not list it"
            found.append(
                SubmissionProblem(
                    Severity.WARNING,
                    f"{_who(p)}: no membership expiry date is known{where}; is the number "
                    "right and the membership current?",
                    cell,
                )
            )
            continue
        expiry = max(dates)
        if first is not None and expiry < first:
            found.append(
                SubmissionProblem(
                    Severity.ERROR,
                    f"{_who(p)}: membership expired on {expiry.isoformat()}, before the "
                    f"tournament ({first.isoformat()}); collect the renewal (AGA fee) or "
                    "correct the date",
                    cell,
                )
            )
        elif last is not None and expiry < last:
            found.append(
                SubmissionProblem(
                    Severity.WARNING,
                    f"{_who(p)}: membership expires on {expiry.isoformat()}, before the last "
                    f"round ({last.isoformat()})",
                    cell,
                )
            )
    return found


def _unplayed(s: Submission) -> list[SubmissionProblem]:
    found = []
    players = s.tournament.players
    for rnd in s.tournament.rounds:
        for g in rnd.games:
            if g.result is not None:
                continue
            names = " - ".join(
                _who(players[pid]) if pid in players else f"AGA {pid}" for pid in g.players
            )
            board = f" board {g.board}" if g.board is not None else ""
            found.append(
                SubmissionProblem(
                    Severity.WARNING,
                    f"round {rnd.number}{board}, {names}: no result; the AGA cannot rate it",
                    s.result_cells.get((rnd.number, g.white, g.black)),
                )
            )
    return found


def _without_games(s: Submission) -> list[SubmissionProblem]:
    played: Collection[PlayerId] = {
        pid for rnd in s.tournament.rounds for g in rnd.games for pid in g.players
    }
    return [
        SubmissionProblem(
            Severity.WARNING,
            f"{_who(row.player)} has no game in any round; the report lists the player anyway",
            row.id_cell,
        )
        for row in rows_without(s.rows, played)
    ]


def rows_without(rows: Sequence[PlayerRow], played: Collection[PlayerId]) -> list[PlayerRow]:
    """The first row of each player not in ``played`` (a player on two rows is one player)."""
    found = []
    seen: set[PlayerId] = set()
    for row in rows:
        pid = row.player.aga_id
        if pid not in played and pid not in seen:
            seen.add(pid)
            found.append(row)
    return found
