"""The original AGA tournament report: a flat text file for the AGA rating program.

Layout written (tabs between fields; lines beginning with ``#`` are comments that the
rating program ignores)::

    TOURNEY
    \tlabel="Seattle Fall Open, Seattle Go Center, October 4-5, 2025"
    \tstart="2025-10-04"
    \tfinish="2025-10-05"
    \trules="AGA"

    PLAYERS
    15850\tChen, Renyu\t6.50
    90001\tChang, Shih-wen\t-4.96

    GAMES 1
    15850\t90001\tW\t9\t0
    # 14002\t10283\tJIGO\t0\t7
    # BYE\t2786\tForced

    END

    NEW REGISTRATIONS
    AGA Fee:
    AGA Number: 90001
    ...

Decisions (the interface document leaves them open):

* **Label**: ``"<name>, <venue>, <dates>"`` (empty parts left out); a ``"`` inside becomes ``'``
  because the format has no escape. Reading strips the date suffix the writer adds, so the
  name and venue come back together in ``Settings.name``.
* **Rank or rating**: the entry rating with two decimals (``-3.50``) when the player has one,
  else the rank as entered. Reading accepts both (``9K``, ``4d``, ``1.53``).
* **Results the rating program cannot rate** -- jigo, no result, double forfeit and games not
  played yet -- are written as comment lines ``# white<TAB>black<TAB>CODE<TAB>handicap<TAB>komi``
  with CODE ``JIGO``, ``NR``, ``DF`` or ``?``, so the rating program skips them and this reader
  still restores them. Byes are comments too: ``# BYE<TAB>id<TAB>Forced|Voluntary``.
* **Handicap and komi** are integers per the interface document's table, computed by
  :func:`addin.core.handicap.aga_text_komi` (one stone is a no-komi game: handicap 0). The
  half point is lost, so reading gives whole-number komi (Ing: N stones read back as komi 0).
* **Membership details** after END: every temporary member (90000-99999) under
  ``NEW REGISTRATIONS``, then, under ``MEMBERSHIP UPDATES``, every member whose record is
  news for the membership office (the caller says which, and why: ``updated``, from
  :mod:`addin.core.membership_updates`: a fee taken, a changed chapter, state or
  membership type, contact details from the desk; not the pre-registration form's own
  email). Without ``updated``, every member with a detail the TDListA does not hold. No
  marker in Notes decides it (:func:`needs_membership_details`, which the XML writer
  shares). A
  changed state gets a ``State`` line after ``City, State Zip`` (the AGA's record has no key
  of its own for it; the rating program ignores this block).
  The address is split into ``Address 1`` / ``Address 2`` / ``City, State Zip`` by lines: the
  last line is the city line, the first the street. ``AGA Fee`` is the fee collected
  (``$30``, ``$22.50``), blank when none was.
* **TD** name, email and phone close the file (``TD: ...``), as Eggplant does.

Reading accepts the variations of real files (Eggplant): ``TOURNEY label`` on one line,
unquoted values, ``M/D/YYYY`` dates, ``?`` results (not played yet), ``***`` placeholders,
``E-mail``/``Address`` keys, CRLF line ends, and spaces instead of tabs. Errors name the
source and the line.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date

from addin.core import text_input
from addin.core.handicap import MAX_HANDICAP, aga_text_komi, komi_from_report
from addin.core.limits import MAX_ROUNDS, fee_problem, komi_problem, shown
from addin.core.membership_updates import Reason
from addin.core.model import (
    Bye,
    ByeKind,
    Contact,
    Game,
    Player,
    PlayerId,
    Result,
    Round,
    Rules,
    Settings,
    Tournament,
)
from addin.core.participants import reported
from addin.core.ratings import RatingError, parse_rating

__all__ = [
    "TEMPORARY_IDS",
    "AGAReportError",
    "date_span",
    "format_fee",
    "format_number",
    "format_rating",
    "is_temporary_member",
    "label_of",
    "needs_membership_details",
    "read_aga_text",
    "write_aga_text",
]

TEMPORARY_IDS = range(90000, 100000)
"""Temporary AGA numbers for members who join at the tournament (interface document)."""

_RESULT_CODES = {
    Result.WHITE_WINS: "W",
    Result.BLACK_WINS: "B",
    Result.WHITE_WINS_BY_FORFEIT: "WF",
    Result.BLACK_WINS_BY_FORFEIT: "BF",
}
_COMMENT_CODES: dict[Result | None, str] = {
    Result.JIGO: "JIGO",
    Result.NO_RESULT: "NR",
    Result.DOUBLE_FORFEIT: "DF",
    None: "?",
}
_READ_CODES: dict[str, Result | None] = {
    **{code: result for result, code in _RESULT_CODES.items()},
    "?": None,
}
_READ_COMMENT_CODES = {code: result for result, code in _COMMENT_CODES.items()}
_MONTHS: tuple[str, ...] = ("January", "February", "March", "April", "May", "June", "July")
_MONTHS += ("August", "September", "October", "November", "December")


class AGAReportError(ValueError):
    """An AGA report (text or XML) that cannot be read or written; names source and line."""


# --------------------------------------------------------------------------- shared helpers


def is_temporary_member(aga_id: PlayerId) -> bool:
    """A temporary AGA number given at the tournament (90000-99999)."""
    return aga_id in TEMPORARY_IDS


def needs_membership_details(player: Player, updated: Collection[PlayerId] | None = None) -> bool:
    """Who gets a membership record, in both reports: new members, and the ``updated``
    members (:func:`addin.core.membership_updates.updates` says who is news for the
    membership office, and why); without that knowledge (None), every member with any
    detail the TDListA does not hold."""
    if is_temporary_member(player.aga_id):
        return True
    return has_desk_details(player) if updated is None else player.aga_id in updated


def has_desk_details(player: Player) -> bool:
    """Whether the desk collected membership data the TDListA does not hold."""
    texts = (player.address, player.email, player.phone, player.citizenship)
    return any(t.strip() for t in texts) or player.birth_date is not None or bool(player.aga_fee)


def format_fee(fee: float | None) -> str:
    """``$30``, ``$22.50``; blank when no fee was collected."""
    if fee is None:
        return ""
    return f"${fee:.0f}" if float(fee).is_integer() else f"${fee:.2f}"


def format_number(value: float) -> str:
    """Shortest exact text: 7.5 -> "7.5", 0.0 -> "0", -7.0 -> "-7"."""
    if float(value).is_integer():
        return str(int(value))
    return repr(float(value))


def format_rating(rating: float) -> str:
    """Two decimals as the AGA lists ratings (-3.50), more only when needed to be exact."""
    text = f"{rating:.2f}"
    return text if float(text) == rating else repr(float(rating))


def _model_komi(handicap: int, komi: int, rules: Rules) -> float:
    """Komi for the model from the report's integer; the half point is lost."""
    return komi_from_report(handicap, komi, rules, half_point=False)


