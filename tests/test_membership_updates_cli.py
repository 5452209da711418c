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

from addin.formats.tdlista import parse_tdlista
from tests.helpers import TDLISTA_SNAPSHOT, digest, run

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
    assert f"membership update for {CLEARED.name}" not in checked.stdout + checked.stderr
    assert digest(typed) == before


def test_the_text_report_reads_back_with_the_new_values(typed: Path, tmp_path: Path) -> None:
    report = tmp_path / "aga.txt"
    assert run("export-aga", typed, "--text", report, "--force", "--yes").returncode == 0
    again = tmp_path / "again.xlsx"
    assert run("new", again, "--name", "Read back").returncode == 0
    imported = run("import-aga-text", again, report, "--yes")
    assert imported.returncode == 0, imported.stderr
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
