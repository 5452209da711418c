"""Serving the published site on the local network, so players open it on their phones.

The standard library's threaded HTTP server is enough for a tournament hall (a few hundred
phones reloading small static pages) and needs nothing installed. Requests are answered
from the site folder only: ``..`` never leaves it, a symbolic link pointing out of it is not
followed, folders are never listed, and every answer says ``Cache-Control: no-cache`` so a
phone's refresh always sees the newest round.

``python -m addin.publish.serve FOLDER --port N`` serves a folder alone: the Excel button
starts it in the background (``addin.publish.background``) so that Excel is never blocked.
This module imports nothing but the standard library, so any Python 3 can run it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import sys
from collections.abc import Sequence
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, TextIO

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

    def __init__(self, *args: Any, directory: str, **kwargs: Any) -> None:
        self.root = os.path.realpath(directory)
        super().__init__(*args, directory=directory, **kwargs)

    def send_head(self) -> Any:
        """404 for anything outside the folder (``..`` is already dropped by the base class;
        this also refuses a symbolic link that points out of it)."""
        local = os.path.realpath(self.translate_path(self.path))
        if local != self.root and not local.startswith(self.root + os.sep):
            self.send_error(HTTPStatus.NOT_FOUND, "Not in the published site")
            return None
        return super().send_head()

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        self.send_error(HTTPStatus.NOT_FOUND, "No page here (folders are not listed)")
        return None

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: a hall of phones refreshing would bury the address the TD needs to see."""


class SiteServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = os.name != "nt"
    """On Windows SO_REUSEADDR lets a second server take a port already in use."""

    def server_bind(self) -> None:
        if os.name == "nt" and hasattr(socket, "SO_EXCLUSIVEADDRUSE"):
            self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)
        super().server_bind()

    @property
    def port(self) -> int:
        return int(self.server_address[1])


def open_server(folder: Path, port: int | None) -> tuple[SiteServer, str | None]:
    """A server for ``folder`` listening on every interface, and a note when the port asked
    for (default 8000) was taken and another free one is used instead."""
    check_folder(folder)
    wanted = DEFAULT_PORT if port is None else port
    check_port(wanted)
    handler = partial(SiteHandler, directory=str(folder))
    try:
        return SiteServer(("", wanted), handler), None
    except OSError as err:
        if wanted == 0:
            raise ServeError(f"cannot open a port to serve on: {err.strerror or err}") from err
        reason = err.strerror or str(err)
    try:
        server = SiteServer(("", 0), handler)
    except OSError as err:
        raise ServeError(f"cannot open a port to serve on: {err.strerror or err}") from err
    return server, f"port {wanted} is not available ({reason}); using port {server.port} instead"


def serve_until_stopped(server: SiteServer, out: TextIO | None = None) -> int:
    """Answer requests until Ctrl-C (or the process is ended); one line when stopped."""
    out = out or sys.stdout
    _stop_on_terminate()
    out.flush()  # the address, printed before, must reach a pipe now, not at the end
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
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
    args = parser.parse_args(argv)
    try:
        check_port(args.port)
        check_folder(args.folder)
        server = SiteServer(("", args.port), partial(SiteHandler, directory=str(args.folder)))
    except ServeError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"error: cannot serve on port {args.port}: {err.strerror or err}", file=sys.stderr)
        return 1
    url = site_url(lan_address(), server.port)
    print(f"Serving {args.folder} at {url} (Ctrl-C to stop)", flush=True)
    return serve_until_stopped(server)


if __name__ == "__main__":
    sys.exit(main())