def _clean(text: str) -> str:
    """One line of text: tabs and line breaks would break the format."""
    return " ".join(text.split())


def date_span(start: date | None, end: date | None) -> str:
    """Dates as in the interface document's label example: "February 28-29, 2004"."""
    if start is None:
        return ""
    end = end or start
    first = f"{_MONTHS[start.month - 1]} {start.day}"
    if end == start:
        return f"{first}, {start.year}"
    if (end.year, end.month) == (start.year, start.month):
        return f"{first}-{end.day}, {start.year}"
    if end.year == start.year:
        return f"{first} - {_MONTHS[end.month - 1]} {end.day}, {start.year}"
    return f"{first}, {start.year} - {_MONTHS[end.month - 1]} {end.day}, {end.year}"


# --------------------------------------------------------------------------- writing


def write_aga_text(
    t: Tournament, updated: Mapping[PlayerId, Sequence[Reason]] | None = None
) -> str:
    """The whole report as text (``\\n`` line ends); encode it as UTF-8 to save it.

    ``updated``: the members whose record is news for the membership office, with why
    (:func:`addin.core.membership_updates.updates`); they go under MEMBERSHIP UPDATES.
    None: every member with a detail the TDListA does not hold. A player who never came
    (:func:`addin.core.participants.no_shows`) is not reported.
    """
    t = reported(t)
    lines = [
        *_header_lines(t.settings),
        "",
        *_player_lines(t.players.values()),
        *_round_lines(t),
        "",
        "END",
        *_membership_lines(t.players.values(), updated),
        *_director_lines(t.settings.director),
    ]
    return "\n".join(lines) + "\n"


def label_of(settings: Settings) -> str:
    """Name, place and dates: unique to the event, as the interface document asks."""
    parts = [_clean(settings.name), _clean(settings.venue)]
    parts.append(date_span(settings.start_date, settings.end_date))
    return ", ".join(p for p in parts if p).replace('"', "'")


