"""Registration: importing the TDListA, looking members up, registering players."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

from addin.actions import egd_list, intake, player_refresh
from addin.actions.change import ActionError, Change, Draft, ParamError, Snapshot
from addin.actions.form_details import form_email_line
from addin.actions.intake import place_late_arrivals
from addin.actions.list_source import (
    ListKind,
    download_from,
    list_file,
    read_list,
    say_skipped,
    update_flag,
)
from addin.actions.member_list import keep_index, read_members
from addin.actions.registry import InputFile, action, param
from addin.actions.sections import PLAYERS, SETTLED
from addin.core.egd import EGD_RANK_MISMATCH, PINS
from addin.core.limits import shown
from addin.core.lookup import MemberIndex
from addin.core.model import Player, PlayerId, Status
from addin.core.ratings import RatingError, parse_rating
from addin.core.registration import (
    PreRegistrationError,
    RegistrationWarning,
    check_registration,
    has_comma,
    listed_under,
    member_to_player,
    new_member_name,
    next_temporary_id,
    parse_preregistration_csv,
    register_preregistration,
)
from addin.download import TDLISTA_URL, Downloaded
from addin.formats.tdlista import ParseReport, parse_tdlista
from addin.workbook import book, players_intake, players_sheet
from addin.workbook.layout import Section
from addin.workbook.member_sheet import previous_members, write_members

# --- actions ----------------------------------------------------------------------------


TDLISTA_LIST = ListKind("the AGA TDListA", "tdlista")


@dataclass(frozen=True, kw_only=True)
class ImportTdlistaParams:
    tdlista: InputFile | None = list_file("the TDListA file (tab-separated)")
    download: str | None = download_from(f"the AGA's, {TDLISTA_URL}")
    update_players: bool = update_flag("AGA data")
    downloaded: Downloaded | None = None
    """The list the store downloaded from ``download``."""


@action(
    "import-tdlista",
    "Import TDListA",
    "fill the TDListA sheet from an AGA membership list file (or --download it); registered "
    "players' AGA data follow a newer list until round 1 is paired",
    ImportTdlistaParams,
    reads=SETTLED,
    writes=PLAYERS | {Section.MEMBERS},
)
def import_tdlista(snapshot: Snapshot, params: ImportTdlistaParams) -> Change:
    draft = Draft(snapshot)
    found = read_list(
        draft, params.tdlista, params.download, params.downloaded, TDLISTA_LIST, parse_tdlista
    )
    import_members(draft, found.report, found.name, params.update_players)
    return draft.change


def import_members(draft: Draft, report: ParseReport, name: str, update: bool) -> None:
    """Fill the TDListA sheet from ``report`` (the list read from ``name``); the registered
    players follow it (``player_refresh``)."""
    summary = (
        f"Imported {len(report.members)} members from {name} "
        f"({report.line_count} lines read, {len(report.skipped)} skipped, {report.encoding})"
    )
    draft.done(summary)
    b = book.read_book(draft)
    previous = player_refresh.as_listed(draft, b, previous_members(draft, b.tournament.players))
    found = players_sheet.refreshes(b, report.members, previous)
    player_refresh.update_players(draft, b, found, update)
    write_members(draft, report.members)
    saved_in = draft.path
    if draft.snapshot.terminal and saved_in is not None:
        draft.change.afterwards = lambda: keep_index(saved_in)
    if report.cleaned:
        lines = ", ".join(map(str, report.cleaned[:10])) + (
            ", ..." if len(report.cleaned) > 10 else ""
        )
        draft.done(
            f"Removed control characters (no Excel cell may hold them) from "
            f"{len(report.cleaned)} line(s) of {name}: {lines}"
        )
    say_skipped(draft, report.skipped)


@dataclass(frozen=True, kw_only=True)
class RegisterParams:
    aga: int | None = param("AGA number of a member in the TDListA")
    name: str | None = param('"Family, Given" for a player not in the list (gets a 9xxxx number)')
    rank: str | None = param("requested rank or rating (3k, 4d, -3.45); default: the AGA rating")
    pin: int | None = param(
        "EGD PIN of a player in the EGD list (gets a 9xxxx number)", asked=False, bounds=PINS
    )


@action(
    "register",
    "Register player",
    "add a player to the Players sheet, from the TDListA (--aga), from the EGD list (--pin) "
    "or as a new member (--name)",
    RegisterParams,
    reads=SETTLED,
    writes=PLAYERS,
)
def register(snapshot: Snapshot, params: RegisterParams) -> Change:
    draft = Draft(snapshot)
    aga, name, rank, pin = params.aga, params.name, params.rank, params.pin
    if aga is None and pin is None and not name:
        raise ActionError(
            'register needs --aga N (a member), --pin P (the EGD list) or --name "Family, Given" '
            "--rank R"
        )
    if aga is not None and pin is not None:
        raise ParamError("give --aga (the TDListA) or --pin (the EGD list), not both")
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
    warnings: list[RegistrationWarning] = []
    if pin is not None:
        player, said = egd_list.pin_player(draft, b, pin, str(name or ""), requested)
        warnings = [RegistrationWarning(EGD_RANK_MISMATCH, w) for w in said]
    elif aga is not None:
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
            player, named = _new_player(aga_id, str(name), requested, index)
            warnings = named + warnings
        else:
            raise ActionError(
                f"AGA # {aga_id} is not in the TDListA sheet; give --name and --rank to "
                "register the player anyway"
            )
    else:
        if not requested:
            if members := index.by_name(str(name)):  # the member, not a rank, is missing
                raise ActionError(
                    listed_under(str(name), members, start, otherwise="give their --rank")
                )
            raise ActionError("a player not in the list needs --rank (3k, 4d or a rating)")
        if not has_comma(str(name)) and (members := index.by_name(str(name))):
            raise ActionError(listed_under(str(name), members, start))
        aga_id = next_temporary_id(set(players))
        warnings = check_registration(index, start, name=str(name), requested=requested)
        player, named = _new_player(aga_id, str(name), requested, index)
        warnings = named + warnings
    listed = "GoR or grade" if pin is not None else "AGA rating"
    if player.rating is None:
        raise ActionError(f"{player.name} (AGA # {player.aga_id}) has no {listed}; give --rank")
    late = _add_players(draft, b, [player], [w.message for w in warnings])
    egd = f", EGD PIN {player.egd_pin}" if player.egd_pin is not None else ""
    draft.done(
        f"Registered {player.name}, AGA # {player.aga_id}{egd}, entry rating {player.rating}"
    )
    for line in late:
        draft.done(line)
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
    late = _add_players(draft, b, added, warnings)
    for player in added:  # what the form gave, apart from what the desk types later
        if player.email.strip():
            draft.note(form_email_line(player.aga_id, player.email))
    waiting = ""
    if b.tournament.settings.check_in:
        waiting = f"; Status {Status.NOT_ARRIVED.value} until checked in"
    draft.done(f"Registered {len(added)} pre-registered players from {path.name}{waiting}")
    for line in late:
        draft.done(line)
    return draft.change


def _new_player(
    aga_id: PlayerId, name: str, requested: str | None, index: MemberIndex
) -> tuple[Player, list[RegistrationWarning]]:
    """A player not in the list, and the warning a name typed without a comma needs."""
    family, given, warnings = new_member_name(name, index)
    if not family:
        raise ActionError(f'{shown(name)} is not a name; write it as "Family, Given"')
    rating = parse_rating(requested) if requested else None
    return Player(aga_id, family, given, rank=requested or "", rating=rating), warnings


def _add_players(draft: Draft, b: book.Book, new: list[Player], warnings: list[str]) -> list[str]:
    """Ask about ``warnings`` and duplicates at once; write one block. Returns the late
    arrivals' bands, to tell after what was done (``place_late_arrivals``)."""
    existing = list(b.tournament.players.values())
    warnings = warnings + intake.duplicate_warnings(existing, new)
    rows = players_sheet.with_players(b, new)
    late_book = players_intake.rebuilt(b, players_intake.with_rows(rows))
    late, _ = place_late_arrivals(late_book, rows)
    draft.warn(warnings)
    players_sheet.write_rows(draft, b, rows)
    intake.stamp_rows(draft, rows, b.tournament.settings)
    return late
