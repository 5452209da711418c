"""Between sheets and the model: read the whole tournament, write back what an action owns.

Reading collects every problem (with its cell) instead of stopping at the
first, so ``check`` can list them all. Writing goes through the rows that were
read, so the TD's extra columns and typed values travel with their row.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from addin.core.european import (
    AvoidanceScope,
    BarTable,
    BeyondNine,
    FloatChoice,
    GradeScale,
    GroupPairing,
    GroupSeeding,
    McMahonRules,
    OddPlayer,
    Options,
    Sleeping,
    Supergroup,
)
from addin.core.handicap import MAX_HANDICAP
from addin.core.limits import komi_problem, number_said, shown
from addin.core.model import (
    Band,
    Bye,
    ByeKind,
    ColorPolicy,
    Contact,
    Game,
    HandicapBasis,
    HandicapPolicy,
    PairRequest,
    Player,
    PlayerId,
    RequestKind,
    Result,
    Round,
    Rules,
    ScoreOrigin,
    Settings,
    Status,
    Tournament,
)
from addin.core.ratings import RatingError, parse_rating
from addin.core.tiebreaks import TiebreakError, resolve, resolve_order
from addin.workbook import cells
from addin.workbook.gateway import (
    Part,
    Problem,
    Row,
    TableData,
    TableSource,
    day,
    flag,
    numeric,
    text,
    whole,
)
from addin.workbook.layout import (
    BANDS,
    LOG,
    REQUESTS,
    SETTINGS,
    SETTINGS_TABLE,
    Column,
    Setting,
    Table,
    byes_table,
    games_table,
    players_table,
    round_number_of,
    setting_help,
)
from addin.workbook.round_sheets import round_set_problems

# --- Settings -----------------------------------------------------------------------------


def _setting_column(setting: Setting) -> Column:
    return Column(
        setting.key, setting.label, setting.kind, choices=setting.choices, bounds=setting.bounds
    )


def _norm(text: object) -> str:
    return " ".join(str(text).split()).casefold()


SETTING_BY_LABEL = {_norm(s.label): s for s in SETTINGS}


@dataclass
class SettingsData:
    settings: Settings
    values: dict[str, object]
    data: TableData
    problems: list[Problem]

    def cell(self, key: str) -> str | None:
        for row in self.data.rows:
            setting = SETTING_BY_LABEL.get(_norm(row.get("setting", "")))
            if setting and setting.key == key:
                return row.cells.get("value")
        return None


def default_values() -> dict[str, object]:
    values: dict[str, object] = {}
    for setting in SETTINGS:
        values[setting.key] = (
            cells.parse(setting.default, _setting_column(setting))
            if setting.default != ""
            else None
        )
    return values


def read_settings(tables: TableSource) -> SettingsData:
    data = tables.read_table(SETTINGS_TABLE)
    problems = list(data.problems)
    values = default_values()
    for row in data.rows:
        setting = SETTING_BY_LABEL.get(_norm(row.get("setting", "")))
        if setting is None:
            continue
        raw = row.values.get("value")
        try:
            values[setting.key] = cells.parse(raw, _setting_column(setting))
        except cells.CellError as err:
            problems.append(
                Problem(SETTINGS_TABLE.sheet, str(err), row.cells.get("value"), setting.label)
            )
    try:
        settings = settings_from_values(values)
    except ValueError as err:
        problems.append(Problem(SETTINGS_TABLE.sheet, str(err)))
        settings = Settings()
    data_ = SettingsData(settings, values, data, problems)
    problems += tiebreak_problems(settings, SETTINGS_TABLE.sheet, data_.cell("tiebreaks"))
    return data_


def _check_bounds(v: Mapping[str, object]) -> None:
    """Every number setting within the bounds the layout gives it, whichever door the
    values came through (a cell, an imported report, ``new``): the setting named, the value
    quoted as ``shown`` cuts it, never converted."""
    for setting in SETTINGS:
        value = v.get(setting.key)
        if setting.bounds is None or value is None:
            continue
        low, high = setting.bounds
        if (
            not isinstance(value, int | float)
            or isinstance(value, bool)
            or not low <= value <= high
        ):
            raise ValueError(
                f"{setting.label}: {shown(value)} is not a number from {number_said(low)} "
                f"to {number_said(high)}"
            )


def _whole(v: Mapping[str, object], key: str, default: int) -> int:
    """A whole-number setting (blank: the default); its bounds are checked before."""
    value = whole(v, key)
    return default if value is None else value


def settings_from_values(v: Mapping[str, object]) -> Settings:
    def contact(prefix: str) -> Contact:
        return Contact(
            name=text(v, f"{prefix}_name"),
            address=text(v, f"{prefix}_address"),
            phone=text(v, f"{prefix}_phone"),
            email=text(v, f"{prefix}_email"),
            web=text(v, f"{prefix}_web"),
        )

    _check_bounds(v)
    defaults = Settings()
    listed = [t.strip() for t in text(v, "tiebreaks").split(",") if t.strip()]
    tiebreaks = tuple(t for t in listed if not is_extra(t))
    extras = tuple(t[1:-1].strip() for t in listed if is_extra(t))
    rounds = whole(v, "rounds")
    rounds = defaults.rounds if rounds is None else rounds  # 0 is refused, not the default
    komi = numeric(v, "komi")
    komi = defaults.komi if komi is None else komi
    if komi_problem(komi):
        raise ValueError(f"Komi (even games): {komi_problem(komi)}")
    start, end = day(v, "start_date"), day(v, "end_date")
    if start is not None and end is not None and end < start:
        raise ValueError(f"End date {end} is before Start date {start}")
    band_d = numeric(v, "band_d")
    return Settings(
        name=text(v, "name"),
        venue=text(v, "venue"),
        venue_address=text(v, "venue_address"),
        start_date=start,
        end_date=end,
        director=contact("director"),
        sponsor=contact("sponsor"),
        convener=contact("convener"),
        pairing_format=text(v, "pairing_format") or defaults.pairing_format,
        rules=Rules(v.get("rules") or defaults.rules.value),
        basic_time_minutes=whole(v, "basic_time_minutes"),
        overtime_format=text(v, "overtime_format"),
        overtime_conditions=text(v, "overtime_conditions"),
        komi=komi,
        rounds=rounds,
        bar=numeric(v, "bar"),
        band_d=defaults.band_d if band_d is None else band_d,
        top_band_separation_one=v.get("top_band_separation") == "1 point",
        score_origin=ScoreOrigin(v.get("score_origin") or defaults.score_origin.value),
        bottom_score_offset=numeric(v, "bottom_score_offset") or 0.0,
        handicap_policy=HandicapPolicy(v.get("handicap_policy") or defaults.handicap_policy.value),
        handicap_basis=HandicapBasis(v.get("handicap_basis") or defaults.handicap_basis.value),
        handicap_even_from=numeric(v, "handicap_even_from"),
        handicap_ceiling=_whole(v, "handicap_ceiling", defaults.handicap_ceiling),
        top_band_even=flag(v, "top_band_even"),
        color_policy=ColorPolicy(v.get("color_policy") or defaults.color_policy.value),
        avoid_same_family=flag(v, "avoid_same_family"),
        avoid_same_club=flag(v, "avoid_same_club"),
        avoid_same_city=flag(v, "avoid_same_city"),
        avoid_same_state=flag(v, "avoid_same_state"),
        avoid_same_country=flag(v, "avoid_same_country"),
        avoid_handicap_games=flag(v, "avoid_handicap_games"),
        avoidance_points=_whole(v, "avoidance_points", defaults.avoidance_points),
        tiebreaks=tiebreaks or defaults.tiebreaks,
        extra_columns=extras,
        seed=whole(v, "seed") or 0,
        check_in=flag(v, "check_in"),
        projected_ratings=flag(v, "projected_ratings"),
        mcmahon_rules=McMahonRules(v.get("mcmahon_rules") or defaults.mcmahon_rules.value),
        typed_options=european_options(v),
        ghost_player=whole(v, "ghost_player"),
    )


def european_options(v: Mapping[str, object]) -> Options:
    """The European options as typed (blank: ``None``, the preset decides)."""

    def typed(key: str, kind: type[enum.Enum]) -> Any:
        value = v.get(key)
        return None if value is None else kind(value)

    return Options(
        grade_scale=typed("grade_scale", GradeScale),
        bar_table=typed("bar_table", BarTable),
        supergroup=typed("supergroup", Supergroup),
        odd_player=typed("odd_player", OddPlayer),
        group_seeding=typed("group_seeding", GroupSeeding),
        group_pairing=typed("group_pairing", GroupPairing),
        float_choice=typed("float_choice", FloatChoice),
        beyond_nine=typed("beyond_nine", BeyondNine),
        avoidance_scope=typed("avoidance_scope", AvoidanceScope),
        sleeping=typed("sleeping", Sleeping),
    )


def settings_values(s: Settings) -> dict[str, object]:
    """The Settings table's values for ``s``: the inverse of ``settings_from_values``."""
    values: dict[str, object] = {
        "name": s.name or None,
        "venue": s.venue or None,
        "venue_address": s.venue_address or None,
        "start_date": s.start_date,
        "end_date": s.end_date,
        "pairing_format": s.pairing_format or None,
        "rules": s.rules.value,
        "basic_time_minutes": s.basic_time_minutes,
        "overtime_format": s.overtime_format or None,
        "overtime_conditions": s.overtime_conditions or None,
        "komi": s.komi,
        "rounds": s.rounds,
        "bar": s.bar,
        "band_d": s.band_d,
        "top_band_separation": "1 point" if s.top_band_separation_one else "Automatic",
        "score_origin": s.score_origin.value,
        "bottom_score_offset": s.bottom_score_offset,
        "handicap_policy": s.handicap_policy.value,
        "handicap_basis": s.handicap_basis.value,
        "handicap_even_from": s.handicap_even_from,
        "handicap_ceiling": s.handicap_ceiling,
        "top_band_even": s.top_band_even,
        "color_policy": s.color_policy.value,
        "avoid_same_family": s.avoid_same_family,
        "avoid_same_club": s.avoid_same_club,
        "avoid_same_city": s.avoid_same_city,
        "avoid_same_state": s.avoid_same_state,
        "avoid_same_country": s.avoid_same_country,
        "avoid_handicap_games": s.avoid_handicap_games,
        "avoidance_points": s.avoidance_points,
        "tiebreaks": ", ".join([*s.tiebreaks, *(f"({x})" for x in s.extra_columns)]),
        "seed": s.seed,
        "check_in": s.check_in,
        "projected_ratings": s.projected_ratings,
        "mcmahon_rules": s.mcmahon_rules.value,
        "grade_scale": _value_or_none(s.typed_options.grade_scale),
        "bar_table": _value_or_none(s.typed_options.bar_table),
        "supergroup": _value_or_none(s.typed_options.supergroup),
        "odd_player": _value_or_none(s.typed_options.odd_player),
        "ghost_player": s.ghost_player,
        "group_seeding": _value_or_none(s.typed_options.group_seeding),
        "group_pairing": _value_or_none(s.typed_options.group_pairing),
        "float_choice": _value_or_none(s.typed_options.float_choice),
        "beyond_nine": _value_or_none(s.typed_options.beyond_nine),
        "avoidance_scope": _value_or_none(s.typed_options.avoidance_scope),
        "sleeping": _value_or_none(s.typed_options.sleeping),
    }
    for prefix in ("director", "sponsor", "convener"):
        contact = getattr(s, prefix)
        for field_name in ("name", "address", "phone", "email", "web"):
            values[f"{prefix}_{field_name}"] = getattr(contact, field_name) or None
    return values


