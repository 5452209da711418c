"""Read the European Go Database's rating list (``allworld_lp``) into ``EgdPlayer`` records.

The EGD publishes its players as plain text, or the same text inside a web page's ``<pre>``
(the ``.html`` address OpenGotha and pairgoth download). The list's date stands alone in
brackets near the top, ``(27 Dec 2018)``; after a notation block and a header, one player a
line, in fixed columns::

     PIN       Name                              Club     Grade P&D    GoR    NT appearance
     14986906  Aahs Robert                       SE  Karl    1d   --   2072    30  T171028F

PIN (8 digits); the name, family name first, one space before the given name, spaces
within a name written as underscores (``Aarle Barbara_van``); the country (internet code,
XX unknown) and the club (up to 4 characters, xxx unknown); the grade (30k-1k, 1d-9d,
1p-9p); the suggested promotion or demotion (``--`` for none); the GoR; the number of
tournaments; the code of the last one. OpenGotha's ``RatingList`` reads the same columns by
position (PIN 1-9, name 11-48, country 49-52, club 53-57, grade 60-63, GoR 71-75); this
reader splits at runs of spaces, so a line shifted by a column still reads, and checks each
field. A name with a single word is a family name alone. A GoR of 0 for a player who has
played no tournament is no GoR (the EGD lists new players so); XX and xxx (unknown country,
unknown club) are blank, so that the avoidance of a same club or country never pairs
strangers apart as if they were club mates.

Every player it can read is kept; a line starting with a PIN that does not read is listed
with the reason. The file is refused only when no line holds a player: it is not the list.

Pure: no spreadsheet library is imported here.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from datetime import date

from addin.core import text_input
from addin.core.egd import EgdPlayer
from addin.core.limits import shown

MAX_LINE = 2000
"""Characters in a line (real ones have under 100): a longer one is skipped, not echoed."""

_PLAYER = re.compile(
    r"\s*(?P<pin>\d{8})\s+(?P<name>\S.*?)\s+(?P<country>[A-Za-z]{2})\s+(?P<club>\S{1,8})"
    r"\s+(?P<grade>\d{1,2}[kdpKDP])\s+(?P<promotion>\S+)\s+(?P<gor>-?\d{1,5})"
    r"\s+(?P<tournaments>\d{1,6})(?:\s+(?P<last>\S+))?\s*"
)
_STARTS_WITH_PIN = re.compile(r"\s*\d{8}(\s|$)")
_DATE = re.compile(r"\s*\((\d{1,2}) ([A-Za-z]{3}) (\d{4})\)\s*")
_TAG = re.compile(r"<[^>]*>")
_MONTHS = {
    month: number
    for number, month in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
FIELDS = (
    "PIN (8 digits), name, country, club, grade (20k, 1d, 1p), P&D, GoR, tournaments, "
    "last appearance"
)


class EgdListError(text_input.TextInputError):
    """The file cannot be imported as the EGD's list; the message names the file."""


@dataclass(frozen=True)
class SkippedLine:
    line: int
    text: str
    reason: str


@dataclass
class ParseReport:
    source: str
    encoding: str
    line_count: int
    published: date | None = None
    """The list's date, ``(27 Dec 2018)``; None when it has none."""
    players: list[EgdPlayer] = field(default_factory=list)
    skipped: list[SkippedLine] = field(default_factory=list)
    cleaned: list[int] = field(default_factory=list)
    """Lines whose control characters (no cell may hold them) were removed."""


def parse_egd_list(data: bytes, source: str = "EGD list") -> ParseReport:
    """Every player of an EGD rating list (text or web page), and the lines not read.

    Raises ``EgdListError`` for an empty or binary file, or one where no line is a player.
    """
    text, encoding = _decoded(data, source)
    lines = text_input.split_lines(text)
    report = ParseReport(source, encoding, len(lines))
    first_line_of: dict[int, int] = {}
    for number, raw in enumerate(lines, 1):
        if len(raw) > MAX_LINE:
            if _STARTS_WITH_PIN.match(raw):
                reason = f"{len(raw):,} characters long; a list line has at most {MAX_LINE:,}"
                report.skipped.append(SkippedLine(number, raw[:80], reason))
            continue
        line = raw
        if text_input.control_characters(line):
            line = text_input.without_control_characters(line)
            report.cleaned.append(number)
        if "<" in line or "&" in line:
            line = html.unescape(_TAG.sub("", line))
        if report.published is None and (found := _DATE.fullmatch(line)):
            report.published = _date(*found.groups())
            continue
        if not _STARTS_WITH_PIN.match(line):
            continue
        player = _player(line)
        if isinstance(player, str):
            report.skipped.append(SkippedLine(number, line, player))
        elif player.pin in first_line_of:
            reason = f"duplicate PIN {player.pin} (first on line {first_line_of[player.pin]})"
            report.skipped.append(SkippedLine(number, line, reason))
        else:
            first_line_of[player.pin] = number
            report.players.append(player)
    if not report.players:
        problem = (
            "the file is empty; expected the EGD's rating list"
            if not any(line.strip() for line in lines)
            else f"not an EGD rating list: no line holds a player ({FIELDS})"
        )
        raise EgdListError(source, None, problem)
    return report


def _decoded(data: bytes, source: str) -> tuple[str, str]:
    """The text and what it was read as. The EGD's file is Latin-1 text with the odd name in
    UTF-8 (the list of 2018 writes "Na\xc3\xafm" once among many "\xdc"): a file that is
    not UTF-8 throughout is read line by line, each line as UTF-8 when it is, else as
    Windows-1252."""
    try:
        decoded = text_input.decode(data, source, expected="the EGD's rating list")
    except text_input.TextInputError as err:
        raise EgdListError(source, err.line, err.problem) from None
    if decoded.encoding != "Windows-1252":
        return decoded.text, decoded.encoding
    lines: list[str] = []
    in_utf8 = 0
    for raw in data.split(b"\n"):
        try:
            lines.append(raw.decode("utf-8"))
            in_utf8 += not raw.isascii()
        except UnicodeDecodeError:
            lines.append(raw.decode("cp1252"))
    said = f"Windows-1252, {in_utf8} line(s) UTF-8" if in_utf8 else decoded.encoding
    return "\n".join(lines), said


def _player(line: str) -> EgdPlayer | str:
    """The player of a line, or why it is not one."""
    found = _PLAYER.fullmatch(line)
    if found is None:
        return f"not a player line: expected {FIELDS}; found {shown(line.strip(), 100)}"
    family, _, given = found["name"].partition(" ")
    country, club = found["country"].upper(), found["club"]
    promotion = found["promotion"]
    gor, tournaments = int(found["gor"]), int(found["tournaments"])
    return EgdPlayer(
        pin=int(found["pin"]),
        family_name=_spaced(family),
        given_name=_spaced(given),
        country="" if country == "XX" else country,
        club="" if set(club.lower()) == {"x"} else club,
        grade=found["grade"].lower(),
        gor=None if gor == 0 and not tournaments else gor,
        promotion="" if set(promotion) == {"-"} else promotion.lower(),
        tournaments=tournaments,
        last_tournament=found["last"] or "",
    )


def _spaced(name: str) -> str:
    """The EGD writes spaces within a name as underscores: ``Barbara_van`` is "Barbara van"."""
    return " ".join(name.replace("_", " ").split())


def _date(day: str, month: str, year: str) -> date | None:
    number = _MONTHS.get(month.lower())
    if number is None:
        return None
    try:
        return date(int(year), number, int(day))
    except ValueError:
        return None
