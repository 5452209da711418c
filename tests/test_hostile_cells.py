"""Hostile input, second round: identity cells, money, settings, the last round, backups.

Each case types into a real demo workbook with openpyxl (as a TD's spreadsheet would store
it: a formula as a formula, an error value as an error cell), runs the real command line
and checks that the cell is named, that nothing was refilled or converted, that a refused
command leaves the workbook (and its backups and journal) byte for byte as they were, and
that no traceback is ever printed.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils import get_column_letter
from openpyxl.workbook.workbook import Workbook

from tests.helpers import DATA, digest, run

PLAYERS, ROUNDS = 20, 3


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The issue's own workbook, ``demo BOOK --players 20 --rounds 3``, and one action after
    it through the command line, so that it has a journal as a TD's workbook does."""
    folder = tmp_path_factory.mktemp("demo")
    path = folder / "t.xlsx"
    made = run("demo", path, "--players", PLAYERS, "--rounds", ROUNDS)
    assert made.returncode == 0, made.stderr
    board_1 = rows(path, f"Round {ROUNDS}")[0]
    flipped = "White wins" if board_1["Result"] != "White wins" else "Black wins"
    assert run("result", path, "--board", 1, "--result", flipped, "--yes").returncode == 0
    assert (folder / "t.history" / "journal.jsonl").is_file()
    return path


@pytest.fixture
def book(demo: Path, tmp_path: Path) -> Path:
    path = tmp_path / "t.xlsx"
    shutil.copyfile(demo, path)
    shutil.copytree(demo.with_name("t.history"), tmp_path / "t.history")
    return path


def rows(path: Path, sheet: str) -> list[dict[str, object]]:
    ws = openpyxl.load_workbook(path)[sheet]
    header = [c.value for c in ws[1]]
    return [
        dict(zip(header, (c.value for c in r), strict=False))
        for r in ws.iter_rows(min_row=2)
        if r[0].value is not None
    ]


def column(ws: object, header: str) -> int:
    headers = [c.value for c in ws[1]]  # type: ignore[index]
    return headers.index(header) + 1


def edit(path: Path, change: Callable[[Workbook], None]) -> None:
    wb = openpyxl.load_workbook(path)
    change(wb)
    wb.save(path)


def type_into(path: Path, sheet: str, header: str, row: int, value: object, kind: str) -> str:
    """Type ``value`` as a spreadsheet stores it (``kind``: value, formula, error); the cell."""

    def change(wb: Workbook) -> None:
        cell = wb[sheet].cell(row=row, column=column(wb[sheet], header))
        cell.value = value
        if kind == "error":
            cell.data_type = "e"
        assert (cell.data_type == "f") == (kind == "formula")

    edit(path, change)
    ws = openpyxl.load_workbook(path)[sheet]
    return f"{sheet}!{get_column_letter(column(ws, header))}{row}"


def clean(result: object) -> str:
    output = result.stdout + result.stderr  # type: ignore[attr-defined]
    assert "Traceback" not in output
    return output


# --- identity and number cells ------------------------------------------------------------

IDENTITY_CASES = [
    ("true", True, "value", "TRUE (a true/false value) is not an AGA number"),
    ("date", datetime(1940, 2, 29), "value", "the date 1940-02-29 is not an AGA number"),
    ("huge-number", 1e300, "value", "1e+300 is not an AGA number"),
    ("huge-text", "1E+300", "value", "'1E+300' is not an AGA number"),
    ("zero", 0, "value", "0 is not an AGA number"),
    ("six-digits", 100000, "value", "100000 is not an AGA number"),
    ("formula", "=A2+1", "formula", "the formula '=A2+1' is not an AGA number"),
    ("error", "#N/A", "error", "the error value #N/A is not an AGA number"),
]


