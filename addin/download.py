"""Fetch a rating list from the web: the AGA's TDListA, the EGD's list of players.

The standard library's ``urllib`` with a timeout, and nothing more: a list is one GET. What
can go wrong is said in one line, naming the address, as a ``DownloadError``: no network
(the name does not resolve, nobody answers, the link stalls), a server that answers with an
error status, a body cut short (fewer bytes than its Content-Length announced), a body
larger than any rating list. What the body *is* (a TDListA, or the web page of a login form
a redirect led to) is for the list's reader to say; :func:`web_page_title` helps it say so.

A slow link shows its progress: :class:`Told` tells the door (a terminal draws one line).
Nothing here knows the workbook: the store fetches a list for the action that asks
(``actions.change.Fetch``), and the action keeps it beside the workbook (``dated_name``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import http.client

# The network modules (urllib, http.client, ssl: a tenth of a second) load when a list is
# fetched, not when the actions that may fetch one are imported.

TDLISTA_URL = "https://www.usgo.org/mm/tdlista.txt"
"""The AGA's published address of the membership list (OpenGotha downloads it from here)."""
EGD_URL = "https://www.europeangodatabase.eu/EGD/EGD_2_0/downloads/allworld_lp.html"
"""The EGD's list of every player in the database (OpenGotha's and pairgoth's default)."""

TIMEOUT = 30.0
"""Seconds a connection, or any one read, may wait for the server before the download is
given up as no network."""
MAX_BYTES = 100 * 1024 * 1024
"""The largest body accepted (the EGD's whole list is under 5 MB, the TDListA 1.4 MB)."""
CHUNK = 64 * 1024

Progress = Callable[[int, int | None], None]
"""Told the bytes received so far and the bytes announced (None when the server did not
say), after each chunk, and once more at the end."""


class DownloadError(Exception):
    """The list could not be had; one line saying why, naming the address."""


@dataclass(frozen=True)
class Downloaded:
    data: bytes
    url: str
    """The address asked for."""
    final_url: str
    """Where the body came from, after any redirect."""

    @property
    def redirected(self) -> bool:
        return self.final_url != self.url


