"""Hostile input on the surfaces added last: the phones' report store, the OpenGotha import
and export, the European settings, the kept lookup index.

Each case runs the real command on a real workbook and asserts what
``test_hostile_inputs.py`` asserts: one short message naming the file and what was
expected, no traceback, and the workbook byte for byte as it was.
"""

from __future__ import annotations

import json
import os
import pickle
import re
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from addin.actions.serve import phones_folder
from addin.publish.board_reports import DESK_FILE, REPORTS_FILE, Desk
from tests.helpers import DATA, TDLISTA_SNAPSHOT, digest, run, run_process
from tests.test_hostile_inputs import set_cell
from tests.test_publish_site import played_book
from tests.workbook_fixtures import simple_tournament, write_workbook

MAX_MESSAGE_LINE = 600


def one_short_message(done: object, *fragments: str) -> None:
    output = done.stdout + done.stderr  # type: ignore[attr-defined]
    assert done.returncode == 1, output  # type: ignore[attr-defined]
    assert "Traceback" not in output
    assert all(len(line) <= MAX_MESSAGE_LINE for line in output.splitlines()), output[:2000]
    for fragment in fragments:
        assert fragment in done.stderr, output  # type: ignore[attr-defined]


# --- the phones' report store (BOOK.phones/reports.json, desk.json) ---------------------


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    book = played_book(tmp_path_factory.mktemp("phones"))
    assert run("publish", book).returncode == 0
    return book


@pytest.fixture
def book(published: Path, tmp_path: Path) -> Path:
    copy = tmp_path / published.name
    copy.write_bytes(published.read_bytes())
    phones_folder(copy).mkdir()
    desk = (phones_folder(published) / DESK_FILE).read_bytes()
    (phones_folder(copy) / DESK_FILE).write_bytes(desk)
    return copy


def report(**changed: object) -> dict[str, object]:
    """A report as the server keeps it, with ``changed`` fields."""
    return {
        "round": 3,
        "board": 1,
        "side": "white",
        "result": "white",
        "time": "2026-11-26 10:00:00",
        "address": "10.0.0.7",
        "white": 1,
        "black": 2,
    } | changed


def reports(*items: object) -> str:
    return json.dumps({"format": 1, "reports": list(items)})


