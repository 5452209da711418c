"""What the European Go Database would reject or question in the EGF tournament table.

Pure, as the AGA's check (``addin.core.submission``), whose types it shares: the action
(``addin.actions.egd``) hands over the tournament, the Players rows with their cells, the
settings' cells and the games' Result cells, and the details the TD gives the export (the
event's country, the class). Each problem names the player or game and the cell to fix.

* ``ERROR``: the EGD cannot take or rate it: no tournament name or first day (EV, DT), time
  limits it cannot class (no basic time, overtime it cannot read, below class C, or a class
  the time does not allow), no round played, a game with no result, a player with no grade
  or a name of more than 100 characters, an EGD PIN that is not eight digits or is on two
  rows. ``export-egd`` stops unless ``--force``.
* ``WARNING``: the EGD will ask, or the table says less than the workbook: no event country,
  no last day, fewer rounds played than planned, players without a country, a PIN or a given
  name, a name or club written otherwise than typed, a grade below 30k, the ghost player's
  games (rated as any), registered players who never played (left out).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from addin.core.ghost import ghost_games
from addin.core.limits import cut, shown
from addin.core.model import Player, PlayerId, Tournament
from addin.core.ratings import RatingError, entry_rating, rank_of
from addin.core.scoring import last_round
from addin.core.submission import (
    Cell,
    PlayerRow,
    Severity,
    Submission,
    SubmissionProblem,
    rows_without,
)
from addin.formats.egd_h9 import (
    CLASS_LIMITS,
    CLUB_LENGTH,
    COUNTRY,
    LONGEST_NAME,
    LOWEST_GRADE,
    EgfClass,
    EventDetails,
    class_allowed,
    club_code,
    grade,
    is_pin,
    listed_players,
    name_part,
    table_name,
    time_class,
)

SHOWN = 5
"""Players a summary line names before "and N more"."""


def check_egd(s: Submission, details: EventDetails) -> list[SubmissionProblem]:
    """Every problem, errors first, each once."""
    listed = listed_players(s.tournament, last_round(s.tournament))
    problems = [
        *_settings(s, details),
        *_rounds(s),
        *_pins(s.rows),
        *_grades(s.rows, listed),
        *_countries(s.rows, listed),
        *_names(s.rows, listed),
        *_ghost(s.tournament),
        *_never_played(s.rows, listed),
    ]
    order = list(Severity)
    return sorted(dict.fromkeys(problems), key=lambda p: order.index(p.severity))


def _who(p: Player) -> str:
    return f"{cut(p.name)} (AGA {p.aga_id})"


def _cell(row: PlayerRow, field: str) -> Cell | None:
    """The cell of ``row`` that holds the :class:`Player` field ``field``."""
    return row.cells.get(field)


def _setting(s: Submission, key: str) -> Cell | None:
    return next((f.cell for f in s.settings if f.key == key), None)


def _blank(s: Submission, key: str) -> bool:
    return any(f.blank for f in s.settings if f.key == key)


def _settings(s: Submission, details: EventDetails) -> list[SubmissionProblem]:
    found = []
    settings = s.tournament.settings
    for key, label, field in (
        ("name", "Tournament name", "EV"),
        ("start_date", "Start date", "DT"),
    ):
        if _blank(s, key):
            found.append(
                SubmissionProblem(
                    Severity.ERROR,
                    f"{label} is blank; the EGD's table needs it ({field})",
                    _setting(s, key),
                )
            )
    if _blank(s, "end_date") and not _blank(s, "start_date"):
        found.append(
            SubmissionProblem(
                Severity.WARNING,
                "End date is blank; the table gives the start date as the last day too (DT)",
                _setting(s, "end_date"),
            )
        )
    time = time_class(settings)
    declared = details.egf_class
    if time.overtime_problem is not None:
        found.append(
            SubmissionProblem(
                Severity.ERROR,
                f"{time.overtime_problem}: the EGD's adjusted time (TM) and class (CL) need it",
                _setting(s, time.overtime_problem.setting),
            )
        )
    elif time.basic is None:
        found.append(
            SubmissionProblem(
                Severity.ERROR,
                "Basic time is blank; the EGD classes a tournament by its time limits (CL, TM)",
                _setting(s, "basic_time_minutes"),
            )
        )
    elif declared is None and time.egf_class is EgfClass.X:
        least = CLASS_LIMITS[time.fischer][EgfClass.C]
        found.append(
            SubmissionProblem(
                Severity.ERROR,
                f"the time limits ({time.basic} minutes basic, {time.adjusted} adjusted) are "
                f"below class C's ({least.basic} and {least.adjusted}): the EGD rates no such "
                "tournament",
                _setting(s, "basic_time_minutes"),
            )
        )
    elif declared is not None and not class_allowed(declared, time):
        limit = CLASS_LIMITS[time.fischer][declared]
        found.append(
            SubmissionProblem(
                Severity.ERROR,
                f"class {declared.value} needs {limit.basic} minutes basic and {limit.adjusted} "
                f"adjusted; the time limits give {time.basic} and {time.adjusted} (class "
                f"{time.egf_class.value})",
                _setting(s, "basic_time_minutes"),
            )
        )
    if not COUNTRY.fullmatch(details.country.strip()):
        given = (
            f"{shown(details.country.strip(), 40)} is not a 2-letter code"
            if details.country.strip()
            else "not given"
        )
        found.append(
            SubmissionProblem(
                Severity.WARNING,
                f"the event's country is {given}: the EGD files the event under it (PC); "
                "give it with --country (e.g. --country DE)",
            )
        )
    return found


def _rounds(s: Submission) -> list[SubmissionProblem]:
    t = s.tournament
    played = last_round(t)
    if played == 0:
        return [
            SubmissionProblem(Severity.ERROR, "no round has been paired: there is nothing to rate")
        ]
    found = []
    if played < t.settings.rounds:
        found.append(
            SubmissionProblem(
                Severity.WARNING,
                f"{played} of the {t.settings.rounds} rounds are paired: the table has {played}",
                _setting(s, "rounds"),
            )
        )
    players = t.players
    for rnd in t.rounds:
        for g in rnd.games:
            if g.result is not None:
                continue
            names = " - ".join(_who(players[p]) if p in players else f"AGA {p}" for p in g.players)
            board = f" board {g.board}" if g.board is not None else ""
            found.append(
                SubmissionProblem(
                    Severity.ERROR,
                    f"round {rnd.number}{board}, {names}: no result; the EGD cannot rate it "
                    "(the table would say ?)",
                    s.result_cells.get((rnd.number, g.white, g.black)),
                )
            )
    return found


def _pins(rows: Sequence[PlayerRow]) -> list[SubmissionProblem]:
    found = []
    by_pin: dict[int, list[PlayerRow]] = {}
    for row in rows:
        pin = row.player.egd_pin
        if pin is None:
            continue
        if not is_pin(pin):
            found.append(
                SubmissionProblem(
                    Severity.ERROR,
                    f"{_who(row.player)}: EGD PIN {pin} is not 8 digits; the EGD would not find "
                    "the player (correct it, or clear it to be found by name)",
                    _cell(row, "egd_pin"),
                )
            )
        by_pin.setdefault(pin, []).append(row)
    for pin, same in by_pin.items():
        ids = {r.player.aga_id for r in same}
        if len(ids) > 1 and is_pin(pin):
            named = ", ".join(_who(r.player) for r in same)
            found.append(
                SubmissionProblem(
                    Severity.ERROR,
                    f"EGD PIN {pin} is given to {len(ids)} players ({named}): one player, one PIN",
                    _cell(same[1], "egd_pin"),
                )
            )
    return found


def _rows_listed(rows: Sequence[PlayerRow], listed: set[PlayerId]) -> Iterable[PlayerRow]:
    seen: set[PlayerId] = set()
    for row in rows:
        pid = row.player.aga_id
        if pid in listed and pid not in seen:
            seen.add(pid)
            yield row


def _grades(rows: Sequence[PlayerRow], listed: set[PlayerId]) -> list[SubmissionProblem]:
    found = []
    for row in _rows_listed(rows, listed):
        p = row.player
        cell = _cell(row, "rating") or _cell(row, "rank") or row.id_cell
        try:
            written = grade(p)
        except RatingError as err:
            found.append(
                SubmissionProblem(
                    Severity.ERROR, f"{_who(p)} has no grade for the EGD: {err}", cell
                )
            )
            continue
        rank = rank_of(entry_rating(p))
        if written != rank:
            found.append(
                SubmissionProblem(
                    Severity.WARNING,
                    f"{_who(p)}: the EGD's grades stop at {LOWEST_GRADE}k; {rank} is written "
                    f"{written}",
                    cell,
                )
            )
    return found


def _summary(players: Sequence[Player]) -> str:
    names = "; ".join(cut(p.name) for p in players[:SHOWN])
    more = len(players) - SHOWN
    return names + (f" and {more} more" if more > 0 else "")


def _countries(rows: Sequence[PlayerRow], listed: set[PlayerId]) -> list[SubmissionProblem]:
    found = []
    blank: list[PlayerRow] = []
    no_pin: list[Player] = []
    for row in _rows_listed(rows, listed):
        p = row.player
        code = p.country.strip()
        if not code:
            blank.append(row)
        elif not COUNTRY.fullmatch(code):
            found.append(
                SubmissionProblem(
                    Severity.WARNING,
                    f"{_who(p)}: country {shown(code, 40)} is not a 2-letter code (DE, FR, "
                    "US); the table says XX",
                    _cell(row, "country"),
                )
            )
        if not is_pin(p.egd_pin):
            no_pin.append(p)
    if blank:
        found.append(
            SubmissionProblem(
                Severity.WARNING,
                f"{len(blank)} players have no Country, written XX (unknown): "
                f"{_summary([r.player for r in blank])}",
                _cell(blank[0], "country"),
            )
        )
    if no_pin:
        found.append(
            SubmissionProblem(
                Severity.WARNING,
                f"{len(no_pin)} players have no EGD PIN: the EGD finds them by name and "
                f"country, or adds them as new players: {_summary(no_pin)}",
            )
        )
    return found


def _names(rows: Sequence[PlayerRow], listed: set[PlayerId]) -> list[SubmissionProblem]:
    found = []
    seen_names: dict[str, Player] = {}
    for row in _rows_listed(rows, listed):
        p = row.player
        for key, typed in (("family_name", p.family_name), ("given_name", p.given_name)):
            written = name_part(typed)
            if written != " ".join(typed.split()).replace(" ", "_"):
                found.append(
                    SubmissionProblem(
                        Severity.WARNING,
                        f"{_who(p)}: {shown(typed.strip(), 60)} is written "
                        f"{shown(written, 60)} in the EGD's table (its character set, no ; "
                        "or |)",
                        row.cells.get(key),
                    )
                )
        if len(table_name(p)) > LONGEST_NAME:
            found.append(
                SubmissionProblem(
                    Severity.ERROR,
                    f"{_who(p)}: the name is {len(table_name(p)):,} characters long; the EGD's "
                    f"table takes a name of at most {LONGEST_NAME}",
                    _cell(row, "family_name"),
                )
            )
        if not p.given_name.strip():
            found.append(
                SubmissionProblem(
                    Severity.WARNING,
                    f"{_who(p)} has no given name: the EGD matches players by family and "
                    "given name",
                    _cell(row, "given_name"),
                )
            )
        chapter = p.chapter.strip()
        if len(chapter.replace(" ", "")) > CLUB_LENGTH:
            found.append(
                SubmissionProblem(
                    Severity.WARNING,
                    f"{_who(p)}: club {shown(chapter, 60)} is written {club_code(p)!r} (the EGD's "
                    f"club codes have at most {CLUB_LENGTH} characters)",
                    _cell(row, "chapter"),
                )
            )
        name = table_name(p).casefold()
        other = seen_names.get(name)
        if other is not None and not (is_pin(p.egd_pin) and is_pin(other.egd_pin)):
            found.append(
                SubmissionProblem(
                    Severity.WARNING,
                    f"{_who(other)} and {_who(p)} have the same name: give both their EGD "
                    "PIN, or the EGD may take them for one player",
                    _cell(row, "egd_pin"),
                )
            )
        seen_names.setdefault(name, p)
    return found


def _ghost(t: Tournament) -> list[SubmissionProblem]:
    games = ghost_games(t)
    ghost = t.settings.ghost_player
    if not games or ghost is None or ghost not in t.players:
        return []
    rounds = ", ".join(str(r) for r, _ in games)
    return [
        SubmissionProblem(
            Severity.WARNING,
            f"the ghost player {_who(t.players[ghost])} played {len(games)} games (rounds "
            f"{rounds}): the EGD rates them as any game",
        )
    ]


def _never_played(rows: Sequence[PlayerRow], listed: set[PlayerId]) -> list[SubmissionProblem]:
    return [
        SubmissionProblem(
            Severity.WARNING,
            f"{_who(row.player)} has no game in any round: the table leaves the player out",
            row.id_cell,
        )
        for row in rows_without(rows, listed)
    ]
