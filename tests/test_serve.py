"""``serve``: the real command line serves a site folder over HTTP, and its poster's QR code
reads back (with zbar, as a phone's camera would) as the address it printed."""

from __future__ import annotations

import contextlib
import http.client
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import openpyxl
import pytest

from addin import store
from addin.publish import background
from addin.publish.poster import MAX_EVENT_CHARS
from addin.publish.serve import SiteServer, lan_address
from addin.workbook.openpyxl_gateway import OpenpyxlGateway
from tests.helpers import digest, log_messages, run

REQUIRED = "AGA_REQUIRE_LIBREOFFICE"
"""Set in CI (.ci/run): a missing zbarimg fails the poster tests instead of skipping them."""
ADDRESS = re.compile(r"^Serving (?P<folder>.+) at (?P<url>http://(?P<host>[\d.]+):(?P<port>\d+)/)")
INDEX = "<!doctype html><title>Round 3</title><p>Board 1: Ōta vs Müller</p>\n"


def tool(name: str, package: str) -> str:
    """The program ``name``; skip saying why where it is missing (fail in CI)."""
    found = shutil.which(name)
    if found is None:
        why = f"{name} (Debian package {package}) is not installed: the poster cannot be read"
        if os.environ.get(REQUIRED):
            pytest.fail(f"{why} ({REQUIRED} is set)")
        pytest.skip(why)
    return found


def qr_codes(pdf: Path, tmp_path: Path) -> list[str]:
    """The QR codes printed on the poster's wall page, read from a 100 dpi rendering by zbar.
    A served poster has a second page, the staff's (the stations' sign-in: its code names
    the stations' address, never the players')."""
    zbarimg = tool("zbarimg", "zbar-tools")
    pdftoppm = tool("pdftoppm", "poppler-utils")
    prefix = tmp_path / "page"
    subprocess.run([pdftoppm, "-r", "100", "-png", str(pdf), str(prefix)], check=True)
    pages = sorted(tmp_path.glob("page*.png"))
    assert len(pages) in (1, 2), "the wall's page, and the staff's when served"
    codes = [
        subprocess.run(
            [zbarimg, "--quiet", "--raw", str(page)], capture_output=True, text=True
        ).stdout.splitlines()
        for page in pages
    ]
    for staff in codes[1:]:
        assert len(staff) == 1 and "/station/?key=" in staff[0], staff
    return codes[0]


def pdf_text(pdf: Path) -> str:
    pdftotext = tool("pdftotext", "poppler-utils")
    done = subprocess.run([pdftotext, str(pdf), "-"], check=True, capture_output=True, text=True)
    return done.stdout


@dataclass
class Server:
    process: subprocess.Popen[str]
    lines: list[str]
    url: str
    port: int
    reader: threading.Thread
    rest: queue.Queue[str]
    book_before: str = ""


