"""Registration: entry ratings, the TD's warnings, temporary numbers, pre-registration.

The AGA interface document (Registration) asks the program to warn the TD
*actively* of a lapsed membership, of a name that matches several members (showing
each), and of a player asking to play at a rating other than the published one.
Warnings here are data (``RegistrationWarning``); the front doors show them.

Pure: no spreadsheet library is imported here.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import date

from addin.core import text_input
from addin.core.limits import MAX_AGA_ID, MAX_ROUNDS, cut, shown
from addin.core.lookup import MemberIndex, current_first, expiry_text, fold, query_words
from addin.core.member import Member, split_name
from addin.core.model import Player
from addin.core.ratings import RatingError, is_rating_text, parse_rating, rank_of

TEMPORARY_IDS = range(90000, 100000)
"""AGA numbers a tournament hands to players who join at the event."""

LAPSED = "lapsed-membership"
EXPIRING = "expiring-membership"
NO_EXPIRY = "no-expiry-date"
DUPLICATE_NAME = "duplicate-name"
RATING_MISMATCH = "rating-mismatch"
UNKNOWN_AGA_NUMBER = "unknown-aga-number"
NAME_MISMATCH = "name-mismatch"
NAME_MATCHES_MEMBER = "name-matches-member"
BAD_RANK = "unreadable-rank"
NO_COMMA = "name-without-comma"


class RegistrationError(ValueError):
    """A registration step that cannot produce its result."""


@dataclass(frozen=True)
class RegistrationWarning:
    code: str
    """One of the module's constants (``LAPSED``, ``DUPLICATE_NAME``, ...)."""
    message: str


def entry_rating(member: Member | None, requested: str | None) -> float:
    """The rating a player enters at: the requested rank when it differs from the published
    rating (the TD was warned and accepted it), else the published rating, else the request.

    Raises ``RatingError`` for an unreadable request and ``RegistrationError``
    when neither gives a rating.
    """
    text = (requested or "").strip()
    if member is not None and member.rating is not None:
        if text and any(w.code == RATING_MISMATCH for w in rating_warnings(member, text)):
            return parse_rating(text)
        return member.rating
    if text:
        return parse_rating(text)
    who = f"AGA {member.aga_id} {member.name} has no published rating" if member else "no member"
    raise RegistrationError(f"no entry rating: {who} and no rank was requested")


def next_temporary_id(used: set[int]) -> int:
    """The lowest free number in 90000-99999: the same players get the same numbers."""
    for candidate in TEMPORARY_IDS:
        if candidate not in used:
            return candidate
    raise RegistrationError(
        f"all {len(TEMPORARY_IDS)} temporary AGA numbers "
        f"{TEMPORARY_IDS[0]}-{TEMPORARY_IDS[-1]} are in use"
    )


def is_temporary_id(aga_id: int) -> bool:
    return aga_id in TEMPORARY_IDS


def member_to_player(member: Member, requested: str | None = None) -> Player:
    """A tournament player from a list member, entering at ``entry_rating``.

    ``rank`` records what the player asked for, else the published rank; an unrated
    member who asked for nothing gets no rating (the TD must enter one). The published
    rating stays beside the entry rating (``aga_rating``).
    """
    requested = (requested or "").strip()
    published = rank_of(member.rating) if member.rating is not None else ""
    rating = entry_rating(member, requested) if (member.rating is not None or requested) else None
    return Player(
        aga_id=member.aga_id,
        family_name=member.family_name,
        given_name=member.given_name,
        rank=requested or published,
        rating=rating,
        aga_rating=member.rating,
        membership_type=member.membership_type,
        membership_expiry=member.expiry,
        chapter=member.chapter,
        state=member.state,
    )


