"""Rows typed into Players are completed, checked and warned about as `register` does.

Each test types rows with openpyxl into a real workbook holding real TDListA lines, then
runs the real command line, as a TD does between registrations.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import openpyxl
import pytest

from addin.core.ratings import parse_rating
from tests.helpers import digest, log_messages, run
from tests.typing_helpers import (
    current,
    first_member,
    lapsed,
    new_book,
    players,
    set_setting,
    shared_name,
    type_rows,
    unique_name,
)

CURRENT = first_member(current)
LAPSED = first_member(lapsed)
UNIQUE = unique_name()
SHARED = shared_name()
OTHER = first_member(lambda m: current(m) and m.aga_id not in {CURRENT.aga_id, UNIQUE.aga_id})


@pytest.fixture
def book(tmp_path: Path) -> Path:
    return new_book(tmp_path, [CURRENT, LAPSED, UNIQUE, OTHER, *SHARED])


def test_a_row_with_only_an_aga_number_is_completed_from_the_tdlista(book: Path) -> None:
    type_rows(book, [{"AGA #": CURRENT.aga_id, "Chapter": "MINE"}])
    checked = run("check", book)
    assert checked.returncode == 0, checked.stdout
    assert "filled in Family name" in checked.stdout

    assert run("register", book, "--aga", OTHER.aga_id).returncode == 0
    row = players(book)[CURRENT.aga_id]
    assert row["Family name"] == CURRENT.family_name
    assert row["Given name"] == CURRENT.given_name
    assert row["Entry rating"] == CURRENT.rating and row["AGA rating"] == CURRENT.rating
    assert row["Membership"] == CURRENT.membership_type and row["State"] == (CURRENT.state or None)
    assert row["Chapter"] == "MINE", "what the TD typed is kept"
    assert any("filled in Family name" in m for _, _, m in log_messages(book))


def test_a_name_matching_one_member_gets_the_number_after_a_warning(book: Path) -> None:
    type_rows(book, [{"Family name": UNIQUE.family_name, "Given name": UNIQUE.given_name}])
    before = digest(book)
    asked = run("bands", book)
    assert asked.returncode == 3
    assert f"was given AGA # {UNIQUE.aga_id}" in asked.stderr
    assert digest(book) == before
    assert run("bands", book, "--yes").returncode == 0
    assert players(book)[UNIQUE.aga_id]["Entry rating"] == UNIQUE.rating


def test_a_new_player_with_a_rank_gets_a_temporary_number(book: Path) -> None:
    type_rows(book, [{"Family name": "Walkin", "Given name": "Wes", "Rank or rating": "12k"}])
    assert run("register", book, "--aga", OTHER.aga_id).returncode == 0
    (walkin,) = [r for r in players(book).values() if r["Family name"] == "Walkin"]
    assert 90000 <= int(walkin["AGA #"]) <= 99999
    assert walkin["Entry rating"] == parse_rating("12k") and walkin["Rank or rating"] == "12k"


def test_every_problem_of_every_row_is_listed_at_once(book: Path) -> None:
    rows = type_rows(
        book,
        [
            {"Family name": SHARED[0].family_name, "Given name": SHARED[0].given_name},
            {"AGA #": 88888},
            {"Given name": "Nobody"},
        ],
    )
    before = digest(book)
    result = run("bands", book)
    assert result.returncode == 1
    assert f"Players!D{rows[0]}" in result.stderr
    for member in SHARED:
        assert f"AGA {member.aga_id} " in result.stderr, "the candidates are listed"
    assert f"Players!B{rows[1]}" in result.stderr and "88888 is not in the TDListA" in result.stderr
    assert f"Players!A{rows[2]}" in result.stderr
    assert digest(book) == before
    checked = run("check", book)
    assert checked.returncode == 1 and "4 problem(s)" in checked.stdout


def test_an_ambiguous_name_with_a_rank_is_a_warning_listing_the_candidates(book: Path) -> None:
    name = {"Family name": SHARED[0].family_name, "Given name": SHARED[0].given_name}
    type_rows(book, [{**name, "Rank or rating": "5k"}])
    asked = run("bands", book)
    assert asked.returncode == 3
    for member in SHARED:
        assert f"AGA {member.aga_id} " in asked.stderr


def test_a_typed_lapsed_member_at_another_rank_is_warned_once_and_enters_at_that_rank(
    book: Path,
) -> None:
    """The issue's case: a member typed at 3d, published another rank, membership lapsed."""
    type_rows(
        book,
        [{"AGA #": LAPSED.aga_id, "Family name": LAPSED.family_name, "Rank or rating": "3d"}],
    )
    checked = run("check", book)
    assert "lapsed" in checked.stdout and "asks to play at 3d" in checked.stdout
    before = digest(book)
    asked = run("bands", book)
    assert asked.returncode == 3 and "lapsed" in asked.stderr and "3d" in asked.stderr
    assert digest(book) == before
    assert run("bands", book, "--yes").returncode == 0
    row = players(book)[LAPSED.aga_id]
    assert row["Entry rating"] == parse_rating("3d")
    assert row["AGA rating"] == LAPSED.rating, "the published rating stays visible"
    again = run("bands", book)
    assert again.returncode == 0, "an accepted warning is not asked again: " + again.stderr
    assert "0 warning(s)" in run("check", book).stdout


