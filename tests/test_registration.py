"""Registration, as the AGA interface document's "Registration" and "Player data" ask.

* default entry rating: the current AGA rating, else the midpoint of the rank (4d -> 4.5);
* active warnings: lapsed membership, a name with duplicates (each shown), a requested
  rating other than the published one; and an AGA number not in the list;
* temporary AGA numbers 90000-99999, unique within the tournament;
* a pre-registration mechanism (a CSV from an online form).

Members come from the real TDListA snapshot; rows are quoted from it beside each test.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from addin.core.lookup import MemberIndex
from addin.core.model import Player
from addin.core.ratings import RatingError
from addin.core.registration import (
    BAD_RANK,
    DUPLICATE_NAME,
    LAPSED,
    NAME_MATCHES_MEMBER,
    NAME_MISMATCH,
    NO_COMMA,
    NO_EXPIRY,
    RATING_MISMATCH,
    TEMPORARY_IDS,
    UNKNOWN_AGA_NUMBER,
    PreRegistration,
    PreRegistrationError,
    RegistrationError,
    RegistrationWarning,
    check_registration,
    entry_rating,
    member_to_player,
    new_member_name,
    next_temporary_id,
    one_cell_name,
    parse_preregistration_csv,
    register_preregistration,
)
from addin.formats.tdlista import Member, parse_tdlista
from tests.helpers import DATA

TDLISTA = DATA / "tdlista"
START = date(2020, 3, 1)


@pytest.fixture(scope="module")
def members() -> list[Member]:
    return parse_tdlista((TDLISTA / "tdlista-snapshot.txt").read_bytes()).members


@pytest.fixture(scope="module")
def index(members: list[Member]) -> MemberIndex:
    return MemberIndex(members)


def codes(warnings: list[RegistrationWarning]) -> list[str]:
    return [w.code for w in warnings]


# Small, Haskell	1062	Life	-1.05678	12/31/2199	GWGC	DC	0.23382	12/14/2019
SMALL = 1062
# Aal, Zachary	15648	Full	-20.05711	7/2/2008	LIGC	NY	1.09198	8/1/2007
AAL = 15648
# Cristal, Rexford	20388	Full		1/31/2022		NJ		 (unrated)
CRISTAL = 20388
# Cho, Ki Sun	19542	Non	-3.45686				0.95373	1/8/2012 (no expiry date)
CHO = 19542
# Ohmart, Paul 6068 (Life, 2.82057, SFGC CA) and Ohmart, Paul 20266 (Life, 1.50277, OLYM WA)
OHMART = (6068, 20266)


# --- entry rating ---------------------------------------------------------------------


def test_entry_rating_is_the_published_rating_unless_another_rank_was_accepted(
    index: MemberIndex,
) -> None:
    small = index.by_id(SMALL)
    assert entry_rating(small, None) == -1.05678
    assert entry_rating(small, "1k") == -1.05678  # the published rank: the precise rating
    assert entry_rating(small, "5d") == 5.5  # the rank the TD accepted (issue 16)


def test_entry_rating_without_a_rating_is_the_rank_midpoint(index: MemberIndex) -> None:
    """The document's example: a 4 dan enters at 4.5."""
    assert entry_rating(index.by_id(CRISTAL), "4d") == 4.5
    assert entry_rating(None, "3k") == -3.5
    assert entry_rating(None, "-3.45") == -3.45


def test_entry_rating_needs_a_rating_or_a_rank(index: MemberIndex) -> None:
    with pytest.raises(RegistrationError, match="no entry rating: AGA 20388 Cristal, Rexford"):
        entry_rating(index.by_id(CRISTAL), "  ")
    with pytest.raises(RegistrationError):
        entry_rating(None, None)
    with pytest.raises(RatingError):
        entry_rating(None, "strong")


# --- temporary numbers ----------------------------------------------------------------


