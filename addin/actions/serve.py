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

from collections.abc import Mapping
from pathlib import Path

from addin.actions.registry import Param, ParamKind, action
from addin.actions.session import ActionError, Session
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
from addin.workbook.book import read_settings
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


@action(
    "serve",
    "Serve on Wi-Fi",
    "Serve the published site on the local network so players open it on their phones, "
    "and write a poster with its QR code to put up beside the wall sheets.",
    Param("wifi", "the Wi-Fi network players join, printed on the poster"),
    Param(
        "folder",
        "the site folder to serve (default: the one publish makes beside the workbook)",
        ParamKind.FILE_IN,
    ),
    Param(
        "port",
        f"the port to serve on (default {DEFAULT_PORT}; one in use is refused, as the "
        "poster's address names it; 0: any free port, which the poster then names)",
        ParamKind.INT,
    ),
    Param(
        "poster",
        "where to write the poster PDF (default: BOOK-poster.pdf beside the workbook)",
        ParamKind.FILE_OUT,
    ),
    Param("poster_only", "write the poster without serving, to print it in advance",
          ParamKind.FLAG),
    Param(
        "bind",
        "the address of this computer to listen on (default: every one; 127.0.0.1: this "
        "computer only)",
        asked=False,
    ),
    Param(
        "address",
        "the address printed on the poster, e.g. http://192.168.1.20:8000/ or a name the "
        "hall's Wi-Fi knows (default: this computer's address on the network)",
        asked=False,
    ),
    Param(
        "loopback",
        "print the poster even when its address is 127.0.0.1 (this computer only: no phone "
        "can open it)",
        ParamKind.FLAG,
        asked=False,
    ),
    Param("stop", "stop the server a ribbon button started in the background", ParamKind.FLAG),
)  # fmt: skip
def serve(session: Session, params: Mapping[str, object]) -> None:
    book = getattr(session.gw, "path", None)
    if book is None:
        raise ActionError("save the workbook first: the site and the poster go beside it")
    book = Path(book)
    folder = Path(str(params["folder"])) if params.get("folder") else default_site_folder(book)
    poster = Path(str(params["poster"])) if params.get("poster") else default_poster(book)
    port = params.get("port")
    try:
        if port is not None:
            check_port(int(port))  # type: ignore[call-overload]
        check_bind(_bind(params))
        if params.get("stop"):
            _stop(session, folder)
            return
        if params.get("poster_only"):
            _poster_only(session, folder, port, poster, params)  # type: ignore[arg-type]
            return
        check_folder(folder)
        if session.in_terminal:
            _serve_here(session, folder, port, poster, params)  # type: ignore[arg-type]
        else:
            _serve_in_background(session, folder, port, poster, params)  # type: ignore[arg-type]
    except ServeError as err:
        raise ActionError(str(err)) from err


def _serve_here(
    session: Session, folder: Path, port: int | None, poster: Path, params: Mapping[str, object]
) -> None:
    """Open the port now (a failure is the action's error); serve once the workbook is free."""
    server = open_server(folder, port, _bind(params), phones_folder(book_of(session)))
    url = site_url(shown_host(_bind(params)), server.port)
    if server.box is not None:
        server.box.store.note(url)
    try:
        _poster_while_serving(session, poster, url, params)
    except ActionError:
        server.server_close()
        raise
    session.say(
        f"Players report results at {url}report.html with their board's result code; "
        "take them in with accept-results"
    )
    session.say(f"Serving {folder} at {url} (Ctrl-C to stop)")
    session.afterwards = lambda: serve_until_stopped(server)


def _serve_in_background(
    session: Session, folder: Path, port: int | None, poster: Path, params: Mapping[str, object]
) -> None:
    found = background.running(folder)
    if found is not None and session.gw.confirm(
        f"{folder.name} is being served at {found.url}.\n\n"
        "Stop serving it? (Cancel keeps it serving and writes the poster again.)"
    ):
        _stop(session, folder)
        return
    if found is None:
        found = background.start(folder, port, _bind(params), phones_folder(book_of(session)))
        said = f"Serving {folder.name} at {found.url}"
    else:
        said = f"Already serving {folder.name} at {found.url}"
    _poster_while_serving(session, poster, found.url, params)
    session.say(
        f"{said}\n\nPhones on the same Wi-Fi open that address (or scan the poster's code). "
        "It keeps serving after Excel is closed; to stop it, click this button again."
    )


def _poster_only(
    session: Session, folder: Path, port: int | None, poster: Path, params: Mapping[str, object]
) -> None:
    if port == 0:
        raise ActionError("a poster printed in advance needs a fixed port: not 0")
    url = site_url(shown_host(_bind(params)), DEFAULT_PORT if port is None else port)
    _write_poster(session, poster, url, params)
    if not folder.is_dir():
        session.say(f"note: there is no site folder {folder} yet: run publish before serve")
    session.say(
        f"note: the poster is right while this computer serves on this network at {url} "
        "(serve refuses to start when that port is in use)"
    )


def _stop(session: Session, folder: Path) -> None:
    ended = background.stop(folder)
    if ended is None:
        session.say(f"No server of {folder.name} was running in the background.")
    else:
        session.say(f"Stopped serving {folder.name} at {ended.url}.")


class LoopbackOnly(ActionError):
    """The poster's QR code would hold an address only this computer can open."""


def _poster_while_serving(
    session: Session, poster: Path, url: str, params: Mapping[str, object]
) -> None:
    """The poster beside the server; one only this computer could use is left out, said."""
    try:
        _write_poster(session, poster, url, params)
    except LoopbackOnly as err:
        session.say(f"note: no poster written: {err}")


def book_of(session: Session) -> Path:
    return Path(session.gw.path)  # type: ignore[attr-defined]


def _bind(params: Mapping[str, object]) -> str:
    return str(params.get("bind") or "").strip()


def poster_address(url: str, params: Mapping[str, object]) -> str:
    """The address the poster prints: the TD's own (``--address``), else the served one;
    refused when only this computer could open it, unless ``--loopback``."""
    given = str(params.get("address") or "").strip()
    if given:
        if any(ord(c) < 33 for c in given) or len(given) > 200:
            raise ActionError("--address is one web address without spaces, e.g. http://go.lan/")
        url = given if "://" in given else f"http://{given}/"
    host = url.split("://", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0]
    if (host.startswith("127.") or host == "localhost") and not params.get("loopback"):
        raise LoopbackOnly(
            f"the poster's address would be {url}, which only this computer can open "
            "(no network found, or --bind 127.0.0.1): join the hall's Wi-Fi, give "
            "--address, or pass --loopback to print it anyway"
        )
    return url


def _write_poster(session: Session, poster: Path, url: str, params: Mapping[str, object]) -> None:
    if poster.suffix.lower() != ".pdf":
        raise ActionError(f"the poster is a PDF: {poster.name} should end in .pdf")
    url = poster_address(url, params)
    event = read_settings(session.gw).settings.name or Path(str(session.gw.source)).stem
    wifi = str(params["wifi"]) if params.get("wifi") else None
    session.write_output(poster, poster_pdf(event, url, wifi))
    session.say(f"Poster with the address and its QR code written to {poster}")
