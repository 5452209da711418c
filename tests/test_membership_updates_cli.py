"""A member's chapter, state or membership type changed at the desk reaches the AGA.

Six members of the real TDListA snapshot are registered; the TD then types into the
Players sheet, as at the desk: a new chapter for one, a new state for another, a new
membership type for a third, clears the fourth's chapter, types the fifth's chapter again
in other case and spacing, and leaves the sixth alone. The text report lists the first
three under MEMBERSHIP UPDATES with the new values, and the XML report gives their Player
the new Club, State or MembershipType; a blank cell is no change, and a member whose data
is the list's is not listed. ``check-aga`` says the same, reading only.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from lxml import etree

from addin.formats.aga_xml import validate_aga_xml
from addin.formats.tdlista import Member, parse_tdlista
from tests.helpers import TDLISTA_SNAPSHOT, digest, run
from tests.test_round_sheets_whole import setting_cell

LINES = TDLISTA_SNAPSHOT.read_text(encoding="utf-8").splitlines(keepends=True)[:400]
MEMBERS = [
    m
    for m in parse_tdlista("".join(LINES).encode()).members
    if m.chapter and m.state and m.rating is not None
]
CLUB, STATE, TYPE, CLEARED, SAME, UNTOUCHED = MEMBERS[:6]
UNCHANGED = (CLEARED, SAME, UNTOUCHED)
NEW_CLUB = "ZZNEW" if CLUB.chapter != "ZZNEW" else "ZZOLD"
NEW_STATE = "WA" if STATE.state != "WA" else "OR"
NEW_TYPE = "Life" if TYPE.membership_type != "Life" else "Youth"


def membership_section(report: str, title: str = "MEMBERSHIP UPDATES") -> dict[int, dict[str, str]]:
    """AGA number -> the record's ``Key: value`` lines, for the records under ``title``."""
    after = report.split(f"\n{title}\n", 1)[1].split("\nNEW REGISTRATIONS\n")[0]
    records: dict[int, dict[str, str]] = {}
    for block in after.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "AGA Number" in fields:
            records[int(fields["AGA Number"])] = fields
    return records


@pytest.fixture(scope="module")
def typed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("desk")
    listing = folder / "tdlista.txt"
    listing.write_text("".join(LINES), encoding="utf-8")
    path = folder / "open.xlsx"
    assert run("new", path, "--name", "Desk Open", "--start", "2026-11-28").returncode == 0
    assert run("import-tdlista", path, listing).returncode == 0
    for m in MEMBERS[:6]:
        assert run("register", path, "--aga", m.aga_id, "--yes").returncode == 0
    wb = openpyxl.load_workbook(path)
    ws = wb["Players"]
    header = [c.value for c in ws[1]]
    column = {name: header.index(name) + 1 for name in ("AGA #", "Chapter", "State", "Membership")}
    typing = {
        CLUB.aga_id: ("Chapter", NEW_CLUB),
        STATE.aga_id: ("State", f"  {NEW_STATE.lower()} "),
        TYPE.aga_id: ("Membership", NEW_TYPE),
        CLEARED.aga_id: ("Chapter", None),
        SAME.aga_id: ("Chapter", f" {SAME.chapter.lower()}  "),
    }
    for row in range(2, ws.max_row + 1):
        aga = ws.cell(row, column["AGA #"]).value
        if aga in typing:
            name, value = typing[aga]
            ws.cell(row, column[name]).value = value
    setting_cell(wb, "Overtime conditions").value = "5 periods of 30 seconds"  # for the XML
    wb.save(path)
    return path


def test_the_text_report_lists_each_member_the_desk_changed_with_the_new_values(
    typed: Path, tmp_path: Path
) -> None:
    report = tmp_path / "aga.txt"
    done = run("export-aga", typed, "--text", report, "--force", "--yes")
    assert done.returncode == 0, done.stderr
    records = membership_section(report.read_text(encoding="utf-8"))
    assert set(records) == {CLUB.aga_id, STATE.aga_id, TYPE.aga_id}
    assert records[CLUB.aga_id]["Club"] == NEW_CLUB
    assert records[STATE.aga_id]["State"] == NEW_STATE.lower()
    assert records[TYPE.aga_id]["Membership Type"] == NEW_TYPE
    assert "State" not in records[CLUB.aga_id]  # only a changed state gets its own line
    for m, what in ((CLUB, "Club"), (STATE, "State"), (TYPE, "Membership Type")):
        assert f"membership update for {m.name} ({m.aga_id}): {what}" in done.stdout