@pytest.mark.parametrize(
    ("value", "kind", "message"),
    [c[1:] for c in IDENTITY_CASES],
    ids=[c[0] for c in IDENTITY_CASES],
)
def test_a_wrong_kind_of_value_in_an_aga_number_is_named_never_refilled(
    book: Path, value: object, kind: str, message: str
) -> None:
    player = rows(book, "Players")[1]
    pid, name = player["AGA #"], f"{player['Family name']}, {player['Given name']}"
    cell = type_into(book, "Players", "AGA #", 3, value, kind)
    before = digest(book)

    listed = run("check", book)
    output = clean(listed)
    assert listed.returncode == 1
    assert f"problem: {cell} (AGA #): {message} (a whole number from 1 to 99999)" in output
    assert "required value is blank" not in output, "named once, as what it is"
    assert f"gets AGA # {pid}" not in output, "never refilled by name"
    # his games name a number no row holds now: each is named too
    assert f"AGA # {pid} is not in the Players sheet" in output

    for command in (["standings"], ["pair"], ["export-aga", "--text", book.with_suffix(".txt")]):
        refused = run(*command, book, "--yes", "--force")
        assert refused.returncode == 1, clean(refused)
        assert message in clean(refused)
    assert digest(book) == before
    assert not book.with_suffix(".txt").exists(), f"{name}'s games are never exported alone"


@pytest.mark.parametrize(
    ("header", "value", "kind", "message"),
    [
        ("White AGA #", True, "value", "TRUE (a true/false value) is not an AGA number"),
        ("Black AGA #", "#N/A", "error", "the error value #N/A is not an AGA number"),
        ("Handicap", "=1+1", "formula", "the formula '=1+1' is not a whole number"),
        ("Komi", datetime(2020, 1, 1), "value", "the date 2020-01-01 is not a number"),
    ],
    ids=["true", "error", "formula", "date"],
)
def test_a_wrong_kind_of_value_in_a_round_sheet_is_named_once(
    book: Path, header: str, value: object, kind: str, message: str
) -> None:
    cell = type_into(book, f"Round {ROUNDS}", header, 3, value, kind)
    before = digest(book)
    listed = run("check", book)
    problems = [x for x in clean(listed).splitlines() if x.startswith("problem:")]
    assert problems == [f"problem: {cell} ({header}): {message}" + (
        " (a whole number from 1 to 99999)" if "AGA" in header else ""
    )]  # fmt: skip
    for command in ("standings", "pair"):
        refused = run(command, book, "--yes")
        assert refused.returncode == 1 and message in clean(refused)
    assert digest(book) == before


def test_an_error_value_in_a_number_cell_is_named_and_not_filled_from_the_list(
    book: Path,
) -> None:
    cell = type_into(book, "Players", "Entry rating", 3, "#REF!", "error")
    before = digest(book)
    listed = run("check", book)
    output = clean(listed)
    assert f"problem: {cell} (Entry rating): the error value #REF! is not a number" in output
    assert "filled in Entry rating" not in output
    assert "number stored as text" not in output
    refused = run("pair", book, "--round", ROUNDS, "--yes")
    assert refused.returncode == 1 and "the error value #REF!" in clean(refused)
    # the standings do not read an entry rating: they go on, and the cell keeps its error
    assert run("standings", book, "--yes").returncode == 0
    ws = openpyxl.load_workbook(book)["Players"]
    kept = ws[cell.split("!")[1]]
    assert (kept.value, kept.data_type) == ("#REF!", "e")
    assert digest(book) != before


def test_a_refusal_names_the_error_value_in_an_entry_rating_beside_the_one_that_stops_it(
    book: Path,
) -> None:
    """Issue 50 (15): ``standings`` stopped on an unreadable AGA # and named only that cell;
    the TD fixed it, ran again, and only then heard of the #REF! two rows up."""
    rating = type_into(book, "Players", "Entry rating", 3, "#REF!", "error")
    aga = type_into(book, "Players", "AGA #", 5, "#N/A", "error")
    before = digest(book)
    refused = run("standings", book, "--yes")
    said = clean(refused)
    assert refused.returncode == 1
    assert f"{aga} (AGA #): the error value #N/A" in said
    assert (
        f"{rating} (Entry rating): the error value #REF! is not a number (not used by "
        "standings, but fix it too)" in said
    )
    assert digest(book) == before


