"""The AGA submission check and the membership data, through the real command line.

The demo tournament (20 players, 3 rounds, the sample TDListA imported) has what the rating
office rejects: newcomers with temporary numbers, a lapsed member, an event long past.
``complete`` does what a TD does before sending it, as a TD does it (openpyxl typing): the
membership forms came back with real numbers, the lapsed member renewed at the desk (a fee),
the dates are this weekend's and memberships are current. Each rejection cause is then typed
into that clean workbook; the expected names and cells are read from the workbook itself.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

import openpyxl
import pytest
from lxml import etree
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from addin.core.model import Player, Settings, Tournament
from addin.core.submission import PlayerRow, Severity, Submission, check_submission
from addin.formats.aga_xml import validate_aga_xml
from tests.helpers import digest, log_messages, run
from tests.test_round_sheets_whole import column, edit, setting_cell

TODAY = date.today()
TEMPORARY = range(90000, 100000)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    book = tmp_path_factory.mktemp("demo") / "demo.xlsx"
    result = run("demo", book, "--players", 20, "--rounds", 3)
    assert result.returncode == 0, result.stderr
    return book


@pytest.fixture(scope="module")
def clean(demo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    book = Path(shutil.copy(demo, tmp_path_factory.mktemp("clean") / "clean.xlsx"))
    edit(book, complete)
    return book


@pytest.fixture
def book(clean: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(clean, tmp_path / "t.xlsx"))


# --- reading and typing as a TD does ----------------------------------------------------------


def rows(ws: Worksheet) -> list[dict[str, openpyxl.cell.Cell]]:
    """Each data row's cells by header (the first table on the sheet)."""
    headers = [c.value for c in ws[1]]
    return [
        dict(zip(headers, r, strict=False))
        for r in ws.iter_rows(min_row=2)
        if any(c.value is not None for c in r)
    ]


def players(wb: Workbook) -> list[dict[str, openpyxl.cell.Cell]]:
    return [r for r in rows(wb["Players"]) if r["AGA #"].value is not None]


def name_of(row: dict[str, openpyxl.cell.Cell]) -> str:
    return f"{row['Family name'].value}, {row['Given name'].value}"


def cell_name(c: openpyxl.cell.Cell, header: str) -> str:
    return f"{c.parent.title}!{c.coordinate} ({header})"


def as_date(value: object) -> date | None:
    if value is None:
        return None
    return value.date() if hasattr(value, "date") else date.fromisoformat(str(value)[:10])


def complete(wb: Workbook) -> None:
    """What the TD does before sending the report (see the module docstring)."""
    listed = {int(r["AGA #"].value) for r in rows(wb["TDListA"]) if r["AGA #"].value}
    taken = listed | {int(r["AGA #"].value) for r in players(wb)}
    fresh = iter(n for n in range(20000, 90000) if n not in taken)
    renumbered = {}
    for row in players(wb):
        pid = int(row["AGA #"].value)
        if pid in TEMPORARY:
            renumbered[pid] = next(fresh)
            row["AGA #"].value = renumbered[pid]
        expiry = as_date(row["Expires"].value)
        if expiry is None or expiry < TODAY - timedelta(days=1):
            if expiry is not None and expiry < date(2018, 9, 1):
                row["AGA fee"].value = 30  # the lapsed member renewed at the desk
            row["Expires"].value = TODAY + timedelta(days=365)
    for ws in wb.worksheets:
        if ws.title.startswith("Round "):
            for header in ("White AGA #", "Black AGA #", "Bye AGA #"):
                letter = column(ws, header)
                for c in ws[letter][1:]:
                    if c.value in renumbered:
                        c.value = renumbered[c.value]
    setting_cell(wb, "Start date").value = TODAY - timedelta(days=1)
    setting_cell(wb, "End date").value = TODAY


def export(book: Path, out: Path, *flags: str) -> tuple[int, str, str, Path, Path]:
    text, xml = out / "aga.txt", out / "aga.xml"
    result = run("export-aga", book, "--text", text, "--xml", xml, *flags)
    return result.returncode, result.stdout, result.stderr, text, xml


# --- a clean workbook -------------------------------------------------------------------------