def test_temporary_numbers_start_at_90000() -> None:
    assert next_temporary_id(set()) == 90000
    assert next_temporary_id({1062, 15648}) == 90000  # list numbers do not matter


def test_the_lowest_free_temporary_number_is_reused() -> None:
    used = {90000, 90001, 90003}
    assert next_temporary_id(used) == 90002
    assert next_temporary_id(used) == 90002  # stable: the same workbook, the same number


def test_temporary_numbers_run_out_after_99999() -> None:
    assert next_temporary_id(set(range(90000, 99999))) == 99999
    with pytest.raises(RegistrationError, match="90000-99999"):
        next_temporary_id(set(TEMPORARY_IDS))


# --- member to player -----------------------------------------------------------------


def test_member_to_player(index: MemberIndex) -> None:
    assert member_to_player(index.by_id(SMALL)) == Player(
        aga_id=1062,
        family_name="Small",
        given_name="Haskell",
        rank="1k",
        rating=-1.05678,
        aga_rating=-1.05678,
        membership_type="Life",
        membership_expiry=date(2199, 12, 31),
        chapter="GWGC",
        state="DC",
    )


def test_member_to_player_enters_at_the_accepted_request_keeping_the_published_rating(
    index: MemberIndex,
) -> None:
    player = member_to_player(index.by_id(SMALL), "2k")
    assert (player.rank, player.rating, player.aga_rating) == ("2k", -2.5, -1.05678)


def test_unrated_member_enters_at_the_requested_rank_or_not_at_all(index: MemberIndex) -> None:
    cristal = index.by_id(CRISTAL)
    assert member_to_player(cristal, "4d").rating == 4.5
    assert member_to_player(cristal).rating is None
    assert member_to_player(cristal).rank == ""


def test_member_with_an_empty_family_name_keeps_the_list_spelling() -> None:
    # , Eric Yang	23699	Youth	-32.13307	1/21/2019			1.15072	1/6/2018
    (eric, *_) = [
        m
        for m in parse_tdlista((TDLISTA / "tdlista-edge-cases.txt").read_bytes()).members
        if m.aga_id == 23699
    ]
    player = member_to_player(eric)
    assert (player.family_name, player.given_name) == ("", "Eric Yang")
    assert player.name == ", Eric Yang"


# --- warnings: membership -------------------------------------------------------------


def test_lapsed_membership(index: MemberIndex) -> None:
    (warning,) = check_registration(index, START, aga_id=AAL)
    assert warning.code == LAPSED
    assert "lapsed on 2008-07-02" in warning.message
    assert "15648 Aal, Zachary" in warning.message


def test_membership_expiring_on_the_first_day_is_not_lapsed(index: MemberIndex) -> None:
    expiry = index.by_id(AAL).expiry
    assert check_registration(index, expiry, aga_id=AAL) == []
    assert codes(check_registration(index, expiry + timedelta(days=1), aga_id=AAL)) == [LAPSED]


def test_life_member_never_lapses(index: MemberIndex) -> None:
    assert check_registration(index, date(2199, 12, 31), aga_id=SMALL) == []


def test_no_expiry_date_is_a_warning(index: MemberIndex) -> None:
    (warning,) = check_registration(index, START, aga_id=CHO)
    assert warning.code == NO_EXPIRY
    assert "19542 Cho, Ki Sun" in warning.message


# --- warnings: names ------------------------------------------------------------------


def test_a_name_with_duplicates_lists_every_match(index: MemberIndex) -> None:
    (warning,) = check_registration(index, START, name="Ohmart, Paul")
    assert warning.code == DUPLICATE_NAME
    for aga_id, place in zip(OHMART, ["SFGC CA", "OLYM WA"], strict=True):
        assert f"AGA {aga_id} Ohmart, Paul" in warning.message
        assert place in warning.message


def test_a_number_among_the_duplicates_settles_it(index: MemberIndex) -> None:
    assert check_registration(index, START, aga_id=OHMART[1], name="Ohmart, Paul") == []


