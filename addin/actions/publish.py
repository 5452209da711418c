"""The ``publish`` action: the tournament as a small static site for players' phones.

It only reads the workbook (no save, no Log line: like a report) and writes the site's
folder (``addin.publish``): pairings by name and by board, standings, the cross table, a
page per player, one for the event and the hall screen, each refreshing itself when a newer
publication appears. Beside it, ``BOOK.phones/desk.json`` tells ``serve`` the round in play
and its result codes (``addin.publish.board_reports``); the reports kept there so far give
each board of the round in play its report state on the pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from addin.actions.director import log_lines
from addin.actions.needs import NOTHING, read_for
from addin.actions.registry import Param, action
from addin.actions.serve import phones_folder
from addin.actions.session import ActionError, Session
from addin.core.model import Tournament
from addin.publish.board_reports import (
    DESK_FILE,
    Board,
    Desk,
    desk_states,
    read_reports,
    write_atomically,
)
from addin.publish.codes import read_codes
from addin.publish.folder import default_site_folder
from addin.publish.site import build_site
from addin.publish.text import clean
from addin.publish.writing import FolderRefused, write_site
from addin.reports.common import boards, paired_rounds
from addin.reports.model import ReportError
from addin.workbook.gateway import Gateway


def site_folder(session: Session, asked: object) -> Path:
    """The folder asked for, else ``NAME-site`` beside the workbook."""
    if asked is not None and str(asked).strip():
        return Path(str(asked).strip()).expanduser()
    book = getattr(session.gw, "path", None)
    if book is None:
        raise ActionError("save the workbook first, or say which folder to publish to")
    return default_site_folder(Path(book))


@action(
    "publish",
    "Publish",
    "write the pairings, standings, cross table, a page per player and the event page "
    "as a small web site for players' phones (it refreshes itself when published again)",
    Param(
        "to",
        "the folder to write the site to (default: NAME-site beside the workbook)",
        asked=False,
    ),
)
def publish(session: Session, params: Mapping[str, object]) -> None:
    folder = site_folder(session, params.get("to"))
    book = read_for(session, NOTHING)
    book_path = getattr(session.gw, "path", None)
    phones = phones_folder(Path(book_path)) if book_path is not None else None
    desk = None
    states: dict[int, str] = {}
    if phones is not None:  # refused before the site is written, not after
        desk = report_desk(session.gw, book.tournament)
        _check_desk_place(phones)
        try:
            states = desk_states(desk, read_reports(phones))
        except ValueError as err:
            session.say(f"note: the pages show no report state: {err}")
    try:
        site = build_site(
            book.tournament, datetime.now().astimezone(), log_lines(session.gw), states
        )
    except ReportError as err:
        raise ActionError(f"cannot publish: {err}") from err
    try:
        write_site(folder, site)
    except FolderRefused as err:
        raise ActionError(f"cannot publish: {err}") from err
    except OSError as err:
        raise ActionError(f"could not write the site in {folder}: {err.strerror or err}") from err
    if phones is not None and desk is not None:
        try:
            write_atomically(phones / DESK_FILE, desk.to_json())
        except OSError as err:
            raise ActionError(
                f"could not open results reporting in {phones}: {err.strerror or err}"
            ) from err
    where = f"round {site.round}" if site.round else "before round 1"
    session.say(
        f"Published {len(site.files) + 1} files ({where}, {site.players} players) to {folder}; "
        f"open {folder / 'index.html'}"
    )


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


def report_desk(gw: Gateway, t: Tournament) -> Desk:
    """The round in play as the server checks reports against it: each board with its code
    ("" for a board without one: it takes no reports), its players, and the result typed."""
    done = paired_rounds(t)
    rnd = t.round(done[-1]) if done else None
    event = clean(t.settings.name or "Tournament")
    if rnd is None:
        return Desk(0, {}, event)
    codes = read_codes(gw, rnd.number)

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