def test_the_completed_demo_exports_with_no_message(book: Path, tmp_path: Path) -> None:
    before = digest(book)
    checked = run("check-aga", book)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.strip().endswith("nothing to fix") and checked.stderr == ""
    assert digest(book) == before, "the check only reads"
    code, out, err, text, xml = export(book, tmp_path)
    assert code == 0 and err == "", err
    listed = players(openpyxl.load_workbook(book))
    said = out.strip().splitlines()
    assert said[0] == f"Exported {len(listed)} players and 30 games to {text} and {xml}"
    details = ("AGA fee", "Email", "Phone", "Mailing address", "Citizenship", "Birth date")
    # the form gave the new members their emails under their temporary numbers: news
    desk = [r for r in listed if any(r[k].value for k in details)]
    assert said[1].startswith(
        f"Membership records: 0 new registrations (temporary numbers), {len(desk)} "
        "membership updates"
    )
    assert len(said) == 2 + len(desk) and all(
        line.startswith("membership update for ") for line in said[2:]
    )
    assert validate_aga_xml(xml.read_bytes()) == []


def test_the_demo_itself_is_refused_naming_the_temporary_numbers(
    demo: Path, tmp_path: Path
) -> None:
    wb = openpyxl.load_workbook(demo)
    temporary = [r for r in players(wb) if int(r["AGA #"].value) in TEMPORARY]
    assert temporary
    before = digest(demo)
    code, _, err, text, xml = export(demo, tmp_path, "--yes")
    assert code == 1 and not text.exists() and not xml.exists()
    for row in temporary:
        line = next(x for x in err.splitlines() if f"AGA {row['AGA #'].value} " in x)
        assert cell_name(row["AGA #"], "AGA #") in line and name_of(row) in line
        assert "temporary number" in line
    assert digest(demo) == before

    # With --force the newcomers go under NEW REGISTRATIONS, each with the fee taken.
    book = Path(shutil.copy(demo, tmp_path / "forced.xlsx"))
    wb = openpyxl.load_workbook(book)
    for row in players(wb):
        if int(row["AGA #"].value) in TEMPORARY:
            row["AGA fee"].value = 30
    wb.save(book)
    code, _, err, text, _ = export(book, tmp_path, "--force", "--yes")
    assert code == 0, err
    new = text.read_text(encoding="utf-8").split("NEW REGISTRATIONS\n")[1].split("TD: ")[0]
    for row in temporary:
        assert f"AGA Fee: $30\nAGA Number: {row['AGA #'].value}\nName: {name_of(row)}\n" in new


# --- each cause -------------------------------------------------------------------------------

Cause = Callable[[Workbook], tuple[Severity, list[str]]]
"""Types one problem into the workbook; gives its severity and what the message must name."""


def temporary_number(wb: Workbook) -> tuple[Severity, list[str]]:
    row = players(wb)[4]
    old = int(row["AGA #"].value)
    row["AGA #"].value = 90007
    for ws in wb.worksheets:
        if ws.title.startswith("Round "):
            for header in ("White AGA #", "Black AGA #", "Bye AGA #"):
                for c in ws[column(ws, header)][1:]:
                    if c.value == old:
                        c.value = 90007
    return Severity.ERROR, [cell_name(row["AGA #"], "AGA #"), f"AGA 90007 {name_of(row)}"]


def lapsed_in_the_tdlista(wb: Workbook) -> tuple[Severity, list[str]]:
    """The Players row has no date; the TDListA sheet's date is before the first day."""
    row = next(r for r in players(wb) if r["AGA fee"].value is None)
    pid = int(row["AGA #"].value)
    listed = next(r for r in rows(wb["TDListA"]) if r["AGA #"].value == pid)
    listed["Expires"].value = (TODAY - timedelta(days=100)).isoformat()
    row["Expires"].value = None
    expired = as_date(listed["Expires"].value)
    return Severity.ERROR, [f"AGA {pid} {name_of(row)}", f"expired on {expired}"]


def expiring_before_the_last_round(wb: Workbook) -> tuple[Severity, list[str]]:
    row = next(r for r in players(wb) if r["AGA fee"].value is None)
    pid = int(row["AGA #"].value)
    for listed in rows(wb["TDListA"]):
        if listed["AGA #"].value == pid:
            listed["Expires"].value = (TODAY - timedelta(days=1)).isoformat()
    row["Expires"].value = TODAY - timedelta(days=1)
    return Severity.WARNING, [cell_name(row["Expires"], "Expires"), f"AGA {pid} {name_of(row)}"]