def test_a_new_player_named_like_one_member(index: MemberIndex) -> None:
    warnings = check_registration(index, START, aga_id=90000, name="small, haskell")
    assert codes(warnings) == [NAME_MATCHES_MEMBER]
    assert "AGA 1062 Small, Haskell" in warnings[0].message


def test_a_name_that_is_not_the_numbers_member(index: MemberIndex) -> None:
    warnings = check_registration(index, START, aga_id=SMALL, name="Smal, Haskell")
    assert codes(warnings) == [NAME_MISMATCH]
    assert "Small, Haskell" in warnings[0].message


def test_the_same_name_in_another_spelling_is_not_a_mismatch(index: MemberIndex) -> None:
    # The snapshot has "Yang, Eric " for 23699; the edge-case file ", Eric Yang".
    edge = MemberIndex(parse_tdlista((TDLISTA / "tdlista-edge-cases.txt").read_bytes()).members)
    assert NAME_MISMATCH not in codes(
        check_registration(edge, START, aga_id=23699, name="Yang, Eric")
    )
    assert check_registration(index, START, aga_id=SMALL, name="SMALL, Hask") == []


def test_an_aga_number_not_in_the_list(index: MemberIndex, members: list[Member]) -> None:
    unused = max(m.aga_id for m in members) + 1
    (warning,) = check_registration(index, START, aga_id=unused, name="Newman, Ada")
    assert warning.code == UNKNOWN_AGA_NUMBER
    assert str(unused) in warning.message


def test_a_temporary_number_is_expected_not_to_be_in_the_list(index: MemberIndex) -> None:
    assert check_registration(index, START, aga_id=90123, name="Newman, Ada", requested="5k") == []


# --- warnings: requested rating -------------------------------------------------------
# Different means: a rank whose rank differs from the published rating's rank, or a
# rating that does not agree with the published one to the decimals written.


@pytest.mark.parametrize(
    ("requested", "differs"),
    [
        ("1k", False),  # -1.05678 is 1k
        ("1 kyu", False),
        ("2k", True),
        ("1d", True),
        ("-1.05678", False),
        ("-1.06", False),  # agrees to two decimals
        ("-1.1", False),  # agrees to one decimal
        ("-1.05", True),  # -1.05678 is -1.06 to two decimals
        ("-1.5", True),
        ("-2", True),
    ],
)
def test_requested_rating_against_the_published_one(
    index: MemberIndex, requested: str, differs: bool
) -> None:
    warnings = check_registration(index, START, aga_id=SMALL, requested=requested)
    assert codes(warnings) == ([RATING_MISMATCH] if differs else [])
    if differs:
        assert f"asks to play at {requested}" in warnings[0].message
        assert "-1.05678 (1k)" in warnings[0].message


def test_an_unrated_member_may_ask_for_any_rank(index: MemberIndex) -> None:
    assert check_registration(index, START, aga_id=CRISTAL, requested="4d") == []


def test_an_unreadable_request_is_a_warning(index: MemberIndex) -> None:
    assert codes(check_registration(index, START, aga_id=SMALL, requested="strong")) == [BAD_RANK]


def test_every_warning_at_once(index: MemberIndex) -> None:
    warnings = check_registration(index, START, aga_id=AAL, name="Aal, Zak", requested="5d")
    assert codes(warnings) == [LAPSED, RATING_MISMATCH]


# --- pre-registration CSV ---------------------------------------------------------------

FORM = (
    "Name,AGA #,Rank,Club,Email,Bye requests\r\n"
    '"Small, Haskell",1062,1k,GWGC,hs@example.org,"2;4"\r\n'
    '"Newman, Ada",,15k,Seattle Go Center,ada@example.org,\r\n'
    '"Ohmart, Paul",20266,1d,,,"3,5"\r\n'
)


