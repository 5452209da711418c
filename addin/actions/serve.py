"""The ``serve`` action: the published site on the local network, and a poster with its QR code.

On the command line the server runs in the foreground until Ctrl-C, after the workbook is
released (so ``publish`` and every other action can run meanwhile). From a ribbon button
it runs in the background (``addin.publish.background``): Excel must never wait on it.
Serving only reads the workbook (the event's name): nothing goes to the Log.

Players may report their results from the board through the served site: the reports are
kept in a folder beside the workbook (``phones_folder``), never in the workbook, until
``accept-results`` takes them in.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from addin.actions.change import ActionError, Ask, Change, Draft, Snapshot
from addin.actions.registry import ParamKind, action, param
from addin.publish import background
from addin.publish.folder import default_site_folder
from addin.publish.poster import poster_pdf
from addin.publish.serve import (
    DEFAULT_PORT,
    ServeError,
    check_bind,
    check_folder,
    check_port,
    open_server,
    serve_until_stopped,
    shown_host,
    site_url,
)
from addin.station.desk import StationDesk
from addin.station.entries import EntryQueue, stations_folder
from addin.workbook.book import read_settings
from addin.workbook.layout import Section
from addin.workbook.saving import target_of

POSTER_SUFFIX = "-poster.pdf"


def phones_folder(book: Path) -> Path:
    """Where results reported from the board are kept: ``NAME.phones/`` beside the workbook
    (never in the site folder, which phones read; not in the journal's, which only a
    writing action makes)."""
    book = target_of(Path(book))
    return book.with_name(f"{book.stem}.phones")


def default_poster(book: Path) -> Path:
    """``tournament.xlsx`` gets ``tournament-poster.pdf`` beside it."""
    return book.with_name(book.stem + POSTER_SUFFIX)


@dataclass(frozen=True, kw_only=True)
class ServeParams:
    wifi: str | None = param("the Wi-Fi network players join, printed on the poster")
    folder: Path | None = param(
        "the site folder to serve (default: the one publish makes beside the workbook)",
        ParamKind.FOLDER,
    )
    port: int | None = param(
        f"the port to serve on (default {DEFAULT_PORT}; one in use is refused, as the "
        "poster's address names it; 0: any free port, which the poster then names)"
    )
    poster: Path | None = param(
        "where to write the poster PDF (default: BOOK-poster.pdf beside the workbook)"
    )
    poster_only: bool = param(
        "write the poster without serving, to print it in advance", ParamKind.FLAG
    )
    bind: str | None = param(
        "the address of this computer to listen on (default: every one; 127.0.0.1: this "
        "computer only)",
        asked=False,
    )
    address: str | None = param(
        "the address printed on the poster, e.g. http://192.168.1.20:8000/ or a name the "
        "hall's Wi-Fi knows (default: this computer's address on the network)",
        asked=False,
    )
    loopback: bool = param(
        "print the poster even when its address is 127.0.0.1 (this computer only: no phone "
        "can open it)",
        ParamKind.FLAG,
        asked=False,
    )
    stop: bool = param("stop the server a ribbon button started in the background", ParamKind.FLAG)
    keep_serving: bool = False
    """The TD's answer: a server already running in the background keeps serving."""


@action(
    "serve",
    "Serve on Wi-Fi",
    "Serve the published site on the local network so players open it on their phones, "
    "and write a poster with its QR code to put up beside the wall sheets. Stations (a "
    "registration or results desk's tablet or laptop) sign in at its /station/ page with the "
    "password it prints; what they enter is written into the workbook.",
    ServeParams,
    reads={Section.SETTINGS},
)
def serve(snapshot: Snapshot, params: ServeParams) -> Change:
    draft = Draft(snapshot)
    if snapshot.path is None:
        raise ActionError("save the workbook first: the site and the poster go beside it")
    book = snapshot.path
    folder = params.folder or default_site_folder(book)
    poster = params.poster or default_poster(book)
    port = params.port
    try:
        if port is not None:
            check_port(port)
        check_bind(_bind(params))
        if params.stop:
            _stop(draft, folder)
            return draft.change
        if params.poster_only:
            _poster_only(draft, folder, port, poster, params)
            return draft.change
        check_folder(folder)
        if snapshot.terminal:
            _serve_here(draft, folder, port, poster, params)
        else:
            _serve_in_background(draft, folder, port, poster, params)
    except ServeError as err:
        raise ActionError(str(err)) from err
    return draft.change


