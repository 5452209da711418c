"""``import-egd-list``, ``lookup`` and ``register --pin`` through the real command line, on the
real EGD list excerpts (July and December 2018), for an event under the EGF preset.

Every expected value is derived from the list's own lines (``parse_egd_list``) and the entry
rating rule (``addin.core.egd.entry_rating``), never typed here.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import openpyxl
import pytest

from addin.core.egd import EgdPlayer, entry_rating
from addin.core.european import GradeScale
from addin.core.ratings import rank_of
from addin.download import EGD_URL
from addin.formats.egd_list import parse_egd_list
from tests.helpers import DATA, TDLISTA_SNAPSHOT, digest, log_messages, run, sheet_rows
from tests.list_server import ListServer, serving

OLD_LIST = DATA / "egd" / "allworld_lp-2018-07-01-excerpt.html"
NEW_LIST = DATA / "egd" / "allworld_lp-2018-12-27-excerpt.html"
OLD = {p.pin: p for p in parse_egd_list(OLD_LIST.read_bytes()).players}
NEW = {p.pin: p for p in parse_egd_list(NEW_LIST.read_bytes()).players}
SCALE = GradeScale.ZERO_20_KYU  # the EGF preset's


def rating(p: EgdPlayer) -> float | None:
    return entry_rating(p.gor, p.grade, SCALE)


MOVED = [p for p in NEW.values() if p.pin in OLD and p.gor and rating(OLD[p.pin]) != rating(p)]
A = next(p for p in MOVED if OLD[p.pin].grade == p.grade)
"""GoR moved within the grade, and the entry rating with it."""
B = next(p for p in MOVED if OLD[p.pin].grade != p.grade)
"""Graded otherwise by the newer list."""
C = next(p for p in MOVED if p not in (A, B) and OLD[p.pin].grade == p.grade)
"""Registered at a rank of the TD's: kept."""
ASKED = "9k" if OLD[C.pin].grade != "9k" else "8k"