TAMPERED = {
    "result-unknown": (
        reports(report(result="nope"), report(side="black", result="nope")),
        "report 1: side 'white' or result 'nope' is not one a player sends",
    ),
    "side-unknown": (reports(report(side="green")), "side 'green'"),
    "board-text": (
        reports(report(board="1"), report(board=2.5, side="black")),
        "report 1: board '1' is not a whole number",
    ),
    "board-list": (reports(report(board=[1])), "board [1] is not a whole number"),
    "board-true": (reports(report(board=True)), "board True is not a whole number"),
    "player-object": (
        reports(report(white={}), report(white={}, side="black")),
        "white {} is not a whole number",
    ),
    "player-huge": (reports(report(white=10**30)), "is not a whole number"),
    "round-nan": (reports(report()).replace('"round": 3', '"round": NaN'), "NaN is not a number"),
    "round-1e999": (reports(report()).replace('"round": 3', '"round": 1e999'), "round inf"),
    "huge-field-name": (reports({"x" * 40_000: 1}), "(40,002 characters) is no field of it"),
    "huge-text": (reports(report(address="=HYPERLINK(" + "x" * 40_000)), "is not a short text"),
    "field-missing": (reports({"round": 3}), "address, board, result, side, time missing"),
    "nested-deeply": ('{"reports":' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    "a-list": ("[]", "expected an object with a list of reports"),
    "utf-16": (reports().encode("utf-16").decode("latin-1"), "not UTF-8"),
}


@pytest.mark.parametrize("name", sorted(TAMPERED))
def test_a_tampered_reports_file_is_one_line_naming_it_and_the_workbook_is_unchanged(
    name: str, book: Path
) -> None:
    text, expected = TAMPERED[name]
    path = phones_folder(book) / REPORTS_FILE
    if name == "utf-16":
        path.write_bytes(reports().encode("utf-16"))
    else:
        path.write_text(text, encoding="utf-8")
    before = digest(book)
    done = run("accept-results", book, "--yes")
    one_short_message(done, "reports.json is not a reports file this program wrote", expected)
    assert digest(book) == before


@pytest.mark.parametrize(
    "text",
    [
        '{"round": 1e999, "boards": []}',
        '{"round": 3, "boards": [{"board": 1, "code": 7}]}',
        '{"round": 3, "boards": {"1": {}}}',
        '{"round": "3", "boards": []}',
        "[" * 100_000,
    ],
)
def test_a_tampered_desk_file_is_refused_as_a_whole(text: str) -> None:
    """The server reads desk.json again when it changes; anything but what ``publish``
    wrote is no desk (reporting closed), never a failed request."""
    with pytest.raises(ValueError):
        Desk.from_json(text)


# --- the kept lookup index (the user's cache folder) -------------------------------------


@pytest.fixture
def desk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tmp_path / "desk.xlsx"
    assert run("new", path).returncode == 0
    imported = run("import-tdlista", path, DATA / "tdlista" / "tdlista-short.txt", "--yes")
    assert imported.returncode == 0, imported.stderr
    return path


def kept_entries() -> list[Path]:
    from addin.workbook import read_cache

    return sorted(read_cache.folder().glob("*.pickle"))


def spoil_truncated(entry: Path) -> None:
    entry.write_bytes(entry.read_bytes()[:100])


def spoil_folder(entry: Path) -> None:
    entry.unlink()
    entry.mkdir()


def spoil_pipe(entry: Path) -> None:
    entry.unlink()
    os.mkfifo(entry)


def spoil_foreign(entry: Path) -> None:
    entry.write_bytes(f"{entry.stem}\n".encode() + pickle.dumps({"not": "an index"}))


def spoil_unkeyed(entry: Path) -> None:
    """An index kept without its key: the object alone."""
    entry.write_bytes(entry.read_bytes().split(b"\n", 1)[1])


def spoil_older(entry: Path) -> None:
    """An index as an older version kept it: a pickled (key, index)."""
    key, index = entry.read_bytes().split(b"\n", 1)
    entry.write_bytes(pickle.dumps((key.decode(), pickle.loads(index))))


@pytest.mark.parametrize(
    "spoil",
    [spoil_truncated, spoil_folder, spoil_pipe, spoil_foreign, spoil_unkeyed, spoil_older],
    ids=lambda f: f.__name__.removeprefix("spoil_"),
)
def test_a_spoiled_kept_index_is_a_miss_and_the_lookup_reads_the_list_again(
    spoil: Callable[[Path], None], desk: Path
) -> None:
    if spoil is spoil_pipe and not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    first = run("lookup", desk, "cornell")
    assert first.returncode == 0 and "Cornell, Dewey G." in first.stdout
    for entry in kept_entries():
        spoil(entry)
    before = digest(desk)
    again = run("lookup", desk, "cornell")
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout and "Traceback" not in again.stderr
    assert digest(desk) == before


def test_a_kept_index_swapped_for_another_lists_is_a_miss(desk: Path, tmp_path: Path) -> None:
    """Two lists, two entries: each renamed as the other's is not read as its own."""
    mine = run("lookup", desk, "cornell").stdout
    entries = kept_entries()
    other = tmp_path / "other.xlsx"
    assert run("new", other).returncode == 0
    assert run("import-tdlista", other, TDLISTA_SNAPSHOT, "--yes").returncode == 0
    assert run("lookup", other, "cornell").returncode == 0
    others = [e for e in kept_entries() if e not in entries]
    assert others
    for entry in entries:
        entry.write_bytes(others[0].read_bytes())
    assert run("lookup", desk, "cornell").stdout == mine


@pytest.mark.parametrize(
    ("header", "value"),
    [
        ("Chapter", "C" * 40_000),
        ("Name", "Cornell, " + "D" * 40_000),
        ("Type", "T" * 40_000),
        ("State", "S" * 40_000),
    ],
    ids=["chapter", "name", "type", "state"],
)
def test_lookup_cuts_a_huge_cell_in_its_line(desk: Path, header: str, value: str) -> None:
    """A 40,000-character cell typed into the TDListA is named by its length, never echoed
    in full into the terminal."""
    sheet = openpyxl.load_workbook(desk)["TDListA"]
    row = next(c.row for c in sheet["B"] if c.value == 1310)
    set_cell(desk, "TDListA", header, value, row=row)
    done = run("lookup", desk, "cornell")
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if line.startswith("AGA 1310 "))
    said = re.search(r"(\w)\1{40,}\.\.\. \(([0-9,]+) characters\)", line)
    assert said and value.endswith(said.group(1) * 100)
    assert int(said.group(2).replace(",", "")) > 60  # as much as the cell holds, named
    assert len(line) < 300


# --- export-opengotha on a hand-edited workbook -------------------------------------------


@pytest.mark.parametrize(
    "value, expected",
    [
        ('=HYPERLINK("http://x","y")', "Players!A2 (AGA #): the formula"),
        ("x" * 40_000, "(32,767 characters) is not an AGA number"),
        (-1, "Players!A2 (AGA #)"),
    ],
    ids=["formula", "huge-text", "negative"],
)
def test_export_opengotha_of_an_unreadable_aga_number_names_the_cell_and_writes_nothing(
    value: object, expected: str, tmp_path: Path
) -> None:
    """OpenGotha would pair from the file: a player whose games lost him is refused, as
    export-aga refuses it (it was a KeyError)."""
    book = write_workbook(tmp_path / "t.xlsx", simple_tournament(10, 2), rounds=4)
    set_cell(book, "Players", "AGA #", value)
    before = digest(book)
    out = tmp_path / "og.xml"
    done = run("export-opengotha", book, out, "--yes")
    one_short_message(done, "fix these problems first", expected)
    assert not out.exists() and digest(book) == before


