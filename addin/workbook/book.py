"""Between sheets and the model: read the whole tournament, write back what an action owns.

Reading collects every problem (with its cell) instead of stopping at the
first, so ``check`` can list them all. Writing goes through the rows that were
read, so the TD's extra columns and typed values travel with their row.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date
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
from addin.core.limits import MAX_ROUNDS, komi_problem
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
    Round,
    Rules,
    ScoreOrigin,
    Settings,
    Status,
    Tournament,
)
from addin.core.ratings import RatingError, parse_rating
from addin.workbook import cells, settings_rules
from addin.workbook.gateway import Gateway, Problem, Row, TableData
from addin.workbook.layout import (
    BANDS,
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
from addin.workbook.parts import with_parts
from addin.workbook.round_sheets import round_set_problems

# --- Settings -----------------------------------------------------------------------------


def _setting_column(setting: Setting) -> Column:
    return Column(setting.key, setting.label, setting.kind, choices=setting.choices)


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


def read_settings(gw: Gateway) -> SettingsData:
    data = gw.read_table(SETTINGS_TABLE)
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
    problems += settings_rules.tiebreak_problems(
        settings, SETTINGS_TABLE.sheet, data_.cell("tiebreaks")
    )
    return data_


def _whole(v: Mapping[str, object], key: str, default: int, low: int, high: int) -> int:
    """A whole-number setting within ``low..high`` (blank: the default)."""
    value = v.get(key)
    if value is None:
        return default
    number = int(value)  # type: ignore[call-overload]
    if not low <= number <= high:
        label = next(s.label for s in SETTINGS if s.key == key)
        raise ValueError(f"{label} {number} is not between {low} and {high}")
    return number


def settings_from_values(v: Mapping[str, object]) -> Settings:
    def text(key: str) -> str:
        value = v.get(key)
        return "" if value is None else str(value)

    def contact(prefix: str) -> Contact:
        return Contact(
            name=text(f"{prefix}_name"),
            address=text(f"{prefix}_address"),
            phone=text(f"{prefix}_phone"),
            email=text(f"{prefix}_email"),
            web=text(f"{prefix}_web"),
        )

    defaults = Settings()
    listed = [t.strip() for t in text("tiebreaks").split(",") if t.strip()]
    tiebreaks = tuple(t for t in listed if not settings_rules.is_extra(t))
    extras = tuple(t[1:-1].strip() for t in listed if settings_rules.is_extra(t))
    rounds = v.get("rounds")
    rounds = defaults.rounds if rounds is None else rounds  # 0 is refused, not the default
    if not 1 <= int(rounds) <= MAX_ROUNDS:  # type: ignore[call-overload]
        raise ValueError(f"Number of rounds {rounds} is not between 1 and {MAX_ROUNDS}")
    komi = float(v.get("komi") if v.get("komi") is not None else defaults.komi)  # type: ignore[arg-type]
    if komi_problem(komi):
        raise ValueError(f"Komi (even games): {komi_problem(komi)}")
    start, end = v.get("start_date"), v.get("end_date")
    if isinstance(start, date) and isinstance(end, date) and end < start:
        raise ValueError(f"End date {end} is before Start date {start}")
    band_d = v.get("band_d")
    return Settings(
        name=text("name"),
        venue=text("venue"),
        venue_address=text("venue_address"),
        start_date=v.get("start_date"),  # type: ignore[arg-type]
        end_date=v.get("end_date"),  # type: ignore[arg-type]
        director=contact("director"),
        sponsor=contact("sponsor"),
        convener=contact("convener"),
        pairing_format=text("pairing_format") or defaults.pairing_format,
        rules=Rules(v.get("rules") or defaults.rules.value),
        basic_time_minutes=v.get("basic_time_minutes"),  # type: ignore[arg-type]
        overtime_format=text("overtime_format"),
        overtime_conditions=text("overtime_conditions"),
        komi=komi,
        rounds=int(rounds),  # type: ignore[call-overload]
        bar=v.get("bar"),  # type: ignore[arg-type]
        band_d=float(band_d) if band_d is not None else defaults.band_d,  # type: ignore[arg-type]
        top_band_separation_one=v.get("top_band_separation") == "1 point",
        score_origin=ScoreOrigin(v.get("score_origin") or defaults.score_origin.value),
        bottom_score_offset=float(v.get("bottom_score_offset") or 0),  # type: ignore[arg-type]
        handicap_policy=HandicapPolicy(v.get("handicap_policy") or defaults.handicap_policy.value),
        handicap_basis=HandicapBasis(v.get("handicap_basis") or defaults.handicap_basis.value),
        handicap_even_from=v.get("handicap_even_from"),  # type: ignore[arg-type]
        handicap_ceiling=_whole(v, "handicap_ceiling", defaults.handicap_ceiling, 0, 9),
        top_band_even=bool(v.get("top_band_even")),
        color_policy=ColorPolicy(v.get("color_policy") or defaults.color_policy.value),
        avoid_same_family=bool(v.get("avoid_same_family")),
        avoid_same_club=bool(v.get("avoid_same_club")),
        avoid_same_city=bool(v.get("avoid_same_city")),
        avoid_same_state=bool(v.get("avoid_same_state")),
        avoid_same_country=bool(v.get("avoid_same_country")),
        avoid_handicap_games=bool(v.get("avoid_handicap_games")),
        avoidance_points=_whole(v, "avoidance_points", defaults.avoidance_points, 0, 100),
        tiebreaks=tiebreaks or defaults.tiebreaks,
        extra_columns=extras,
        seed=int(v.get("seed") or 0),  # type: ignore[call-overload]
        mcmahon_rules=McMahonRules(v.get("mcmahon_rules") or defaults.mcmahon_rules.value),
        typed_options=european_options(v),
        ghost_player=v.get("ghost_player"),  # type: ignore[arg-type]
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


def player_from_row(row: Row, rounds: int) -> Player | None:
    aga_id = row.get("aga_id")
    family = row.get("family_name")
    if aga_id is None or family is None:
        return None
    requests = {n: row.get(f"r{n}") for n in range(1, rounds + 1)}
    return Player(
        aga_id=int(aga_id),  # type: ignore[call-overload]
        family_name=str(family),
        given_name=str(row.get("given_name", "")),
        rank=str(row.get("rank", "")),
        rating=row.get("rating"),  # type: ignore[arg-type]
        aga_rating=row.get("aga_rating"),  # type: ignore[arg-type]
        membership_type=str(row.get("membership_type", "")),
        membership_expiry=row.get("membership_expiry"),  # type: ignore[arg-type]
        chapter=str(row.get("chapter", "")),
        state=str(row.get("state", "")),
        city=str(row.get("city", "")),
        country=str(row.get("country", "")),
        egd_pin=_whole_or_none(row.get("egd_pin")),
        family_group=str(row.get("family_group", "")),
        band=row.get("band"),  # type: ignore[arg-type]
        band_override=row.get("band_override"),  # type: ignore[arg-type]
        above_bar=bool(row.get("above_bar", False)),
        initial_score=row.get("initial_score"),  # type: ignore[arg-type]
        status=Status(row.get("status", Status.ACTIVE.value)),
        bye_volunteer=bool(row.get("bye_volunteer", False)),
        bye_requests=frozenset(n for n, r in requests.items() if r == "Bye"),
        volunteer_rounds=frozenset(n for n, r in requests.items() if r == "Volunteer"),
        email=str(row.get("email", "")),
        phone=str(row.get("phone", "")),
        address=str(row.get("address", "")),
        citizenship=str(row.get("citizenship", "")),
        birth_date=row.get("birth_date"),  # type: ignore[arg-type]
        aga_fee=row.get("aga_fee"),  # type: ignore[arg-type]
        notes=str(row.get("notes", "")),
    )


def _whole_or_none(value: object) -> int | None:
    """A whole-number cell as read (``Kind.INT``), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


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


