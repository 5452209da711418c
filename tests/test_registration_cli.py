"""Registration through the command line on a real workbook holding the real TDListA.

Every warning the interface document requires is active: the command exits 3 and
writes nothing without --yes, proceeds with --yes, and leaves a Log line.
"""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest

from addin.core.lookup import SHOWN, fold
from addin.formats.tdlista import parse_tdlista
from tests.helpers import TDLISTA_SNAPSHOT, digest, log_messages, run, sheet_rows

SNAPSHOT = parse_tdlista(TDLISTA_SNAPSHOT.read_bytes())
BY_ID = {m.aga_id: m for m in SNAPSHOT.members}


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("base") / "base.xlsx"
    assert run("new", path, "--name", "Reg Open", "--start", "2026-11-28").returncode == 0
    result = run("import-tdlista", path, TDLISTA_SNAPSHOT)
    assert result.returncode == 0, result.stderr
    assert "Imported 22410 members" in result.stdout
    return path


@pytest.fixture
def book(imported: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(imported, tmp_path / "t.xlsx"))


def a_member(**wanted: object) -> int:
    """The first member of the snapshot with the given properties (derived, not hard-coded)."""
    for m in SNAPSHOT.members:
        if all(
            test(getattr(m, k)) if callable(test) else getattr(m, k) == test
            for k, test in wanted.items()
        ):
            return m.aga_id
    raise LookupError(wanted)


def players(path: Path) -> dict[int, dict[str, object]]:
    return {int(r["AGA #"]): r for r in sheet_rows(path, "Players")}


def assert_warning_is_active(book: Path, args: list[object], expected: str) -> None:
    before = digest(book)
    refused = run(*args)
    assert refused.returncode == 3, refused.stdout + refused.stderr
    assert expected in refused.stderr
    assert digest(book) == before, "nothing is written without confirmation"

    accepted = run(*args, "--yes")
    assert accepted.returncode == 0, accepted.stderr
    log = log_messages(book)
    assert any(level == "Warning" and expected in message for level, _, message in log)
    assert any(level == "Confirmed" for level, _, _ in log)


def test_the_import_fills_the_tdlista_sheet_with_every_member(imported: Path) -> None:
    rows = sheet_rows(imported, "TDListA")
    assert len(rows) == 22410
    first = SNAPSHOT.members[0]
    assert rows[0]["Name"] == first.name and rows[0]["AGA #"] == first.aga_id
    assert rows[0]["Rating"] == first.rating and rows[0]["Chapter"] == first.chapter
    log = log_messages(imported)
    assert log[-1][1] == "import-tdlista" and "22410 members" in log[-1][2]


def test_lookup_is_case_and_accent_insensitive_and_finds_numbers(imported: Path) -> None:
    member = BY_ID[a_member(family_name=lambda f: len(f) > 4)]
    result = run("lookup", imported, member.family_name[:4].upper())
    assert result.returncode == 0
    assert f"AGA {member.aga_id} {member.name}" in result.stdout
    by_number = run("lookup", imported, member.aga_id)
    assert by_number.stdout.splitlines()[0].startswith(f"AGA {member.aga_id} {member.name}")


def test_registering_a_member_copies_the_list_with_the_aga_rating(book: Path) -> None:
    aga = a_member(membership_type="Life", rating=lambda r: r is not None)
    member = BY_ID[aga]
    result = run("register", book, "--aga", aga)
    assert result.returncode == 0, result.stderr
    row = players(book)[aga]
    assert row["Family name"] == member.family_name
    assert row["Entry rating"] == member.rating
    assert row["Chapter"] == (member.chapter or None)
    assert log_messages(book)[-1][1] == "register"


def test_lapsed_membership_is_an_active_warning(book: Path) -> None:
    aga = a_member(expiry=lambda e: e is not None and e.year < 2020, rating=lambda r: r)
    assert_warning_is_active(book, ["register", book, "--aga", aga], "lapsed")


def test_a_name_matching_several_members_shows_them_all(book: Path) -> None:
    names: dict[str, list[int]] = {}
    for m in SNAPSHOT.members:
        names.setdefault(m.name.casefold(), []).append(m.aga_id)
    name, ids = next((n, i) for n, i in names.items() if len(i) > 1)
    refused = run("register", book, "--name", name.title(), "--rank", "5k")
    assert refused.returncode == 3
    for aga in ids:
        assert f"AGA {aga} " in refused.stderr
    assert_warning_is_active(
        book, ["register", book, "--name", name.title(), "--rank", "5k"], "matches"
    )


def test_a_requested_rank_other_than_the_published_rating_is_an_active_warning(book: Path) -> None:
    aga = a_member(
        rating=lambda r: r is not None and r < -5, expiry=lambda e: e is not None and e.year > 2100
    )
    assert_warning_is_active(book, ["register", book, "--aga", aga, "--rank", "2d"], "2d")


def test_an_aga_number_not_in_the_list_is_an_active_warning(book: Path) -> None:
    unknown = max(BY_ID) + 1
    args = ["register", book, "--aga", unknown, "--name", "Stranger, Sam", "--rank", "3k"]
    assert_warning_is_active(book, args, str(unknown))
    assert players(book)[unknown]["Entry rating"] == -3.5