def test_import_opengotha_names_a_huge_name_in_its_notes_without_echoing_it(
    tmp_path: Path,
) -> None:
    """A player not confirmed (PRE) whose rank OpenGotha reads otherwise is named in two
    notes: cut to 60 characters, never a 1,000-character line."""
    source = tmp_path / "og.xml"
    source.write_bytes(
        (
            '<Tournament dataVersion="201"><Players>'
            f'<Player name="{"x" * 1000}" firstName="{"y" * 1000}" rank="99d" '
            'registeringStatus="PRE"/><Player name="Bob" firstName="B" rank="2K"/>'
            "</Players><Games/><TournamentParameterSet>"
            '<GeneralParameterSet numberOfRounds="3"/><HandicapParameterSet/>'
            "</TournamentParameterSet></Tournament>"
        ).encode()
    )
    book = tmp_path / "t.xlsx"
    assert run("new", book).returncode == 0
    done = run("import-opengotha", book, source, "--yes")
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "(1,000 characters), " in output and "(1,000 characters) '99d' -> 9d" in output
    assert all(len(line) <= MAX_MESSAGE_LINE for line in output.splitlines()), output[:2000]


def test_import_opengotha_takes_a_superscript_aga_id_as_no_aga_number(tmp_path: Path) -> None:
    """``"²".isdigit()`` is true and ``int("²")`` fails: such an agaId is no AGA number (the
    player gets a temporary one), never a ValueError."""
    source = tmp_path / "og.xml"
    source.write_bytes(
        (
            '<Tournament dataVersion="201"><Players>'
            '<Player name="Ann" firstName="A" rank="1D" agaId="²"/>'
            '<Player name="Bob" firstName="B" rank="2K" agaId="١٢"/>'
            "</Players><Games/><TournamentParameterSet>"
            '<GeneralParameterSet numberOfRounds="3"/><HandicapParameterSet/>'
            "</TournamentParameterSet></Tournament>"
        ).encode()
    )
    book = tmp_path / "t.xlsx"
    assert run("new", book).returncode == 0
    done = run("import-opengotha", book, source, "--yes")
    assert done.returncode == 0, done.stderr
    assert "2 players without an AGA number in the file got temporary numbers 90000-90001" in (
        done.stdout
    )


@pytest.mark.parametrize("rating", [1e308, -0.5, 99.0], ids=["1e308", "minus-half", "99"])
@pytest.mark.parametrize("command", ["lookup", "register"])
def test_a_tdlista_rating_off_the_aga_scale_is_a_problem_named_by_its_cell(
    rating: float, command: str, desk: Path
) -> None:
    """Typed over in the TDListA sheet: lookup and register name the cell (a RatingError
    escaped from describing the member before)."""
    set_cell(desk, "TDListA", "Rating", rating)
    before = digest(desk)
    args = ["cornell"] if command == "lookup" else ["--aga", "1310", "--yes"]
    done = run(command, desk, *args)
    one_short_message(
        done, "the TDListA sheet has problems", "TDListA!D2 (Rating): rating", "AGA scale"
    )
    assert digest(desk) == before


# --- the python-calamine reading path (lookup) --------------------------------------------


def with_tdlista_xml(
    book: Path, edit: Callable[[bytes], bytes], out: Path, sheet: str = "TDListA"
) -> Path:
    """``book`` with its TDListA (or another) sheet's XML edited as a hostile hand would."""
    from addin.workbook.package import sheet_part

    with zipfile.ZipFile(book) as package:
        part = sheet_part(package, sheet)
        items = [(i, package.read(i.filename)) for i in package.infolist()]
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        for info, data in items:
            package.writestr(info.filename, edit(data) if info.filename == part else data)
    return out


def first_cell(new: bytes, old: bytes = b"A5") -> Callable[[bytes], bytes]:
    """The reference of the cell ``old`` (the first of row 5) changed to ``new``."""
    return lambda xml: xml.replace(b'<c r="' + old + b'"', b'<c r="' + new + b'"', 1)