def same_member_twice(wb: Workbook) -> tuple[Severity, list[str]]:
    ws = wb["Players"]
    first = players(wb)[2]
    new = ws.max_row + 1
    for c in first.values():
        ws.cell(new, c.column).value = c.value
    return Severity.ERROR, [
        f"AGA {first['AGA #'].value} is on 2 rows",
        f"Players!{first['AGA #'].coordinate}",
        f"Players!{column(ws, 'AGA #')}{new}",
    ]


def a_namesake_row(wb: Workbook) -> tuple[Severity, list[str]]:
    ws = wb["Players"]
    first = players(wb)[3]
    new = ws.max_row + 1
    for c in first.values():
        ws.cell(new, c.column).value = c.value
    ws[f"{column(ws, 'AGA #')}{new}"] = 23456
    return Severity.WARNING, [f"{name_of(first)} is registered 2 times", "AGA 23456"]


def a_game_with_no_result(wb: Workbook) -> tuple[Severity, list[str]]:
    game = rows(wb["Round 2"])[1]
    game["Result"].value = None
    return Severity.WARNING, [
        cell_name(game["Result"], "Result"),
        f"round 2 board {game['Board'].value}",
        f"AGA {game['White AGA #'].value} {game['White'].value}",
        "no result",
    ]


def a_player_with_no_game(wb: Workbook) -> tuple[Severity, list[str]]:
    ws = wb["Players"]
    new = ws.max_row + 1
    for header, value in {"AGA #": 24680, "Family name": "Walkin", "Given name": "Robin"}.items():
        ws[f"{column(ws, header)}{new}"] = value
    ws[f"{column(ws, 'Expires')}{new}"] = TODAY + timedelta(days=30)
    ws[f"{column(ws, 'Rank or rating')}{new}"] = "5k"
    return Severity.WARNING, [f"Players!{column(ws, 'AGA #')}{new}", "AGA 24680 Walkin, Robin"]


def ended_long_ago(wb: Workbook) -> tuple[Severity, list[str]]:
    end = TODAY - timedelta(days=45)
    setting_cell(wb, "Start date").value = end - timedelta(days=1)
    setting_cell(wb, "End date").value = end
    return Severity.WARNING, [f"ended on {end.isoformat()}, 45 days ago"]


def blank_setting(label: str, severity: Severity) -> Cause:
    def cause(wb: Workbook) -> tuple[Severity, list[str]]:
        c = setting_cell(wb, label)
        c.value = None
        return severity, [cell_name(c, label), f"{label} is blank"]

    cause.__name__ = f"blank {label}"
    return cause


CAUSES: list[Cause] = [
    temporary_number,
    lapsed_in_the_tdlista,
    expiring_before_the_last_round,
    same_member_twice,
    a_namesake_row,
    a_game_with_no_result,
    a_player_with_no_game,
    ended_long_ago,
    blank_setting("Tournament name", Severity.ERROR),
    blank_setting("Start date", Severity.ERROR),
    blank_setting("Rules", Severity.ERROR),
    blank_setting("Director name", Severity.ERROR),
    blank_setting("Venue", Severity.WARNING),
    blank_setting("End date", Severity.WARNING),
    blank_setting("Director email", Severity.WARNING),
]


