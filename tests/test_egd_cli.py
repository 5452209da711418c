"""``check-egd`` and ``export-egd`` on a real workbook: the demo's EGF event (``demo --rules
egf``), as a TD reports a European event to the EGD, then as a hostile user edits it."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest

from addin.formats.egd_h9 import ENCODING
from tests.egd import read_h9
from tests.helpers import digest, log_messages, run, set_cell


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    book = tmp_path_factory.mktemp("demo") / "egf.xlsx"
    assert run("demo", book, "--rules", "egf").returncode == 0
    return book


@pytest.fixture
def book(demo: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "event.xlsx"
    shutil.copyfile(demo, copy)
    return copy


def type_into(path: Path, sheet: str, header: str, row: int, value: object) -> str:
    """Type ``value`` into a cell; the cell as a message names it (``Players!Z3``)."""
    return f"{sheet}!{set_cell(path, sheet, header, row, value)}"


def test_check_egd_lists_the_warnings_and_changes_nothing(book: Path) -> None:
    before = digest(book)
    done = run("check-egd", book)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "the event's country is not given" in out
    assert "61 players have no EGD PIN" in out
    assert "the ghost player" in out and "rates them as any game" in out
    assert "EGD check of 61 players and 150 games: 4 warnings to look at" in out
    assert digest(book) == before


def test_export_egd_asks_about_the_warnings_then_writes_the_table(
    book: Path, tmp_path: Path
) -> None:
    out = tmp_path / "event.h9"
    asked = run("export-egd", book, "--out", out, "--country", "nl")
    assert asked.returncode == 3 and not out.exists()
    done = run("export-egd", book, "--out", out, "--country", "nl", "--yes")
    assert done.returncode == 0, done.stderr
    assert "Exported 61 players and 5 rounds (150 games)" in done.stdout
    h9 = read_h9(out.read_bytes())
    assert h9.header["PC"] == "NL,Seattle Go Center"
    assert (h9.header["CL"], h9.header["TM"], h9.header["HA"]) == ("A", "82", "h2")
    assert len(h9.lines) == 61 and all(len(x.entries) == 5 for x in h9.lines)
    assert any(
        level == "Action" and action == "export-egd" for level, action, _ in log_messages(book)
    )


def test_a_game_without_a_result_stops_the_export_naming_its_cell(
    book: Path, tmp_path: Path
) -> None:
    assert run("result", book, "--round", 5, "--board", 3, "--result", "", "--yes").returncode == 0
    before = digest(book)
    out = tmp_path / "event.h9"
    refused = run("export-egd", book, "--out", out, "--country", "NL", "--yes")
    assert refused.returncode == 1
    assert "the EGD would reject this table; nothing was exported" in refused.stderr
    assert "Round 5!F4 (Result): round 5 board 3" in refused.stderr
    assert not out.exists() and digest(book) == before
    checked = run("check-egd", book, "--country", "NL")
    assert checked.returncode == 1 and "Round 5!F4 (Result)" in checked.stderr
    forced = run("export-egd", book, "--out", out, "--country", "NL", "--yes", "--force")
    assert forced.returncode == 0, forced.stderr
    assert "?" in {e.result for x in read_h9(out.read_bytes()).lines for e in x.entries}
    assert any(
        level == "Error" and "exported with --force" in text
        for level, _, text in log_messages(book)
    )


def test_the_pin_typed_in_players_ends_the_line_a_wrong_one_is_an_error(
    book: Path, tmp_path: Path
) -> None:
    out = tmp_path / "event.h9"
    type_into(book, "Players", "EGD PIN", 2, 12345678)
    type_into(book, "Players", "Country", 2, "cz")
    assert run("export-egd", book, "--out", out, "--country", "CZ", "--yes").returncode == 0
    line = next(x for x in read_h9(out.read_bytes()).lines if x.pin)
    assert (line.pin, line.country) == ("12345678", "CZ")
    cell = type_into(book, "Players", "EGD PIN", 3, 1_234_567)
    refused = run("export-egd", book, "--out", out, "--yes")
    assert refused.returncode == 1
    assert f"{cell} (EGD PIN)" in refused.stderr and "is not 8 digits" in refused.stderr


def test_a_class_the_time_limits_do_not_allow_is_refused(book: Path, tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(book)
    ws = wb["Tournament"]
    row = next(r for r in ws.iter_rows() if r[0].value == "Basic time (minutes)")
    row[1].value = 45
    wb.save(book)
    out = tmp_path / "event.h9"
    refused = run("export-egd", book, "--out", out, "--class", "A", "--yes")
    assert refused.returncode == 1 and "class A needs 60 minutes basic" in refused.stderr
    done = run("export-egd", book, "--out", out, "--class", "C", "--yes")
    assert done.returncode == 0 and read_h9(out.read_bytes()).header["CL"] == "C"
    assert run("export-egd", book, "--out", out, "--class", "E").returncode == 2


def test_a_hostile_name_is_refused_in_one_bounded_message(book: Path, tmp_path: Path) -> None:
    cell = type_into(book, "Players", "Family name", 4, '=HYPERLINK("x")' + "y" * 40_000)
    before = digest(book)
    refused = run("export-egd", book, "--out", tmp_path / "event.h9", "--yes")
    assert refused.returncode == 1
    assert f"{cell} (Family name)" in refused.stderr and "characters long" in refused.stderr
    assert len(refused.stderr) < 2_000 and digest(book) == before


def test_line_breaks_tabs_and_semicolons_never_break_a_line(book: Path, tmp_path: Path) -> None:
    type_into(book, "Players", "Given name", 2, "Ann;\tMarie|x\ny")
    out = tmp_path / "event.h9"
    done = run("check-egd", book)
    assert "is written 'Ann,_Marie/x_y'" in done.stdout
    assert run("export-egd", book, "--out", out, "--yes").returncode == 0
    text = out.read_bytes().decode(ENCODING)
    assert "Ann,_Marie/x_y " in text
    assert len(read_h9(out.read_bytes()).lines) == 61


def test_an_output_in_a_missing_folder_is_one_line(book: Path, tmp_path: Path) -> None:
    before = digest(book)
    refused = run("export-egd", book, "--out", tmp_path / "none" / "event.h9", "--yes")
    assert refused.returncode == 1 and "no folder" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1 and digest(book) == before
