"""The European Go Database's rating list: ``import-egd-list``, and a player registered by PIN.

The list fills the EGD list sheet, as the TDListA fills its own; registered players with an
EGD PIN follow a newer list until round 1 is paired (``player_refresh``). ``lookup`` finds
players in it and ``register --pin`` copies one into Players, at the entry rating GoR and
grade give on the event's McMahon scale (``addin.core.egd``).
"""

from __future__ import annotations

from dataclasses import dataclass

from addin.actions import player_refresh
from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.list_source import (
    ListKind,
    download_from,
    list_file,
    read_list,
    say_skipped,
    update_flag,
)
from addin.actions.member_list import keep_index, read_egd
from addin.actions.registry import InputFile, action
from addin.actions.sections import PLAYERS, SETTLED
from addin.core.egd import rank_warning, to_player
from addin.core.limits import shown
from addin.core.member import split_name
from addin.core.model import Player
from addin.core.ratings import parse_rating
from addin.core.registration import next_temporary_id
from addin.download import EGD_URL, Downloaded
from addin.formats.egd_list import ParseReport, parse_egd_list
from addin.workbook import book, players_sheet
from addin.workbook.egd_sheet import previous_egd_players, write_egd_players
from addin.workbook.layout import Section

EGD_KIND = ListKind("the EGD rating list", "egd-list")


@dataclass(frozen=True, kw_only=True)
class ImportEgdListParams:
    egd_list: InputFile | None = list_file("the EGD rating list file (allworld_lp.html or .txt)")
    download: str | None = download_from(f"the EGD's, {EGD_URL}")
    update_players: bool = update_flag("EGD data")
    downloaded: Downloaded | None = None
    """The list the store downloaded from ``download``."""


@action(
    "import-egd-list",
    "Import EGD list",
    "fill the EGD list sheet from the European Go Database's list of players (allworld_lp, "
    "text or web page; or --download it); registered players' EGD data follow a newer list "
    "until round 1 is paired",
    ImportEgdListParams,
    reads=SETTLED,
    writes=PLAYERS | {Section.EGD_LIST},
)
def import_egd_list(snapshot: Snapshot, params: ImportEgdListParams) -> Change:
    draft = Draft(snapshot)
    found = read_list(
        draft, params.egd_list, params.download, params.downloaded, EGD_KIND, parse_egd_list
    )
    import_players(draft, found.report, found.name, params.update_players)
    return draft.change


def import_players(draft: Draft, report: ParseReport, name: str, update: bool) -> None:
    """Fill the EGD list sheet from ``report`` (read from ``name``); the registered players
    with a PIN follow it."""
    dated = f", dated {report.published.isoformat()}" if report.published else ""
    draft.done(
        f"Imported {len(report.players)} players from {name}{dated} ({report.line_count} "
        f"lines read, {len(report.skipped)} skipped, {report.encoding})"
    )
    b = book.read_book(draft)
    pins = {p.egd_pin for p in b.tournament.players.values() if p.egd_pin is not None}
    previous = player_refresh.as_listed(
        draft, b, previous_egd_players(draft, pins), player_refresh.EGD_LIST
    )
    scale = b.tournament.settings.options.grade_scale
    found = players_sheet.egd_refreshes(b, report.players, previous, scale)
    player_refresh.update_players(draft, b, found, update, player_refresh.EGD_LIST)
    write_egd_players(draft, report.players)
    saved_in = draft.path
    if draft.snapshot.terminal and saved_in is not None:
        draft.change.afterwards = lambda: keep_index(saved_in)
    say_skipped(draft, report.skipped)


def pin_player(
    draft: Draft, b: book.Book, pin: int, name: str, requested: str | None
) -> tuple[Player, list[str]]:
    """The player ``register --pin`` adds, and the warnings to ask about."""
    players = b.tournament.players
    holder = next((p for p in players.values() if p.egd_pin == pin), None)
    if holder is not None:
        raise ActionError(
            f"EGD PIN {pin} is already registered: {holder.name} "
            f"(Players row {players_sheet.row_number(b, holder.aga_id)})"
        )
    pid = next_temporary_id(set(players))
    listed = read_egd(draft).by_pin(pin)
    scale = b.tournament.settings.options.grade_scale
    if listed is not None:
        warning = rank_warning(listed, scale, requested)
        return to_player(listed, pid, scale, requested), [warning] if warning else []
    if not (name and requested):
        raise ActionError(
            f"EGD PIN {pin} is not in the EGD list sheet; give --name and --rank to register "
            "the player anyway (or import a newer list: import-egd-list --download)"
        )
    family, given = split_name(name)
    if not family:
        raise ActionError(f'{shown(name)} is not a name; write it as "Family, Given"')
    rating = parse_rating(requested)
    player = Player(pid, family, given, rank=requested, rating=rating, egd_pin=pin)
    return player, []