def test_fifteen_new_members_get_distinct_temporary_numbers_stable_across_reruns(
    tmp_path: Path,
) -> None:
    numbers = []
    for name in ("first.xlsx", "second.xlsx"):
        path = tmp_path / name
        assert run("new", path).returncode == 0
        for i in range(15):
            result = run("register", path, "--name", f"Newcomer{i}, Pat", "--rank", "20k")
            assert result.returncode == 0, result.stderr
        numbers.append(sorted(players(path)))
    assert numbers[0] == numbers[1]
    assert len(set(numbers[0])) == 15
    assert all(90000 <= n <= 99999 for n in numbers[0])


def test_typed_players_get_derived_values_without_overwriting_the_td(book: Path) -> None:
    import openpyxl

    aga = a_member(rating=lambda r: r is not None, chapter=lambda c: bool(c))
    wb = openpyxl.load_workbook(book)
    ws = wb["Players"]
    header = [c.value for c in ws[1]]
    ws.cell(row=2, column=header.index("AGA #") + 1, value=aga)
    ws.cell(row=2, column=header.index("Family name") + 1, value="Typed")
    ws.cell(row=2, column=header.index("Chapter") + 1, value="MINE")
    ws.cell(row=3, column=header.index("AGA #") + 1, value=91234)
    ws.cell(row=3, column=header.index("Family name") + 1, value="Walkin")
    ws.cell(row=3, column=header.index("Rank or rating") + 1, value="4d")
    wb.save(book)

    asked = run("register", book, "--name", "Other, Olga", "--rank", "1k")
    assert asked.returncode == 3, "a typed row gets register's warnings"
    assert f"Typed was entered with AGA number {aga}" in asked.stderr
    assert run("register", book, "--name", "Other, Olga", "--rank", "1k", "--yes").returncode == 0

    rows = players(book)
    assert rows[aga]["Chapter"] == "MINE", "what the TD typed is kept"
    assert rows[aga]["Family name"] == "Typed"
    assert rows[aga]["Entry rating"] == BY_ID[aga].rating
    assert rows[aga]["Membership"] == BY_ID[aga].membership_type
    assert rows[91234]["Entry rating"] == 4.5


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty"),
        (b"\x00\x01\x02binary\x00", "line"),
        (b"a\tb\tc\nd\te\tf\n", "9 tab-separated fields"),
        (
            b"Aal, Zachary\t15648\tFull\t-20.1\t7/2/2008\tLIGC\tNY\t1.0\t8/1/2007\n"
            b"Bad, Number\t12x45\tFull\t-3.5\t7/2/2008\tLIGC\tNY\t1.0\t8/1/2007\n",
            "line 2",
        ),
    ],
    ids=["empty", "binary", "three-columns", "non-numeric-aga"],
)
def test_bad_tdlista_files_are_refused_with_the_line_and_the_workbook_unchanged(
    book: Path, tmp_path: Path, content: bytes, message: str
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content)
    before = digest(book)
    result = run("import-tdlista", book, bad)
    assert result.returncode == 1
    assert message in result.stderr
    assert "bad.txt" in result.stderr
    assert digest(book) == before


def test_preregistration_csv_registers_everyone_with_the_same_warnings(
    book: Path, tmp_path: Path
) -> None:
    aga = a_member(rating=lambda r: r is not None, expiry=lambda e: e is not None and e.year > 2100)
    member = BY_ID[aga]
    csv = tmp_path / "prereg.csv"
    csv.write_text(
        "Name,AGA #,Rank,Club,Email,Bye requests\n"
        f'"{member.name}",{aga},,,{aga}@example.org,2\n'
        '"Fresh, Face",,15k,Local Club,fresh@example.org,\n',
        encoding="utf-8",
    )
    result = run("preregister", book, csv, "--yes")
    assert result.returncode == 0, result.stderr
    rows = players(book)
    assert rows[aga]["Entry rating"] == member.rating
    assert rows[aga]["R2"] == "Bye"
    fresh = next(r for r in rows.values() if r["Family name"] == "Fresh")
    assert 90000 <= int(fresh["AGA #"]) <= 99999 and fresh["Entry rating"] == -15.5


# --- names in either order, lapsed members marked (issue 50, items 4 and 12) ----------------

START = date(2026, 11, 28)  # the event's first day (the fixture's --start)


def members_named(family: str, given: str) -> list[int]:
    return [
        m.aga_id
        for m in SNAPSHOT.members
        if fold(m.family_name) == fold(family) and fold(m.given_name) == fold(given)
    ]


@pytest.mark.parametrize(
    ("query", "family", "given"),
    [
        ("Jiayang Su", "Su", "Jiayang"),
        ("Janice Kim", "Kim", "Janice"),
        ("kim janice", "Kim", "Janice"),
    ],
)
def test_lookup_finds_a_name_typed_given_name_first_or_without_a_comma(
    imported: Path, query: str, family: str, given: str
) -> None:
    (aga,) = members_named(family, given)
    found = run("lookup", imported, query)
    assert found.returncode == 0
    assert f"AGA {aga} {BY_ID[aga].name}, " in found.stdout


