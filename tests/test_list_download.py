"""``import-tdlista BOOK --download [URL]`` against a real web server on 127.0.0.1.

The served list is the first 400 lines of the real TDListA snapshot; the newer one is a copy
with one registered member's rating changed, as the AGA's next list would have it. Each
failure a TD meets on a bad link (an error page, a body cut short, no server, an empty
body, a login page a redirect leads to) is refused in one line, and the workbook and its
folder stay byte for byte as they were.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from addin.cli import ProgressLine
from addin.download import TDLISTA_URL, DownloadError, Told, fetch
from addin.formats.tdlista import parse_tdlista
from tests.helpers import TDLISTA_SNAPSHOT, digest, log_messages, run, sheet_rows
from tests.list_server import ListServer, closed_port, serving

LIST = b"".join(TDLISTA_SNAPSHOT.read_bytes().splitlines(keepends=True)[:400])
MEMBERS = parse_tdlista(LIST).members
RATED = next(m for m in MEMBERS if m.rating is not None and m.expiry is not None)
assert RATED.rating is not None
NEW_RATING = round(RATED.rating + 1.3, 5)


def newer_list() -> bytes:
    """The list with ``RATED``'s rating changed (the line's fourth field)."""
    lines = LIST.splitlines(keepends=True)
    at = next(
        i for i, line in enumerate(lines) if line.split(b"\t")[1] == str(RATED.aga_id).encode()
    )
    fields = lines[at].split(b"\t")
    fields[3] = f"{NEW_RATING:.5f}".encode()
    lines[at] = b"\t".join(fields)
    return b"".join(lines)


@pytest.fixture(scope="module")
def server() -> Iterator[ListServer]:
    with serving() as s:
        s.files = {"tdlista.txt": LIST, "newer/tdlista.txt": newer_list()}
        yield s


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = tmp_path / "open.xlsx"
    assert run("new", path, "--name", "Download Open", "--start", "2026-11-28").returncode == 0
    return path


def folder_state(path: Path) -> dict[str, str]:
    """Every file beside the workbook, with its digest (the journal's folder aside)."""
    return {p.name: digest(p) for p in path.parent.iterdir() if p.is_file()}


def kept_copy(book: Path) -> Path:
    return book.parent / f"tdlista-{date.today().isoformat()}.txt"


def test_the_default_address_is_the_one_the_aga_publishes() -> None:
    assert TDLISTA_URL == "https://www.usgo.org/mm/tdlista.txt"


def test_download_imports_the_served_list_and_keeps_it_beside_the_workbook(
    server: ListServer, book: Path
) -> None:
    result = run("import-tdlista", book, "--download", server.url("tdlista.txt"))
    assert result.returncode == 0, result.stderr
    rows = sheet_rows(book, "TDListA")
    assert [r["AGA #"] for r in rows] == [m.aga_id for m in MEMBERS]
    assert kept_copy(book).read_bytes() == LIST
    assert f"Imported {len(MEMBERS)} members from {kept_copy(book).name}" in result.stdout
    logged = [m for _, action, m in log_messages(book) if action == "import-tdlista"]
    assert any(m.startswith("Downloaded the AGA TDListA") for m in logged)


def test_a_newer_list_downloaded_before_round_1_updates_the_registered_player(
    server: ListServer, book: Path
) -> None:
    assert run("import-tdlista", book, "--download", server.url("tdlista.txt")).returncode == 0
    assert run("register", book, "--aga", RATED.aga_id, "--yes").returncode == 0
    result = run("import-tdlista", book, "--download", server.url("newer/tdlista.txt"))
    assert result.returncode == 0, result.stderr
    player = next(r for r in sheet_rows(book, "Players") if r["AGA #"] == RATED.aga_id)
    assert player["AGA rating"] == NEW_RATING and player["Entry rating"] == NEW_RATING
    assert "Updated the AGA data of 1 registered player(s)" in result.stdout


REFUSED = [
    ("missing.txt", "the server answered 404"),
    ("cut/tdlista.txt", "the download was cut short"),
    ("empty/", "the server sent an empty file"),
    ("login/tdlista.txt", "the server sent a web page 'Sign in to continue'"),
]


@pytest.mark.parametrize(("path", "said"), REFUSED, ids=[p for p, _ in REFUSED])
def test_a_bad_download_is_refused_in_one_line_and_nothing_is_written(
    server: ListServer, book: Path, path: str, said: str
) -> None:
    before = folder_state(book)
    result = run("import-tdlista", book, "--download", server.url(path))
    assert result.returncode == 1
    reason, unchanged = result.stderr.splitlines()
    assert reason.startswith("error: ") and said in reason and server.url(path) in reason
    assert unchanged == f"{book.name} is unchanged."
    assert folder_state(book) == before


def test_the_login_page_refusal_names_where_the_redirect_led(
    server: ListServer, book: Path
) -> None:
    result = run("import-tdlista", book, "--download", server.url("login/tdlista.txt"))
    assert f"(redirected to {server.url('sign-in')})" in result.stderr


def test_no_server_at_all_is_no_network_in_one_line(book: Path) -> None:
    before = folder_state(book)
    url = f"http://127.0.0.1:{closed_port()}/tdlista.txt"
    result = run("import-tdlista", book, "--download", url)
    assert result.returncode == 1
    reason, unchanged = result.stderr.splitlines()
    assert reason == (
        f"error: no network: cannot reach 127.0.0.1 (the connection was refused); {url} "
        "was not downloaded"
    )
    assert unchanged == f"{book.name} is unchanged."
    assert folder_state(book) == before


def test_a_name_that_does_not_resolve_is_no_network(book: Path) -> None:
    before = folder_state(book)
    result = run("import-tdlista", book, "--download", "http://no-such-host.invalid/tdlista.txt")
    assert result.returncode == 1
    assert "no network: cannot reach no-such-host.invalid" in result.stderr
    assert folder_state(book) == before


@pytest.mark.parametrize(
    "given", [(), ("--download", "x"), ("file.txt", "--download")], ids=["none", "ftp", "both"]
)
def test_the_file_or_the_address_and_not_both(book: Path, given: tuple[str, ...]) -> None:
    before = folder_state(book)
    result = run("import-tdlista", book, *given)
    assert result.returncode in (1, 2) and len(result.stderr.splitlines()) <= 2
    assert folder_state(book) == before


def test_a_slow_link_shows_its_progress_on_one_terminal_line(server: ListServer) -> None:
    shown = io.StringIO()
    url = server.url("slow/tdlista.txt")
    told = Told(url, ProgressLine(shown, after=0))
    got = fetch(url, progress=told)
    told.end()
    assert got.data == LIST
    drawn = shown.getvalue()
    assert drawn.count("\n") == 1 and drawn.endswith("\n")  # one line, redrawn in place
    steps = [s for s in drawn.strip().split("\r") if s]
    assert len(steps) >= 2 and steps[-1].startswith("Downloading tdlista.txt: [")
    assert "100%" in steps[-1] and f"of {len(LIST) / 1024:,.0f} KB" in steps[-1]


def test_a_fast_link_draws_nothing(server: ListServer) -> None:
    shown = io.StringIO()
    url = server.url("tdlista.txt")
    told = Told(url, ProgressLine(shown, after=5))
    fetch(url, progress=told)
    told.end()
    assert shown.getvalue() == ""


def test_a_download_that_stalls_gives_up_after_the_timeout(server: ListServer) -> None:
    with pytest.raises(DownloadError, match="the download stalled"):
        fetch(server.url("slow/tdlista.txt"), timeout=0.05)


class Watching:
    """A door that answers yes and keeps each progress line the store tells it."""

    terminal = True
    selects = False

    def __init__(self) -> None:
        self.shown: list[tuple[float, str]] = []

    def confirm(self, question: str) -> bool:
        return True

    def tell(self, message: str) -> None:
        pass

    def select(self, request: object) -> bool:
        return False

    def progress(self, fraction: float, text: str) -> None:
        self.shown.append((fraction, text))


def test_the_store_tells_the_door_how_a_slow_download_goes(server: ListServer, book: Path) -> None:
    from addin.store import FileBook
    from addin.store import run as run_action

    door = Watching()
    url = server.url("slow/tdlista.txt")
    outcome = run_action("import-tdlista", [{"download": url}], FileBook(book), door)
    assert outcome.status == "done", outcome
    fractions = [f for f, _ in door.shown]
    assert len(fractions) >= 2 and fractions == sorted(fractions) and fractions[-1] == 1.0
    assert door.shown[-1][1].startswith("Downloading tdlista.txt: [####################] 100%")


def test_a_download_cut_short_ends_the_door_s_progress_line(server: ListServer, book: Path) -> None:
    from addin.store import FileBook
    from addin.store import run as run_action

    door = Watching()
    url = server.url("cut/tdlista.txt")
    before = folder_state(book)
    outcome = run_action("import-tdlista", [{"download": url}], FileBook(book), door)
    assert outcome.status == "error" and "the download was cut short" in outcome.messages[0]
    assert door.shown and door.shown[-1][0] == 1.0  # the line a terminal drew is ended
    assert folder_state(book) == before