def _header_lines(settings: Settings) -> list[str]:
    lines = ["TOURNEY", f'\tlabel="{label_of(settings)}"']
    if settings.start_date is not None:
        finish = settings.end_date or settings.start_date
        lines.append(f'\tstart="{settings.start_date.isoformat()}"')
        lines.append(f'\tfinish="{finish.isoformat()}"')
    lines.append(f'\trules="{settings.rules.value}"')
    return lines


def _rank_text(player: Player) -> str:
    if player.rating is not None:
        return format_rating(player.rating)
    if player.rank.strip():
        return _clean(player.rank)
    raise AGAReportError(f"player {player.aga_id} ({player.name}) has neither rank nor rating")


def _player_lines(players: Iterable[Player]) -> list[str]:
    lines = ["PLAYERS"]
    lines += [f"{p.aga_id}\t{_clean(p.name)}\t{_rank_text(p)}" for p in players]
    return lines


def _round_lines(t: Tournament) -> list[str]:
    lines: list[str] = []
    for rnd in sorted(t.rounds, key=lambda r: r.number):
        lines += ["", f"GAMES {rnd.number}"]
        lines += [_game_line(rnd.number, g, t.settings.rules) for g in rnd.games]
        lines += [f"# BYE\t{b.player}\t{b.kind.value}" for b in rnd.byes]
    return lines


def _game_line(round_number: int, game: Game, rules: Rules) -> str:
    try:
        handicap, komi = aga_text_komi(game.handicap, game.komi, rules)
    except ValueError as error:
        where = f"round {round_number}, game {game.white}-{game.black}"
        raise AGAReportError(f"{where}: {error}") from None
    fields = f"{game.white}\t{game.black}\t{{}}\t{handicap}\t{komi}"
    if game.result in _RESULT_CODES:
        return fields.format(_RESULT_CODES[game.result])
    return "# " + fields.format(_COMMENT_CODES[game.result])


def _address_fields(address: str) -> tuple[str, str, str]:
    """Street, second line, city line: the last of several lines is the city line."""
    lines = [_clean(line) for line in address.splitlines() if line.strip()]
    if len(lines) <= 1:
        return (lines[0] if lines else "", "", "")
    return lines[0], ", ".join(lines[1:-1]), lines[-1]


def _membership_record(p: Player, changes: Sequence[Reason] = ()) -> list[str]:
    street, second, city = _address_fields(p.address)
    fields = [
        ("AGA Fee", format_fee(p.aga_fee)),
        ("AGA Number", str(p.aga_id)),
        ("Name", p.name),
        ("Membership Type", p.membership_type),
        ("Address 1", street),
        ("Address 2", second),
        ("City, State Zip", city),
        ("Home Email", p.email),
        ("Club", p.chapter),
        ("Phone Number", p.phone),
        ("Citizenship", p.citizenship),
        ("Birthday", p.birth_date.isoformat() if p.birth_date else ""),
    ]
    if any(c.field == "State" for c in changes):  # the record has no State key of its own
        fields.insert(fields.index(("City, State Zip", city)) + 1, ("State", p.state))
    return ["", *(f"{key}: {_clean(value)}".rstrip() for key, value in fields)]


def _membership_lines(
    players: Iterable[Player], updated: Mapping[PlayerId, Sequence[Reason]] | None
) -> list[str]:
    players = list(players)
    new = [p for p in players if is_temporary_member(p.aga_id)]
    known = None if updated is None else updated.keys()
    changed = [
        p
        for p in players
        if not is_temporary_member(p.aga_id) and needs_membership_details(p, known)
    ]
    lines: list[str] = []
    for title, group in (("NEW REGISTRATIONS", new), ("MEMBERSHIP UPDATES", changed)):
        if group:
            lines += ["", title]
            for p in group:
                lines += _membership_record(p, (updated or {}).get(p.aga_id, ()))
    return lines


def _director_lines(director: Contact) -> list[str]:
    if not director.name.strip():
        return []
    fields = [("TD", director.name), ("TD Email", director.email), ("TD Phone", director.phone)]
    return ["", *(f"{key}: {_clean(value)}".rstrip() for key, value in fields)]


# --------------------------------------------------------------------------- reading


