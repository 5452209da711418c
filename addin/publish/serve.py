"""Serving the published site on the local network, so players open it on their phones.

The standard library's threaded HTTP server is enough for a tournament hall (a few hundred
phones reloading small static pages) and needs nothing installed. Requests are answered
from the site folder only: ``..`` never leaves it, a symbolic link pointing out of it is not
followed, folders are never listed, and every answer says ``Cache-Control: no-cache`` so a
phone's refresh always sees the newest round (a gzipped page, style sheet or script the
phone already holds is answered 304 by its ETag).

``python -m addin.publish.serve FOLDER --port N`` serves a folder alone: the Excel button
starts it in the background (``addin.publish.background``) so that Excel is never blocked.
This module imports nothing but the standard library, so any Python 3 can run it.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import gzip
import hashlib
import io
import json
import os
import socket
import stat
import sys
import threading
from collections.abc import Sequence
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Protocol, TextIO
from urllib.parse import parse_qsl, urlsplit

from addin.publish import report_form
from addin.publish.assets import STATES_CALLBACK, STATES_FILE
from addin.publish.board_reports import MAX_BODY, Limiter, Refused, ReportBox, StoreBusy
from addin.publish.i18n.answers import answer
from addin.publish.i18n.choose import choose
from addin.publish.i18n.site_paths import split

REPORT_PATH = "/report"
"""Where a phone posts a result; the only address that takes a POST."""
STATION_PATH = "/station"
"""Where the stations' pages are (``addin.station.desk``): never the site folder's."""


class Stations(Protocol):
    """The stations' side of the server (``addin.station.desk.StationDesk``)."""

    def handle(self, handler: Any, method: str) -> None: ...

    def start(self) -> None: ...

    def stop(self) -> None: ...


STATES_PATH = "/" + STATES_FILE
"""The round in play's report states, as a script the pages load (made by the server, never
a file of the site)."""

DEFAULT_PORT = 8000
HIGHEST_PORT = 65535


class ServeError(Exception):
    """The folder cannot be served as asked; the message says why in one line."""


def check_port(port: int) -> None:
    """A port number a server can ask for: 1 to 65535, or 0 for any free one."""
    if not 0 <= port <= HIGHEST_PORT:
        raise ServeError(
            f"port {port} is not a port number: give 1 to {HIGHEST_PORT}, or 0 for any free port"
        )


def check_folder(folder: Path) -> None:
    """The site folder exists and is a folder; else a message saying to publish first."""
    if not folder.exists():
        raise ServeError(f"there is no site folder {folder}: run publish first to make it")
    if not folder.is_dir():
        raise ServeError(f"{folder} is a file, not a folder: give the site folder publish made")