@pytest.mark.parametrize(
    "edit",
    [first_cell(b"A4000000000"), first_cell(b"a5"), first_cell(b"A-5")],
    ids=["row-4e9", "lower-case", "negative-row"],
)
def test_a_cell_reference_calamine_cannot_hold_is_read_by_openpyxl_never_aborting(
    edit: Callable[[bytes], bytes], desk: Path, tmp_path: Path
) -> None:
    """calamine makes the rectangle up to the farthest reference: ``A4000000000`` asked for a
    terabyte and the Rust allocator aborted the process (no message, exit 134). In a fresh
    interpreter: an abort must not take the test run with it."""
    hostile = with_tdlista_xml(desk, edit, tmp_path / "hostile.xlsx")
    before = digest(hostile)
    done = run_process("lookup", hostile, "cornell")
    assert done.returncode in (0, 1), done.stderr[-500:]
    assert "Traceback" not in done.stderr and "panicked" not in done.stderr
    assert digest(hostile) == before


def run_in_2_gb(*args: object) -> subprocess.CompletedProcess[str]:
    """``python -m addin ARGS`` allowed 2 GB: a hostile file that asks for more fails the
    test with a MemoryError instead of swapping the machine."""

    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    return subprocess.run(
        [sys.executable, "-m", "addin", *map(str, args)],
        capture_output=True,
        text=True,
        preexec_fn=limit,
    )


@pytest.mark.skipif(sys.platform == "win32", reason="memory limit by setrlimit")
@pytest.mark.parametrize("ref", ["ZZZZZZZZ5", "XFE5"])
def test_a_cell_past_the_last_column_is_named_in_one_line_not_padded_out_to(
    ref: str, desk: Path, tmp_path: Path
) -> None:
    """Reading the TDListA pads each row out to its last cell: ``ZZZZZZZZ5`` asked for
    200 billion cells and exhausted the memory. XFD is a worksheet's last column."""
    hostile = with_tdlista_xml(desk, first_cell(ref.encode()), tmp_path / "hostile.xlsx")
    before = digest(hostile)
    done = run_in_2_gb("lookup", hostile, "cornell")
    assert done.returncode == 1, done.stderr[-500:]
    assert done.stderr.splitlines()[0] == (
        f"error: TDListA sheet: the cell reference {ref} is past a worksheet's last column "
        "(XFD); the file was not saved by a spreadsheet"
    )
    assert digest(hostile) == before


def test_a_cell_past_the_last_column_of_another_sheet_is_one_line_naming_it(
    desk: Path, tmp_path: Path
) -> None:
    assert run("register", desk, "--aga", 1310, "--yes").returncode == 0
    edit = first_cell(b"ZZZZZZZZ2", b"A2")
    hostile = with_tdlista_xml(desk, edit, tmp_path / "hostile.xlsx", sheet="Players")
    before = digest(hostile)
    done = run_in_2_gb("check", hostile)
    assert done.returncode == 1
    assert done.stderr.splitlines()[0] == (
        f"error: {hostile}: not an Excel .xlsx workbook ('ZZZZZZZZ' is not a valid column "
        "name. Column names are from A to ZZZ)"
    )
    assert digest(hostile) == before


@pytest.mark.parametrize(
    "edit, expected",
    [
        (lambda xml: xml[: len(xml) // 2], "not an Excel .xlsx workbook (unclosed token"),
        (lambda xml: b"\x00\xff" * 100, "not an Excel .xlsx workbook (syntax error"),
        (
            lambda xml: (
                b'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;'
                b'&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>'
                + xml.replace(b"<t>", b"<t>&c;", 1)
            ),
            "hostile.xlsx",
        ),
    ],
    ids=["truncated", "garbage", "entities"],
)
def test_a_tdlista_sheet_calamine_refuses_is_the_gateways_one_line(
    edit: Callable[[bytes], bytes], expected: str, desk: Path, tmp_path: Path
) -> None:
    """Not ``error: lookup: XmlError: ...`` (an unforeseen failure) but the openpyxl
    gateway's words, as for any other unreadable package."""
    hostile = with_tdlista_xml(desk, edit, tmp_path / "hostile.xlsx")
    before = digest(hostile)
    done = run("lookup", hostile, "cornell")
    one_short_message(done, expected)
    assert "XmlError" not in done.stderr and "lookup:" not in done.stderr
    assert digest(hostile) == before


@pytest.mark.parametrize("blocked", ["phones-a-file", "desk-a-folder"])
def test_publish_refuses_a_phones_place_it_cannot_use_before_writing_the_site(
    published: Path, tmp_path: Path, blocked: str
) -> None:
    """``BOOK.phones`` a file (or its desk.json a folder): one line naming it, and neither
    the site nor anything else written."""
    book = tmp_path / published.name
    book.write_bytes(published.read_bytes())
    phones = phones_folder(book)
    if blocked == "phones-a-file":
        phones.write_text("not a folder")
        named = phones
    else:
        (phones / DESK_FILE).mkdir(parents=True)
        named = phones / DESK_FILE
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    folders = sorted(p for p in tmp_path.rglob("*") if p.is_dir())
    done = run("publish", book)
    one_short_message(done, str(named))
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    assert sorted(p for p in tmp_path.rglob("*") if p.is_dir()) == folders
