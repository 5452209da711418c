"""The ``publish`` action: the tournament as a small static site for players' phones.

It only reads the workbook (no save, no Log line: like a report) and writes the site's
folder (``addin.publish``): pairings by name and by board, standings, the cross table, a
page per player, one for the event and the hall screen, each refreshing itself when a newer
publication appears. Beside it, ``BOOK.phones/desk.json`` tells ``serve`` the round in play
and its result codes (``addin.publish.board_reports``); the reports kept there so far give
each board of the round in play its report state on the pages.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.director import log_lines
from addin.actions.intake import NOTHING, read_for
from addin.actions.ratings import standings_projection
from addin.actions.registry import action, param
from addin.actions.sections import SETTLED
from addin.actions.serve import phones_folder
from addin.core.codes import boards
from addin.core.model import Tournament
from addin.publish.board_reports import (
    DESK_FILE,
    Board,
    Desk,
    desk_states,
    read_reports,
    write_atomically,
)
from addin.publish.folder import default_site_folder
from addin.publish.site import Site, build_site
from addin.publish.writing import FolderRefused, write_site
from addin.reports.common import paired_rounds
from addin.reports.model import ReportError
from addin.reports.text import clean
from addin.workbook.gateway import TableSource
from addin.workbook.round_sheets import read_codes


def site_folder(draft: Draft, asked: str | None) -> Path:
    """The folder asked for, else ``NAME-site`` beside the workbook."""
    if asked is not None and asked.strip():
        return Path(asked.strip()).expanduser()
    if draft.path is None:
        raise ActionError("save the workbook first, or say which folder to publish to")
    return default_site_folder(draft.path)


@dataclass(frozen=True, kw_only=True)
class PublishParams:
    to: str | None = param(
        "the folder to write the site to (default: NAME-site beside the workbook)", asked=False
    )


@action(
    "publish",
    "Publish",
    "write the pairings, standings, cross table, a page per player and the event page "
    "as a small web site for players' phones (it refreshes itself when published again)",
    PublishParams,
    reads=SETTLED,
)
def publish(snapshot: Snapshot, params: PublishParams) -> Change:
    draft = Draft(snapshot)
    folder = site_folder(draft, params.to)
    book = read_for(draft, NOTHING)
    phones = phones_folder(draft.path) if draft.path is not None else None
    desk = None
    states: dict[int, str] = {}
    if phones is not None:  # refused before the site is written, not after
        desk = report_desk(draft, book.tournament)
        _check_desk_place(phones)
        try:
            states = desk_states(desk, read_reports(phones))
        except ValueError as err:
            draft.say(f"note: the pages show no report state: {err}")
    projected = None
    if book.tournament.settings.projected_ratings:
        projected, why = standings_projection(draft, book)
        if projected is None:
            draft.say(f"note: the pages show no projected ratings: {why}")
    try:
        site = build_site(
            book.tournament, datetime.now().astimezone(), log_lines(draft), states, projected
        )
    except ReportError as err:
        raise ActionError(f"cannot publish: {err}") from err
    draft.change.effects.append(Publication(folder, site, phones, desk))
    where = f"round {site.round}" if site.round else "before round 1"
    draft.say(
        f"Published {len(site.files) + 1} files ({where}, {site.players} players) to {folder}; "
        f"open {folder / 'index.html'}"
    )
    return draft.change


@dataclass(frozen=True)
class Publication:
    """The site written to its folder, and beside the workbook the round in play for
    ``serve`` (the store makes it when it commits the action)."""

    folder: Path
    site: Site
    phones: Path | None
    desk: Desk | None

    def make(self) -> None:
        try:
            write_site(self.folder, self.site)
        except FolderRefused as err:
            raise ActionError(f"cannot publish: {err}") from err
        except OSError as err:
            raise ActionError(
                f"could not write the site in {self.folder}: {err.strerror or err}"
            ) from err
        if self.phones is not None and self.desk is not None:
            try:
                write_atomically(self.phones / DESK_FILE, self.desk.to_json())
            except OSError as err:
                raise ActionError(
                    f"could not open results reporting in {self.phones}: {err.strerror or err}"
                ) from err


def _check_desk_place(phones: Path) -> None:
    """Refuse, before the site is written, a place the desk file cannot go: a file where
    the folder should be, or a folder where the file should be."""
    desk = phones / DESK_FILE
    if phones.exists() and not phones.is_dir():
        raise ActionError(
            f"cannot publish: {phones} is a file, not the folder of results reported from the "
            "boards; move it away (nothing was written)"
        )
    if desk.is_dir():
        raise ActionError(
            f"cannot publish: {desk} is not a file this program wrote; move it away (nothing "
            "was written)"
        )


def report_desk(tables: TableSource, t: Tournament) -> Desk:
    """The round in play as the server checks reports against it: each board with its code
    ("" for a board without one: it takes no reports), its players, and the result typed."""
    done = paired_rounds(t)
    rnd = t.round(done[-1]) if done else None
    event = clean(t.settings.name or "Tournament")
    if rnd is None:
        return Desk(0, {}, event)
    codes = read_codes(tables, rnd.number)

    def name(pid: int) -> str:
        """As the pages show it: cut at 120 characters (the desk's texts are short, so a
        30,000-character name cannot make the server refuse the desk), no control
        characters."""
        p = t.players.get(pid)
        return clean(p.name) if p is not None else f"AGA #{pid}"

    return Desk(
        rnd.number,
        {
            board: Board(
                board,
                g.white,
                g.black,
                name(g.white),
                name(g.black),
                codes.get(board, ""),
                g.result.value if g.result is not None else "",
            )
            for board, g in boards(rnd)
        },
        event,
    )