def _value_or_none(choice: enum.Enum | None) -> object:
    return None if choice is None else choice.value


def settings_rows(values: Mapping[str, object]) -> list[dict[str, object]]:
    """Rows for the Settings table, values rendered as a TD would type them."""
    rows = []
    for s in SETTINGS:
        value = values.get(s.key)
        rows.append(
            {
                "setting": s.label,
                "value": cells.render(value, _setting_column(s)),
                "help": setting_help(s),
            }
        )
    return rows


# --- Players ------------------------------------------------------------------------------


_PLAYERS_READ: dict[object, Player | None] = {}
"""``player_from_row``'s answers by the row's values (a Player is frozen): the stations'
writer reads the same Players rows for every entry of a group, and a group after it."""
PLAYERS_READ_KEPT = 20_000


def player_from_row(row: Row, rounds: int) -> Player | None:
    """The player a Players row holds (None: no AGA # or no family name)."""
    try:
        key: object = (rounds, *row.values.items())
        found = _PLAYERS_READ.get(key, _UNREAD)
    except TypeError:  # a value that is no key: read as it is
        return _player_from_row(row, rounds)
    if found is not _UNREAD:
        return found  # type: ignore[return-value]
    if len(_PLAYERS_READ) >= PLAYERS_READ_KEPT:
        _PLAYERS_READ.clear()
    player = _PLAYERS_READ[key] = _player_from_row(row, rounds)
    return player


