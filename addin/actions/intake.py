"""The tournament as an action reads it: settled, held against the Log, and screened.

Players rows as the TD typed them are settled before any action uses them. One rule for
every way a player arrives (``register``, ``preregister``, a row typed into Players, a
station): the next action completes what the TDListA or the typed rank gives (only blank
cells), hands a temporary 9xxxx number to a new player, places a late arrival in the
current bands and tells the TD so (a Log line, never a question: a desk's volunteer could
not judge it), and asks the TD about exactly what ``register`` asks about. A warning the
Log shows as accepted is not asked again; a Log stamp of the Players' registration cells
spares reading the TDListA when nothing was typed since.

The rounds the Log records as paired are held against the workbook (a sheet renamed,
emptied, a game row deleted is a problem naming who lost their game).

Reading pins every problem to the part of the tournament its cell feeds (``Problem.
affects``, see ``addin.workbook.book.with_parts``). Each action says what it needs (:class:`Needs`):
pairing round N needs the rows of the players it pairs, rounds 1..N-1, the bands, the
requests and the settings; the standings need every round and the players' scoring
columns; a report needs nothing it cannot print around. A problem in what an action needs
stops it, naming the cell; the TD is asked to accept the others as warnings, each naming
its cell too.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from addin.actions.change import ActionError, Draft
from addin.actions.member_list import read_egd, read_members
from addin.core.bands import band_for_rating
from addin.core.lookup import MemberIndex, fold
from addin.core.model import Player, PlayerId, Round, Settings, Status, Tournament
from addin.core.ratings import RatingError, entry_rating, parse_rating, rank_of
from addin.workbook import book, players_sheet
from addin.workbook.book import (
    DIRECTOR_COLUMNS,
    PAIRING_COLUMNS,
    PLAYING_SETTINGS,
    SCORING_COLUMNS,
    is_aga_id,
    read_log,
)
from addin.workbook.gateway import LogEntry, Problem, Row, TableSource
from addin.workbook.layout import Section
from addin.workbook.players_intake import (
    Examiner,
    Intake,
    place_row,
    rebuilt,
    registration_digest,
    row_aga_id,
    settled_rows,
)
from addin.workbook.round_sheets import names_a_round_player, paired_round_problems

# --- what an action needs -----------------------------------------------------------------

EVERY = None
"""In a ``Needs`` field: every player, column, round or setting."""


@dataclass(frozen=True)
class Needs:
    """The parts of the tournament an action reads; ``EVERY`` (``None``) means all of them."""

    players: Collection[PlayerId | None] | None = ()
    """Whose Players rows (``None`` inside: rows that are not yet a player)."""
    player_columns: Collection[str] | None = EVERY
    rounds: Collection[int] | None = ()
    requests: Collection[int | None] | None = ()
    """Requests of which rounds (``None`` inside: requests for every round)."""
    bands: bool = False
    settings: Collection[str] | None = ()
    unknown_players: bool = False
    """Stop on a cell naming an AGA # that is no player (a game whose player is not listed)
    and on a Players AGA # that cannot be read (whose games are then without their player)."""

    def stops(self, problem: Problem) -> bool:
        """Whether ``problem`` is in an input of the action."""
        part = problem.affects
        if self.unknown_players and (
            problem.missing_player is not None or (problem.unreadable and is_aga_id(part))
        ):
            return True
        if part is None:
            return True
        if part.kind == "player":
            return _within(part.key, self.players) and _within(part.column, self.player_columns)
        if part.kind == "round":
            return _within(part.key, self.rounds)
        if part.kind == "requests":
            return _within(part.key, self.requests)
        if part.kind == "bands":
            return self.bands
        if part.kind == "setting":
            return _within(part.key, self.settings)
        return True


def _within(key: object, wanted: Collection[object] | None) -> bool:
    return wanted is EVERY or key in wanted


NOTHING = Needs()
"""Reports, printing and exports: they print around a bad cell, with a warning."""


def every_player() -> Needs:
    """Actions that go through every Players row and place players in bands (register,
    preregister, bands): all of Players and the Bands sheet."""
    return Needs(players=EVERY, bands=True, settings=PLAYING_SETTINGS)


def standings() -> Needs:
    return Needs(
        players=EVERY,
        player_columns=SCORING_COLUMNS,
        rounds=EVERY,
        settings=PLAYING_SETTINGS,
    )


def pairing(t: Tournament, number: int) -> Needs:
    """Round ``number``: the rows of everyone it pairs, and everything before it."""
    playing: set[PlayerId | None] = {
        p.aga_id
        for p in t.players.values()
        if p.status is Status.ACTIVE and number not in p.bye_requests
    }
    return Needs(
        players=playing | {None},
        player_columns=PAIRING_COLUMNS,
        rounds=range(1, number),
        requests={number, None},
        bands=True,
        settings=PLAYING_SETTINGS,
    )


def director() -> Needs:
    """The director's operations: they check every round's rules and may move any player,
    but never read ranks (entry ratings are what they use) or contact details."""
    return Needs(
        players=EVERY,
        player_columns=DIRECTOR_COLUMNS,
        rounds=EVERY,
        requests=EVERY,
        bands=True,
        settings=PLAYING_SETTINGS,
    )


