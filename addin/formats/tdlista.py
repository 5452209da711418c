"""Read the AGA membership list (TDListA) into plain ``Member`` records.

TDListA is tab-separated, without a header, one member a line, 9 fields::

    name ("Family, Given")  AGA number  membership type  rating  expiry (M/D/YYYY)
    chapter  state  sigma  rating date

Real files have CRLF, LF or (old Mac) CR endings, UTF-8 or Windows-1252 text, stray spaces around
fields, empty family names (", Eric Yang"), names without a comma ("Danio") and
short lines whose trailing empty fields are missing.  The parser keeps every
member it can read and lists every line it could not read, with the reason;
it refuses the whole file only when the file cannot be a TDListA at all, or
when a line's AGA number is not a number (the list's key is then in doubt).

Pure: no spreadsheet library is imported here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date

from addin.core import text_input
from addin.core.limits import MAX_AGA_ID, shown
from addin.core.member import Member as Member  # what a TDListA is read into
from addin.core.member import split_name as split_name
from addin.core.ratings import RATING_MAX, RATING_MIN, is_valid_rating

FIELD_NAMES: tuple[str, ...] = (
    "name",
    "AGA number",
    "membership type",
    "rating",
    "membership expiry",
    "chapter",
    "state",
    "sigma",
    "rating date",
)
"""The 9 fields of a TDListA line, in order."""

MAX_LINE = 2000
"""Characters in a TDListA line (real ones have under 120); a longer line is skipped, not
put in a cell (Excel holds at most 32,767 characters) nor echoed whole in a message."""

MIN_FIELDS_IN_FILE = 7
"""A real TDListA has at least one line reaching the state field (the last field
the AGA interface document requires); a file whose every line is shorter is
some other table."""


class TDListAError(text_input.TextInputError):
    """The file cannot be imported; the message names the file and the line."""


@dataclass(frozen=True)
class SkippedLine:
    """A line the parser could not turn into a member, and why."""

    line: int
    text: str
    reason: str


@dataclass(frozen=True)
class ParseReport:
    source: str
    encoding: str
    """"UTF-8", "UTF-8 with BOM", "UTF-16" or "Windows-1252" (see ``text_input``)."""
    line_count: int
    members: list[Member] = field(default_factory=list)
    skipped: list[SkippedLine] = field(default_factory=list)
    cleaned: list[int] = field(default_factory=list)
    """Lines whose control characters (no cell may hold them) were removed."""


class _LineError(ValueError):
    """A field of one line cannot be read; the line is skipped with this reason."""


def decode_text(data: bytes, source: str = "TDListA") -> tuple[str, str]:
    """The text and the encoding it was read as (see ``text_input.decode``)."""
    try:
        decoded = text_input.decode(data, source, expected="the AGA TDListA text file")
    except text_input.TextInputError as err:
        raise TDListAError(source, err.line, err.problem) from None
    return decoded.text, decoded.encoding


def split_lines(text: str) -> list[str]:
    """Lines for CRLF, LF or (old Mac) CR endings, in any mix (see ``text_input``)."""
    return text_input.split_lines(text)


def parse_tdlista(data: bytes, source: str = "TDListA") -> ParseReport:
    """Every member of a TDListA file, plus the lines that could not be read.

    Raises ``TDListAError`` for an empty file, a binary file, a file that is not
    a TDListA, or a line whose AGA number is missing or not a number.
    """
    text, encoding = decode_text(data, source)
    lines = split_lines(text)
    if not any(line.strip() for line in lines):
        raise TDListAError(source, None, "the file is empty; expected the AGA TDListA")
    _check_shape(lines, source)
    report = ParseReport(source=source, encoding=encoding, line_count=len(lines))
    wide = encoding.startswith("UTF-16") or encoding.startswith("UTF-32")
    dirty = text_input.control_characters(text) if wide else text_input.control_bytes(data)
    _read_lines(lines, source, report, dirty)
    return report


def _check_shape(lines: list[str], source: str) -> None:
    """Refuse a file whose lines are all too short to be TDListA lines."""
    widest = max(line.count("\t") + 1 for line in lines)
    if widest >= MIN_FIELDS_IN_FILE:
        return
    number, first = next((n, line) for n, line in enumerate(lines, 1) if line.strip())
    found = first.count("\t") + 1
    hint = " (no tab at all: is it a CSV file?)" if found == 1 else ""
    raise TDListAError(
        source,
        number,
        f"not a TDListA file: expected {len(FIELD_NAMES)} tab-separated fields: "
        f"{', '.join(FIELD_NAMES)}; found {found}{hint}",
    )


def _read_lines(lines: list[str], source: str, report: ParseReport, dirty: bool) -> None:
    """``dirty``: the text has control characters somewhere (rarely: looked for per line then)."""
    first_line_of: dict[int, int] = {}
    dates = _DateCache()
    for number, line in enumerate(lines, 1):
        if len(line) > MAX_LINE:
            reason = f"{len(line):,} characters long; a TDListA line has at most {MAX_LINE:,}"
            report.skipped.append(SkippedLine(number, line[:MAX_LINE], reason))
            continue
        if dirty and text_input.control_characters(line):
            line = text_input.without_control_characters(line)
            report.cleaned.append(number)
        fields = [f.strip() for f in line.split("\t")]
        aga_id = _aga_id(fields, source, number, line)
        if aga_id is None:
            report.skipped.append(SkippedLine(number, line, "blank line"))
            continue
        if aga_id in first_line_of:
            reason = f"duplicate AGA number {aga_id} (first on line {first_line_of[aga_id]})"
            report.skipped.append(SkippedLine(number, line, reason))
            continue
        try:
            member = _member(fields, aga_id, dates)
        except _LineError as error:
            report.skipped.append(SkippedLine(number, line, str(error)))
            continue
        first_line_of[aga_id] = number
        report.members.append(member)


def _aga_id(fields: list[str], source: str, number: int, line: str) -> int | None:
    """The line's AGA number; ``None`` for a blank line; raises when it is not a number."""
    if len(fields) < 2 or not fields[1]:
        if not any(fields):
            return None
        raise TDListAError(source, number, f"no AGA number (second field) in {shown(line)}")
    text = fields[1]
    if not (text.isascii() and text.isdecimal()):
        problem = f"AGA number {shown(text)} of {shown(fields[0])} is not a number"
        raise TDListAError(source, number, problem)
    if len(text.lstrip("0")) > 5 or not 1 <= int(text) <= MAX_AGA_ID:  # as in Players
        problem = f"AGA number {shown(text)} of {shown(fields[0])} is not from 1 to {MAX_AGA_ID}"
        raise TDListAError(source, number, problem)
    return int(text)


