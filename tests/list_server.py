"""A real web server on 127.0.0.1, in a thread, serving rating lists the way servers do and
fail: whole, with an error page, cut short, empty, slowly, or through a redirect to a login
page. The download tests fetch from it with the program's own code (urllib), as from the
AGA's or the EGD's site."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOGIN_PAGE = (
    b"<!DOCTYPE html>\n<html><head><title>Sign in to continue</title></head>\n"
    b"<body><form method='post'><input name='user'><input type='password'></form></body>"
    b"</html>\n"
)


class ListServer:
    """Serves ``files`` (path -> bytes) at ``/path``; the other paths misbehave by name."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:  # quiet
                pass

            def do_GET(self) -> None:
                name = self.path.lstrip("/")
                kind, _, rest = name.partition("/")
                if kind == "cut" and rest in server.files:  # announces all, sends half
                    body = server.files[rest]
                    self._head(200, len(body))
                    self.wfile.write(body[: len(body) // 2])
                elif kind == "slow" and rest in server.files:  # 8 pieces, 0.15 s apart
                    body = server.files[rest]
                    self._head(200, len(body))
                    step = len(body) // 8 + 1
                    for start in range(0, len(body), step):
                        self.wfile.write(body[start : start + step])
                        self.wfile.flush()
                        time.sleep(0.15)
                elif kind == "empty":
                    self._head(200, 0)
                elif kind == "login":  # a list behind a sign-in: redirected to the form
                    self.send_response(302)
                    self.send_header("Location", "/sign-in")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                elif kind == "sign-in":
                    self._head(200, len(LOGIN_PAGE), "text/html")
                    self.wfile.write(LOGIN_PAGE)
                elif name in server.files:
                    self._head(200, len(server.files[name]))
                    self.wfile.write(server.files[name])
                else:
                    self.send_error(404, "No such list here")  # an HTML error page

            def _head(self, status: int, length: int, kind: str = "text/plain") -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(length))
                self.end_headers()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/{path}"


@contextlib.contextmanager
def serving() -> Iterator[ListServer]:
    server = ListServer()
    server.thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()


def closed_port() -> int:
    """A port on 127.0.0.1 nobody listens on: no server at all."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