def test_preregistration_rows() -> None:
    rows = parse_preregistration_csv(FORM.encode(), "form.csv")
    assert rows == [
        PreRegistration(
            2, "Small, Haskell", "Small", "Haskell", 1062, "1k", "GWGC", "hs@example.org",
            frozenset({2, 4}),
        ),
        PreRegistration(
            3, "Newman, Ada", "Newman", "Ada", None, "15k", "Seattle Go Center",
            "ada@example.org",
        ),
        PreRegistration(
            4, "Ohmart, Paul", "Ohmart", "Paul", 20266, "1d", "", "", frozenset({3, 5})
        ),
    ]  # fmt: skip


def test_preregistration_headers_are_matched_loosely() -> None:
    """Any case, order and a few aliases; Excel's BOM and semicolons; unknown columns ignored."""
    text = (
        "E-MAIL;Timestamp;Player name;aga number;Rating;Chapter;Byes\r\n"
        "ada@example.org;2020-02-01;Newman, Ada;24001;-15.5;SEAG;2 4\r\n"
    )
    (row,) = parse_preregistration_csv(b"\xef\xbb\xbf" + text.encode(), "form.csv")
    assert row == PreRegistration(
        2, "Newman, Ada", "Newman", "Ada", 24001, "-15.5", "SEAG", "ada@example.org",
        frozenset({2, 4}),
    )  # fmt: skip


def test_preregistration_family_and_given_columns() -> None:
    data = b"Last name,First name,Rank\nG\xf3mez,David,3k\n"  # Windows-1252, as Excel saves
    (row,) = parse_preregistration_csv(data, "form.csv")
    assert (row.name, row.family_name, row.given_name) == ("Gómez, David", "Gómez", "David")


def test_preregistration_errors_name_file_line_and_column() -> None:
    data = (
        "Name,AGA #,Rank,Bye requests\n"
        '"Small, Haskell",1O62,1k,\n'
        '"Newman, Ada",,15 kyu,"2;x"\n'
        ",,3k,\n"
        '"Brain, Cocoa",,99k,\n'
    )
    with pytest.raises(PreRegistrationError) as caught:
        parse_preregistration_csv(data.encode(), "form.csv")
    assert caught.value.problems[:3] == [
        "form.csv, line 2, column B (AGA #): AGA number '1O62' is not a number",
        "form.csv, line 3, column D (Bye requests): bye requests '2;x': 'x' is not a round "
        "number (1 to 30); write e.g. 2;4",
        "form.csv, line 4, column A (Name): no name",
    ]
    assert caught.value.problems[3].startswith("form.csv, line 5, column C (Rank): '99k'")
    assert len(caught.value.problems) == 4


def test_preregistration_line_numbers_count_multiline_cells() -> None:
    data = 'Name,Club,AGA #\n"Small, Haskell","Go\nClub",1062\n"Newman, Ada",,x\n'
    with pytest.raises(PreRegistrationError, match=r"^form\.csv, line 4, column C"):
        parse_preregistration_csv(data.encode(), "form.csv")


def test_preregistration_twice_is_refused() -> None:
    data = 'Name,AGA #\n"Small, Haskell",1062\n\n"Small, H.",1062\n'
    with pytest.raises(PreRegistrationError, match=r"line 4, column B .*already on line 2"):
        parse_preregistration_csv(data.encode(), "form.csv")


def test_preregistration_needs_a_name_column() -> None:
    with pytest.raises(PreRegistrationError, match=r"^form\.csv, line 1: no name column"):
        parse_preregistration_csv(b"AGA #,Rank\n1062,1k\n", "form.csv")
    with pytest.raises(PreRegistrationError, match=r"line 1, column C \(Name\): repeats column A"):
        parse_preregistration_csv(b"Name,Rank,Name\n", "form.csv")
    with pytest.raises(PreRegistrationError, match=r"^form\.csv: the file is empty"):
        parse_preregistration_csv(b"\r\n", "form.csv")