def carried_elsewhere() -> Needs:
    """A file another program pairs from (OpenGotha): every player, round, request, band
    and playing setting it carries, and every player a game names; contact details are not
    carried."""
    return Needs(
        players=EVERY,
        player_columns=PAIRING_COLUMNS,
        rounds=EVERY,
        requests=EVERY,
        bands=True,
        settings=PLAYING_SETTINGS,
        unknown_players=True,
    )


def screen(draft: Draft, b: book.Book, needs: Needs | Callable[[book.Book], Needs]) -> list[str]:
    """Stop on a problem in what the action needs; the others, as warnings to ask about."""
    wanted = needs(b) if callable(needs) else needs
    stops = [p for p in b.problems if wanted.stops(p)]
    others = [p for p in b.problems if not wanted.stops(p)]
    if stops:  # the TD fixes every bad cell at once, not one refusal at a time
        besides = f"not used by {draft.action}, but fix it too"
        also = [replace(p, message=f"{p.message} ({besides})") for p in others]
        draft.require_no_problems([*stops, *also], "fix these problems first")
    aside = (
        f"{draft.action} goes on as if the cell were blank"
        if wanted == NOTHING
        else f"not used by {draft.action}, which goes on"
    )
    return [f"{p} ({aside})" for p in others]


def read_for(draft: Draft, needs: Needs | Callable[[book.Book], Needs]) -> book.Book:
    """Read the book; stop on a problem in what the action needs, warn about the rest."""
    b = with_paired_round_problems(book.read_book(draft), draft)
    draft.warn(screen(draft, b, needs))
    return b


# --- the rounds the Log records as paired, held against the workbook ----------------------


def with_paired_round_problems(
    b: book.Book, draft: Draft, log: Sequence[tuple[str, str]] | None = None
) -> book.Book:
    """``b`` with a problem for each round the Log records as paired that the workbook lost
    (a sheet renamed, emptied, a game row deleted); ``log``: (level, message) of each Log row,
    read here when not given. A round's players as the journal kept them name who lost
    their game."""
    if log is None:
        log = read_log(draft)

    def reference(number: int, digest: str) -> tuple[Round, Mapping[PlayerId, str]] | None:
        found: tuple[Round, Mapping[PlayerId, str]] | None = draft.snapshot.earlier_round(
            number, digest
        )
        return found

    misread = {  # games a cell of which names no player: named there already
        n for p in b.problems if (n := names_a_round_player(p)) is not None
    }
    found = paired_round_problems(b.tournament, draft.sheet_names(), log, reference, misread)
    return replace(b, problems=[*b.problems, *found]) if found else b


# --- late arrivals: placed in the bands as they stand -------------------------------------


def _where(row: Row) -> str:
    return f"Players row {row.number}" if row.number else "Players (new row)"


def place_late_arrivals(b: book.Book, rows: list[Row]) -> tuple[list[str], bool]:
    """Band and initial score for active players the bands do not cover yet.

    A player registered after ``bands`` (by command, button, typing, an import or a
    station) gets the band the current bands give their entry rating (band 1 when "Above
    bar"; their band override when set), and that band's initial score; nobody else's
    score changes. That is told, not asked: the rule decides, and a desk's volunteer could
    not judge it (the TD reads it in the Log, sees it on Players and Bands, and may run
    ``bands`` again). Returns what to tell (one line per player) and whether a row changed.
    """
    t = b.tournament
    if not t.bands or t.settings.pairing_format != "McMahon":
        return [], False
    bands = {band.number: band for band in t.bands}
    told: list[str] = []
    changed = False
    for row in rows:
        pid = row_aga_id(row)
        p = t.players.get(pid) if isinstance(pid, int) else None
        if p is None or p.status is Status.DROPPED:
            continue
        if p.initial_score is not None:
            continue  # a score given (by bands, an import, the TD) is never replaced here
        try:
            rating = entry_rating(p)
        except RatingError:
            continue
        if p.band_override in bands:
            number, why = p.band_override, "their band override"
        elif p.above_bar:
            number, why = 1, '"Above bar" says Yes'
        elif p.band in bands:
            number, why = p.band, "the band typed in the row"
        else:
            number = band_for_rating(t.bands, rating)
            band = bands[number]
            below = rating < min(x.min_rating for x in t.bands)
            why = (
                f"rated {rating:g}, below every band: the lowest band takes them"
                if below
                else f"rated {rating:g}, at or above the band's lowest rating {band.min_rating:g}"
            )
        band = bands[number]
        if band.initial_score is None:
            raise ActionError(
                f"Bands: band {number} has no initial score; run bands before pairing "
                f"(needed for {p.name}, {_where(row)})"
            )
        place_row(row, number, band.initial_score)
        changed = True
        told.append(
            f"{p.name} (AGA # {p.aga_id}, {_where(row)}) registered after the bands were "
            f"made: placed in band {number} ({band.label or 'no label'}) with initial score "
            f"{band.initial_score:g}, because {why}; nobody else's score changes (run bands "
            "to rebuild them instead)"
        )
    return told, changed