_UNREAD = object()


def _player_from_row(row: Row, rounds: int) -> Player | None:
    aga_id = row.whole("aga_id")
    family = row.text("family_name")
    if aga_id is None or row.get("family_name") is None:
        return None
    requests = {n: row.get(f"r{n}") for n in range(1, rounds + 1)}
    return Player(
        aga_id=aga_id,
        family_name=family,
        given_name=row.text("given_name"),
        rank=row.text("rank"),
        rating=row.numeric("rating"),
        aga_rating=row.numeric("aga_rating"),
        membership_type=row.text("membership_type"),
        membership_expiry=row.day("membership_expiry"),
        chapter=row.text("chapter"),
        state=row.text("state"),
        city=row.text("city"),
        country=row.text("country"),
        egd_pin=row.whole("egd_pin"),
        gor=row.whole("gor"),
        family_group=row.text("family_group"),
        band=row.whole("band"),
        band_override=row.whole("band_override"),
        above_bar=row.flag("above_bar"),
        initial_score=row.numeric("initial_score"),
        status=Status(row.get("status", Status.ACTIVE.value)),
        bye_volunteer=row.flag("bye_volunteer"),
        bye_requests=frozenset(n for n, r in requests.items() if r == "Bye"),
        volunteer_rounds=frozenset(n for n, r in requests.items() if r == "Volunteer"),
        email=row.text("email"),
        phone=row.text("phone"),
        address=row.text("address"),
        citizenship=row.text("citizenship"),
        birth_date=row.day("birth_date"),
        aga_fee=row.numeric("aga_fee"),
        notes=row.text("notes"),
    )