def start_serve(*args: object) -> Server:
    """``python -m addin serve ARGS`` in a fresh interpreter; waits for the address line."""
    process = subprocess.Popen(
        [sys.executable, "-m", "addin", "serve", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    printed: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in process.stdout or ():
            printed.put(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    lines: list[str] = []
    while True:
        try:
            line = printed.get(timeout=60)
        except queue.Empty:
            process.kill()
            pytest.fail(f"serve printed no address: {lines}")
        lines.append(line.rstrip("\n"))
        match = ADDRESS.match(line)
        if match:
            return Server(process, lines, match["url"], int(match["port"]), reader, printed)


def stop(server: Server) -> tuple[int, str, str]:
    """Ctrl-C, as the TD stops it: the exit code, the rest of stdout, and stderr."""
    server.process.send_signal(signal.SIGINT)
    code = server.process.wait(timeout=30)
    server.reader.join(timeout=10)
    err = server.process.stderr.read() if server.process.stderr else ""
    out = "".join(server.rest.get() for _ in range(server.rest.qsize()))
    return code, out, err


def get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    """A GET with ``path`` sent exactly as written (``..`` and all), as a hostile client would."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "spring.xlsx"
    assert run("new", path, "--name", "Spring Open 2026").returncode == 0
    return path


@pytest.fixture
def site(book: Path) -> Path:
    """The folder publish makes beside the workbook, with a page, a folder, and a way out."""
    folder = book.with_name("spring-site")
    (folder / "players").mkdir(parents=True)
    (folder / "index.html").write_text(INDEX, encoding="utf-8")
    (folder / "players" / "note.txt").write_text("in the site", encoding="utf-8")
    (book.parent / "secret.txt").write_text("TD's private notes", encoding="utf-8")
    if hasattr(os, "symlink"):
        (folder / "escape.txt").symlink_to(book.parent / "secret.txt")
    return folder


@pytest.fixture
def served(book: Path, site: Path) -> Iterator[Server]:
    before = digest(book)
    server = start_serve(book, "--port", "0", "--wifi", "Hall Guest")
    server.book_before = before
    yield server
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait()


def test_serve_answers_http_with_the_site_and_stops_cleanly_on_ctrl_c(
    served: Server, book: Path, site: Path
) -> None:
    status, headers, body = get(served.port, "/")
    assert status == 200 and body.decode("utf-8") == INDEX
    assert headers["Cache-Control"] == "no-cache", "a refresh must see the newest round"
    assert served.url == f"http://{lan_address()}:{served.port}/"
    with urllib.request.urlopen(served.url + "players/note.txt", timeout=10) as answer:
        assert answer.read() == b"in the site"  # at the address a phone uses
    (site / "index.html").write_text("round 4", encoding="utf-8")  # publish, while serving
    assert get(served.port, "/")[2] == b"round 4"
    code, out, err = stop(served)
    assert code == 0 and out.strip() == "Stopped serving." and err == ""
    assert digest(book) == served.book_before, "serving only reads: no save, no Log line"
    assert [m for m in log_messages(book) if m[1] == "serve"] == []


@pytest.mark.parametrize(
    "path",
    ["/../secret.txt", "/players/../../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt",
     "/escape.txt", "/players/", "//etc/passwd"],
)  # fmt: skip
def test_nothing_outside_the_folder_is_served_nor_any_folder_listed(
    served: Server, path: str
) -> None:
    if path == "/escape.txt" and not hasattr(os, "symlink"):
        pytest.skip("no symbolic links here")
    status, _, body = get(served.port, path)
    assert status == 404
    assert b"private" not in body and b"note.txt" not in body and b"root:" not in body


def test_the_workbook_is_free_while_serving(served: Server, book: Path, tmp_path: Path) -> None:
    """The TD publishes the next round while phones read this one: no wait on the server."""
    poster = tmp_path / "again.pdf"
    done = run("serve", book, "--poster-only", "--poster", poster)
    assert done.returncode == 0, done.stderr
    assert poster.exists()


def test_the_posters_qr_code_reads_as_the_printed_address(
    served: Server, book: Path, tmp_path: Path
) -> None:
    poster = book.with_name("spring-poster.pdf")
    assert f"Poster with the address and its QR code written to {poster}" in served.lines
    assert qr_codes(poster, tmp_path) == [served.url]
    text = pdf_text(poster)
    assert "Spring Open 2026" in text and served.url in text and "Wi-Fi: Hall Guest" in text


def test_a_port_in_use_is_refused_in_one_line_never_moved_from_the_posters_address(
    book: Path, site: Path
) -> None:
    """Issue 40 (11): a poster printed in advance names port 8000; a server that moved to a
    random port when 8000 was taken would leave every phone at a wrong address."""
    with socket.socket() as taken:
        taken.bind(("", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        before = digest(book)
        done = subprocess.run(  # a fresh process: a server that did start would serve on
            [sys.executable, "-m", "addin", "serve", str(book), "--port", str(busy)],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 1
        line = done.stderr.splitlines()[0]
        assert f"port {busy} is in use" in line and "--port N" in line, line
        assert "Traceback" not in done.stderr and "Serving" not in done.stdout
        assert not book.with_name("spring-poster.pdf").exists(), "no poster of a wrong address"
        assert digest(book) == before
        from addin.publish.serve import main

        assert main([str(site), "--port", str(busy)]) == 1, "the ribbon's background server too"


# --- what the TD can get wrong: one line, the workbook unchanged --------------------------


@pytest.mark.parametrize(
    ("args", "code", "says"),
    [
        (["--port", "-1"], 1, "port -1 is not a port number"),
        (["--port", "70000"], 1, "port 70000 is not a port number"),
        (["--port", "eight"], 2, "invalid int value: 'eight'"),
        (["--poster-only", "--port", "0"], 1, "needs a fixed port"),
        (["--poster-only", "--poster", "poster.png"], 1, "should end in .pdf"),
        (["--poster-only", "--poster", "no/such/folder/p.pdf"], 1, "there is no folder"),
        (["--bind", "hall-pc"], 1, "--bind 'hall-pc' is not an IPv4 address"),
        (["--bind", "203.0.113.9", "--port", "0"], 1, "not an address of this computer"),
        (["--poster-only", "--bind", "127.0.0.1"], 1, "only this computer can open"),
        (["--poster-only", "--address", "http://localhost:8000/"], 1, "--loopback"),
        (["--poster-only", "--address", "http://a b/"], 1, "without spaces"),
    ],
)
def test_bad_options_are_one_line_and_change_nothing(
    book: Path, site: Path, args: list[str], code: int, says: str
) -> None:
    before = digest(book)
    done = run("serve", book, *[a.replace("no/", f"{book.parent}/no/") for a in args])
    assert done.returncode == code
    assert says in done.stderr.splitlines()[0] and "Traceback" not in done.stderr
    assert digest(book) == before


def test_a_missing_site_folder_says_to_publish_first(book: Path) -> None:
    done = run("serve", book)
    assert done.returncode == 1
    assert done.stderr.splitlines()[0] == (
        f"error: there is no site folder {book.with_name('spring-site')}: "
        "run publish first to make it"
    )


def test_a_folder_that_is_a_file_is_refused(book: Path, tmp_path: Path) -> None:
    file = tmp_path / "site.html"
    file.write_text("not a folder", encoding="utf-8")
    done = run("serve", book, "--folder", file)
    assert done.returncode == 1
    assert done.stderr.splitlines()[0] == (
        f"error: {file} is a file, not a folder: give the site folder publish made"
    )


def set_event_name(book: Path, name: str) -> None:
    """The TD types the event's name on the Tournament sheet."""
    workbook = openpyxl.load_workbook(book)
    sheet = workbook["Tournament"]
    (row,) = [r for r in sheet.iter_rows() if r[0].value == "Tournament name"]
    row[1].value = name
    workbook.save(book)


@pytest.mark.parametrize(
    "name",
    [
        '=HYPERLINK("http://evil.example","click")',
        "Spring\tOpen\r\n\u202efinals\u200b\ufeff",
        "Very long " * 4000,
    ],
    ids=["formula", "control-characters", "40000-characters"],
)
def test_a_hostile_event_name_still_makes_a_correct_poster(
    book: Path, tmp_path: Path, name: str
) -> None:
    set_event_name(book, name)
    before = digest(book)
    poster = tmp_path / "poster.pdf"
    done = run("serve", book, "--poster-only", "--poster", poster, "--wifi", "Go\x1bHall\n" * 8000)
    assert done.returncode == 0, done.stderr
    assert digest(book) == before
    url = f"http://{lan_address()}:8000/"
    assert qr_codes(poster, tmp_path) == [url]
    text = pdf_text(poster)
    assert url in text and "Wi-Fi: Go" in text
    words = " ".join(text.split())
    if name.startswith("="):  # printed as text, never run (wrapped lines joined back)
        assert '=HYPERLINK("http://evil.example","click")' in "".join(text.split())
    elif name.startswith("Spring"):
        assert "Spring Open" in words and "\t" not in text and "\r" not in text
    else:
        assert len(name) > 10 * MAX_EVENT_CHARS and "Very long Very long" in words
        assert "\u2026" in text, "cut, with an ellipsis"


# --- the ribbon button: a background server, so that Excel is never blocked ----------------


def press_serve(book: Path, stop_it: bool, asked: list[str]) -> list[str]:
    """The ribbon's run of ``serve``: a window's conversation, not the command line's, as
    Excel's dispatcher makes it; OK or Cancel to "stop serving?"; what the TD is told."""
    gateway = OpenpyxlGateway.open(book)
    talk = store.Answering(stop_it)
    talk.terminal = False
    outcome = store.run("serve", [{"wifi": "Hall Guest", "port": 0}], store.HeldBook(gateway), talk)
    asked += talk.asked
    return outcome.messages


def test_the_ribbon_serves_in_the_background_and_a_second_click_stops_it(
    book: Path, site: Path, tmp_path: Path
) -> None:
    asked: list[str] = []
    try:
        said = press_serve(book, stop_it=False, asked=asked)  # returns: Excel is free
        match = re.search(r"Serving spring-site at (http://[\d.]+:(\d+)/)", said[-1])
        assert match, said
        url, port = match[1], int(match[2])
        assert get(port, "/")[2].decode("utf-8") == INDEX
        assert qr_codes(book.with_name("spring-poster.pdf"), tmp_path) == [url]
        said = press_serve(book, stop_it=False, asked=asked)
        assert asked[-1].startswith(f"spring-site is being served at {url}")
        assert said[-1].startswith(f"Already serving spring-site at {url}")
        said = press_serve(book, stop_it=True, asked=asked)
        assert said == [f"Stopped serving spring-site at {url}."]
        with pytest.raises(OSError):
            get(port, "/")
    finally:
        background.stop(site)


def test_stop_from_the_command_line_when_nothing_runs_says_so(book: Path, site: Path) -> None:
    done = run("serve", book, "--stop")
    assert (done.returncode, done.stdout) == (
        0,
        "No server of spring-site was running in the background.\n",
    )


def test_calcs_button_serves_in_the_background_and_the_next_click_stops_it(
    book: Path, site: Path
) -> None:
    """The real door: LibreOffice Calc's dispatcher on the live document, as its toolbar runs
    it (Excel's dispatcher is the same code with the xlwings gateway)."""
    from addin.calc.dialogs import AcceptAll
    from addin.calc.entry import dispatch
    from tests.calc_support import office_or_skip

    offices = office_or_skip()
    office = next(offices)
    try:
        doc = office.open(book)
        shown = AcceptAll()
        outcome = dispatch("aga_serve", doc, office.ctx, {"wifi": "Hall Guest"}, dialogs=shown)
        assert outcome.status == "done", outcome
        match = re.search(r"Serving spring-site at (http://[\d.]+:(\d+)/)", shown.shown[-1][1])
        assert match, shown.shown
        assert get(int(match[2]), "/")[2].decode("utf-8") == INDEX
        outcome = dispatch("aga_serve", doc, office.ctx, {"wifi": ""}, dialogs=shown)
        assert "Stop serving it?" in shown.shown[-2][1]
        assert shown.shown[-1][1] == f"Stopped serving spring-site at {match[1]}."
        with pytest.raises(OSError):
            get(int(match[2]), "/")
    finally:
        background.stop(site)
        offices.close()


def raw_request(port: int, data: bytes) -> bytes:
    """Bytes sent as they are (a malformed request no client library would send); the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(data)
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


MALFORMED = (
    b"GET /index.html%00.txt HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /%ed%a0%80.html HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n",
    b"BREW /pot HTTP/1.1\r\n\r\n",
    b"GET\r\n\r\n",
    b"GET / HTTP/9.9\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
)


def test_every_malformed_request_gets_a_4xx_answer_and_no_traceback(served: Server) -> None:
    for data in MALFORMED:
        answer = raw_request(served.port, data)
        status = answer.split(b"\r\n", 1)[0]
        assert re.match(rb"HTTP/1\.[01] 4\d\d ", status), (data[:40], answer[:80])
    status, _, body = get(served.port, "/")
    assert status == 200 and body.decode("utf-8") == INDEX, "still serving"
    code, _, err = stop(served)
    assert code == 0
    assert "Traceback" not in err and "Error" not in err, err


def test_a_phone_dropping_the_connection_mid_page_prints_nothing(
    served: Server, site: Path
) -> None:
    (site / "big.html").write_bytes(b"<p>" + b"x" * 8_000_000)
    for _ in range(5):
        with socket.create_connection(("127.0.0.1", served.port), timeout=10) as s:
            s.sendall(b"GET /big.html HTTP/1.1\r\nHost: x\r\n\r\n")
            s.recv(1000)  # the answer has begun
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        # closed with a reset while the server is still writing
    status, _, _ = get(served.port, "/")
    assert status == 200, "still serving"
    code, _, err = stop(served)
    assert code == 0
    assert err == "", err


def test_bind_serves_on_that_address_only_and_says_it(book: Path, site: Path) -> None:
    server = start_serve(book, "--port", "0", "--bind", "127.0.0.1")
    try:
        assert server.url == f"http://127.0.0.1:{server.port}/"
        assert any("no poster written" in line and "--loopback" in line for line in server.lines)
        assert not book.with_name("spring-poster.pdf").exists()
        assert get(server.port, "/")[0] == 200
        if lan_address() != "127.0.0.1":
            with pytest.raises(OSError):
                socket.create_connection((lan_address(), server.port), timeout=3).close()
    finally:
        stop(server)


def test_the_poster_prints_the_address_the_td_gives(book: Path, tmp_path: Path) -> None:
    poster = tmp_path / "poster.pdf"
    done = run("serve", book, "--poster-only", "--poster", poster, "--address", "go-hall.lan:8000")
    assert done.returncode == 0, done.stderr
    assert qr_codes(poster, tmp_path) == ["http://go-hall.lan:8000/"]
    looped = tmp_path / "looped.pdf"
    done = run("serve", book, "--poster-only", "--poster", looped, "--bind", "127.0.0.1",
               "--loopback")  # fmt: skip
    assert done.returncode == 0, done.stderr
    (tmp_path / "again").mkdir()
    assert qr_codes(looped, tmp_path / "again") == ["http://127.0.0.1:8000/"], "when asked"


def test_connections_past_the_limit_are_closed_and_phones_still_get_pages(site: Path) -> None:
    """More silent connections than the server serves at once (here 3): the rest are closed
    at once, and once they go a phone is answered as before."""
    from addin.publish.serve import handler_for

    server = SiteServer(("127.0.0.1", 0), handler_for(site, None))
    server.most_connections = 3
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    flood = []
    try:
        flood = [socket.create_connection(("127.0.0.1", server.port), timeout=5) for _ in range(3)]
        time.sleep(0.5)  # the three are being served (waiting for their request line)
        extra = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        started = time.monotonic()
        with contextlib.suppress(ConnectionResetError):  # closed: an end, or a reset
            assert extra.recv(1) == b""
        assert time.monotonic() - started < 3, "closed at once, not after the idle timeout"
        extra.close()
        for s in flood:
            s.close()
        time.sleep(0.5)
        assert get(server.port, "/")[0] == 200
    finally:
        server.shutdown()
        server.server_close()