@pytest.fixture(scope="module")
def registered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An EGF event: the July list imported, A, B and C registered (C at a rank of the TD's)."""
    path = tmp_path_factory.mktemp("egd") / "euro.xlsx"
    assert run("new", path, "--name", "Euro Open", "--start", "2026-11-28").returncode == 0
    assert run("rules", path, "--preset", "EGF", "--yes").returncode == 0
    assert run("import-egd-list", path, OLD_LIST).returncode == 0
    for p in (A, B):
        done = run("register", path, "--pin", p.pin)
        assert done.returncode == 0, done.stderr
    done = run("register", path, "--pin", C.pin, "--rank", ASKED, "--yes")
    assert done.returncode == 0, done.stderr
    return path


@pytest.fixture
def book(registered: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(registered, tmp_path / "euro.xlsx"))


def players(path: Path) -> dict[int, dict[str, object]]:
    return {int(str(r["EGD PIN"])): r for r in sheet_rows(path, "Players") if r["EGD PIN"]}


# --- import and look-up ----------------------------------------------------------------------


def test_the_list_fills_the_egd_list_sheet(tmp_path: Path) -> None:
    path = tmp_path / "t.xlsx"
    assert run("new", path, "--name", "T", "--start", "2026-11-28").returncode == 0
    result = run("import-egd-list", path, NEW_LIST)
    assert result.returncode == 0, result.stderr
    rows = sheet_rows(path, "EGD list")
    assert [r["PIN"] for r in rows] == list(NEW)
    for row in rows:
        p = NEW[int(str(row["PIN"]))]
        assert (row["Family name"], row["Grade"], row["GoR"]) == (p.family_name, p.grade, p.gor)
        assert (row["Club"] or "", row["Country"] or "") == (p.club, p.country)
    said = f"Imported {len(NEW)} players from {NEW_LIST.name}, dated 2018-12-27"
    assert result.stdout.startswith(said)
    assert any(m.startswith(said) for _, _, m in log_messages(path))


def test_lookup_finds_players_of_the_egd_list_by_name_and_by_pin(registered: Path) -> None:
    by_name = run("lookup", registered, A.family_name[:4])
    assert by_name.returncode == 0, by_name.stderr
    assert f"EGD {A.pin} {A.name}, {OLD[A.pin].grade}, GoR {OLD[A.pin].gor}" in by_name.stdout
    by_pin = run("lookup", registered, str(B.pin))
    assert by_pin.stdout.splitlines() == [
        by_pin.stdout.splitlines()[0],
        f"1 match(es) for '{B.pin}'",
    ]
    assert by_pin.stdout.startswith(f"EGD {B.pin} {B.name}")


def test_lookup_searches_both_lists_when_both_are_there(tmp_path: Path) -> None:
    path = tmp_path / "t.xlsx"
    assert run("new", path, "--name", "T", "--start", "2026-11-28").returncode == 0
    assert run("import-tdlista", path, TDLISTA_SNAPSHOT).returncode == 0
    assert run("import-egd-list", path, NEW_LIST).returncode == 0
    found = run("lookup", path, "Ch").stdout.splitlines()
    assert any(line.startswith("AGA ") for line in found)
    assert any(line.startswith("EGD ") for line in found)


# --- register --pin ---------------------------------------------------------------------------


def test_register_by_pin_copies_the_player_at_the_rating_gor_and_grade_give(
    registered: Path,
) -> None:
    rows = players(registered)
    for p in (OLD[A.pin], OLD[B.pin]):
        row = rows[p.pin]
        assert (row["Family name"], row["Given name"]) == (p.family_name, p.given_name)
        assert row["Entry rating"] == rating(p) and row["Rank or rating"] == p.grade
        assert (row["GoR"], row["Chapter"], row["Country"]) == (p.gor, p.club, p.country)
        assert 90000 <= int(str(row["AGA #"])) <= 99999  # a temporary number: no AGA member


def test_a_rank_other_than_the_lists_is_an_active_warning(registered: Path, tmp_path: Path) -> None:
    book = Path(shutil.copy(registered, tmp_path / "t.xlsx"))
    p = next(p for p in OLD.values() if p.pin not in (A.pin, B.pin, C.pin) and p.gor)
    other = "5d" if rank_of(rating(p) or 0) != "5d" else "6d"
    before = digest(book)
    asked = run("register", book, "--pin", p.pin, "--rank", other)
    assert asked.returncode == 3 and digest(book) == before
    assert f"EGD {p.pin} {p.name} asks to play at {other}; the EGD list gives" in asked.stderr
    assert players(registered)[C.pin]["Rank or rating"] == ASKED  # accepted with --yes


def test_a_pin_registered_twice_or_not_in_the_list_is_refused(registered: Path) -> None:
    before = digest(registered)
    again = run("register", registered, "--pin", A.pin)
    assert again.returncode == 1 and f"EGD PIN {A.pin} is already registered" in again.stderr
    unknown = run("register", registered, "--pin", 19999999)
    assert unknown.returncode == 1
    assert "EGD PIN 19999999 is not in the EGD list sheet" in unknown.stderr
    assert digest(registered) == before


def test_a_pin_not_in_the_list_registers_with_a_name_and_a_rank(book: Path) -> None:
    done = run("register", book, "--pin", 19999999, "--name", "Newcomer, Nina", "--rank", "12k")
    assert done.returncode == 0, done.stderr
    row = players(book)[19999999]
    assert row["Family name"] == "Newcomer" and row["Entry rating"] == -12.5


# --- a newer list -----------------------------------------------------------------------------


def test_a_newer_list_before_round_1_refreshes_the_registered_players(book: Path) -> None:
    result = run("import-egd-list", book, NEW_LIST)
    assert result.returncode == 0, result.stderr
    rows = players(book)
    for p in (A, B):
        assert rows[p.pin]["GoR"] == p.gor and rows[p.pin]["Entry rating"] == rating(p)
        assert rows[p.pin]["Rank or rating"] == rank_of(rating(p) or 0)
    assert rows[C.pin]["GoR"] == C.gor
    assert rows[C.pin]["Rank or rating"] == ASKED  # the TD's rank stays
    assert "Updated the EGD data of 3 registered player(s) from the new list" in result.stdout
    assert f"{A.name} (EGD PIN {A.pin}): GoR {OLD[A.pin].gor} -> {A.gor}" in result.stdout
    assert f"{C.name} (EGD PIN {C.pin}): entry rating" in result.stdout
    assert "kept, set by the TD" in result.stdout


def test_after_round_1_the_players_stay_unless_the_td_asks(book: Path) -> None:
    filler = [p for p in OLD.values() if p.pin not in (A.pin, B.pin, C.pin) and p.gor][:3]
    for p in filler:
        assert run("register", book, "--pin", p.pin, "--yes").returncode == 0
    assert run("bands", book, "--yes").returncode == 0
    assert run("pair", book, "--yes").returncode == 0
    before = players(book)
    result = run("import-egd-list", book, NEW_LIST)
    assert result.returncode == 0, result.stderr
    assert "round 1 is paired, so the Players sheet is unchanged" in result.stdout
    assert players(book) == before
    asked = run("import-egd-list", book, NEW_LIST, "--update-players")
    assert asked.returncode == 3
    done = run("import-egd-list", book, NEW_LIST, "--update-players", "--yes")
    assert done.returncode == 0, done.stderr
    assert players(book)[A.pin]["GoR"] == A.gor


def test_a_club_left_waiting_after_round_1_follows_the_list_when_the_td_asks(book: Path) -> None:
    """The newer list replaces the older in the EGD list sheet at once; the Log's waiting
    lines keep the older list's club, so the later --update-players takes the new club
    instead of keeping the old one as if typed at the desk (as for the TDListA)."""
    moved = next(p for p in NEW.values() if p.pin in OLD and OLD[p.pin].club != p.club)
    registered = {A.pin, B.pin, C.pin}
    more = [moved] if moved.pin not in registered else []
    more += [p for p in OLD.values() if p.pin not in registered | {moved.pin}][: len(more) + 1]
    for p in more:  # an even field: four or six players
        assert run("register", book, "--pin", p.pin, "--yes").returncode == 0
    assert run("bands", book, "--yes").returncode == 0
    assert run("pair", book, "--yes").returncode == 0
    waiting = run("import-egd-list", book, NEW_LIST)
    assert waiting.returncode == 0, waiting.stderr
    assert players(book)[moved.pin]["Chapter"] == OLD[moved.pin].club
    logged = [m for _, action, m in log_messages(book) if action == "import-egd-list"]
    assert any(f"(EGD PIN {moved.pin}): Chapter" in m and "waiting" in m for m in logged)
    done = run("import-egd-list", book, NEW_LIST, "--update-players", "--yes")
    assert done.returncode == 0, done.stderr
    assert players(book)[moved.pin]["Chapter"] == moved.club


# --- --download -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[ListServer]:
    with serving() as s:
        s.files = {"allworld_lp.html": NEW_LIST.read_bytes(), "tdlista.txt": b"".join(
            TDLISTA_SNAPSHOT.read_bytes().splitlines(keepends=True)[:50])}  # fmt: skip
        yield s


def test_the_default_address_is_the_egds_own(tmp_path: Path) -> None:
    assert EGD_URL == "https://www.europeangodatabase.eu/EGD/EGD_2_0/downloads/allworld_lp.html"


def test_download_imports_the_egd_list_and_keeps_it(server: ListServer, book: Path) -> None:
    result = run("import-egd-list", book, "--download", server.url("allworld_lp.html"))
    assert result.returncode == 0, result.stderr
    kept = book.parent / f"egd-list-{date.today().isoformat()}.html"
    assert kept.read_bytes() == NEW_LIST.read_bytes()
    assert [r["PIN"] for r in sheet_rows(book, "EGD list")] == list(NEW)
    assert players(book)[A.pin]["GoR"] == A.gor


def test_a_tdlista_served_as_the_egd_list_is_refused(server: ListServer, book: Path) -> None:
    before = digest(book)
    result = run("import-egd-list", book, "--download", server.url("tdlista.txt"))
    assert result.returncode == 1
    assert "not an EGD rating list" in result.stderr.splitlines()[0]
    assert digest(book) == before
    assert not list(book.parent.glob("egd-list-*"))


# --- a PIN typed into Players ----------------------------------------------------------------


def type_row(path: Path, **cells: object) -> int:
    """Type ``cells`` (header -> value) into the next Players row, as the TD does in Excel."""
    wb = openpyxl.load_workbook(path)
    ws = wb["Players"]
    header = [c.value for c in ws[1]]
    row = ws.max_row + 1
    for name, value in cells.items():
        ws.cell(row, header.index(name) + 1, value)
    wb.save(path)
    return row


def test_a_pin_typed_into_players_is_filled_from_the_egd_list(book: Path) -> None:
    p = next(p for p in OLD.values() if p.pin not in (A.pin, B.pin, C.pin) and p.club)
    row = type_row(book, **{"EGD PIN": p.pin})
    result = run("bands", book, "--yes")
    assert result.returncode == 0, result.stderr
    typed = players(book)[p.pin]
    assert (typed["Family name"], typed["Given name"]) == (p.family_name, p.given_name)
    assert typed["Entry rating"] == rating(p) and typed["GoR"] == p.gor
    assert (typed["Chapter"], typed["Country"]) == (p.club, p.country)
    assert 90000 <= int(str(typed["AGA #"])) <= 99999
    notes = [m for _, _, m in log_messages(book)]
    assert any(m.startswith(f"Players row {row}: filled in") and "EGD list" in m for m in notes)


def test_a_typed_pin_registered_twice_is_a_problem_naming_the_cell(book: Path) -> None:
    row = type_row(book, **{"EGD PIN": A.pin})
    before = digest(book)
    result = run("bands", book, "--yes")
    assert result.returncode == 1 and digest(book) == before
    assert "Players!" in result.stderr and f"{row} (EGD PIN): EGD PIN {A.pin} is already in" in (
        result.stderr
    )


def test_a_typed_pin_the_list_does_not_hold_is_an_active_warning(book: Path) -> None:
    type_row(book, **{"EGD PIN": 19999999, "Family name": "Nobody", "Rank or rating": "5k"})
    asked = run("bands", book)
    assert asked.returncode == 3
    assert "EGD PIN 19999999 (Nobody) is not in the EGD list" in asked.stderr


def test_a_login_page_in_place_of_the_egd_list_is_refused_by_name(
    server: ListServer, book: Path
) -> None:
    """The EGD's list is itself a web page: a sign-in page a redirect led to is told apart."""
    before = digest(book)
    result = run("import-egd-list", book, "--download", server.url("login/allworld_lp.html"))
    assert result.returncode == 1 and digest(book) == before
    assert (
        "the server sent a web page 'Sign in to continue', not the EGD rating list"
        in (result.stderr.splitlines()[0])
    )