def player_values(p: Player, rounds: int) -> dict[str, object]:
    """A Players row for ``p``: the inverse of ``player_from_row``."""
    values: dict[str, object] = {
        "aga_id": p.aga_id,
        "family_name": p.family_name,
        "given_name": p.given_name or None,
        "rank": p.rank or None,
        "rating": p.rating,
        "aga_rating": p.aga_rating,
        "membership_type": p.membership_type or None,
        "membership_expiry": p.membership_expiry,
        "chapter": p.chapter or None,
        "state": p.state or None,
        "city": p.city or None,
        "country": p.country or None,
        "egd_pin": p.egd_pin,
        "gor": p.gor,
        "family_group": p.family_group or None,
        "above_bar": True if p.above_bar else None,
        "band": p.band,
        "band_override": p.band_override,
        "initial_score": p.initial_score,
        "status": p.status.value,
        "bye_volunteer": True if p.bye_volunteer else None,
        "email": p.email or None,
        "phone": p.phone or None,
        "address": p.address or None,
        "citizenship": p.citizenship or None,
        "birth_date": p.birth_date,
        "aga_fee": p.aga_fee,
        "notes": p.notes or None,
    }
    for n in range(1, rounds + 1):
        values[f"r{n}"] = (
            "Bye" if n in p.bye_requests else "Volunteer" if n in p.volunteer_rounds else None
        )
    return values