def test_lookup_ignores_apostrophes(imported: Path) -> None:
    obriens = [m for m in SNAPSHOT.members if fold(m.family_name) == "obrien"]
    assert obriens and all("'" in m.family_name for m in obriens)
    found = run("lookup", imported, "OBrien").stdout
    assert all(f"AGA {m.aga_id} {m.name}, " in found for m in obriens)


def test_lookup_lists_current_members_first_marks_the_lapsed_and_shows_twenty(
    imported: Path,
) -> None:
    kims = [m for m in SNAPSHOT.members if fold(m.family_name).startswith("kim")]
    lapsed = [m for m in kims if m.expiry is not None and m.expiry < START]
    current = len(kims) - len(lapsed)
    assert len(kims) > 40 and lapsed and current

    lines = run("lookup", imported, "kim").stdout.splitlines()
    listed, more, total = lines[:SHOWN], lines[SHOWN], lines[-1]
    assert len(lines) == SHOWN + 2
    assert total.startswith(f"{len(kims)} match(es) for 'kim' ({len(lapsed)} lapsed before ")
    assert more.startswith(f"and {len(kims) - SHOWN} more")
    assert "narrow the search" in more and "--all" in more
    marked = ["LAPSED" in line for line in listed]
    assert marked == sorted(marked), "current members first"
    assert marked.count(False) == min(current, SHOWN)
    for line in listed:
        aga = int(line.split()[1])
        expiry = BY_ID[aga].expiry
        if expiry is not None:  # one date format: the workbook's (YYYY-MM-DD)
            assert expiry.isoformat() in line and f"{expiry.month}/{expiry.day}/" not in line

    every = run("lookup", imported, "kim", "--all").stdout.splitlines()
    assert len(every) == len(kims) + 1
    assert sum("LAPSED" in line for line in every) == len(lapsed)
    assert len(run("lookup", imported, "kim", "--limit", "5").stdout.splitlines()) == 5 + 2


def test_register_a_name_without_a_comma_that_the_list_holds_is_refused_naming_the_member(
    book: Path,
) -> None:
    (aga,) = members_named("Kim", "Janice")
    before = digest(book)
    refused = run("register", book, "--name", "Janice Kim", "--rank", "7d", "--yes")
    assert refused.returncode == 1
    assert f"AGA {aga} {BY_ID[aga].name}" in refused.stderr and str(aga) in refused.stderr
    assert '"Family, Given"' in refused.stderr
    assert digest(book) == before


@pytest.mark.parametrize("name", ["Janice Kim", "Kim, Janice"])
def test_register_by_the_name_of_a_member_with_no_rank_names_the_member(
    book: Path, name: str
) -> None:
    """The member is what is missing, not a rank: the refusal says who they are."""
    (aga,) = members_named("Kim", "Janice")
    before = digest(book)
    refused = run("register", book, "--name", name)
    assert refused.returncode == 1
    assert f"AGA {aga} {BY_ID[aga].name}" in refused.stderr
    assert "needs --rank" not in refused.stderr and "give their --rank" in refused.stderr
    assert digest(book) == before


def test_register_a_new_name_without_a_comma_warns_how_it_is_split(book: Path) -> None:
    assert not members_named("Quillfeather", "Zed")
    args: list[object] = ["register", book, "--name", "Zed Quillfeather", "--rank", "3k"]
    assert_warning_is_active(book, args, 'family name "Quillfeather", given name "Zed"')
    (row,) = [r for r in players(book).values() if r["Family name"] == "Quillfeather"]
    assert row["Given name"] == "Zed" and 90000 <= int(row["AGA #"]) <= 99999


def test_a_whole_name_typed_in_family_name(book: Path) -> None:
    """A row typed into Players with "Janice Kim" in Family name: the member of that name is
    taken (the TD is told) and the name written as the list has it; a name the list does not
    hold is asked about, never taken as a family name of two names silently."""
    import openpyxl

    (aga,) = members_named("Kim", "Janice")
    wb = openpyxl.load_workbook(book)
    ws = wb["Players"]
    header = [c.value for c in ws[1]]
    ws.cell(row=2, column=header.index("Family name") + 1, value="Janice Kim")
    ws.cell(row=3, column=header.index("Family name") + 1, value="Zed Quillfeather")
    ws.cell(row=3, column=header.index("Rank or rating") + 1, value="3k")
    wb.save(book)

    asked = run("check", book)
    assert f"AGA # {aga}" in asked.stdout + asked.stderr
    assert '"Zed Quillfeather" is all in Family name' in asked.stdout + asked.stderr
    done = run("register", book, "--name", "Other, Olga", "--rank", "1k", "--yes")
    assert done.returncode == 0, done.stderr
    rows = players(book)
    assert (rows[aga]["Family name"], rows[aga]["Given name"]) == ("Kim", "Janice")
    (zed,) = [r for r in rows.values() if r["Family name"] == "Zed Quillfeather"]
    assert 90000 <= int(zed["AGA #"]) <= 99999