def lan_address() -> str:
    """This machine's IPv4 address on the local network, as a phone on the same Wi-Fi
    reaches it; found without internet (a UDP socket "connected" to a private address sends
    nothing, but picks the interface a packet would leave by). 127.0.0.1 when offline."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.254.254.254", 1))
        address = str(probe.getsockname()[0])
        if not address.startswith(("0.", "127.")):
            return address
    with contextlib.suppress(OSError):
        address = socket.gethostbyname(socket.gethostname())
        if not address.startswith(("0.", "127.")):
            return address
    return "127.0.0.1"


def site_url(host: str, port: int) -> str:
    return f"http://{host}/" if port == 80 else f"http://{host}:{port}/"


class SiteHandler(SimpleHTTPRequestHandler):
    """Static files of one folder, read afresh on every request, never cached by phones."""

    server_version = "AGA-McMahon"
    sys_version = ""

    timeout = 20
    """Seconds a connection may stay silent: a slow or stalled phone frees its thread."""

    def __init__(
        self,
        *args: Any,
        directory: str,
        box: ReportBox | None = None,
        limiter: Limiter | None = None,
        stations: Stations | None = None,
        **kwargs: Any,
    ) -> None:
        self.root = os.path.realpath(directory)
        self.box = box
        self.limiter = limiter or Limiter()
        self.stations = stations
        self._extra_headers: list[tuple[str, str]] = []
        super().__init__(*args, directory=directory, **kwargs)

    def _station(self, method: str) -> bool:
        """A station's page or form: answered by the stations' side (404 without one)."""
        path = urlsplit(self.path).path
        if path != STATION_PATH and not path.startswith(STATION_PATH + "/"):
            return False
        if self.stations is None:
            self.send_error(HTTPStatus.NOT_FOUND, "No stations: this server has no workbook")
        else:
            self.stations.handle(self, method)
        return True

    def do_GET(self) -> None:
        if not self._station("GET") and not self._language("GET"):
            super().do_GET()

    def _language(self, method: str) -> bool:
        """A root page sent on to the reader's language's (``addin.publish.i18n.choose``);
        ``True`` when answered so. The reader's choice (``?lang=``) is kept in a cookie."""
        url = urlsplit(self.path)
        chosen = choose(
            url.path,
            url.query,
            self.headers.get("Cookie"),
            self.headers.get("Accept-Language"),
            self.root,
        )
        self._extra_headers = []
        if chosen.cookie:
            self._extra_headers.append(("Set-Cookie", chosen.cookie))
        if chosen.negotiated:
            self._extra_headers.append(("Vary", "Accept-Language, Cookie"))
        if chosen.redirect is None:
            return False
        self.send_response(HTTPStatus.SEE_OTHER)
        self.send_header("Location", chosen.redirect)
        self.send_header("Content-Length", "0")
        self.end_headers()
        return True

    def do_HEAD(self) -> None:
        if not self._station("HEAD") and not self._language("HEAD"):
            super().do_HEAD()

    def do_POST(self) -> None:
        """A result reported from the board (``board_reports``), or a station's form;
        anything else is refused before its body is read. A form sent by a page without
        JavaScript is answered with a page; the site's script sends JSON and is answered
        with JSON."""
        if self._station("POST"):
            return
        if split(urlsplit(self.path).path)[1] != REPORT_PATH:  # /report, /ko/report
            self.send_error(HTTPStatus.METHOD_NOT_ALLOWED, "Only results are posted, to /report")
            return
        if self.box is None:
            self._answer(503, "error", "Reporting is not open: this server has no workbook.")
            return
        address = str(self.client_address[0])
        if not self.limiter.allow(address):
            self._answer(429, "error", "Too many attempts: wait a few minutes, or see the TD.")
            return
        length = self.headers.get("Content-Length", "")
        if not (length.isascii() and length.isdecimal()):
            self._answer(411, "error", "A report says how long it is.")
            return
        if int(length) > MAX_BODY:
            self.close_connection = True  # the body is never read
            self._answer(413, "error", "That is far longer than a report.")
            return
        body = self.rfile.read(int(length))
        fields: dict[str, str] = {}
        board = None
        try:
            fields = _fields(body, self.headers.get("Content-Type", ""))
            board = self.box.board_of(fields)
            if board is not None and self.limiter.closed(address, board.board):
                raise Refused(
                    429,
                    f"Too many wrong result codes for board {board.board} from this phone: "
                    "wait ten minutes, or see the TD.",
                )
            state, message = self.box.submit(fields, address)
        except Refused as refused:
            if refused.status == 403 and board is not None:
                warning = self.limiter.wrong_code(address, board.board)
                if warning:
                    self.box.warn(warning)
            self._answer(refused.status, "error", refused.message, fields)
            return
        except OSError:
            self._answer(503, "error", "The report could not be kept: please see the TD.")
            return
        self._answer(200, state, message, fields)

    def _answer(
        self, status: int, state: str, message: str, fields: dict[str, str] | None = None
    ) -> None:
        """JSON to the site's script; a page to a form sent without it; in the language of
        the page it was sent from (``/ko/report``: ``addin.publish.i18n.answers``)."""
        lang = split(urlsplit(self.path).path)[0]
        message = answer(lang, status, state, message, fields or {})
        if "json" in self.headers.get("Content-Type", ""):
            data = json.dumps({"state": state, "message": message}).encode("utf-8")
            kind = "application/json; charset=utf-8"
        else:
            data = self._answer_page(state, message, fields or {}).encode("utf-8")
            kind = "text/html; charset=utf-8"
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _answer_page(self, state: str, message: str, fields: dict[str, str]) -> str:
        """The answer at the top; the form again as it was sent when it was refused, or a
        link to the reporter's own page when it was kept."""
        desk = self.box.current_desk() if self.box is not None else None
        lang = split(urlsplit(self.path).path)[0]  # sent from /ko/: answered there
        event = desk.event if desk is not None else ""
        if state in report_form.OK_STATES or state == "disagree":
            board = self.box.board_of(fields) if self.box is not None else None
            side = fields.get("side", "")
            player = None
            if board is not None and side in ("white", "black"):
                player = board.white if side == "white" else board.black
            return report_form.answer_page(event, state, message, player=player, lang=lang)
        form = ""
        if desk is not None and desk.boards:
            boards = [b for _, b in sorted(desk.boards.items())]
            form = report_form.report_form(desk.round, boards, fields)
        return report_form.answer_page(event, state, message, form=form, lang=lang)

    def send_head(self) -> Any:
        """404 for anything outside the folder (``..`` is already dropped by the base class;
        this also refuses a symbolic link that points out of it)."""
        if split(urlsplit(self.path).path)[1] == STATES_PATH:
            return self._send_states()
        try:
            local = os.path.realpath(self.translate_path(self.path))
            os.stat(local)
        except ValueError:  # a NUL byte, or a path the system cannot name
            self.send_error(HTTPStatus.BAD_REQUEST, "Not a path of this site")
            return None
        except OSError:
            pass  # missing: the base class answers 404
        if local != self.root and not local.startswith(self.root + os.sep):
            self.send_error(HTTPStatus.NOT_FOUND, "Not in the published site")
            return None
        if "gzip" in self.headers.get("Accept-Encoding", "") and local.endswith(COMPRESSED):
            found = _gzipped(local)
            if found is not None:
                return self._send_gzipped(local, *found)
        # Last-Modified counts whole seconds: a page published again within the second
        # would be answered 304 and the phone kept on the old one. Only ETags say 304 here.
        del self.headers["If-Modified-Since"]
        return super().send_head()

    def _send_states(self) -> Any:
        """The round in play's report states (a few hundred bytes, made afresh when a report
        is kept or the TD publishes); 404 where this server keeps no reports."""
        if self.box is None:
            self.send_error(HTTPStatus.NOT_FOUND, "This server keeps no reports")
            return None
        data = self.box.states_script(STATES_CALLBACK)
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/javascript; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        return io.BytesIO(data)

    def _send_gzipped(self, local: str, data: bytes, modified: float, tag: str) -> Any:
        """The file gzipped, or 304 when the phone holds this very version (its ETag):
        a reload costs a few headers, not the page, its style sheet and its script."""
        unchanged = _matches(self.headers.get("If-None-Match", ""), tag)
        self.send_response(HTTPStatus.NOT_MODIFIED if unchanged else HTTPStatus.OK)
        self.send_header("ETag", tag)
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Last-Modified", self.date_time_string(modified))
        if unchanged:
            self.end_headers()
            return None
        self.send_header("Content-Type", self.guess_type(local))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        return io.BytesIO(data)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """A client's mistake is a 4xx: an unknown method is 405 (not 501), an unknown
        protocol version 400 (not 505)."""
        if code == HTTPStatus.NOT_IMPLEMENTED:
            code, message = HTTPStatus.METHOD_NOT_ALLOWED, "Only GET and HEAD are answered"
        elif code == HTTPStatus.HTTP_VERSION_NOT_SUPPORTED:
            code = HTTPStatus.BAD_REQUEST
        if self.request_version == "HTTP/0.9":  # no status line in 0.9: no client uses it
            self.request_version = "HTTP/1.0"
        super().send_error(code, message, explain)

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        self.send_error(HTTPStatus.NOT_FOUND, "No page here (folders are not listed)")
        return None

    def end_headers(self) -> None:
        for name, value in getattr(self, "_extra_headers", ()):
            self.send_header(name, value)
        self._extra_headers = []
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: a hall of phones refreshing would bury the address the TD needs to see."""


DROPPED = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError)
"""A phone that closed the connection mid-page: nothing to answer, nothing to print."""


def _fields(body: bytes, content_type: str) -> dict[str, str]:
    """A report's fields from a JSON object or a form; ``Refused`` (400) if neither."""
    try:
        text = body.decode("utf-8")
        if "json" in content_type:
            data = json.loads(text)
            if not isinstance(data, dict):
                raise ValueError("not an object")
            return {str(k): str(v) for k, v in data.items()}
        return dict(parse_qsl(text, max_num_fields=10))
    except (ValueError, RecursionError) as err:
        raise Refused(400, "That is not a report.") from err