# A spreadsheet stores no infinite number (openpyxl writes float("inf") as a blank cell):
# infinity arrives as text, and is refused like NaN.
@pytest.mark.parametrize("typed", ["nan", "-inf", "Infinity", "NaN"])
def test_an_infinite_or_nan_initial_score_is_named_not_carried_out(
    book: Path, typed: object
) -> None:
    cell = type_into(book, "Players", "Initial score", 2, typed, "value")
    before = digest(book)
    listed = run("check", book)
    assert listed.returncode == 1
    assert f"problem: {cell} (Initial score):" in clean(listed)
    refused = run("export-opengotha", book, book.with_suffix(".og.xml"), "--yes")
    assert refused.returncode == 1 and f"{cell} (Initial score)" in clean(refused)
    assert not book.with_suffix(".og.xml").exists()
    assert digest(book) == before


@pytest.mark.parametrize("typed", [1e308, -1e308, 1_000_001, "-1000000.5"])
def test_an_initial_score_beyond_a_million_points_is_named_not_paired_on(
    book: Path, typed: object
) -> None:
    """1e308 is a finite number: it reached the pairing and its sum of squared McMahon
    differences was printed as "inf". No band plan starts a player a million points away."""
    cell = type_into(book, "Players", "Initial score", 2, typed, "value")
    before = digest(book)
    listed = run("check", book)
    assert listed.returncode == 1
    assert f"problem: {cell} (Initial score): " in clean(listed)
    assert "is not a number from -1,000,000 to 1,000,000" in clean(listed)
    refused = run("pair", book, "--yes")
    assert refused.returncode == 1 and f"{cell} (Initial score)" in clean(refused)
    assert digest(book) == before


def test_an_initial_score_of_a_large_field_is_still_one() -> None:
    """A 2,000-player, 10-round demo starts its lowest band 101 points down."""
    from addin.workbook.cells import parse
    from addin.workbook.layout import players_table

    column = players_table(3).column("initial_score")
    values = (1_000_000, -1_000_000, -101, "-1500.5")
    assert [parse(v, column) for v in values] == [1_000_000, -1_000_000, -101, -1500.5]


# --- money and settings -------------------------------------------------------------------


@pytest.mark.parametrize(("typed", "shown"), [("$1,000", "$1000"), ("US$ 25.50", "$25.50")])
def test_an_aga_fee_is_read_as_money(book: Path, tmp_path: Path, typed: str, shown: str) -> None:
    type_into(book, "Players", "AGA fee", 2, typed, "value")
    text = tmp_path / "report.txt"
    done = run("export-aga", book, "--text", text, "--force", "--yes")
    assert done.returncode == 0, clean(done)
    fees = [line for line in text.read_text().splitlines() if "AGA Fee: $" in line]
    assert [f.strip() for f in fees] == [f"AGA Fee: {shown}"]


@pytest.mark.parametrize("typed", ["$1,5", "1,00", "$1,0000", "-5", "$ten"])
def test_an_aga_fee_that_is_not_money_is_refused_naming_the_cell(book: Path, typed: str) -> None:
    cell = type_into(book, "Players", "AGA fee", 2, typed, "value")
    before = digest(book)
    refused = run("export-aga", book, "--text", book.with_suffix(".txt"), "--force", "--yes")
    assert refused.returncode == 1
    assert f"{cell} (AGA fee): {typed!r} is not an amount in dollars" in clean(refused)
    assert digest(book) == before


@pytest.mark.parametrize("rounds", [0, 99, -1])
def test_number_of_rounds_outside_1_to_30_is_refused_0_included(book: Path, rounds: int) -> None:
    def change(wb: Workbook) -> None:
        ws = wb["Tournament"]
        for row in ws.iter_rows(max_col=1):
            if row[0].value == "Number of rounds":
                ws.cell(row=row[0].row, column=2).value = rounds

    edit(book, change)
    before = digest(book)
    for command in ("pair", "standings"):
        refused = run(command, book, "--yes")
        assert refused.returncode == 1
        assert f"(Number of rounds): {rounds} is not a number from 1 to 30" in clean(refused)
    assert digest(book) == before


# --- the last paired round ----------------------------------------------------------------