# --- the Players rows, settled ------------------------------------------------------------

READS = frozenset(
    {
        Section.SETTINGS,
        Section.PLAYERS,
        Section.BANDS,
        Section.REQUESTS,
        Section.ROUNDS,
        Section.LOG,
        Section.MEMBERS,
        Section.EGD_LIST,
    }
)
"""What settling the workbook reads: the whole tournament and its Log; the TDListA only
when Players rows were typed since the last action, the EGD list when one holds a PIN."""
WRITES = frozenset({Section.PLAYERS})
"""What it may write: Players rows completed from the TDListA or placed in the bands."""

STAMP = "Checked the players' registration: digest "
"""Log text before the digest of the Players' registration cells."""

# --- the Log ------------------------------------------------------------------------------


def _log(tables: TableSource) -> list[tuple[str, str]]:
    return read_log(tables)


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


# --- the entry points ---------------------------------------------------------------------


def examine(
    b: book.Book,
    tables: TableSource,
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
        index = index if index is not None else read_members(tables)
        intake = Examiner(
            data,
            index if len(index) else None,
            start,
            accepted_in(log),
            settings.end_date,
            egd=lambda: read_egd(tables),
            scale=settings.options.grade_scale,
        ).examine()
    intake.digest = registration_digest(intake.rows, settings)
    return intake


def settled_book(
    draft: Draft,
    wanted: Needs | Callable[[book.Book], Needs],
    *,
    writes_players: bool = False,
    index: MemberIndex | None = None,
) -> book.Book:
    """The workbook read, with every Players row settled, and screened for what the action
    needs (:class:`Needs`): a problem there stops it, the others are warnings.

    Asks the TD about new warnings (``Cancelled`` if declined). With ``writes_players``
    the caller writes the Players table from ``players_data`` (one block); otherwise the
    rows are written here when anything was filled.
    """
    b = book.read_book(draft)
    log = _log(draft)
    intake = examine(b, draft, log, index)
    b = with_intake_problems(rebuilt(b, intake), intake)
    b = with_paired_round_problems(b, draft, log)
    ignored = screen(draft, b, wanted)
    late, placed = place_late_arrivals(b, intake.rows)
    draft.warn(ignored + [w.shown for w in intake.warnings])
    if placed:
        b = rebuilt(b, intake)
    changed = intake.changed or placed
    if changed and not writes_players:
        players_sheet.write_rows(draft, b, intake.rows)
    draft.change.log += [LogEntry("Action", draft.action, n) for n in intake.notes]
    for line in late:
        draft.done(line)
    if intake.digest != last_stamp(log) and not intake.problems:
        draft.change.log.append(LogEntry("Action", draft.action, STAMP + intake.digest))
    return b


def with_intake_problems(b: book.Book, intake: Intake) -> book.Book:
    """The rows that cannot be completed, as problems screened like any other: a row that is
    not yet a player stops what reads every row (pairing, bands), not what prints around it."""
    if not intake.problems:
        return b
    placed = book.with_parts(
        intake.problems, b.tables, b.settings.data.table.sheet, b.tournament.players
    )
    return replace(b, problems=[*placed, *b.problems])


def stamp_rows(draft: Draft, rows: Sequence[Row], settings: Settings) -> None:
    """After an action wrote Players rows it checked itself (register, preregister)."""
    draft.change.log = [e for e in draft.change.log if not e.message.startswith(STAMP)]
    draft.change.log.append(
        LogEntry("Action", draft.action, STAMP + registration_digest(rows, settings))
    )


def check_report(draft: Draft, b: book.Book) -> tuple[list[Problem], list[str], list[str]]:
    """For ``check``: problems (the reader's, as settled), warnings not yet accepted, and
    what the next action would fill in."""
    log = _log(draft)
    intake = examine(b, draft, log)
    settled = with_paired_round_problems(rebuilt(b, intake), draft, log)
    problems = [*intake.problems, *settled.problems]
    warnings = [w.shown for w in intake.warnings]
    notes = [f"{n} (by the next action)" for n in intake.notes]
    if not problems:
        late, _ = place_late_arrivals(settled, [book.copy_row(r) for r in intake.rows])
        notes += [f"{n} (by the next action)" for n in late]
    return problems, warnings, notes


def rated_players(b: book.Book) -> list[Player]:
    """Active players with an entry rating (from the rank when the TD typed only a rank)."""
    players: list[Player] = []
    problems: list[Problem] = []
    for p in b.tournament.players.values():
        if p.status is Status.DROPPED:
            continue
        try:
            rating = entry_rating(p)
        except RatingError:
            problem = players_sheet.rating_problem(
                b, p.aga_id, f"{p.name} has no entry rating and no rank"
            )
            assert problem is not None  # every player was read from a row
            problems.append(problem)
            continue
        players.append(replace(p, rating=rating))
    if problems:
        raise ActionError(f"{b.settings.data.table.sheet}: every player needs a rating", problems)
    return players