@dataclass
class _Reader:
    """State while reading one report: where we are and what we have so far."""

    source: str
    section: str = "start"
    label: str = ""
    start: date | None = None
    finish: date | None = None
    rules: Rules = Rules.AGA
    players: dict[PlayerId, Player] = field(default_factory=dict)
    rounds: dict[int, tuple[list[Game], list[Bye]]] = field(default_factory=dict)
    round: int = 0
    seen: set[PlayerId] = field(default_factory=set)
    pairs: set[frozenset[PlayerId]] = field(default_factory=set)
    records: list[tuple[int, dict[str, str]]] = field(default_factory=list)

    def error(self, number: int, message: str) -> AGAReportError:
        return AGAReportError(f"{self.source}, line {number}: {message}")


_KEY_VALUE = re.compile(r"(\w+)\s*=\s*(.*)")
_GAMES = re.compile(r"GAMES\s+(\d{1,9})", re.IGNORECASE)
_PLAYER_SPACED = re.compile(r"(\d+)\s+(.+?)\s+(\S+)")
_PLACEHOLDER = re.compile(r"\*{3}(.*\*{3})?")
_RECORD_STARTS = ("aga fee", "aga number", "td")


MAX_LINE = 2000
"""Characters in one line of a report (real ones have under 200)."""


def read_aga_text_file(data: bytes, source: str) -> Tournament:
    """``read_aga_text`` of a file's bytes (UTF-8, UTF-16 with BOM or Windows-1252)."""
    try:
        text = text_input.decode(data, source, expected="an AGA text report").text
    except text_input.TextInputError as err:
        raise AGAReportError(str(err)) from None
    return read_aga_text(text, source)


def read_aga_text(text: str, source: str) -> Tournament:
    """Players, games per round, settings and membership details of a text report."""
    reader = _Reader(source)
    for number, line in enumerate(text_input.split_lines(text), start=1):
        if len(line) > MAX_LINE:
            raise reader.error(number, f"{len(line):,} characters; a line has at most {MAX_LINE:,}")
        if text_input.control_characters(line):
            raise reader.error(number, f"control characters in {shown(line)}; expected plain text")
        _read_line(reader, number, line.rstrip())
    if reader.section in ("start", "header"):
        raise AGAReportError(f"{source}: no PLAYERS section (is this an AGA text report?)")
    return _tournament(reader)


def _read_line(reader: _Reader, number: int, line: str) -> None:
    stripped = line.strip()
    upper = stripped.upper()
    if reader.section == "end":
        _read_after_end(reader, number, stripped)
    elif not stripped:
        return
    elif stripped.startswith("#"):
        if reader.section == "games":
            _read_comment(reader, number, stripped)
    elif upper == "END":
        reader.section = "end"
    elif upper == "PLAYERS":
        _enter_players(reader, number)
    elif match := _GAMES.fullmatch(stripped):
        _enter_round(reader, number, int(match.group(1)))
    elif upper.split(None, 1)[0] == "TOURNEY":
        _enter_header(reader, number, stripped)
    elif reader.section == "header":
        _read_header(reader, number, stripped)
    elif reader.section == "players":
        _read_player(reader, number, line)
    elif reader.section == "games":
        _read_game(reader, number, stripped.split(), _READ_CODES)
    else:
        raise reader.error(number, f"expected TOURNEY, PLAYERS or GAMES, found {shown(stripped)}")


def _enter_header(reader: _Reader, number: int, line: str) -> None:
    if reader.section != "start":
        raise reader.error(number, "TOURNEY must open the report, once")
    reader.section = "header"
    rest = line[len("TOURNEY") :].strip()
    match = _KEY_VALUE.fullmatch(rest)
    if match and match.group(1).lower() == "label":
        rest = match.group(2)
    reader.label = _unquote(rest)


def _read_header(reader: _Reader, number: int, line: str) -> None:
    """``key=value``, quoted or not; unknown keys are ignored (nothing in the model)."""
    match = _KEY_VALUE.fullmatch(line)
    if not match:
        raise reader.error(number, f"expected key=value in the TOURNEY header, found {shown(line)}")
    key, value = match.group(1).lower(), _unquote(match.group(2))
    if key == "label":
        reader.label = value
    elif key == "rules":
        reader.rules = _parse_rules(reader, number, value)
    elif key == "start":
        reader.start = _parse_date(reader, number, value)
    elif key == "finish":
        reader.finish = _parse_date(reader, number, value)


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _parse_rules(reader: _Reader, number: int, text: str) -> Rules:
    for rules in Rules:
        if rules.value.casefold() == text.strip().casefold():
            return rules
    names = ", ".join(r.value for r in Rules)
    raise reader.error(number, f"rules {shown(text)} is not one of {names}")