# --- The whole book -----------------------------------------------------------------------


@dataclass
class Book:
    """Everything an action read: the model, each table's rows, and every problem found."""

    tournament: Tournament
    settings: SettingsData
    tables: dict[str, TableData] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def players_data(self) -> TableData:
        return self.tables["Players"]

    def round_numbers(self) -> list[int]:
        return sorted(r.number for r in self.tournament.rounds)


def read_book(tables: TableSource) -> Book:
    """Read settings, players, bands, requests and every Round sheet."""
    settings = read_settings(tables)
    t = Tournament(settings=settings.settings)
    book = Book(t, settings, problems=list(settings.problems))
    rounds = settings.settings.rounds

    players = _read(book, tables, players_table(rounds))
    for row in players.rows:
        player = player_from_row(row, rounds)
        if player is None:
            missing = "aga_id" if row.get("aga_id") is None else "family_name"
            if missing not in row.unread:  # an unreadable cell is named already
                book.problems.append(players.problem(row, missing, "required value is blank"))
            continue
        if player.aga_id in t.players:
            continue  # reported as a duplicate by the reader
        if player.rank:
            try:
                parse_rating(player.rank)
            except RatingError as err:
                book.problems.append(players.problem(row, "rank", str(err)))
        t.players[player.aga_id] = player

    bands = _read(book, tables, BANDS)
    for row in bands.rows:
        number, min_rating = row.whole("number"), row.numeric("min_rating")
        if number is None or min_rating is None:
            continue
        t.bands.append(
            Band(
                number=number,
                label=row.text("label"),
                min_rating=min_rating,
                separation=row.whole("separation"),
                separation_override=row.whole("separation_override"),
                initial_score=row.numeric("initial_score"),
            )
        )

    requests = _read(book, tables, REQUESTS)
    for row in requests.rows:
        first, second = row.whole("first"), row.whole("second")
        if row.get("kind") is None or first is None or second is None:
            continue
        for key, pid in (("first", first), ("second", second)):
            if pid not in t.players:
                said = f"AGA # {pid} is not in the Players sheet"
                book.problems.append(_missing(requests.problem(row, key, said), pid))
        t.requests.append(PairRequest(RequestKind(row["kind"]), first, second, row.whole("round")))

    names = _names_of(t.players)
    for sheet in tables.sheet_names():
        number = round_number_of(sheet)
        if number is not None:
            t.rounds.append(_read_round(book, tables, number, names))
    t.rounds.sort(key=lambda r: r.number)
    book.problems += round_set_problems(
        t.rounds, tables.sheet_names(), settings.settings.rounds, settings.cell("rounds")
    )
    book.problems = with_parts(book.problems, book.tables, SETTINGS_TABLE.sheet, t.players)
    return book


def _read(book: Book, tables: TableSource, table: Table) -> TableData:
    data = tables.read_table(table)
    book.tables[table.name] = data
    if data.present or table.sheet != "Requests":
        # a sheet's own problems (a stray far below, say) come with each table it holds
        known = set(book.problems)
        book.problems.extend(p for p in data.problems if p not in known)
    return data


def _missing(problem: Problem, pid: PlayerId) -> Problem:
    return replace(problem, missing_player=pid)


def _squashed_name(name: object) -> str:
    return " ".join(str(name).replace(",", " ").split()).casefold()


def _names_of(players: Mapping[PlayerId, Player]) -> dict[str, PlayerId]:
    """Each registered player's name (spacing, commas and case aside), where no one shares it."""
    seen: dict[str, list[PlayerId]] = {}
    for pid, player in players.items():
        seen.setdefault(_squashed_name(player.name), []).append(pid)
    return {name: pids[0] for name, pids in seen.items() if len(pids) == 1}