COMPRESSED = (".html", ".css", ".js")
"""Sent gzipped to a phone that accepts it: a 400-player pairings page is 200 KB, 28 KB so."""
_GZIP_CACHE: dict[str, tuple[int, int, bytes, str]] = {}
_GZIP_LOCK = threading.Lock()


def _gzipped(path: str) -> tuple[bytes, float, str] | None:
    """``path`` gzipped (once per version of the file), its time and its ETag (a hash of
    what is sent); None if no file."""
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size < 1024:
            return None
        with _GZIP_LOCK:
            cached = _GZIP_CACHE.get(path)
        if cached is not None and cached[:2] == (st.st_mtime_ns, st.st_size):
            return cached[2], st.st_mtime, cached[3]
        with open(path, "rb") as f:
            data = gzip.compress(f.read(), compresslevel=6, mtime=0)
    except OSError:
        return None
    tag = f'"{hashlib.sha256(data).hexdigest()[:32]}-gz"'
    with _GZIP_LOCK:
        if len(_GZIP_CACHE) > 5000:
            _GZIP_CACHE.clear()
        _GZIP_CACHE[path] = (st.st_mtime_ns, st.st_size, data, tag)
    return data, st.st_mtime, tag


def _matches(if_none_match: str, tag: str) -> bool:
    """Whether an If-None-Match header names ``tag`` (or ``*``), compared weakly."""
    named = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
    return "*" in named or tag in named


class SiteServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = os.name != "nt"
    """On Windows SO_REUSEADDR lets a second server take a port already in use."""
    box: ReportBox | None = None
    """The reports this server keeps (its lock is let go when the server closes)."""
    request_queue_size = 128
    """Connections waiting to be accepted (the library's 5 overflowed when a hall's phones
    polled at once: a dropped connection is tried again by the phone a second later)."""

    def server_close(self) -> None:
        super().server_close()
        if self.box is not None:
            self.box.close()

    def server_bind(self) -> None:
        if os.name == "nt" and hasattr(socket, "SO_EXCLUSIVEADDRUSE"):
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)
        super().server_bind()

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    stations: Stations | None = None
    """The stations' side, whose writer runs while the server serves."""

    most_connections = 512
    """Connections served at once (a thread each); more are closed at once, so a flood of
    them cannot use up the computer."""
    _open = 0
    _open_lock = threading.Lock()

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._open_lock:
            full = self._open >= self.most_connections
            if not full:
                self._open += 1
        if full:
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self._open_lock:
                self._open -= 1

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client's dropped connection is no news for the TD's console; anything else is
        one line, never a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, DROPPED):
            return
        print(f"note: a request from {client_address[0]} failed: {error!r}", file=sys.stderr)


def open_box(reports: Path | None) -> ReportBox | None:
    """The reports kept in ``reports`` (None: this server takes none); ``ServeError`` when
    the file cannot be read or another server keeps them."""
    if reports is None:
        return None
    try:
        return ReportBox(reports, warn=lambda line: print(line, flush=True))
    except (ValueError, StoreBusy) as err:
        raise ServeError(str(err)) from err
    except OSError as err:
        raise ServeError(f"cannot keep reports in {reports}: {err.strerror or err}") from err


def handler_for(folder: Path, box: ReportBox | None, stations: Stations | None = None) -> Any:
    """The request handler of ``folder``; results reported from the board go to ``box``;
    ``stations``: the stations' pages (None: this server has none)."""
    return partial(
        SiteHandler, directory=str(folder), box=box, limiter=Limiter(), stations=stations
    )