def _parse_date(reader: _Reader, number: int, text: str) -> date:
    """YYYY-MM-DD (the format's own, also without zero padding) or M/D/YYYY (Eggplant)."""
    text = text.strip()
    iso = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", text)
    us = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", text)
    try:
        if iso:
            return date(int(iso[1]), int(iso[2]), int(iso[3]))
        if us:
            return date(int(us[3]), int(us[1]), int(us[2]))
    except ValueError as error:
        raise reader.error(number, f"{shown(text)} is not a date: {error}") from None
    raise reader.error(number, f"{shown(text)} is not a date (expected YYYY-MM-DD or M/D/YYYY)")


def _enter_players(reader: _Reader, number: int) -> None:
    if reader.section not in ("start", "header"):
        raise reader.error(number, "PLAYERS must come once, before the GAMES blocks")
    reader.section = "players"


def _split_player(line: str) -> list[str] | None:
    """Tab-separated as the format says; spaces are tolerated (the rank is the last word)."""
    fields = [f.strip() for f in line.split("\t") if f.strip()]
    if len(fields) == 3:
        return fields
    match = _PLAYER_SPACED.fullmatch(line.strip())
    return list(match.groups()) if match else None


def _read_player(reader: _Reader, number: int, line: str) -> None:
    fields = _split_player(line)
    if fields is None:
        raise reader.error(number, f"expected AGA number, name and rank or rating: {shown(line)}")
    aga_id = _parse_id(reader, number, fields[0])
    if aga_id in reader.players:
        raise reader.error(number, f"player {aga_id} is listed twice")
    try:
        rating = parse_rating(fields[2])
    except RatingError as error:
        raise reader.error(number, f"player {aga_id}: {error}") from None
    family, _, given = fields[1].partition(",")
    player = Player(aga_id, family.strip(), given.strip(), rank=fields[2], rating=rating)
    reader.players[aga_id] = player


def _parse_id(reader: _Reader, number: int, text: str) -> PlayerId:
    if not re.fullmatch(r"\d{1,5}", text):
        raise reader.error(number, f"{shown(text)} is not an AGA number (up to five digits)")
    return int(text)


def _enter_round(reader: _Reader, number: int, round_number: int) -> None:
    if reader.section not in ("players", "games"):
        raise reader.error(number, "GAMES before PLAYERS")
    if not 1 <= round_number <= MAX_ROUNDS:
        raise reader.error(number, f"GAMES {round_number}: rounds are numbered 1 to {MAX_ROUNDS}")
    if round_number in reader.rounds:
        raise reader.error(number, f"GAMES {round_number} appears twice")
    reader.section, reader.round = "games", round_number
    reader.rounds[round_number] = ([], [])
    reader.seen, reader.pairs = set(), set()


def _read_comment(reader: _Reader, number: int, line: str) -> None:
    """Our comment lines carry unratable games and byes; other comments are ignored."""
    fields = line[1:].split()
    if len(fields) == 3 and fields[0].upper() == "BYE":
        _read_bye(reader, number, fields[1], fields[2])
    elif len(fields) == 5 and fields[2].upper() in _READ_COMMENT_CODES:
        _read_game(reader, number, fields, _READ_COMMENT_CODES)


def _read_bye(reader: _Reader, number: int, player_text: str, kind_text: str) -> None:
    player = _known_player(reader, number, player_text)
    kinds = {k.value.casefold(): k for k in ByeKind}
    if kind_text.casefold() not in kinds:
        raise reader.error(number, f"bye kind {shown(kind_text)} is not Forced or Voluntary")
    _take_seat(reader, number, player)
    reader.rounds[reader.round][1].append(Bye(player, kinds[kind_text.casefold()]))


def _known_player(reader: _Reader, number: int, text: str) -> PlayerId:
    aga_id = _parse_id(reader, number, text)
    if aga_id not in reader.players:
        raise reader.error(number, f"player {aga_id} is not in PLAYERS")
    return aga_id


def _take_seat(reader: _Reader, number: int, player: PlayerId) -> None:
    if player in reader.seen:
        raise reader.error(number, f"player {player} appears twice in round {reader.round}")
    reader.seen.add(player)