def _name_problem(
    players: Mapping[PlayerId, Player], names: dict[str, PlayerId], shown: object, pid: PlayerId
) -> str | None:
    """A name cell that names another registered player than the AGA # beside it.

    The AGA # decides who played; a name typed over it (to change the pairing on the wall
    sheet) would otherwise be printed and posted while the other player is scored."""
    if shown is None or pid not in players or shown == players[pid].name:
        return None
    other = names.get(_squashed_name(shown))
    if other is None or other == pid:
        return None
    return (
        f"{str(shown)[:60]!r} is AGA # {other}, but the AGA # of this game is {pid} "
        f"({players[pid].name}): the AGA # decides who played; correct the name or the number"
    )


def _read_round(book: Book, tables: TableSource, number: int, names: dict[str, PlayerId]) -> Round:
    """``names``: :func:`_names_of` the registered players."""
    players = book.tournament.players
    games_data = _read(book, tables, games_table(number))
    byes_data = _read(book, tables, byes_table(number))
    games: list[Game] = []
    seen: dict[PlayerId, str] = {}

    def claim(pid: int, row: Row, data: TableData, key: str) -> None:
        where = row.cells.get(key) or ""
        if pid not in players:
            book.problems.append(
                _missing(data.problem(row, key, f"AGA # {pid} is not in the Players sheet"), pid)
            )
        if pid in seen:
            book.problems.append(
                data.problem(
                    row, key, f"AGA # {pid} appears twice in round {number} (also {seen[pid]})"
                )
            )
        seen[pid] = where

    for row in games_data.rows:
        values = row.values
        white, black = row.whole("white"), row.whole("black")
        if white is None and black is None and values.get("result") is not None:
            book.problems.append(
                games_data.problem(row, "result", "a result in a game that has no players")
            )
            continue
        if white is None or black is None:
            blank = "white" if white is None else "black"
            if blank not in row.unread:  # a value of the wrong kind is named already
                book.problems.append(
                    games_data.problem(row, blank, "a game needs both players' AGA numbers")
                )
            continue
        claim(white, row, games_data, "white")
        claim(black, row, games_data, "black")
        for key, pid in (("white", white), ("black", black)):
            wrong = _name_problem(players, names, values.get(f"{key}_name"), pid)
            if wrong:
                book.problems.append(games_data.problem(row, f"{key}_name", wrong))
        if white == black:
            book.problems.append(games_data.problem(row, "black", "a player cannot play themself"))
        handicap = row.whole("handicap") or 0
        if not 0 <= handicap <= MAX_HANDICAP:
            book.problems.append(
                games_data.problem(
                    row,
                    "handicap",
                    f"a handicap is 0 to {MAX_HANDICAP} stones, not {row['handicap']}",
                )
            )
        komi = row.numeric("komi") or 0.0
        if komi_problem(komi):
            book.problems.append(games_data.problem(row, "komi", str(komi_problem(komi))))
        games.append(
            Game(
                white=white,
                black=black,
                handicap=handicap,
                komi=komi,
                result=row.typed("result", Result),
                board=row.whole("board"),
                notes=row.text("notes"),
            )
        )
    byes: list[Bye] = []
    for row in byes_data.rows:
        player = row.whole("player")
        if player is None:
            continue
        claim(player, row, byes_data, "player")
        byes.append(Bye(player, ByeKind(row.get("kind", ByeKind.VOLUNTARY.value))))
    return Round(number, tuple(games), tuple(byes))


# --- Writing ------------------------------------------------------------------------------


def copy_row(r: Row) -> Row:
    """A row to change without touching the one read (what the TD typed travels with it)."""
    return Row(dict(r.values), r.number, dict(r.extra), dict(r.cells), dict(r.unread))


def merge_rows(
    data: TableData,
    key: str,
    updates: Mapping[Any, Mapping[str, object]],
    *,
    fill_only: Iterable[str] = (),
) -> list[Row]:
    """The table's rows with ``updates`` applied by key; unknown keys become new rows.

    Columns in ``fill_only`` are written only where the cell is blank, so a value
    the TD typed is never overwritten.
    """
    fill_only = set(fill_only)
    rows = [copy_row(r) for r in data.rows]
    index = {r.values.get(key): r for r in rows}
    for k, values in updates.items():
        row = index.get(k)
        if row is None:
            row = Row({key: k})
            rows.append(row)
            index[k] = row
        for column, value in values.items():
            if column in fill_only and row.values.get(column) is not None:
                continue
            row.values[column] = value
    return rows