def check_bind(bind: str) -> None:
    """An address of this machine to listen on: an IPv4 address, or "" for every one."""
    if bind and not _is_ipv4(bind):
        raise ServeError(
            f"--bind {bind!r} is not an IPv4 address of this computer (e.g. 192.168.1.20, "
            "or 127.0.0.1 for this computer only)"
        )


def _is_ipv4(text: str) -> bool:
    try:
        socket.inet_aton(text)
    except OSError:
        return False
    return text.count(".") == 3


def open_server(
    folder: Path,
    port: int | None,
    bind: str = "",
    reports: Path | None = None,
    stations: Stations | None = None,
) -> SiteServer:
    """A server for ``folder`` listening on ``bind`` (default: every interface) on ``port``
    (default 8000). A port in use is refused, never exchanged for another: a poster printed
    in advance holds the address, and a server elsewhere would make it wrong."""
    check_folder(folder)
    check_bind(bind)
    wanted = DEFAULT_PORT if port is None else port
    check_port(wanted)
    box = open_box(reports)
    try:
        server = SiteServer((bind, wanted), handler_for(folder, box, stations))
    except OSError as err:
        if box is not None:
            box.close()
        raise ServeError(_bind_failure(err, bind, wanted)) from err
    server.box = box
    server.stations = stations
    return server


def _bind_failure(err: OSError, bind: str, port: int) -> str:
    """Why a port could not be opened, in one line, and what to do."""
    if err.errno == errno.EADDRNOTAVAIL:
        return f"cannot serve on {bind}: it is not an address of this computer"
    if port == 0:
        return f"cannot open a port to serve on: {err.strerror or err}"
    why = (
        "is in use (by another program, or another serve)"
        if err.errno == errno.EADDRINUSE
        else f"cannot be opened ({err.strerror or err})"
    )
    return (
        f"port {port} {why}: nothing served, as the poster's address names port {port}; "
        "stop that program, or serve on another port with --port N and print the poster again"
    )


def shown_host(bind: str) -> str:
    """The address a phone uses: the one bound to, else this machine's on the network."""
    return bind if bind and bind != "0.0.0.0" else lan_address()


def serve_until_stopped(server: SiteServer, out: TextIO | None = None) -> int:
    """Answer requests until Ctrl-C (or the process is ended); one line when stopped."""
    out = out or sys.stdout
    _stop_on_terminate()
    out.flush()  # the address, printed before, must reach a pipe now, not at the end
    if server.stations is not None:
        server.stations.start()  # the stations' writer, while serving
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        if server.stations is not None:
            server.stations.stop()
    print("Stopped serving.", file=out, flush=True)
    return 0


def _stop_on_terminate() -> None:
    """SIGTERM (the test's, or ``kill``) stops the server as Ctrl-C does."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() or os.name == "nt":
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


def main(argv: Sequence[str] | None = None) -> int:
    """Serve one folder (the Excel button's background server); exit 1 with one line if not."""
    parser = argparse.ArgumentParser(
        prog="python -m addin.publish.serve", description="Serve a site folder on the network."
    )
    parser.add_argument("folder", type=Path)
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--bind", default="", help="the address to listen on (default: all)")
    parser.add_argument("--reports", type=Path, help="the folder results reported are kept in")
    parser.add_argument("--stations", type=Path, help="the workbook the stations enter into")
    args = parser.parse_args(argv)
    try:
        server = open_server(
            args.folder, args.port, args.bind, args.reports, _stations(args.stations)
        )
    except ServeError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    url = site_url(shown_host(args.bind), server.port)
    if server.box is not None:
        server.box.store.note(url)
    print(f"Serving {args.folder} at {url} (Ctrl-C to stop)", flush=True)
    return serve_until_stopped(server)


def _stations(book: Path | None) -> Stations | None:
    """The stations' side for ``book`` (imported only then: a phones-only server needs
    nothing but the standard library)."""
    if book is None:
        return None
    from addin.station.desk import StationDesk

    return StationDesk(book)


if __name__ == "__main__":
    sys.exit(main())