@pytest.mark.parametrize("cause", CAUSES, ids=lambda c: c.__name__)
def test_each_cause_gives_its_message_and_blocks_or_asks(
    book: Path, tmp_path: Path, cause: Cause
) -> None:
    wb = openpyxl.load_workbook(book)
    severity, named = cause(wb)
    wb.save(book)
    before = digest(book)

    checked = run("check-aga", book)
    listing = checked.stdout + checked.stderr
    line = next((x for x in listing.splitlines() if all(n in x for n in named)), None)
    assert line is not None, (named, listing)
    assert line.strip().startswith(f"{severity.value}:"), line
    assert checked.returncode == (1 if severity is Severity.ERROR else 0)
    assert digest(book) == before, "check-aga never saves"

    code, _, err, text, xml = export(book, tmp_path)
    assert any(all(n in x for n in named) for x in err.splitlines()), err
    assert not text.exists() and not xml.exists() and digest(book) == before
    if severity is Severity.ERROR:
        assert code == 1 and "--force" in err
        code, _, err, _, _ = export(book, tmp_path, "--force")
        if code == 3:  # the error passed, the warnings still ask
            assert not text.exists() and digest(book) == before
            code, _, err, _, _ = export(book, tmp_path, "--force", "--yes")
        assert code == 0, err
        logged = [m for level, _, m in log_messages(book) if level == "Error"]
        assert any(all(n in m for n in named) for m in logged), logged
    else:
        assert code == 3 and "--yes" in err
        code, _, err, _, _ = export(book, tmp_path, "--yes")
        assert code == 0, err
        logged = [m for level, _, m in log_messages(book) if level == "Warning"]
        assert any(all(n in m for n in named) for m in logged), logged
    assert text.exists() and xml.exists()


@pytest.mark.parametrize(
    ("typed", "wanted"),
    [
        ({"Overtime conditions": None}, "periods and their length"),
        ({"Overtime conditions": "until the cows come home"}, "periods and their length"),
        ({"Overtime format": "Canadian"}, "stones and a time"),
        ({"Overtime conditions": '=HYPERLINK("x") ' + "a" * 40_000}, "characters) do not give"),
    ],
    ids=["blank", "prose", "Canadian with periods", "40,000 characters"],
)
def test_overtime_the_xml_report_cannot_state_is_named_before_the_export(
    book: Path, tmp_path: Path, typed: dict[str, str | None], wanted: str
) -> None:
    """A new workbook's Byo-yomi with blank conditions: the text report does not carry the
    overtime, the XML report must. check-aga warns naming the conditions cell; an export
    with --xml stops before writing anything; the text report alone goes."""
    wb = openpyxl.load_workbook(book)
    for label, value in typed.items():
        setting_cell(wb, label).value = value
    named = cell_name(setting_cell(wb, "Overtime conditions"), "Overtime conditions")
    wb.save(book)
    before = digest(book)

    checked = run("check-aga", book)
    line = next(x for x in checked.stdout.splitlines() if named in x)
    assert line.startswith("warning:") and "no XML report" in line and wanted in line
    assert len(line) < 400, "a hostile value is named, never echoed"
    assert checked.returncode == 0 and digest(book) == before

    code, _, err, text, xml = export(book, tmp_path, "--yes")
    assert code == 1 and named in err and wanted in err
    assert not text.exists() and not xml.exists() and digest(book) == before

    alone = run("export-aga", book, "--text", text, "--yes")
    assert alone.returncode == 0, alone.stderr
    assert text.exists() and not xml.exists()


# --- membership data ------------------------------------------------------------------------