# --- the Log as read ----------------------------------------------------------------------
# The Log sheet as the actions read it: each row's level and message, oldest first.
#
# The Log is how an action knows what earlier ones did (the pairing stamps, a round
# unpaired, warnings already accepted); appending to it is the gateway's ``append_log``.


def read_log(tables: TableSource) -> list[tuple[str, str]]:
    """(level, message) of every Log row, oldest first."""
    return [
        (str(r.get("level", "")), str(r.get("message", ""))) for r in tables.read_table(LOG).rows
    ]


# --- settings checked beyond their cells --------------------------------------------------
# The Tournament sheet's settings checked against the AGA rules, each problem on its cell.


TIEBREAK_LABEL = "Tiebreak order"


def is_extra(name: str) -> bool:
    """A tiebreak written in parentheses, "(CUSP)": an extra column that breaks no tie."""
    text = name.strip()
    return text.startswith("(") and text.endswith(")")


def tiebreak_problems(settings: Settings, sheet: str, cell: str | None) -> list[Problem]:
    """Unknown tiebreaks, and raw-wins tiebreaks in the official order.

    The AGA interface document: "under no circumstances can tiebreaks be based upon a
    player's raw score (number of wins)". Wins and CUSP are allowed only as extra,
    labelled columns, written in parentheses.
    """
    problems: list[Problem] = []

    def problem(message: str) -> None:
        problems.append(Problem(sheet, message, cell, TIEBREAK_LABEL))

    for name in settings.tiebreaks:
        try:
            tb = resolve(name)
        except TiebreakError as err:
            problem(str(err))
            continue
        if tb.uses_raw_wins:
            problem(
                f"{name!r} breaks ties on raw wins, which the AGA rules forbid (tiebreaks "
                f"must follow the McMahon score); write it in parentheses, ({name}), to show "
                "it as an extra column that breaks no tie"
            )
    for name in settings.extra_columns:
        try:
            resolve(name)
        except TiebreakError as err:
            problem(str(err))
    if not problems:
        try:
            resolve_order(settings.tiebreaks)
        except TiebreakError as err:
            problem(str(err))
    return problems


# --- the part of the tournament a problem's cell feeds ------------------------------------
# What each problem found by reading affects: a player's cell, a round, a request, a setting.
#
# An action then stops only on the problems in what it needs (``addin.actions.intake.Needs``) and
# goes on past the others with a warning naming the cell. A problem this module cannot place
# (a missing header row, an unreadable sheet) affects the whole tournament.


CONTACT_COLUMNS = frozenset(
    {
        "membership_type",
        "membership_expiry",
        "email",
        "phone",
        "address",
        "citizenship",
        "egd_pin",
        "birth_date",
        "aga_fee",
        "notes",
    }
)
"""Players columns only registration, reports and exports read."""

SCORING_COLUMNS = frozenset(
    {"aga_id", "family_name", "given_name", "band", "band_override", "initial_score", "status"}
)
"""Players columns the McMahon scores, tiebreaks and standings read."""

FEE_COLUMNS = frozenset({"aga_fee"})
"""The Players column the AGA export reads beyond the players it names."""

EGD_COLUMNS = SCORING_COLUMNS | {"rank", "rating", "chapter", "country", "egd_pin"}
"""The Players columns the EGD's table reads: the standings', and each line's grade, club,
country and PIN."""

_EVERY_COLUMN = frozenset(c.key for c in players_table(30).columns)
PAIRING_COLUMNS = _EVERY_COLUMN - CONTACT_COLUMNS
"""Players columns a pairing, or a file another program pairs from, reads."""
DIRECTOR_COLUMNS = PAIRING_COLUMNS - {"rank"}
"""Players columns the director's operations read: entry ratings, never ranks."""