def read_book(gw: Gateway) -> Book:
    """Read settings, players, bands, requests and every Round sheet."""
    settings = read_settings(gw)
    t = Tournament(settings=settings.settings)
    book = Book(t, settings, problems=list(settings.problems))
    rounds = settings.settings.rounds

    players = _read(book, gw, players_table(rounds))
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

    bands = _read(book, gw, BANDS)
    for row in bands.rows:
        if row.get("number") is None or row.get("min_rating") is None:
            continue
        t.bands.append(
            Band(
                number=int(row["number"]),  # type: ignore[call-overload]
                label=str(row.get("label", "")),
                min_rating=float(row["min_rating"]),  # type: ignore[arg-type]
                separation=row.get("separation"),  # type: ignore[arg-type]
                separation_override=row.get("separation_override"),  # type: ignore[arg-type]
                initial_score=row.get("initial_score"),  # type: ignore[arg-type]
            )
        )

    requests = _read(book, gw, REQUESTS)
    for row in requests.rows:
        ids = [row.get("first"), row.get("second")]
        if row.get("kind") is None or None in ids:
            continue
        for key, pid in zip(("first", "second"), ids, strict=True):
            if pid not in t.players:
                text = f"AGA # {pid} is not in the Players sheet"
                book.problems.append(_missing(requests.problem(row, key, text), pid))
        t.requests.append(
            PairRequest(RequestKind(row["kind"]), int(ids[0]), int(ids[1]), row.get("round"))  # type: ignore[arg-type, call-overload]
        )

    names = _names_of(t.players)
    for sheet in gw.sheet_names():
        number = round_number_of(sheet)
        if number is not None:
            t.rounds.append(_read_round(book, gw, number, names))
    t.rounds.sort(key=lambda r: r.number)
    book.problems += round_set_problems(
        t.rounds, gw.sheet_names(), settings.settings.rounds, settings.cell("rounds")
    )
    book.problems = with_parts(book.problems, book.tables, SETTINGS_TABLE.sheet, t.players)
    return book