def test_contact_details_and_fee_reach_both_reports(book: Path, tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(book)
    existing = players(wb)[5]
    untouched = players(wb)[6]
    pid, other = int(existing["AGA #"].value), int(untouched["AGA #"].value)
    existing["Email"].value = "moved@example.org"
    existing["Phone"].value = "206-555-0142"
    existing["Mailing address"].value = "12 Pine St\nApt 4\nSeattle, WA 98101"
    existing["AGA fee"].value = "$22.50"
    untouched["Email"].value = None
    untouched["Phone"].value = None
    untouched["Mailing address"].value = None
    notes = existing["Notes"].value
    wb.save(book)

    code, _, err, text, xml = export(book, tmp_path)
    assert code == 0, err
    after_end = text.read_text(encoding="utf-8").split("\nEND\n")[1]
    updates = after_end.split("MEMBERSHIP UPDATES\n")[1]
    record = updates.split(f"AGA Number: {pid}\n")
    assert record[0].endswith("AGA Fee: $22.50\n")
    assert f"Name: {name_of(existing)}" in record[1]
    for line in (
        "Address 1: 12 Pine St",
        "Address 2: Apt 4",
        "City, State Zip: Seattle, WA 98101",
        "Home Email: moved@example.org",
        "Phone Number: 206-555-0142",
    ):
        assert line in record[1].split("\n\n")[0]
    assert f"AGA Number: {other}\n" not in after_end

    tree = etree.fromstring(xml.read_bytes())
    assert validate_aga_xml(xml.read_bytes()) == []
    (player,) = tree.iterfind(f"PlayerList/Player[@ID='{pid}']")
    assert player.get("Email") == "moved@example.org"
    assert player.get("Phone") == "206-555-0142"
    assert player.get("Address") == "12 Pine St\nApt 4\nSeattle, WA 98101"
    assert player.get("AGAFee") == "22.50"
    assert openpyxl.load_workbook(book)["Players"][existing["Notes"].coordinate].value == notes

    # The XML brings the fee and the details back into a new workbook.
    fresh = tmp_path / "fresh.xlsx"
    assert run("new", fresh).returncode == 0
    assert run("import-aga-xml", fresh, xml).returncode == 0
    back = next(r for r in players(openpyxl.load_workbook(fresh)) if r["AGA #"].value == pid)
    assert back["AGA fee"].value == 22.5 and back["Email"].value == "moved@example.org"


# --- hostile input in the new cells ---------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "value", "expected"),
    [
        ("AGA fee", -5, "-5 is not an amount in dollars"),
        ("AGA fee", 10**12, "is not an amount in dollars"),
        ("AGA fee", "thirty", "'thirty' is not an amount in dollars"),
        ("AGA fee", "30\x7f", "is not an amount in dollars"),
        ("AGA fee", 30.001, "is not an amount in dollars"),
        ("Mailing address", "x" * 40_000, "characters; a membership record holds at most 500"),
        ("Email", "ann\x7f@example.org", "control character"),
        ("Phone", "555\x9b31m", "control character"),
    ],
    ids=["negative", "huge", "text", "control-in-fee", "fraction-of-cent", "40000-chars",
         "del-in-email", "csi-in-phone"],
)  # fmt: skip
def test_hostile_values_in_the_membership_cells_are_one_line_naming_the_cell(
    book: Path, tmp_path: Path, header: str, value: object, expected: str
) -> None:
    wb = openpyxl.load_workbook(book)
    target = players(wb)[2][header]
    target.value = value
    wb.save(book)
    before = digest(book)
    where = cell_name(target, header)
    for args in (("check-aga", book), ("export-aga", book, "--text", tmp_path / "a.txt")):
        for flags in ((), ("--yes", "--force")):
            result = run(*args, *flags)
            assert result.returncode == 1, (args, flags, result.stderr)
            named = [x for x in result.stderr.splitlines() if where in x]
            assert len(named) == 1 and expected in named[0], result.stderr
            assert len(named[0]) < 400, "the value is named, never echoed whole"
            assert digest(book) == before
    assert not (tmp_path / "a.txt").exists()


def test_a_control_character_read_through_excel_is_invalid() -> None:
    """Excel and Calc read a typed CHAR(7) as itself (openpyxl files cannot hold one)."""
    p = Player(12345, "Doe", "Jane", email="jane\x07@example.org", membership_expiry=TODAY)
    problems = check_submission(
        Submission(Tournament(players={p.aga_id: p}), [PlayerRow(p)], today=TODAY)
    )
    assert problems[0].severity is Severity.INVALID and "'\\x07'" in problems[0].message


def test_a_fee_renews_a_lapsed_membership_and_the_later_date_counts() -> None:
    start = TODAY - timedelta(days=1)
    lapsed = Player(12345, "Doe", "Jane", membership_expiry=start - timedelta(days=400))
    renewed = replace(lapsed, aga_id=12346, given_name="John", aga_fee=30.0)
    relisted = replace(lapsed, aga_id=12347, given_name="Jo")
    t = Tournament(settings=Settings(name="T", start_date=start, end_date=TODAY))
    t.players = {p.aga_id: p for p in (lapsed, renewed, relisted)}
    problems = check_submission(
        Submission(
            t,
            [PlayerRow(p) for p in t.players.values()],
            listed_expiry={12347: TODAY + timedelta(days=10)},
            today=TODAY,
        )
    )
    about = {pid: [p for p in problems if f"AGA {pid} " in p.message] for pid in t.players}
    assert [p.severity for p in about[12345] if "expired" in p.message] == [Severity.ERROR]
    assert not [p for p in about[12346] if "expire" in p.message]
    assert not [p for p in about[12347] if "expire" in p.message]