def last_round_players(book: Path, board: int | None = None) -> list[str]:
    """'Name (AGA #)' of the players of the last round (of one board), as the sheet shows."""
    named = []
    for game in rows(book, f"Round {ROUNDS}"):
        if board is None or game["Board"] == board:
            named += [f"{game['White']} ({game['White AGA #']})"]
            named += [f"{game['Black']} ({game['Black AGA #']})"]
    return named


def rename(wb: Workbook) -> None:
    wb[f"Round {ROUNDS}"].title = "Round three"


def empty(wb: Workbook) -> None:
    for row in wb[f"Round {ROUNDS}"].iter_rows(min_row=2):
        for cell in row:
            cell.value = None


def delete_board_2(wb: Workbook) -> None:
    wb[f"Round {ROUNDS}"].delete_rows(3)


LAST_ROUND_CASES = {
    "renamed": (rename, "the sheet is missing (deleted or renamed), but the Log records round 3"),
    "emptied": (empty, "round 3 has no games and no byes, but the Log records it as paired"),
    "board-deleted": (delete_board_2, "round 3 has lost games or byes since it was paired"),
}


@pytest.mark.parametrize("case", sorted(LAST_ROUND_CASES))
def test_the_last_round_is_held_to_the_log_and_the_journal(book: Path, case: str) -> None:
    change, message = LAST_ROUND_CASES[case]
    lost = last_round_players(book, board=2 if case == "board-deleted" else None)
    edit(book, change)
    before = digest(book)

    listed = run("check", book)
    output = clean(listed)
    assert listed.returncode == 1
    line = next(x for x in output.splitlines() if message in x)
    assert line.startswith("problem: Round 3")
    assert all(p in line for p in lost[:6]), (lost, line)
    if case == "renamed":
        assert "is 'Round three' that sheet? rename it back" in line
    report = ["report", book, "pairings", "--out", book.with_suffix(".html")]
    for command in (["standings", book], ["pair", book], report, ["export-aga", book, "--xml",
                    book.with_suffix(".xml"), "--force"]):  # fmt: skip
        refused = run(*command, "--yes")
        assert refused.returncode == 1, clean(refused)
        assert message in clean(refused)
    assert digest(book) == before


def test_an_earlier_round_short_of_a_board_names_its_players(book: Path) -> None:
    game = rows(book, "Round 2")[0]
    edit(book, lambda wb: wb["Round 2"].delete_rows(2))
    listed = run("check", book)
    line = next(x for x in clean(listed).splitlines() if "Round 2" in x)
    assert "round 2 has lost games or byes since it was paired" in line
    assert f"{game['White']} ({game['White AGA #']})" in line
    assert f"{game['Black']} ({game['Black AGA #']})" in line


@pytest.mark.parametrize("case", ["renamed", "emptied"])
def test_unpair_throws_away_a_last_round_whose_games_are_gone(book: Path, case: str) -> None:
    edit(book, LAST_ROUND_CASES[case][0])
    done = run("unpair", book, "--round", ROUNDS, "--yes")
    assert done.returncode == 0, clean(done)
    assert "Removed the pairing of round 3 (its games were gone already)" in done.stdout
    assert run("check", book).returncode == 0
    if case == "renamed":  # its Excel Table went with the renamed sheet: named, not a crash
        before = digest(book)
        refused = run("pair", book, "--yes")
        assert refused.returncode == 1
        assert "the sheet 'Round three' holds the table Round3Games" in clean(refused)
        assert digest(book) == before
        edit(book, lambda wb: wb.remove(wb["Round three"]))
    paired = run("pair", book, "--yes")
    assert paired.returncode == 0, clean(paired)
    assert run("check", book).returncode == 0


def test_names_swapped_between_boards_lose_nobody(book: Path) -> None:
    def swap(wb: Workbook) -> None:
        ws = wb[f"Round {ROUNDS}"]
        for header in ("White", "White AGA #"):
            c = column(ws, header)
            ws.cell(2, c).value, ws.cell(3, c).value = ws.cell(3, c).value, ws.cell(2, c).value

    edit(book, swap)
    assert "lost games" not in clean(run("check", book))


# --- backups and the journal --------------------------------------------------------------