def _read_game(
    reader: _Reader, number: int, fields: list[str], codes: dict[str, Result | None]
) -> None:
    if len(fields) != 5:
        raise reader.error(number, "expected white, black, result, handicap and komi")
    white, black = (_known_player(reader, number, f) for f in fields[:2])
    code = fields[2].upper()
    if code not in codes:
        raise reader.error(number, f"result {shown(fields[2])} is not one of {', '.join(codes)}")
    handicap, komi = (_parse_int(reader, number, f) for f in fields[3:])
    if not 0 <= handicap <= MAX_HANDICAP:
        raise reader.error(number, f"handicap {handicap} is not between 0 and {MAX_HANDICAP}")
    problem = komi_problem(float(komi))
    if problem:
        raise reader.error(number, problem)
    if white == black:
        raise reader.error(number, f"player {white} cannot play himself")
    if frozenset((white, black)) in reader.pairs:
        raise reader.error(number, f"duplicate game {white}-{black} in round {reader.round}")
    reader.pairs.add(frozenset((white, black)))
    _take_seat(reader, number, white)
    _take_seat(reader, number, black)
    game = Game(white, black, handicap, _model_komi(handicap, komi, reader.rules), codes[code])
    reader.rounds[reader.round][0].append(game)


def _parse_int(reader: _Reader, number: int, text: str) -> int:
    if not re.fullmatch(r"[+-]?\d{1,6}", text):
        raise reader.error(number, f"{shown(text)} is not a whole number")
    return int(text)


def _read_after_end(reader: _Reader, number: int, line: str) -> None:
    """``Key: value`` records separated by blank lines or by a repeated opening key."""
    key, colon, value = line.partition(":")
    key = " ".join(key.split()).casefold()
    if not line:
        reader.records.append((number + 1, {}))
        return
    if not colon:
        return  # titles (NEW REGISTRATIONS) and Eggplant's placeholders
    value = "" if _PLACEHOLDER.fullmatch(value.strip()) else value.strip()
    if not reader.records or (key in _RECORD_STARTS and key in reader.records[-1][1]):
        reader.records.append((number, {}))
    reader.records[-1][1][key] = value


def _tournament(reader: _Reader) -> Tournament:
    settings = _settings(reader)
    players = dict(reader.players)
    for number, record in reader.records:
        if "td" in record:
            settings = replace(settings, director=_director(record))
        if "aga number" in record:
            aga_id = _known_player(reader, number, record["aga number"])
            players[aga_id] = _with_details(reader, number, players[aga_id], record)
    rounds = [Round(n, tuple(g), tuple(b)) for n, (g, b) in sorted(reader.rounds.items())]
    return Tournament(settings=settings, players=players, rounds=rounds)


def _director(record: dict[str, str]) -> Contact:
    return Contact(record["td"], email=record.get("td email", ""), phone=record.get("td phone", ""))


def _settings(reader: _Reader) -> Settings:
    """The label minus the date suffix this writer adds is the name (venue included)."""
    suffix = date_span(reader.start, reader.finish)
    name = reader.label
    if suffix and name.endswith(", " + suffix):
        name = name[: -len(suffix) - 2]
    return Settings(name=name, start_date=reader.start, end_date=reader.finish, rules=reader.rules)


def _with_details(reader: _Reader, number: int, player: Player, record: dict[str, str]) -> Player:
    keys = ("address", "address 1", "address 2", "city, state zip")
    address = "\n".join(record[k] for k in keys if record.get(k))
    birthday = record.get("birthday") or record.get("birth date") or ""
    return replace(
        player,
        address=address,
        email=record.get("home email") or record.get("e-mail") or record.get("email", ""),
        phone=record.get("phone number") or record.get("phone", ""),
        citizenship=record.get("citizenship", ""),
        birth_date=_parse_date(reader, number, birthday) if birthday else None,
        chapter=record.get("club", player.chapter),
        state=record.get("state", player.state),
        membership_type=record.get("membership type", player.membership_type),
        aga_fee=_parse_fee(reader, number, record.get("aga fee", "")),
    )


def _parse_fee(reader: _Reader, number: int, text: str) -> float | None:
    """``$30``, ``30.00``; blank is no fee."""
    amount = text.strip().removeprefix("$").strip()
    if not amount:
        return None
    try:
        fee = float(amount)
    except ValueError:
        raise reader.error(number, f"AGA Fee {shown(text)} is not an amount in dollars") from None
    problem = fee_problem(fee)
    if problem:
        raise reader.error(number, f"AGA Fee: {problem}")
    return fee
