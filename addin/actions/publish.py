"""The ``publish`` action: the tournament as a small static site for players' phones.

It only reads the workbook (no save, no Log line: like a report) and writes the site's
folder (``addin.publish``): pairings by name and by board, standings, the cross table, a
page per player and one for the event, each refreshing itself when a newer publication
appears.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from addin.actions.director import log_lines
from addin.actions.needs import NOTHING, read_for
from addin.actions.registry import Param, action
from addin.actions.session import ActionError, Session
from addin.publish.folder import default_site_folder
from addin.publish.site import build_site
from addin.publish.writing import FolderRefused, write_site
from addin.reports.model import ReportError


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
    try:
        site = build_site(book.tournament, datetime.now().astimezone(), log_lines(session.gw))
    except ReportError as err:
        raise ActionError(f"cannot publish: {err}") from err
    try:
        write_site(folder, site)
    except FolderRefused as err:
        raise ActionError(f"cannot publish: {err}") from err
    except OSError as err:
        raise ActionError(f"could not write the site in {folder}: {err.strerror or err}") from err
    where = f"round {site.round}" if site.round else "before round 1"
    session.say(
        f"Published {len(site.files) + 1} files ({where}, {site.players} players) to {folder}; "
        f"open {folder / 'index.html'}"
    )