def register_preregistration(
    pre: PreRegistration,
    index: MemberIndex,
    start_date: date,
    used_ids: set[int],
    end_date: date | None = None,
) -> tuple[Player, list[RegistrationWarning]]:
    """The player a pre-registration row becomes, and what the TD must be told about it.

    A row without an AGA number gets the lowest free temporary number; the caller
    adds the player's number to ``used_ids`` before registering the next row.
    The list's chapter code wins over the club the player typed (it is what the AGA
    and the same-club rule compare); the typed club fills in when the list has none.
    """
    warnings = check_registration(
        index, start_date, aga_id=pre.aga_id, name=pre.name, requested=pre.rank, end_date=end_date
    )
    member = index.by_id(pre.aga_id) if pre.aga_id is not None else None
    if member is not None:
        player = member_to_player(member, pre.rank)
    else:
        aga_id = pre.aga_id if pre.aga_id is not None else next_temporary_id(used_ids)
        rating = parse_rating(pre.rank) if pre.rank else None
        family, given = pre.family_name, pre.given_name
        if pre.without_comma:
            family, given, said = new_member_name(pre.name, index)
            warnings = said + warnings
        player = Player(aga_id, family, given, rank=pre.rank, rating=rating)
    player = replace(
        player,
        chapter=player.chapter or pre.club,
        email=pre.email,
        bye_requests=pre.bye_requests,
    )
    return player, warnings


def describe(member: Member, day: date | None = None) -> str:
    """One member on one line, as a TD compares candidates; a membership expired before
    ``day`` (the event's first day) is marked LAPSED."""
    rating = "unrated" if member.rating is None else _rating_text(member.rating)
    expiry = expiry_text(member, day)
    place = " ".join(cut(p) for p in (member.chapter, member.state) if p)
    kind = cut(member.membership_type) if member.membership_type else "?"
    parts = [f"AGA {member.aga_id} {cut(member.name)}", kind, rating, expiry]
    if place:
        parts.append(place)
    return ", ".join(parts)


def _rating_text(rating: float) -> str:
    return f"{rating:.5f} ({rank_of(rating)})"


def _date_text(day: date) -> str:
    """Dates as the workbook shows them (YYYY-MM-DD), in every message and look-up."""
    return day.isoformat()


# --- a name typed without a comma ---------------------------------------------------------


def has_comma(name: str) -> bool:
    return "," in name


def given_family(name: str) -> tuple[str, str]:
    """("Family", "Given") of a name typed without a comma, as a player says it: the last
    word is the family name ("Mary Ann Smith" -> Smith, Mary Ann)."""
    words = name.split()
    if len(words) < 2:
        return name.strip(), ""
    return words[-1], " ".join(words[:-1])


def new_member_name(
    name: str, index: MemberIndex | None
) -> tuple[str, str, list[RegistrationWarning]]:
    """The family and given name of a player who gets a temporary number, from the name
    as typed, and the warning a name without a comma needs.

    "Family, Given" is taken as written. A name without a comma is never taken as a family
    name silently: when the list holds that name in either order ("Janice Kim" is "Kim,
    Janice"), it is split as the list splits it (``check_registration`` names the member);
    otherwise at its last word, and the warning says how.
    """
    if has_comma(name):
        family, given = split_name(name)
        return family, given, []
    matches = index.by_name(name) if index is not None and len(query_words(name)) > 1 else []
    if matches:
        return matches[0].family_name, matches[0].given_name, []
    family, given = given_family(name)
    return family, given, [no_comma_warning(name, family, given)]


def no_comma_warning(name: str, family: str, given: str) -> RegistrationWarning:
    shown = name.strip()
    if given:
        split = f'family name "{family}", given name "{given}"'
    else:
        split = f'family name "{family}" and no given name'
    message = (
        f'"{shown}" has no comma: registered as {split}; if that is wrong, write the '
        'name as "Family, Given"'
    )
    return RegistrationWarning(NO_COMMA, message)


def one_cell_name(family: str) -> list[RegistrationWarning]:
    """A new player's row whose Family name holds what looks like a whole name ("Janice
    Kim", "Kim, Janice") and whose Given name is blank: the TD is asked, never silently
    given a family name of two names."""
    if has_comma(family):
        split_family, split_given = split_name(family)
    elif len(family.split()) > 1:
        split_family, split_given = given_family(family)
    else:
        return []
    message = (
        f'"{family}" is all in Family name and Given name is blank: if the family name is '
        f'"{split_family}", type "{split_family}" in Family name and "{split_given}" in '
        "Given name"
    )
    return [RegistrationWarning(NO_COMMA, message)]