def test_a_requested_rank_accepted_at_register_becomes_the_entry_rating(book: Path) -> None:
    rank = "3d" if CURRENT.rating is not None and CURRENT.rating < 3 else "5k"
    asked = run("register", book, "--aga", CURRENT.aga_id, "--rank", rank)
    assert asked.returncode == 3
    assert run("register", book, "--aga", CURRENT.aga_id, "--rank", rank, "--yes").returncode == 0
    row = players(book)[CURRENT.aga_id]
    assert row["Rank or rating"] == rank
    assert row["Entry rating"] == parse_rating(rank)
    assert row["AGA rating"] == CURRENT.rating


def test_the_same_name_and_rank_twice_is_a_warning_naming_both_rows(book: Path) -> None:
    walkin = {"Family name": "Twice", "Given name": "Tom", "Rank or rating": "8k"}
    first, second = type_rows(book, [walkin, walkin])
    checked = run("check", book)
    assert f"Players rows {first} and {second}" in checked.stdout
    asked = run("bands", book)
    assert asked.returncode == 3 and "is entered twice" in asked.stderr
    assert run("bands", book, "--yes").returncode == 0

    again = run("register", book, "--name", "Twice, Tom", "--rank", "8k")
    assert again.returncode == 3 and "is entered twice" in again.stderr


def test_the_same_aga_number_twice_names_both_rows(book: Path, tmp_path: Path) -> None:
    first, second = type_rows(book, [{"AGA #": CURRENT.aga_id}, {"AGA #": CURRENT.aga_id}])
    checked = run("check", book)
    assert checked.returncode == 1
    assert f"Players!A{second}" in checked.stdout and f"also in row {first}" in checked.stdout

    csv = tmp_path / "prereg.csv"
    csv.write_text(f'Name,AGA #,Rank\r\n"{OTHER.name}",{OTHER.aga_id},\r\n', encoding="utf-8")
    fresh = new_book(tmp_path / "b", [OTHER]) if (tmp_path / "b").mkdir() is None else None
    assert fresh is not None and run("register", fresh, "--aga", OTHER.aga_id).returncode == 0
    asked = run("preregister", fresh, csv)
    assert asked.returncode == 3 and "already registered in Players row 2" in asked.stderr
    refused = run("register", fresh, "--aga", OTHER.aga_id)
    assert refused.returncode == 1 and "Players row 2" in refused.stderr


def test_a_membership_expiring_during_the_tournament_is_warned_at_register_and_typing(
    tmp_path: Path,
) -> None:
    member = first_member(
        lambda m: m.rating is not None and m.expiry is not None and 1990 < m.expiry.year < 2100
    )
    book = new_book(tmp_path, [member])
    assert member.expiry is not None
    set_setting(book, "Start date", member.expiry - timedelta(days=1))
    set_setting(book, "End date", member.expiry + timedelta(days=1))
    asked = run("register", book, "--aga", member.aga_id)
    assert asked.returncode == 3 and "before the tournament ends" in asked.stderr

    type_rows(book, [{"AGA #": member.aga_id}])
    checked = run("check", book)
    assert "before the tournament ends" in checked.stdout


def test_a_rank_typed_over_a_registered_row_becomes_the_entry_rating_once_accepted(
    book: Path,
) -> None:
    assert run("register", book, "--aga", CURRENT.aga_id).returncode == 0
    assert CURRENT.rating is not None
    rank = "3d" if CURRENT.rating < 3 else "5k"
    wb = openpyxl.load_workbook(book)
    ws = wb["Players"]
    header = [c.value for c in ws[1]]
    ws.cell(row=2, column=header.index("Rank or rating") + 1, value=rank)
    wb.save(book)
    asked = run("bands", book)
    assert asked.returncode == 3 and f"asks to play at {rank}" in asked.stderr
    assert run("bands", book, "--yes").returncode == 0
    row = players(book)[CURRENT.aga_id]
    assert row["Entry rating"] == parse_rating(rank) and row["AGA rating"] == CURRENT.rating
