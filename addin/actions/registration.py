"""Registration: importing the TDListA, looking members up, registering players."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

from addin.actions import intake, player_refresh
from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.intake import place_late_arrivals
from addin.actions.member_list import keep_index, read_members
from addin.actions.registry import InputFile, ParamKind, action, param
from addin.actions.sections import PLAYERS, SETTLED
from addin.core.limits import shown
from addin.core.member import split_name
from addin.core.model import Player, PlayerId, Status
from addin.core.ratings import RatingError, parse_rating
from addin.core.registration import (
    PreRegistrationError,
    check_registration,
    member_to_player,
    next_temporary_id,
    parse_preregistration_csv,
    register_preregistration,
)
from addin.formats.tdlista import TDListAError, parse_tdlista
from addin.workbook import book, players_intake, players_sheet
from addin.workbook.gateway import LogEntry
from addin.workbook.layout import Section
from addin.workbook.member_sheet import previous_members, write_members

# --- actions ----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ImportTdlistaParams:
    tdlista: InputFile = param("the TDListA file (tab-separated)", required=True, positional=True)
    update_players: bool = param(
        "when a round is paired already, update the registered players' AGA data anyway",
        ParamKind.FLAG,
    )


@action(
    "import-tdlista",
    "Import TDListA",
    "fill the TDListA sheet from an AGA membership list file; registered players' AGA data "
    "follow a newer list until round 1 is paired",
    ImportTdlistaParams,
    reads=SETTLED,
    writes=PLAYERS | {Section.MEMBERS},
)
def import_tdlista(snapshot: Snapshot, params: ImportTdlistaParams) -> Change:
    draft = Draft(snapshot)
    path, data = params.tdlista.path, params.tdlista.data
    try:
        report = parse_tdlista(data, source=path.name)
    except TDListAError as err:
        raise ActionError(str(err)) from err
    summary = (
        f"Imported {len(report.members)} members from {path.name} "
        f"({report.line_count} lines read, {len(report.skipped)} skipped, {report.encoding})"
    )
    draft.done(summary)
    b = book.read_book(draft)
    previous = previous_members(draft, b.tournament.players)
    player_refresh.update_players(draft, b, report.members, bool(params.update_players), previous)
    write_members(draft, report.members)
    saved_in = snapshot.path
    if snapshot.terminal and saved_in is not None:
        draft.change.afterwards = lambda: keep_index(saved_in)
    if report.cleaned:
        lines = ", ".join(map(str, report.cleaned[:10])) + (
            ", ..." if len(report.cleaned) > 10 else ""
        )
        draft.done(
            f"Removed control characters (no Excel cell may hold them) from "
            f"{len(report.cleaned)} line(s) of {path.name}: {lines}"
        )
    for skipped in report.skipped[:20]:
        draft.say(f"  skipped line {skipped.line}: {skipped.reason}")
    if len(report.skipped) > 20:
        draft.say(f"  ... and {len(report.skipped) - 20} more skipped lines")
    return draft.change


@dataclass(frozen=True, kw_only=True)
class RegisterParams:
    aga: int | None = param("AGA number of a member in the TDListA")
    name: str | None = param('"Family, Given" for a player not in the list (gets a 9xxxx number)')
    rank: str | None = param("requested rank or rating (3k, 4d, -3.45); default: the AGA rating")


@action(
    "register",
    "Register player",
    "add a player to the Players sheet, from the TDListA (--aga) or as a new member (--name)",
    RegisterParams,
    reads=SETTLED,
    writes=PLAYERS,
)
def register(snapshot: Snapshot, params: RegisterParams) -> Change:
    draft = Draft(snapshot)
    aga, name, rank = params.aga, params.name, params.rank
    if aga is None and not name:
        raise ActionError('register needs --aga N (a member) or --name "Family, Given" --rank R')
    index = read_members(draft)
    b = intake.settled_book(draft, intake.every_player(), writes_players=True, index=index)
    start = b.tournament.settings.start_date or date.today()
    end = b.tournament.settings.end_date
    requested = str(rank) if rank else None
    if requested:
        try:
            parse_rating(requested)
        except RatingError as err:
            raise ActionError(str(err)) from err

    players = b.tournament.players
    if aga is not None:
        aga_id = aga
        if aga_id in players:
            raise ActionError(
                f"AGA # {aga_id} is already registered: {players[aga_id].name} "
                f"(Players row {players_sheet.row_number(b, aga_id)})"
            )
        member = index.by_id(aga_id)
        warnings = check_registration(
            index, start, aga_id=aga_id, name=str(name or ""), requested=requested, end_date=end
        )
        if member is not None:
            player = member_to_player(member, requested)
        elif name:
            player = _new_player(aga_id, str(name), requested)
        else:
            raise ActionError(
                f"AGA # {aga_id} is not in the TDListA sheet; give --name and --rank to "
                "register the player anyway"
            )
    else:
        if not requested:
            raise ActionError("a player not in the list needs --rank (3k, 4d or a rating)")
        aga_id = next_temporary_id(set(players))
        warnings = check_registration(index, start, name=str(name), requested=requested)
        player = _new_player(aga_id, str(name), requested)
    if player.rating is None:
        raise ActionError(f"{player.name} (AGA # {player.aga_id}) has no AGA rating; give --rank")
    _add_players(draft, b, [player], [w.message for w in warnings])
    draft.done(f"Registered {player.name}, AGA # {player.aga_id}, entry rating {player.rating}")
    return draft.change


@dataclass(frozen=True, kw_only=True)
class PreregisterParams:
    csv: InputFile = param("the pre-registration CSV file", required=True, positional=True)


@action(
    "preregister",
    "Import pre-registrations",
    "add the players of a pre-registration CSV (name, AGA #, rank, club, email, bye requests)",
    PreregisterParams,
    reads=SETTLED,
    writes=PLAYERS,
)
def preregister(snapshot: Snapshot, params: PreregisterParams) -> Change:
    draft = Draft(snapshot)
    path = params.csv.path
    try:
        rows = parse_preregistration_csv(params.csv.data, path.name)
    except PreRegistrationError as err:
        raise ActionError(str(err)) from err
    index = read_members(draft)
    b = intake.settled_book(draft, intake.every_player(), writes_players=True, index=index)
    start = b.tournament.settings.start_date or date.today()
    end = b.tournament.settings.end_date
    used = set(b.tournament.players)
    added: list[Player] = []
    warnings: list[str] = []
    for pre in rows:
        if pre.aga_id is not None and pre.aga_id in b.tournament.players:
            warnings.append(
                f"{path.name}, line {pre.line}: {pre.name} (AGA # {pre.aga_id}) is already "
                f"registered in Players row {players_sheet.row_number(b, pre.aga_id)}; "
                "not added again"
            )
            continue
        try:
            player, found = register_preregistration(pre, index, start, used, end)
        except (RatingError, ValueError) as err:
            raise ActionError(f"{path.name}, line {pre.line}: {err}") from err
        if b.tournament.settings.check_in:  # on the list, not here yet
            player = replace(player, status=Status.NOT_ARRIVED)
        used.add(player.aga_id)
        added.append(player)
        warnings += [f"{path.name}, line {pre.line}: {w.message}" for w in found]
    _add_players(draft, b, added, warnings)
    waiting = ""
    if b.tournament.settings.check_in:
        waiting = f"; Status {Status.NOT_ARRIVED.value} until checked in"
    draft.done(f"Registered {len(added)} pre-registered players from {path.name}{waiting}")
    return draft.change


def _new_player(aga_id: PlayerId, name: str, requested: str | None) -> Player:
    family, given = split_name(name)
    if not family:
        raise ActionError(f'{shown(name)} is not a name; write it as "Family, Given"')
    rating = parse_rating(requested) if requested else None
    return Player(aga_id, family, given, rank=requested or "", rating=rating)


def _add_players(draft: Draft, b: book.Book, new: list[Player], warnings: list[str]) -> None:
    """Ask about ``warnings``, duplicates and late arrivals' bands at once; write one block."""
    existing = list(b.tournament.players.values())
    warnings = warnings + intake.duplicate_warnings(existing, new)
    rows = players_sheet.with_players(b, new)
    late_book = players_intake.rebuilt(b, players_intake.with_rows(rows))
    late, notes, _ = place_late_arrivals(late_book, rows)
    draft.warn(warnings + late)
    players_sheet.write_rows(draft, b, rows)
    draft.change.log += [LogEntry("Action", draft.action, n) for n in notes]
    intake.stamp_rows(draft, rows, b.tournament.settings)