def listed_under(
    name: str, matches: list[Member], day: date | None = None, *, otherwise: str = ""
) -> str:
    """A refusal for a new member whose name the list holds (typed without a comma, or
    with no rank given); ``otherwise``: how to register a different player of that name."""
    if day is not None:
        matches = current_first(matches, day)
    who = "; ".join(describe(m, day) for m in matches)
    numbers = " or ".join(str(m.aga_id) for m in matches[:3])
    otherwise = otherwise or 'write the name as "Family, Given"'
    return (
        f"{name.strip()} is in the TDListA: {who}. Register the member by AGA # ({numbers}); "
        f"a different player of that name: {otherwise}"
    )


# --- warnings -----------------------------------------------------------------------


def check_registration(
    index: MemberIndex,
    start_date: date,
    *,
    aga_id: int | None = None,
    name: str | None = None,
    requested: str | None = None,
    end_date: date | None = None,
) -> list[RegistrationWarning]:
    """Everything the TD must be told about one registration, in a stable order.

    With an AGA number: is it in the list, does the name agree, has the membership
    lapsed by ``start_date``, does the requested rank differ from the published
    rating. Without one (or with a temporary number): does the name match members
    already in the list (one: perhaps this player; several: which one?).
    """
    name = (name or "").strip()
    if aga_id is None or is_temporary_id(aga_id):
        return _name_warnings(index, name, start_date)
    member = index.by_id(aga_id)
    if member is None:
        return [_unknown_number(aga_id, name), *_name_warnings(index, name, start_date)]
    warnings = _identity_warnings(index, member, name, start_date)
    warnings += _membership_warnings(member, start_date, end_date)
    warnings += rating_warnings(member, requested)
    return warnings


def _unknown_number(aga_id: int, name: str) -> RegistrationWarning:
    who = f" ({name})" if name else ""
    return RegistrationWarning(
        UNKNOWN_AGA_NUMBER, f"AGA number {aga_id}{who} is not in the TDListA"
    )


def _name_warnings(index: MemberIndex, name: str, day: date) -> list[RegistrationWarning]:
    """For a player without a list number: members who already carry this name."""
    matches = index.by_name(name) if name else []
    if len(matches) > 1:
        return [_duplicate_name(name, matches, day)]
    if len(matches) == 1:
        message = (
            f"{name} matches a member of the TDListA: {describe(matches[0], day)}; "
            "enter that AGA number if it is the same player"
        )
        return [RegistrationWarning(NAME_MATCHES_MEMBER, message)]
    return []


def _duplicate_name(name: str, matches: list[Member], day: date) -> RegistrationWarning:
    """Each member of that name, current ones first (lapsed ones marked)."""
    lines = "\n".join(f"  {describe(m, day)}" for m in current_first(matches, day))
    message = f"{name} matches {len(matches)} members of the TDListA:\n{lines}"
    return RegistrationWarning(DUPLICATE_NAME, message)


def _identity_warnings(
    index: MemberIndex, member: Member, name: str, day: date
) -> list[RegistrationWarning]:
    """The name entered against the member that the number designates."""
    if not name:
        return []
    warnings: list[RegistrationWarning] = []
    if not same_person_name(name, member):
        message = f"{name} was entered with AGA number {member.aga_id}, which is {member.name}"
        warnings.append(RegistrationWarning(NAME_MISMATCH, message))
    matches = index.by_name(name)
    if len(matches) > 1 and member not in matches:
        warnings.append(_duplicate_name(name, matches, day))
    return warnings