def test_check_aga_names_the_updates_and_changes_nothing(typed: Path) -> None:
    before = digest(typed)
    checked = run("check-aga", typed)
    assert (
        f"note: membership update for {CLUB.name} ({CLUB.aga_id}): Club {CLUB.chapter} -> "
        f"{NEW_CLUB}" in checked.stdout + checked.stderr
    )
    said = checked.stdout + checked.stderr
    for m, what in ((STATE, "State"), (TYPE, "Membership Type")):
        assert f"note: membership update for {m.name} ({m.aga_id}): {what} " in said
    for m in UNCHANGED:
        assert f"membership update for {m.name}" not in said
    assert digest(typed) == before


def read_back(typed: Path, folder: Path, kind: str) -> Path:
    """Export ``typed`` as the ``kind`` report ("text" or "xml") and import it into a new
    workbook, as a TD continuing the tournament elsewhere would."""
    report = folder / f"aga.{'txt' if kind == 'text' else 'xml'}"
    assert run("export-aga", typed, f"--{kind}", report, "--force", "--yes").returncode == 0
    again = folder / "again.xlsx"
    assert run("new", again, "--name", "Read back").returncode == 0
    imported = run(f"import-aga-{kind}", again, report, "--yes")
    assert imported.returncode == 0, imported.stderr
    return again


def test_the_text_report_reads_back_with_the_new_values(typed: Path, tmp_path: Path) -> None:
    again = read_back(typed, tmp_path, "text")
    wb = openpyxl.load_workbook(again)
    ws = wb["Players"]
    header = [c.value for c in ws[1]]
    rows = {r[header.index("AGA #")]: r for r in ws.iter_rows(min_row=2, values_only=True) if r[0]}
    assert rows[CLUB.aga_id][header.index("Chapter")] == NEW_CLUB
    assert rows[STATE.aga_id][header.index("State")] == NEW_STATE.lower()
    assert rows[TYPE.aga_id][header.index("Membership")] == NEW_TYPE


def test_a_chapter_no_membership_record_can_hold_stops_the_export(
    typed: Path, tmp_path: Path
) -> None:
    """40,000 characters pasted into Chapter: named by cell, and nothing is exported."""
    book = tmp_path / "pasted.xlsx"
    book.write_bytes(typed.read_bytes())
    wb = openpyxl.load_workbook(book)
    ws = wb["Players"]
    column = [c.value for c in ws[1]].index("Chapter") + 1
    ws.cell(2, column).value = "Z" * 40_000
    wb.save(book)
    before = digest(book)
    report = tmp_path / "aga.txt"
    refused = run("export-aga", book, "--text", report, "--force", "--yes")
    assert refused.returncode == 1
    cell = f"Players!{ws.cell(2, column).coordinate} (Chapter)"
    assert cell in refused.stderr and "holds at most 40" in refused.stderr
    assert not report.exists() and digest(book) == before
    assert max(map(len, refused.stderr.splitlines())) < 400  # named, never echoed


def xml_players(report: Path) -> dict[int, etree._Element]:
    root = etree.fromstring(report.read_bytes())
    return {int(p.get("ID")): p for p in root.iterfind("PlayerList/Player")}


def players_by_id(book: Path) -> dict[int, dict[str, object]]:
    ws = openpyxl.load_workbook(book)["Players"]
    header = [c.value for c in ws[1]]
    rows = ws.iter_rows(min_row=2, values_only=True)
    return {r[header.index("AGA #")]: dict(zip(header, r, strict=False)) for r in rows if r[0]}


MEMBERSHIP_ATTRIBUTES = ("Club", "State", "MembershipType")