def _read(book: Book, gw: Gateway, table: Table) -> TableData:
    data = gw.read_table(table)
    book.tables[table.name] = data
    if data.present or table.sheet != "Requests":
        # a sheet's own problems (a stray far below, say) come with each table it holds
        known = set(book.problems)
        book.problems.extend(p for p in data.problems if p not in known)
    return data


def _missing(problem: Problem, pid: object) -> Problem:
    return replace(problem, missing_player=pid)  # type: ignore[arg-type]


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


def _read_round(book: Book, gw: Gateway, number: int, names: dict[str, PlayerId]) -> Round:
    """``names``: :func:`_names_of` the registered players."""
    players = book.tournament.players
    games_data = _read(book, gw, games_table(number))
    byes_data = _read(book, gw, byes_table(number))
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
        white, black = values.get("white"), values.get("black")
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
        white, black = int(white), int(black)  # type: ignore[call-overload]
        claim(white, row, games_data, "white")
        claim(black, row, games_data, "black")
        for key, pid in (("white", white), ("black", black)):
            wrong = _name_problem(players, names, values.get(f"{key}_name"), pid)
            if wrong:
                book.problems.append(games_data.problem(row, f"{key}_name", wrong))
        if white == black:
            book.problems.append(games_data.problem(row, "black", "a player cannot play themself"))
        handicap = int(row.get("handicap", 0))  # type: ignore[call-overload]
        if not 0 <= handicap <= MAX_HANDICAP:
            book.problems.append(
                games_data.problem(
                    row,
                    "handicap",
                    f"a handicap is 0 to {MAX_HANDICAP} stones, not {row['handicap']}",
                )
            )
        komi = float(row.get("komi", 0.0))  # type: ignore[arg-type]
        if komi_problem(komi):
            book.problems.append(games_data.problem(row, "komi", str(komi_problem(komi))))
        games.append(
            Game(
                white=white,
                black=black,
                handicap=handicap,
                komi=komi,
                result=values.get("result"),  # type: ignore[arg-type]
                board=values.get("board"),  # type: ignore[arg-type]
                notes=str(row.get("notes", "")),
            )
        )
    byes: list[Bye] = []
    for row in byes_data.rows:
        pid = row.get("player")
        if pid is None:
            continue
        claim(int(pid), row, byes_data, "player")  # type: ignore[call-overload]
        byes.append(Bye(int(pid), ByeKind(row.get("kind", ByeKind.VOLUNTARY.value))))  # type: ignore[call-overload]
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


def round_rows(rnd: Round, players: Mapping[PlayerId, Player]) -> tuple[list[dict], list[dict]]:
    def name(pid: PlayerId) -> str | None:
        p = players.get(pid)
        return p.name if p else None

    def rating(pid: PlayerId) -> float | None:
        p = players.get(pid)
        return p.rating if p else None

    games = [
        {
            "board": g.board,
            "white": g.white,
            "white_name": name(g.white),
            "white_rating": rating(g.white),
            "black": g.black,
            "black_name": name(g.black),
            "black_rating": rating(g.black),
            "handicap": g.handicap,
            "komi": g.komi,
            "result": g.result,
            "notes": g.notes or None,
        }
        for g in rnd.games
    ]
    byes = [{"player": b.player, "name": name(b.player), "kind": b.kind.value} for b in rnd.byes]
    return games, byes


def write_round(gw: Gateway, rnd: Round, players: Mapping[PlayerId, Player]) -> None:
    games, byes = round_rows(rnd, players)
    gw.write_table(games_table(rnd.number), games)
    gw.write_table(byes_table(rnd.number), byes)