def same_person_name(name: str, member: Member) -> bool:
    """Same family name (folded), or the same words in another order.

    The second case covers the list's empty family names: "Yang, Eric" and
    ", Eric Yang" are the same name. Given names may differ (Bob, Robert).
    """
    family, _ = split_name(name)
    if _words(family) == _words(member.family_name):
        return True
    return sorted(_words(name.replace(",", " "))) == sorted(_words(member.name.replace(",", " ")))


def _words(text: str) -> list[str]:
    return fold(text).split()


def _membership_warnings(
    member: Member, start_date: date, end_date: date | None = None
) -> list[RegistrationWarning]:
    """Lapsed means expired before the first day: a membership ending that day still counts.
    Expiring means it ends after the first day but before the last."""
    if member.expiry is None:
        message = f"{describe(member)}: the TDListA gives no membership expiry date"
        return [RegistrationWarning(NO_EXPIRY, message)]
    if member.expiry < start_date:
        message = (
            f"membership of AGA {member.aga_id} {member.name} lapsed on "
            f"{_date_text(member.expiry)}, before the tournament starts "
            f"({_date_text(start_date)})"
        )
        return [RegistrationWarning(LAPSED, message)]
    if end_date is not None and member.expiry < end_date:
        message = (
            f"membership of AGA {member.aga_id} {member.name} expires on "
            f"{_date_text(member.expiry)}, before the tournament ends ({_date_text(end_date)})"
        )
        return [RegistrationWarning(EXPIRING, message)]
    return []


def rating_warnings(member: Member, requested: str | None) -> list[RegistrationWarning]:
    """A request that differs from the published rating (none when either is missing).

    Different means: for a rank ("3k", "4 dan"), a rank other than the published
    rating's rank; for a rating ("-3.45"), a value that does not agree with the
    published rating to the decimals written (within half a unit of the last digit).
    """
    text = (requested or "").strip()
    if not text or member.rating is None:
        return []
    try:
        value = parse_rating(text)
    except RatingError as error:
        return [RegistrationWarning(BAD_RANK, f"AGA {member.aga_id} {member.name}: {error}")]
    published = _rating_text(member.rating)
    if is_rating_text(text):
        decimals = len(text.partition(".")[2])
        differs = abs(value - member.rating) > 0.5 * 10.0**-decimals + 1e-9
    else:
        differs = rank_of(value) != rank_of(member.rating)
    if not differs:
        return []
    message = (
        f"AGA {member.aga_id} {member.name} asks to play at {text}; "
        f"the published AGA rating is {published}"
    )
    return [RegistrationWarning(RATING_MISMATCH, message)]


# --- pre-registration ---------------------------------------------------------------


@dataclass(frozen=True)
class PreRegistration:
    """One row of a pre-registration CSV (an online form's export)."""

    line: int
    name: str
    family_name: str
    given_name: str
    aga_id: int | None = None
    rank: str = ""
    club: str = ""
    email: str = ""
    bye_requests: frozenset[int] = field(default_factory=frozenset)
    without_comma: bool = False
    """The Name column held no comma ("Janice Kim"): ``name`` is as typed, and who the
    player is in the list, or else a warning, decides the split (``new_member_name``)."""