def test_the_xml_report_gives_each_changed_member_the_new_values_and_validates(
    typed: Path, tmp_path: Path
) -> None:
    """Both formats in one export: the same members, the same new values."""
    text, xml = tmp_path / "aga.txt", tmp_path / "aga.xml"
    done = run("export-aga", typed, "--text", text, "--xml", xml, "--force", "--yes")
    assert done.returncode == 0, done.stderr
    assert validate_aga_xml(xml.read_bytes()) == []
    players = xml_players(xml)
    assert players[CLUB.aga_id].get("Club") == NEW_CLUB
    assert players[STATE.aga_id].get("State") == NEW_STATE.lower()
    assert players[TYPE.aga_id].get("MembershipType") == NEW_TYPE
    for m in UNCHANGED:
        listed = {a: players[m.aga_id].get(a) for a in MEMBERSHIP_ATTRIBUTES}
        assert listed == dict.fromkeys(MEMBERSHIP_ATTRIBUTES), (m.aga_id, listed)
    records = membership_section(text.read_text(encoding="utf-8"))
    assert set(records) == {CLUB.aga_id, STATE.aga_id, TYPE.aga_id}
    updates = [line for line in done.stdout.splitlines() if "membership update for" in line]
    assert len(updates) == 3 and not any(f"({m.aga_id})" in u for u in updates for m in UNCHANGED)
    notes = [r["Notes"] for r in players_by_id(typed).values()]
    assert not any("update" in str(n or "").lower() for n in notes), "no marker in Notes"


def test_the_xml_report_reads_back_with_the_new_values(typed: Path, tmp_path: Path) -> None:
    again = read_back(typed, tmp_path, "xml")
    rows = players_by_id(again)
    assert rows[CLUB.aga_id]["Chapter"] == NEW_CLUB
    assert rows[STATE.aga_id]["State"] == NEW_STATE.lower()
    assert rows[TYPE.aga_id]["Membership"] == NEW_TYPE


def typed_into(typed: Path, folder: Path, header: str, value: str) -> tuple[Path, str]:
    """A copy of ``typed`` with ``value`` in CLUB's ``header`` cell; the cell's name."""
    book = folder / "pasted.xlsx"
    book.write_bytes(typed.read_bytes())
    wb = openpyxl.load_workbook(book)
    ws = wb["Players"]
    headers = [c.value for c in ws[1]]
    row = next(r for r in ws.iter_rows(min_row=2) if r[headers.index("AGA #")].value == CLUB.aga_id)
    cell = row[headers.index(header)]
    cell.value = value
    wb.save(book)
    return book, f"Players!{cell.coordinate} ({header})"


@pytest.mark.parametrize("header", ["Chapter", "State", "Membership"])
@pytest.mark.parametrize(
    ("value", "expected"),
    [("Z" * 40_000, "holds at most 40"), ("NY\x7fGC", "control character")],
    ids=["40000-chars", "del"],
)
def test_a_value_no_membership_record_can_hold_is_one_line_naming_the_cell(
    typed: Path, tmp_path: Path, header: str, value: str, expected: str
) -> None:
    book, where = typed_into(typed, tmp_path, header, value)
    before = digest(book)
    text, xml = tmp_path / "aga.txt", tmp_path / "aga.xml"
    for args in (("check-aga", book), ("export-aga", book, "--text", text, "--xml", xml)):
        for flags in ((), ("--yes", "--force")):
            result = run(*args, *flags)
            assert result.returncode == 1, (args, flags, result.stderr)
            assert "Traceback" not in result.stderr
            named = [line for line in result.stderr.splitlines() if where in line]
            assert len(named) == 1 and expected in named[0], result.stderr
            assert max(map(len, (result.stdout + result.stderr).splitlines())) < 400
            assert digest(book) == before
    assert not text.exists() and not xml.exists()


@pytest.mark.parametrize(
    ("header", "attribute", "key"),
    [
        ("Chapter", "Club", "Club"),
        ("State", "State", "State"),
        ("Membership", "MembershipType", "Membership Type"),
    ],
)
def test_formula_looking_text_is_written_as_text_in_both_reports(
    typed: Path, tmp_path: Path, header: str, attribute: str, key: str
) -> None:
    """``=HYPERLINK("x")`` typed as a formula: the reports carry its text, and reading a
    report back stores it as text, never as a formula."""
    formula = '=HYPERLINK("x")'
    book, _ = typed_into(typed, tmp_path, header, formula)
    text, xml = tmp_path / "aga.txt", tmp_path / "aga.xml"
    done = run("export-aga", book, "--text", text, "--xml", xml, "--force", "--yes")
    assert done.returncode == 0, done.stderr
    assert membership_section(text.read_text(encoding="utf-8"))[CLUB.aga_id][key] == formula
    assert validate_aga_xml(xml.read_bytes()) == []
    assert xml_players(xml)[CLUB.aga_id].get(attribute) == formula
    for report, command in ((xml, "import-aga-xml"), (text, "import-aga-text")):
        again = tmp_path / f"{command}.xlsx"
        assert run("new", again).returncode == 0
        assert run(command, again, report, "--yes").returncode == 0
        ws = openpyxl.load_workbook(again)["Players"]
        headers = [c.value for c in ws[1]]
        cell = next(
            r[headers.index(header)]
            for r in ws.iter_rows(min_row=2)
            if r[headers.index("AGA #")].value == CLUB.aga_id
        )
        assert (cell.value, cell.data_type) == (formula, "s"), command