def fetch(
    url: str,
    *,
    timeout: float = TIMEOUT,
    progress: Progress | None = None,
    limit: int = MAX_BYTES,
) -> Downloaded:
    """The body at ``url`` (http or https), whole; raises ``DownloadError`` otherwise."""
    import http.client
    import urllib.error
    import urllib.parse
    import urllib.request

    try:
        parts = urllib.parse.urlsplit(url.strip())
        host = parts.hostname
    except ValueError:
        host = None
    if not host or parts.scheme not in ("http", "https"):
        raise DownloadError(
            f"{_cut(url)} is not a web address; expected one starting with https:// or http://"
        )
    if any(c <= " " or c == "\x7f" for c in url.strip()):
        raise DownloadError(
            f"{_cut(url)!r} is not a web address: it holds a space or a control character"
        )
    request = urllib.request.Request(url.strip(), headers={"User-Agent": "aga-mcmahon"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            total = _announced(response.headers.get("Content-Length"))
            if total is not None and total > limit:
                raise DownloadError(
                    f"{_cut(url)} announces {total:,} bytes, more than any rating list "
                    f"({limit // 2**20} MB at most); is it the right address?"
                )
            data = _read(response, total, limit, url, progress)
            final = response.geturl()
    except urllib.error.HTTPError as err:
        raise DownloadError(
            f"{_cut(url)}: the server answered {err.code} {err.reason}; nothing was downloaded"
        ) from None
    except urllib.error.URLError as err:
        raise DownloadError(_unreachable(host, url, err.reason)) from None
    except TimeoutError:  # connected, then a read waited in vain
        raise DownloadError(
            f"{_cut(url)}: the download stalled (nothing came for {timeout:g} seconds); "
            "nothing was imported, try again"
        ) from None
    except (http.client.HTTPException, OSError) as err:
        if isinstance(err, http.client.IncompleteRead):
            raise DownloadError(_cut_short(url, len(err.partial), err.expected)) from None
        raise DownloadError(f"{_cut(url)}: the download broke off ({_reason(err)})") from None
    if total is not None and len(data) < total:
        raise DownloadError(_cut_short(url, len(data), total - len(data)))
    return Downloaded(data, url.strip(), final)


def _announced(header: str | None) -> int | None:
    if header is None or not header.strip().isdecimal():
        return None
    return int(header.strip())


def _read(
    response: http.client.HTTPResponse,
    total: int | None,
    limit: int,
    url: str,
    progress: Progress | None,
) -> bytes:
    chunks: list[bytes] = []
    received = 0
    while True:
        chunk = response.read1(CHUNK)  # what has arrived: progress as it comes
        if not chunk:
            break
        chunks.append(chunk)
        received += len(chunk)
        if received > limit:
            raise DownloadError(
                f"{_cut(url)} sent more than {limit // 2**20} MB, more than any rating list; "
                "is it the right address?"
            )
        if progress is not None:
            progress(received, total)
    if progress is not None:
        progress(received, total)
    return b"".join(chunks)


def _cut_short(url: str, received: int, missing: int | None) -> str:
    expected = f" of {received + missing:,}" if missing is not None else ""
    return (
        f"{_cut(url)}: the download was cut short ({received:,}{expected} bytes arrived); "
        "nothing was imported, try again"
    )


def _unreachable(host: str, url: str, reason: object) -> str:
    return f"no network: cannot reach {host} ({_reason(reason)}); {_cut(url)} was not downloaded"


def _reason(reason: object) -> str:
    import socket
    import ssl

    if isinstance(reason, socket.gaierror):
        return "the name does not resolve"
    if isinstance(reason, ConnectionRefusedError):
        return "the connection was refused"
    if isinstance(reason, TimeoutError):
        return "no answer in time"
    if isinstance(reason, ssl.SSLError):
        return f"secure connection failed: {reason.reason or reason}"
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror
    text = " ".join(str(reason).split())
    return text[:120] or type(reason).__name__


def _cut(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


_TITLE = re.compile(rb"<title[^>]*>(.*?)</title", re.IGNORECASE | re.DOTALL)
_HTML = re.compile(rb"^\s*(?:<!doctype\s+html|<html|<head|<body|<\?xml[^>]*>\s*<html)", re.I)


def web_page_title(data: bytes) -> str | None:
    """The title of a web page (HTML): what a server answers with a login form or an error
    page; "" for a page without a title; None when ``data`` is not a web page."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf")
    if not _HTML.match(head):
        return None
    found = _TITLE.search(data[:65536])
    if found is None:
        return ""
    title = found.group(1).decode("utf-8", "replace")
    return _cut(re.sub(r"<[^>]*>", "", title), 80)


def dated_name(stem: str, day: date, suffix: str) -> str:
    """``tdlista-2026-11-28.txt``: the name a downloaded list is kept under."""
    return f"{stem}-{day.isoformat()}{suffix}"


Say = Callable[[float, str], None]
"""The door's progress (``Conversation.progress``): how far (0 to 1; 1 ends it), and the
line to show."""


class Told:
    """A download's progress for ``url``, told to the door as one line (``progress_line``):
    again only when more has arrived, and ended (fraction 1) when all of an announced size
    has, or by :meth:`end` however the download ends."""

    def __init__(self, url: str, say: Say) -> None:
        self.what = url.strip().rstrip("/").rpartition("/")[2] or url.strip()
        self.say = say
        self.last: tuple[int, int | None] | None = None
        self.ended = False

    def __call__(self, received: int, total: int | None) -> None:
        if self.ended or self.last == (received, total):
            return  # the end of the body, told twice
        self.last = (received, total)
        share = min(received / total, 1.0) if total else 0.0
        self.ended = share >= 1.0
        self.say(share, progress_line(self.what, received, total))

    def end(self) -> None:
        """End the line (a body of unknown length, a download that failed)."""
        if self.last is not None and not self.ended:
            self.ended = True
            self.say(1.0, progress_line(self.what, *self.last))


def progress_line(what: str, received: int, total: int | None) -> str:
    """``Downloading tdlista.txt: [########            ]  40% (560 KB of 1,400 KB)``."""
    got = f"{received / 1024:,.0f} KB"
    if not total:
        return f"Downloading {what}: {got}"
    share = min(received / total, 1.0)
    bar = "#" * int(share * 20)
    return f"Downloading {what}: [{bar:<20}] {share:4.0%} ({got} of {total / 1024:,.0f} KB)"