def folder_state(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): digest(p) for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_journal_that_cannot_be_written_leaves_every_backup_as_it_was(book: Path) -> None:
    for result in ("jigo", "No result", "jigo"):  # three backups to lose
        assert run("result", book, "--board", 2, "--result", result, "--yes").returncode == 0
    assert all(book.with_name(f"t.bak{n}.xlsx").is_file() for n in (1, 2, 3))
    journal = book.with_name("t.history") / "journal.jsonl"
    os.chmod(journal, stat.S_IRUSR)
    try:
        before = folder_state(book.parent)
        refused = run("result", book, "--board", 2, "--result", "No result", "--yes")
        assert refused.returncode == 1
        assert clean(refused).strip() == (
            "error: journal.jsonl is read-only; make it writable (file properties) or save "
            "under another name"
        )
        assert folder_state(book.parent) == before, "workbook, backups, journal, snapshots"
    finally:
        os.chmod(journal, stat.S_IRUSR | stat.S_IWUSR)
    assert run("result", book, "--board", 2, "--result", "No result", "--yes").returncode == 0


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ('{"format": 1, "entries": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
        ('{"format": 1, "entries": ' + "9" * 5000 + "}", "not the journal's JSON"),
        ('{"format": 1, "entries": 5}', "its entries are not a list"),
        ('{"format": 1, "entries": {"1": 2}}', "its entries are not a list"),
    ],
    ids=["nested", "long-number", "number", "object"],
)
def test_a_damaged_journal_is_named_whatever_the_damage(
    book: Path, damage: str, message: str
) -> None:
    journal = book.with_name("t.history") / "journal.json"
    journal.write_text(damage)
    before = folder_state(book.parent)
    for command in (["result", book, "--board", 2, "--result", "jigo", "--yes"], ["undo", book]):
        refused = run(*command)
        output = clean(refused)
        assert refused.returncode == 1
        assert len(output.strip().splitlines()) == 1
        assert f"t.history/journal.json: damaged, {message}" in output
    assert folder_state(book.parent) == before


# --- a newer TDListA ----------------------------------------------------------------------


def test_a_newer_tdlista_keeps_what_the_desk_typed(tmp_path: Path) -> None:
    lines = (DATA / "tdlista" / "tdlista-snapshot.txt").read_bytes().split(b"\r\n")[:300]
    old_list, new_list = tmp_path / "old.txt", tmp_path / "new.txt"
    old_list.write_bytes(b"\r\n".join(lines))
    first, second = (line.split(b"\t") for line in lines[:2])
    second_new = [*second[:3], b"-20.5", b"1/1/2030", *second[5:]]  # the list moves these
    first_new = [*first[:5], b"NEWC", *first[6:]]  # and this chapter, typed over at the desk
    new_list.write_bytes(b"\r\n".join([b"\t".join(first_new), b"\t".join(second_new), *lines[2:]]))

    book = tmp_path / "t.xlsx"
    assert run("new", book, "--name", "T", "--start", "2026-12-01", "--rounds", 3).returncode == 0
    assert run("import-tdlista", book, old_list).returncode == 0
    for line in (first, second):
        assert run("register", book, "--aga", int(line[1]), "--yes").returncode == 0

    def desk(wb: Workbook) -> None:
        ws = wb["Players"]
        for r in (2, 3):
            ws.cell(r, column(ws, "Chapter")).value = "MYCLUB"
            ws.cell(r, column(ws, "State")).value = "OR"

    edit(book, desk)
    done = run("import-tdlista", book, new_list, "--yes")
    assert done.returncode == 0, clean(done)
    players = {p["AGA #"]: p for p in rows(book, "Players")}
    moved, typed = players[int(second[1])], players[int(first[1])]
    assert (moved["Chapter"], moved["State"]) == ("MYCLUB", "OR"), "the list did not change them"
    assert (typed["Chapter"], typed["State"]) == ("MYCLUB", "OR"), "the desk's value stays"
    assert (moved["AGA rating"], moved["Expires"]) == (-20.5, datetime(2030, 1, 1))
    assert "Chapter MYCLUB kept, typed at the desk (the new list says NEWC)" in done.stdout
    assert "Chapter MYCLUB -> " not in done.stdout and "State OR -> " not in done.stdout