class PreRegistrationError(ValueError):
    """Every problem of the file, each naming the file, the line and the column."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


_COLUMNS: dict[str, frozenset[str]] = {
    "name": frozenset({"name", "player", "playername", "fullname", "familygiven"}),
    "family_name": frozenset({"familyname", "family", "lastname", "surname"}),
    "given_name": frozenset({"givenname", "given", "firstname"}),
    "aga_id": frozenset(
        {"aga", "aganumber", "agaid", "agano", "agamembernumber", "agamemberid", "membernumber"}
    ),
    "rank": frozenset({"rank", "rating", "strength", "requestedrank", "playingrank"}),
    "club": frozenset({"club", "chapter", "goclub"}),
    "email": frozenset({"email", "emailaddress", "mail"}),
    "bye_requests": frozenset(
        {"byerequests", "byerequest", "byes", "bye", "byerounds", "requestedbyes", "byesrequested"}
    ),
}
"""Accepted headers per field, compared by ``header_key`` ("AGA #" -> "aganumber")."""

_BYE_SEPARATORS = re.compile(r"[;,\s]+")


def header_key(header: str) -> str:
    """Case, accents, spaces and punctuation dropped; "#" read as "number"."""
    return re.sub(r"[^0-9a-z]", "", fold(header).replace("#", "number"))


def parse_preregistration_csv(
    data: bytes, source: str = "pre-registration"
) -> list[PreRegistration]:
    """The rows of a pre-registration CSV; raises ``PreRegistrationError`` listing every problem.

    Columns (header names matched loosely, any order, others ignored): name
    ("Family, Given") or family name + given name; AGA # (optional); rank; club;
    email; bye requests (rounds, "2;4" or "2,4").
    """
    text = _decode(data, source)
    rows = [(n, row) for n, row in _numbered_rows(text, _delimiter(text), source) if _filled(row)]
    if not rows:
        raise PreRegistrationError([f"{source}: the file is empty"])
    (header_line, header), *body = rows
    columns = _columns(header, header_line, source)
    problems: list[str] = []
    result: list[PreRegistration] = []
    for number, cells in body:
        row = _Row(cells, number, columns, header, source)
        entry = _row(row)
        problems += row.problems
        if not row.problems:
            result.append(entry)
    problems += _duplicate_numbers(result, columns, header, source)
    if problems:
        raise PreRegistrationError(problems)
    return result


MAX_CELL = 2000
"""Characters in one CSV cell: a form's answer is short; a longer one is an error, never a
cell of 32,767 characters nor a message that echoes it."""


def _decode(data: bytes, source: str) -> str:
    """UTF-8 (with or without BOM), UTF-16 with BOM, else Windows-1252 as Excel writes it."""
    try:
        return text_input.decode(data, source, expected="a CSV file").text
    except text_input.TextInputError as err:
        raise PreRegistrationError([str(err)]) from None


def _delimiter(text: str) -> str:
    """Comma, or the semicolon or tab of European Excel, whichever the header uses most."""
    first_line = text_input.normalise_line_ends(text[:100_000]).split("\n", 1)[0]
    return max((",", ";", "\t"), key=first_line.count)


def _numbered_rows(text: str, delimiter: str, source: str) -> Iterator[tuple[int, list[str]]]:
    """Rows with the line each starts on (a quoted cell may span lines)."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    start = 1
    try:
        for row in reader:
            _check_cells(row, start, source)
            yield start, row
            start = reader.line_num + 1
    except csv.Error as err:
        raise PreRegistrationError([f"{source}, line {start}: not a CSV row ({err})"]) from None


def _check_cells(row: list[str], line: int, source: str) -> None:
    """Refuse what no spreadsheet cell can hold: control characters, huge cells."""
    problems = []
    for index, cell in enumerate(row):
        where = f"{source}, line {line}, {_column(index, [])}"
        if len(cell) > MAX_CELL:
            problems.append(
                f"{where}: {len(cell):,} characters; expected at most {MAX_CELL:,} "
                f"({shown(cell, 40)})"
            )
        elif text_input.control_characters(cell.replace("\n", "").replace("\r", "")):
            problems.append(f"{where}: control characters in {shown(cell)}; expected plain text")
    if problems:
        raise PreRegistrationError(problems)


def _filled(row: list[str]) -> bool:
    return any(cell.strip() for cell in row)


def _columns(header: list[str], line: int, source: str) -> dict[str, int]:
    """Field -> column index; raises when the header lacks a name or repeats a field."""
    columns: dict[str, int] = {}
    problems: list[str] = []
    for index, title in enumerate(header):
        key = header_key(title)
        found = next((f for f, aliases in _COLUMNS.items() if key in aliases), None)
        if found is None:
            continue
        if found in columns:
            first = columns[found]
            problems.append(
                f"{source}, line {line}, {_column(index, header)}: repeats {_column(first, header)}"
            )
        columns.setdefault(found, index)
    has_name = "name" in columns or {"family_name", "given_name"} <= columns.keys()
    if not has_name:
        problems.append(
            f"{source}, line {line}: no name column; expected a header such as "
            "'Name' (Family, Given) or 'Family name' and 'Given name'"
        )
    if problems:
        raise PreRegistrationError(problems)
    return columns