def _serve_here(
    draft: Draft, folder: Path, port: int | None, poster: Path, params: ServeParams
) -> None:
    """Open the port now (a failure is the action's error); serve once the workbook is free."""
    stations = StationDesk(book_of(draft))
    server = open_server(folder, port, _bind(params), phones_folder(book_of(draft)), stations)
    url = site_url(shown_host(_bind(params)), server.port)
    if server.box is not None:
        server.box.store.note(url)
    try:
        _poster_while_serving(draft, poster, url, params)
    except ActionError:
        server.server_close()
        raise
    draft.say(
        f"Players report results at {url}report.html with their board's result code; "
        "take them in with accept-results"
    )
    draft.say(_stations_line(url, stations.key))
    draft.say(f"Serving {folder} at {url} (Ctrl-C to stop)")
    draft.change.afterwards = lambda: serve_until_stopped(server)


def _serve_in_background(
    draft: Draft, folder: Path, port: int | None, poster: Path, params: ServeParams
) -> None:
    found = background.running(folder)
    if found is not None and not params.keep_serving:
        raise Ask(
            f"{folder.name} is being served at {found.url}.\n\n"
            "Stop serving it? (Cancel keeps it serving and writes the poster again.)",
            {"stop": True},
            {"keep_serving": True},
        )
    book = book_of(draft)
    if found is None:
        found = background.start(folder, port, _bind(params), phones_folder(book), book)
        said = f"Serving {folder.name} at {found.url}"
    else:
        said = f"Already serving {folder.name} at {found.url}"
    _poster_while_serving(draft, poster, found.url, params)
    draft.say(
        f"{said}\n\nPhones on the same Wi-Fi open that address (or scan the poster's code). "
        "It keeps serving after Excel is closed; to stop it, click this button again.\n\n"
        + _stations_line(found.url, EntryQueue(stations_folder(book)).key())
    )


def _poster_only(
    draft: Draft, folder: Path, port: int | None, poster: Path, params: ServeParams
) -> None:
    if port == 0:
        raise ActionError("a poster printed in advance needs a fixed port: not 0")
    url = site_url(shown_host(_bind(params)), DEFAULT_PORT if port is None else port)
    _write_poster(draft, poster, url, params)
    if not folder.is_dir():
        draft.say(f"note: there is no site folder {folder} yet: run publish before serve")
    draft.say(
        f"note: the poster is right while this computer serves on this network at {url} "
        "(serve refuses to start when that port is in use)"
    )


def _stop(draft: Draft, folder: Path) -> None:
    ended = background.stop(folder)
    if ended is None:
        draft.say(f"No server of {folder.name} was running in the background.")
    else:
        draft.say(f"Stopped serving {folder.name} at {ended.url}.")


class LoopbackOnly(ActionError):
    """The poster's QR code would hold an address only this computer can open."""


def _poster_while_serving(draft: Draft, poster: Path, url: str, params: ServeParams) -> None:
    """The poster beside the server; one only this computer could use is left out, said."""
    try:
        _write_poster(draft, poster, url, params)
    except LoopbackOnly as err:
        draft.say(f"note: no poster written: {err}")


def book_of(draft: Draft) -> Path:
    path = draft.path
    assert path is not None  # serve refuses a workbook with no file first
    return path


def _bind(params: ServeParams) -> str:
    return (params.bind or "").strip()


def poster_address(url: str, params: ServeParams) -> str:
    """The address the poster prints: the TD's own (``--address``), else the served one;
    refused when only this computer could open it, unless ``--loopback``."""
    given = (params.address or "").strip()
    if given:
        if any(ord(c) < 33 for c in given) or len(given) > 200:
            raise ActionError("--address is one web address without spaces, e.g. http://go.lan/")
        url = given if "://" in given else f"http://{given}/"
    host = url.split("://", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0]
    if (host.startswith("127.") or host == "localhost") and not params.loopback:
        raise LoopbackOnly(
            f"the poster's address would be {url}, which only this computer can open "
            "(no network found, or --bind 127.0.0.1): join the hall's Wi-Fi, give "
            "--address, or pass --loopback to print it anyway"
        )
    return url


def _stations_line(url: str, key: str) -> str:
    return (
        f"Stations (registration and results desks) sign in at {url}station/ with the "
        f"password {key} (the poster's second page has it, for the staff only)"
    )


def _write_poster(draft: Draft, poster: Path, url: str, params: ServeParams) -> None:
    if poster.suffix.lower() != ".pdf":
        raise ActionError(f"the poster is a PDF: {poster.name} should end in .pdf")
    url = poster_address(url, params)
    event = read_settings(draft).settings.name or Path(str(draft.source)).stem
    wifi = params.wifi or None
    key = EntryQueue(stations_folder(book_of(draft))).key()
    draft.output(poster, poster_pdf(event, url, wifi, (f"{url}station/", key)))
    draft.say(f"Poster with the address and its QR code written to {poster}")
