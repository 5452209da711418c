"""Players rows as the TD typed them, completed and checked (``addin.actions.intake``).

The row-level half of the intake: which cells a row lacks, what the TDListA, the EGD list
(a PIN typed in EGD PIN) or the typed rank fills into them (only blank cells), a temporary
number for a new player, and the problems and warnings naming the row. The action-level
half (the Log, the TD's answers, writing) is ``addin.actions.intake``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from addin.core.egd import (
    EGD_RANK_MISMATCH,
    UNKNOWN_EGD_PIN,
    EgdIndex,
    EgdPlayer,
    listed_rating,
    rank_warning,
)
from addin.core.european import GradeScale
from addin.core.lookup import MemberIndex, fold
from addin.core.member import Member
from addin.core.model import Player, Settings
from addin.core.ratings import RatingError, parse_rating, rank_of
from addin.core.registration import (
    RegistrationWarning,
    check_registration,
    describe,
    entry_rating,
    is_temporary_id,
    next_temporary_id,
    one_cell_name,
)
from addin.workbook.book import Book, copy_row, player_from_row
from addin.workbook.gateway import Problem, Row, TableData

REGISTRATION_KEYS = (
    "aga_id", "family_name", "given_name", "rank", "aga_rating",
    "membership_type", "membership_expiry", "chapter", "state", "egd_pin",
)  # fmt: skip
"""Cells whose change means a row must be checked against the TDListA again."""


@dataclass(frozen=True)
class PendingWarning:
    """A warning to ask about: ``core`` is what the Log must show for it to count as
    accepted (the same text ``register`` logs); ``shown`` adds where it is."""

    core: str
    shown: str


@dataclass
class Intake:
    """What settling the Players rows found and did."""

    rows: list[Row]
    changed: bool = False
    problems: list[Problem] = field(default_factory=list)
    warnings: list[PendingWarning] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    resolved: set[str] = field(default_factory=set)
    """Cells whose blank-value problem from ``read_book`` this intake answers."""
    digest: str = ""


def registration_digest(rows: Sequence[Row], settings: Settings) -> str:
    """A digest of what the registration checks depend on (entry rating: only whether blank;
    the tournament's dates, which decide lapsed and expiring memberships)."""
    parts = [f"{settings.start_date}|{settings.end_date}"]
    for row in rows:
        values = [str(row.values.get(k)) for k in REGISTRATION_KEYS]
        values.append(str(row.values.get("rating") is None))
        parts.append("\t".join(values))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _text(value: object) -> str:
    return "" if value is None else str(value).strip()


def _name(values: dict[str, object]) -> str:
    family, given = _text(values.get("family_name")), _text(values.get("given_name"))
    return f"{family}, {given}" if given else family


def _where(row: Row) -> str:
    return f"Players row {row.number}" if row.number else "Players (new row)"


class Examiner:
    """Walks the rows once; each row's fills go into a copy of the row."""

    def __init__(
        self,
        data: TableData,
        index: MemberIndex | None,
        start: date,
        accepted: Callable[[str], bool],
        end: date | None = None,
        egd: Callable[[], EgdIndex] | None = None,
        scale: GradeScale = GradeScale.AGA_BANDS,
    ) -> None:
        self.data = data
        self.index = index
        self.start = start
        self.end = end
        self.accepted = accepted
        self._egd = egd
        """The EGD list, read only when a row holds a PIN."""
        self._egd_index: EgdIndex | None = None
        self.scale = scale
        self.intake = Intake([copy_row(r) for r in data.rows])
        self.used = {v for r in data.rows if (v := r.whole("aga_id")) is not None}
        self.rows_of = {v: r.number for r in data.rows if (v := r.whole("aga_id")) is not None}

    def problem(self, row: Row, key: str, message: str) -> None:
        self.intake.problems.append(self.data.problem(row, key, message))

    def warn(self, row: Row, warnings: Sequence[RegistrationWarning]) -> None:
        for w in warnings:
            if not self.accepted(w.message):
                self.intake.warnings.append(
                    PendingWarning(w.message, f"{_where(row)}: {w.message}")
                )

    def fill(self, row: Row, values: dict[str, object], why: str) -> None:
        filled = []
        for key, value in values.items():
            if value is None or value == "" or row.values.get(key) is not None:
                continue
            if key in row.unread:
                continue  # typed but unreadable (a date, an error value): named, never refilled
            row.values[key] = value
            filled.append(self.data.table.column(key).header)
        if filled:
            self.intake.changed = True
            self.intake.notes.append(f"{_where(row)}: filled in {', '.join(filled)} {why}")

    def examine(self) -> Intake:
        for row in self.intake.rows:
            values = row.values
            typed = {k: v for k, v in values.items() if v is not None}
            if not typed:
                continue
            aga_id = row.whole("aga_id")
            if aga_id is None and "aga_id" in row.unread:
                continue  # a value of the wrong kind: the reader names the cell, nothing fills it
            listed = self.egd_player(row)
            if aga_id is None:
                self.resolve(row, "aga_id")
                if listed is not None:
                    self.from_egd_list(row, listed, numbered=False)
                else:
                    self.without_number(row)
            else:
                if values.get("family_name") is None:
                    self.resolve(row, "family_name")
                if listed is not None:
                    self.from_egd_list(row, listed, numbered=True)
                self.with_number(row, aga_id)
        self.duplicates()
        return self.intake

    def resolve(self, row: Row, key: str) -> None:
        cell = row.cells.get(key)
        if cell:
            self.intake.resolved.add(cell)

    def member(self, aga_id: int) -> Member | None:
        if self.index is None or is_temporary_id(aga_id):
            return None
        return self.index.by_id(aga_id)

    def with_number(self, row: Row, aga_id: int) -> None:
        member = self.member(aga_id)
        typed_name = _name(row.values) if row.values.get("family_name") is not None else ""
        if member is not None:
            self.from_member(row, member, "from the TDListA")
            if self.index is not None:
                self.warn(row, self.registration(aga_id, typed_name, row))
            return
        if row.values.get("family_name") is None:
            listed = "is not in the TDListA" if self.index is not None else "is not known"
            self.problem(
                row, "family_name", f"AGA # {aga_id} {listed}: type the player's family name"
            )
        self.rating_from_rank(row)
        if self.index is not None and typed_name:
            self.warn(row, self.registration(aga_id, typed_name, row))

    def registration(self, aga_id: int | None, name: str, row: Row) -> list[RegistrationWarning]:
        assert self.index is not None
        requested = _text(row.values.get("rank")) or None
        return check_registration(
            self.index, self.start, aga_id=aga_id, name=name, requested=requested, end_date=self.end
        )

    def without_number(self, row: Row) -> None:
        if row.values.get("family_name") is None:
            self.problem(
                row, "aga_id", "a row needs an AGA # or a family name (and a rank): type one"
            )
            return
        name = _name(row.values)
        rank = _text(row.values.get("rank"))
        matches = self.index.by_name(name) if self.index is not None else []
        if len(matches) == 1:
            member = matches[0]
            if member.aga_id in self.used:
                self.problem(
                    row,
                    "aga_id",
                    f"{name} is AGA # {member.aga_id}, already registered in Players row "
                    f"{self.rows_of.get(member.aga_id)}: delete this row or type the AGA #",
                )
                return
            self.take_number(row, member.aga_id, "from the TDListA (the only member of that name)")
            self.listed_spelling(row, member)
            self.from_member(row, member, "from the TDListA")
            core = (
                f"{name} was given AGA # {member.aga_id} because only that member has the name "
                f"({describe(member)}); type another AGA # if this is someone else"
            )
            if not self.accepted(core):
                self.intake.warnings.append(PendingWarning(core, f"{_where(row)}: {core}"))
            self.warn(row, self.registration(member.aga_id, name, row))
            return
        if not rank:
            several = ""
            if matches:
                several = "; it matches " + "; ".join(describe(m) for m in matches)
            self.problem(
                row, "rank", f"{name} has no AGA #: type a rank (3k, 4d) or the AGA #{several}"
            )
            return
        try:
            aga_id = next_temporary_id(self.used)
        except ValueError as err:
            self.problem(row, "aga_id", str(err))
            return
        if row.values.get("given_name") is None:
            self.warn(row, one_cell_name(_text(row.values.get("family_name"))))
        self.take_number(row, aga_id, "(a temporary number: the player is not in the TDListA)")
        self.rating_from_rank(row)
        if self.index is not None:
            self.warn(row, self.registration(None, name, row))

    def egd_player(self, row: Row) -> EgdPlayer | None:
        """The player of the PIN typed in the row's EGD PIN, if the EGD list has them; a PIN
        the list does not hold is a warning (when there is a list)."""
        pin = row.values.get("egd_pin")
        if not isinstance(pin, int) or self._egd is None:
            return None
        if self._egd_index is None:
            self._egd_index = self._egd()
        found = self._egd_index.by_pin(pin)
        if found is None and len(self._egd_index):
            who = f" ({_name(row.values)})" if row.values.get("family_name") else ""
            message = f"EGD PIN {pin}{who} is not in the EGD list"
            self.warn(row, [RegistrationWarning(UNKNOWN_EGD_PIN, message)])
        return found

    def from_egd_list(self, row: Row, player: EgdPlayer, *, numbered: bool) -> None:
        """Fill the row's blanks from the EGD list, as ``register --pin`` fills a new row; a
        row without an AGA # gets a temporary number."""
        earlier = self.intake.rows[: self.intake.rows.index(row)]
        holder = next((r for r in earlier if r.values.get("egd_pin") == player.pin), None)
        if holder is not None:
            self.problem(
                row,
                "egd_pin",
                f"EGD PIN {player.pin} is already in Players row {holder.number}: delete this "
                "row or type another PIN",
            )
            return
        requested = _text(row.values.get("rank")) or None
        try:
            rating = listed_rating(player, self.scale, requested)
        except RatingError:
            rating = None  # read_book names the rank's cell
        typed_name = row.values.get("family_name") is not None
        values: dict[str, object] = {
            "family_name": player.family_name,
            "given_name": player.given_name if not typed_name else None,
            "rank": rank_of(rating) if rating is not None and not requested else None,
            "rating": rating,
            "gor": player.gor,
            "chapter": player.club,
            "country": player.country,
        }
        if not numbered:
            try:
                aga_id = next_temporary_id(self.used)
            except ValueError as err:
                self.problem(row, "aga_id", str(err))
                return
            self.fill(row, {"family_name": player.family_name}, "from the EGD list")
            self.take_number(row, aga_id, "(a temporary number: the player is in the EGD list)")
        self.fill(row, values, "from the EGD list")
        warning = rank_warning(player, self.scale, requested) if rating is not None else None
        if warning:
            self.warn(row, [RegistrationWarning(EGD_RANK_MISMATCH, warning)])

    def listed_spelling(self, row: Row, member: Member) -> None:
        """A whole name typed in Family name ("Janice Kim", "Kim, Janice") that the list
        holds, Given name blank: the two cells as the list has them, and a note says so."""
        typed = _text(row.values.get("family_name"))
        if row.values.get("given_name") is not None or not member.given_name:
            return
        if fold(typed) == fold(member.family_name):
            return
        row.values["family_name"] = member.family_name
        row.values["given_name"] = member.given_name
        self.intake.changed = True
        self.intake.notes.append(
            f"{_where(row)}: {typed!r} written as Family name {member.family_name!r}, Given "
            f"name {member.given_name!r}, as the TDListA has AGA # {member.aga_id}"
        )

    def take_number(self, row: Row, aga_id: int, why: str) -> None:
        self.used.add(aga_id)
        self.rows_of[aga_id] = row.number
        row.values["aga_id"] = aga_id
        self.intake.changed = True
        self.intake.notes.append(f"{_where(row)}: {_name(row.values)} gets AGA # {aga_id} {why}")

    def from_member(self, row: Row, member: Member, why: str) -> None:
        requested = _text(row.values.get("rank"))
        values: dict[str, object] = {
            "family_name": member.family_name or member.name,
            "given_name": member.given_name if row.values.get("family_name") is None else None,
            "membership_type": member.membership_type,
            "membership_expiry": member.expiry,
            "chapter": member.chapter,
            "state": member.state,
        }
        if row.values.get("rating") is None:
            try:
                values["rating"] = entry_rating(member, requested or None)
            except (RatingError, ValueError):
                if not requested:
                    self.problem(
                        row,
                        "rank",
                        f"AGA {member.aga_id} {member.name} has no published rating: type a rank",
                    )
        else:
            self.retyped_rank(row, member, requested)
        rating = values.get("rating", row.values.get("rating"))
        blank = any(row.values.get(k) is None and v not in (None, "") for k, v in values.items())
        if blank or (rating is not None and rating != member.rating):
            values["aga_rating"] = member.rating
        self.fill(row, values, why)

    def retyped_rank(self, row: Row, member: Member, requested: str) -> None:
        """A rank typed over a row that entered at the published rating: the rank the TD
        accepts becomes the entry rating, as at ``register --rank`` (the AGA rating stays)."""
        rating = row.values.get("rating")
        if not requested or member.rating is None or rating != member.rating:
            return
        if row.values.get("aga_rating") not in (None, member.rating):
            return
        try:
            wanted = entry_rating(member, requested)
        except (RatingError, ValueError):
            return
        if wanted != rating:
            row.values["rating"] = wanted
            row.values["aga_rating"] = member.rating
            self.intake.changed = True
            self.intake.notes.append(
                f"{_where(row)}: entry rating {rating:g} -> {wanted:g}, the rank typed "
                f"({requested}); the AGA rating {member.rating:g} stays beside it"
            )

    def rating_from_rank(self, row: Row) -> None:
        rank = _text(row.values.get("rank"))
        if row.values.get("rating") is not None:
            return
        if not rank:
            self.problem(row, "rank", f"{_name(row.values)}: type a rank (3k, 4d) or a rating")
            return
        try:
            rating = parse_rating(rank)
        except RatingError:
            return  # read_book names the cell
        self.fill(row, {"rating": rating}, "from the rank typed")

    def duplicates(self) -> None:
        """The same family name, given name and rank twice: perhaps one player typed twice."""
        seen: dict[tuple[str, str, str], Row] = {}
        for row in self.intake.rows:
            key = _identity(row)
            if key is None:
                continue
            first = seen.setdefault(key, row)
            if first is row:
                continue
            name, rank = _name(row.values), key[2]
            core = (
                f"{name} ({rank}) is entered twice: AGA # {first.values.get('aga_id')} "
                f"and AGA # {row.values.get('aga_id')}"
            )
            if not self.accepted(core):
                shown = f"Players rows {first.number} and {row.number}: {core}"
                self.intake.warnings.append(PendingWarning(core, shown))


def _identity(row: Row) -> tuple[str, str, str] | None:
    family = _text(row.values.get("family_name"))
    if not family:
        return None
    rating = row.numeric("rating")
    rank = _text(row.values.get("rank"))
    label = rank
    try:
        if rank:
            label = rank_of(parse_rating(rank))
        elif rating is not None:
            label = rank_of(rating)
    except (RatingError, ValueError):
        label = rank
    return fold(family), fold(_text(row.values.get("given_name"))), label


def rebuilt(b: Book, intake: Intake) -> Book:
    """The book as if the Players rows were ``intake.rows``."""
    rounds = b.tournament.settings.rounds
    data = replace(b.players_data, rows=intake.rows)
    players: dict[int, Player] = {}
    for row in intake.rows:
        p = player_from_row(row, rounds)
        if p is not None and p.aga_id not in players:
            players[p.aga_id] = p
    t = replace(b.tournament, players=players)
    problems = [
        p
        for p in b.problems
        if (p.cell not in intake.resolved or p.sheet != data.table.sheet)
        and p.missing_player not in players
    ]
    return replace(b, tournament=t, tables={**b.tables, data.table.name: data}, problems=problems)


def settled_rows(data: TableData) -> Intake:
    """The rows as read, nothing to complete (their registration cells checked before)."""
    return Intake([copy_row(r) for r in data.rows])


def with_rows(rows: list[Row]) -> Intake:
    """An intake of ``rows`` written by the action itself (``register``)."""
    return Intake(rows)


def row_aga_id(row: Row) -> object:
    """The AGA # a Players row holds (None when blank or unreadable)."""
    return row.values.get("aga_id")


def place_row(row: Row, band: int, initial_score: float) -> None:
    """A late arrival's row put in ``band`` (unless a band is typed there) with
    ``initial_score``."""
    row.values["band"] = row.values.get("band") or band
    row.values["initial_score"] = initial_score