def _column(index: int, header: list[str]) -> str:
    """Names a column as the TD sees it: Excel's letter and the header ("column C (AGA #)")."""
    letters = ""
    number = index + 1
    while number:
        number, remainder = divmod(number - 1, 26)
        letters = chr(ord("A") + remainder) + letters
    title = header[index].strip() if index < len(header) else ""
    return f"column {letters} ({title})" if title else f"column {letters}"


@dataclass
class _Row:
    """One CSV row being read: its cells by field, and the problems found in it."""

    cells: list[str]
    number: int
    columns: dict[str, int]
    header: list[str]
    source: str
    problems: list[str] = field(default_factory=list)

    def cell(self, name: str) -> str:
        index = self.columns.get(name)
        return self.cells[index].strip() if index is not None and index < len(self.cells) else ""

    def problem(self, name: str, text: str) -> None:
        column = _column(self.columns[name], self.header)
        self.problems.append(f"{self.source}, line {self.number}, {column}: {text}")


def _row(row: _Row) -> PreRegistration:
    """The row's registration; check ``row.problems`` before using it."""
    family, given = _row_name(row)
    typed = row.cell("name")
    without_comma = bool(typed) and not has_comma(typed)
    aga_id = _row_aga_id(row)
    rank = row.cell("rank")
    if rank:
        try:
            parse_rating(rank)
        except RatingError as error:
            row.problem("rank", str(error))
    return PreRegistration(
        line=row.number,
        name=typed if without_comma else f"{family}, {given}" if given else family,
        family_name=family,
        given_name=given,
        aga_id=aga_id,
        rank=rank,
        club=row.cell("club"),
        email=row.cell("email"),
        bye_requests=_row_byes(row),
        without_comma=without_comma,
    )


def _row_name(row: _Row) -> tuple[str, str]:
    name = row.cell("name")
    if name:
        return split_name(name) if has_comma(name) else given_family(name)
    family, given = row.cell("family_name"), row.cell("given_name")
    if not (family or given):
        row.problem("name" if "name" in row.columns else "family_name", "no name")
    return family, given


def _row_aga_id(row: _Row) -> int | None:
    text = row.cell("aga_id")
    if not text:
        return None
    if not (text.isascii() and text.isdecimal()):
        row.problem("aga_id", f"AGA number {shown(text)} is not a number")
        return None
    if len(text.lstrip("0")) > 5 or not 1 <= int(text) <= MAX_AGA_ID:
        row.problem("aga_id", f"AGA number {shown(text)} is not from 1 to {MAX_AGA_ID}")
        return None
    return int(text)


def _row_byes(row: _Row) -> frozenset[int]:
    text = row.cell("bye_requests")
    rounds: set[int] = set()
    for part in _BYE_SEPARATORS.split(text):
        if not part:
            continue
        if not (part.isascii() and part.isdecimal()) or not 1 <= int(part) <= MAX_ROUNDS:
            message = (
                f"bye requests {shown(text)}: {shown(part)} is not a round number "
                f"(1 to {MAX_ROUNDS}); write e.g. 2;4"
            )
            row.problem("bye_requests", message)
            return frozenset()
        rounds.add(int(part))
    return frozenset(rounds)


def _duplicate_numbers(
    entries: list[PreRegistration], columns: dict[str, int], header: list[str], source: str
) -> list[str]:
    """A player registered twice (a form sent twice) must not become two players."""
    first: dict[int, int] = {}
    problems: list[str] = []
    for entry in entries:
        if entry.aga_id is None:
            continue
        if entry.aga_id in first:
            problems.append(
                f"{source}, line {entry.line}, {_column(columns['aga_id'], header)}: "
                f"AGA number {entry.aga_id} is already on line {first[entry.aga_id]}"
            )
        first.setdefault(entry.aga_id, entry.line)
    return problems