def test_register_preregistered_players(index: MemberIndex) -> None:
    used: set[int] = set()
    players: list[Player] = []
    warnings: list[list[str]] = []
    for row in parse_preregistration_csv(FORM.encode(), "form.csv"):
        player, found = register_preregistration(row, index, START, used)
        used.add(player.aga_id)
        players.append(player)
        warnings.append(codes(found))
    small, ada, paul = players
    assert (small.rating, small.chapter, small.bye_requests) == (-1.05678, "GWGC", {2, 4})
    assert (ada.aga_id, ada.rating, ada.chapter) == (90000, -15.5, "Seattle Go Center")
    assert ada.email == "ada@example.org"
    assert (paul.rating, paul.chapter, paul.state) == (1.50277, "OLYM", "WA")
    assert warnings == [[], [], []]  # 20266 is one of the two Paul Ohmarts: no duplicate


# --- a name typed without a comma (issue 50, item 4) ----------------------------------------
# Kim, Janice	2140	Full	7.78114	12/31/2099		CA	0.83707	7/30/2011


def test_a_name_without_a_comma_that_the_list_holds_is_split_as_the_list_splits_it(
    index: MemberIndex,
) -> None:
    (kim,) = index.by_name("Kim, Janice")
    for typed in ("Janice Kim", "kim janice"):
        assert new_member_name(typed, index) == (kim.family_name, kim.given_name, [])
        (said,) = check_registration(index, START, name=typed)
        assert said.code == NAME_MATCHES_MEMBER and f"AGA {kim.aga_id} " in said.message


def test_a_new_name_without_a_comma_is_split_at_its_last_word_with_a_warning(
    index: MemberIndex,
) -> None:
    assert index.by_name("Zed Quillfeather") == []  # nobody of that name in the list
    family, given, (warning,) = new_member_name("Zed  Quillfeather", index)
    assert (family, given) == ("Quillfeather", "Zed")
    assert warning.code == NO_COMMA
    assert 'family name "Quillfeather", given name "Zed"' in warning.message
    assert '"Family, Given"' in warning.message
    (one_word,) = new_member_name("Quillfeather", index)[2]
    assert "no given name" in one_word.message


def test_a_name_with_a_comma_is_taken_as_written(index: MemberIndex) -> None:
    assert new_member_name("Quillfeather, Zed", index) == ("Quillfeather", "Zed", [])
    assert new_member_name("Kim, Janice", index) == ("Kim", "Janice", [])


def test_a_whole_name_in_the_family_name_cell_is_asked_about() -> None:
    (spaced,) = one_cell_name("Zed Quillfeather")
    assert spaced.code == NO_COMMA and '"Quillfeather" in Family name' in spaced.message
    (comma,) = one_cell_name("Quillfeather, Zed")
    assert '"Zed" in Given name' in comma.message
    assert one_cell_name("Quillfeather") == []


def test_a_preregistration_name_without_a_comma(index: MemberIndex) -> None:
    """The Name column as many forms export it ("Given Family"): a member of that name is
    named to the TD and split as the list has it; a new player is split with a warning."""
    form = 'Name,Rank\nJanice Kim,7d\nZed Quillfeather,3k\n"Quillfeather, Ann",5k\n'
    rows = parse_preregistration_csv(form.encode(), "form.csv")
    assert [r.without_comma for r in rows] == [True, True, False]
    used: set[int] = set()
    found = []
    for row in rows:
        player, said = register_preregistration(row, index, START, used)
        used.add(player.aga_id)
        found.append(((player.family_name, player.given_name), codes(said)))
    assert found == [
        (("Kim", "Janice"), [NAME_MATCHES_MEMBER]),
        (("Quillfeather", "Zed"), [NO_COMMA]),
        (("Quillfeather", "Ann"), []),
    ]