DESCRIPTIVE_SETTINGS = frozenset(
    {"name", "venue", "venue_address", "end_date", "basic_time_minutes", "overtime_format"}
    | {"overtime_conditions"}
    | {f"{who}_{what}" for who in ("director", "sponsor", "convener")
        for what in ("name", "address", "phone", "email", "web")}
)  # fmt: skip
"""Settings that only describe the event (reports and the AGA files print them)."""

PLAYING_SETTINGS = frozenset(s.key for s in SETTINGS) - DESCRIPTIVE_SETTINGS
"""Settings that decide pairings, bands, scores and registration."""

SHAPING_SETTINGS = frozenset({"rounds"})
"""Settings that shape the sheets themselves (the Players round columns, the Round sheets):
a problem in one affects the whole tournament, whatever an action reads."""


def is_aga_id(part: Part | None) -> bool:
    """Whether ``part`` is a player's AGA # cell (one that cannot be read loses the player)."""
    return part is not None and part.column == "aga_id"


_ROW = re.compile(r"^[A-Z]+(\d+)$")
_SETTING_BY_LABEL = {" ".join(s.label.split()).casefold(): s.key for s in SETTINGS}


def _row_of(problem: Problem, data: TableData | None) -> Row | None:
    match = _ROW.match(problem.cell or "")
    if data is None or match is None:
        return None
    number = int(match.group(1))
    return next((r for r in data.rows if r.number == number), None)


def _column_key(problem: Problem, data: TableData) -> str | None:
    header = " ".join((problem.column or "").split()).casefold()
    return next(
        (c.key for c in data.table.columns if " ".join(c.header.split()).casefold() == header),
        None,
    )


def part_of(
    problem: Problem,
    tables: dict[str, TableData],
    settings_sheet: str,
    players: Collection[object] = (),
) -> Part | None:
    """The part of the tournament ``problem``'s cell feeds (``None``: all of it).

    A Players row that did not become a player (``players`` are those that did) is keyed
    ``None``: whoever pairs the field needs it, since it may be a player left out."""
    if problem.affects is not None:
        return problem.affects
    sheet = problem.sheet
    number = round_number_of(sheet)
    if number is not None:
        return Part("round", number)
    if sheet == BANDS.sheet:
        return Part("bands")
    if sheet == REQUESTS.sheet:
        row = _row_of(problem, tables.get(REQUESTS.name))
        return Part("requests", row.get("round") if row is not None else None)
    if sheet == settings_sheet:
        key = _SETTING_BY_LABEL.get(" ".join((problem.column or "").split()).casefold())
        return Part("setting", key) if key and key not in SHAPING_SETTINGS else None
    players_data = tables.get("Players")
    if players_data is not None and sheet == players_data.table.sheet:
        row = _row_of(problem, players_data)
        if row is None:
            return None  # the header row: every player
        aga_id = row.get("aga_id")
        player = aga_id if aga_id in players else None
        return Part("player", player, _column_key(problem, players_data))
    return None


def with_parts(
    problems: list[Problem],
    tables: dict[str, TableData],
    settings_sheet: str,
    players: Collection[object],
) -> list[Problem]:
    placed = [replace(p, affects=part_of(p, tables, settings_sheet, players)) for p in problems]
    return _with_their_aga_id(placed)


def _with_their_aga_id(problems: list[Problem]) -> list[Problem]:
    """A Players row whose AGA # cannot be read is no player, and nobody can tell which of its
    cells a player would need: every other bad cell of the row goes with its AGA # (stops
    what the AGA # stops), so the message that names the AGA # names the whole row."""
    unknown = {(p.sheet, _row_number(p)) for p in problems if p.unreadable and is_aga_id(p.affects)}
    return [
        replace(p, affects=Part("player", None, "aga_id"))
        if (p.sheet, _row_number(p)) in unknown and not is_aga_id(p.affects)
        else p
        for p in problems
    ]


def _row_number(problem: Problem) -> int | None:
    match = _ROW.match(problem.cell or "")
    return int(match.group(1)) if match else None