# --- the pre-registration form's emails: not news unless the desk changed them -------------

FORM_ONLY, FORM_CHANGED, FORM_FEE, DESK_TYPED = MEMBERS[6:10]
"""Four more members: three came through the online form with an email (one the desk left
alone, one whose email the desk changed, one who paid a fee at the desk); the fourth was
registered at the desk, which typed the email."""


def email_of(m: Member) -> str:
    return f"{m.aga_id}@form.example.org"


@pytest.fixture(scope="module")
def pre_registered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("form")
    listing = folder / "tdlista.txt"
    listing.write_text("".join(LINES), encoding="utf-8")
    path = folder / "open.xlsx"
    assert run("new", path, "--name", "Form Open", "--start", "2026-11-28").returncode == 0
    assert run("import-tdlista", path, listing).returncode == 0
    csv = folder / "form.csv"
    rows = [f'"{m.name}",{m.aga_id},{email_of(m)}' for m in (FORM_ONLY, FORM_CHANGED, FORM_FEE)]
    csv.write_text("Name,AGA #,Email\n" + "\n".join(rows) + "\n", encoding="utf-8")
    done = run("preregister", path, csv, "--yes")
    assert done.returncode == 0, done.stderr
    assert run("register", path, "--aga", DESK_TYPED.aga_id, "--yes").returncode == 0
    wb = openpyxl.load_workbook(path)
    ws = wb["Players"]
    header = [c.value for c in ws[1]]
    typing = {
        FORM_CHANGED.aga_id: ("Email", "moved@desk.example.org"),
        FORM_FEE.aga_id: ("AGA fee", 30),
        DESK_TYPED.aga_id: ("Email", "typed@desk.example.org"),
    }
    for row in range(2, ws.max_row + 1):
        aga = ws.cell(row, header.index("AGA #") + 1).value
        if aga in typing:
            name, value = typing[aga]
            ws.cell(row, header.index(name) + 1).value = value
    wb.save(path)
    return path


def test_an_email_from_the_pre_registration_form_alone_is_not_a_membership_update(
    pre_registered: Path, tmp_path: Path
) -> None:
    report = tmp_path / "aga.txt"
    done = run("export-aga", pre_registered, "--text", report, "--force", "--yes")
    assert done.returncode == 0, done.stderr
    records = membership_section(report.read_text(encoding="utf-8"))
    assert set(records) == {FORM_CHANGED.aga_id, FORM_FEE.aga_id, DESK_TYPED.aga_id}
    assert records[FORM_CHANGED.aga_id]["Home Email"] == "moved@desk.example.org"
    assert records[FORM_FEE.aga_id]["Home Email"] == email_of(FORM_FEE), "the record is whole"
    assert records[FORM_FEE.aga_id]["AGA Fee"] == "$30"
    assert records[DESK_TYPED.aga_id]["Home Email"] == "typed@desk.example.org"
    said = done.stdout
    changed = f"membership update for {FORM_CHANGED.name} ({FORM_CHANGED.aga_id})"
    assert f"{changed}: an email changed at the desk" in said
    assert f"({FORM_FEE.aga_id}): a fee of $30 taken" in said
    assert f"({DESK_TYPED.aga_id}): an email typed at the desk" in said
    assert f"({FORM_ONLY.aga_id})" not in said
    assert (
        "Membership records: 0 new registrations (temporary numbers), 3 membership updates "
        "(1 with a fee taken, 2 with contact details from the desk); 1 email from the "
        "pre-registration form not sent as membership updates (not news for the membership "
        "office; the XML report still gives each player's email)"
    ) in said


def test_check_aga_says_how_many_membership_records_go_and_why(pre_registered: Path) -> None:
    before = digest(pre_registered)
    checked = run("check-aga", pre_registered)
    said = checked.stdout + checked.stderr
    assert "note: Membership records: 0 new registrations (temporary numbers), 3 " in said
    assert "1 email from the pre-registration form not sent" in said
    assert digest(pre_registered) == before