def _member(fields: list[str], aga_id: int, dates: _DateCache) -> Member:
    """The member of one line (fields stripped); the hot path, so no helper per field."""
    if len(fields) < len(FIELD_NAMES):
        fields += [""] * (len(FIELD_NAMES) - len(fields))
    name, _, membership_type, rating, expiry, chapter, state, sigma, rating_date = fields[:9]
    if not name:
        raise _LineError("no name")
    family, given = split_name(name)
    date_of = dates.parse
    # Positional: a frozen dataclass builds noticeably faster without keywords.
    return Member(
        name,
        family,
        given,
        aga_id,
        membership_type,
        _rating(rating) if rating else None,
        date_of(expiry, "membership expiry") if expiry else None,
        chapter,
        state,
        _sigma(sigma) if sigma else None,
        date_of(rating_date, "rating date") if rating_date else None,
    )


def _number(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise _LineError(f"{what} {shown(text)} is not a number") from None
    if not math.isfinite(value):
        raise _LineError(f"{what} {shown(text)} is not a finite number")
    return value


def _rating(text: str) -> float:
    value = _number(text, "rating")
    if not is_valid_rating(value):
        raise _LineError(
            f"rating {shown(text)} is not an AGA rating (above {RATING_MIN:g}, below "
            f"{RATING_MAX:g}, none between -1 and 1)"
        )
    return value


def _sigma(text: str) -> float:
    value = _number(text, "sigma")
    if value < 0:
        raise _LineError(f"sigma {shown(text)} is negative")
    return value


class _DateCache:
    """M/D/YYYY dates, memoised: 22,000 lines hold only a few thousand distinct dates."""

    def __init__(self) -> None:
        self._seen: dict[str, date] = {}

    def parse(self, text: str, what: str) -> date:
        try:
            return self._seen[text]
        except KeyError:
            found = self._seen[text] = _parse_date(text, what)
            return found


def _parse_date(text: str, what: str) -> date:
    parts = text.split("/")
    if len(parts) != 3 or not all(p.isascii() and p.isdecimal() for p in parts):
        raise _LineError(f"{what} {shown(text)} is not a date M/D/YYYY")
    if len(parts[2]) != 4:
        raise _LineError(f"{what} {shown(text)} is not a date M/D/YYYY (4-digit year)")
    month, day, year = (int(p) for p in parts)
    try:
        return date(year, month, day)
    except (ValueError, OverflowError) as error:
        raise _LineError(f"{what} {shown(text)} is not a calendar date ({error})") from None
