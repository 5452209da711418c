"""Looking members up as the AGA interface document requires: by name (family name first, or
given name first as a player says it) or AGA number; lapsed members marked.

Expectations come from the real TDListA snapshot, and a brute-force scan of it is the
oracle for the index.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from addin.core.lookup import (
    MemberIndex,
    current_first,
    expiry_text,
    fold,
    is_lapsed,
    name_matches,
    query_words,
    search_members,
)
from addin.formats.tdlista import Member, parse_tdlista
from tests.helpers import DATA

TDLISTA = DATA / "tdlista"


@pytest.fixture(scope="module")
def members() -> list[Member]:
    return parse_tdlista((TDLISTA / "tdlista-snapshot.txt").read_bytes()).members


@pytest.fixture(scope="module")
def index(members: list[Member]) -> MemberIndex:
    return MemberIndex(members)


def brute_force(members: list[Member], family_prefix: str) -> set[int]:
    """The definition: folded family name starts with the folded query."""
    wanted = " ".join(fold(family_prefix).split())
    return {m.aga_id for m in members if " ".join(fold(m.family_name).split()).startswith(wanted)}


# --- fold -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Gómez", "gomez"),
        ("MARTAILLE, Jean-François", "martaille, jean-francois"),
        ("Kühner", "kuhner"),
        ("Straße", "strasse"),  # casefold, not lower
        ("（Crystal）", "(crystal)"),  # NFKD turns full-width into ASCII
        ("Sigríðarson", "sigriðarson"),  # ð has no decomposition: kept
        ("Daniël", "daniel"),
    ],
)
def test_fold_ignores_case_and_accents(text: str, folded: str) -> None:
    assert fold(text) == folded


# --- by AGA number --------------------------------------------------------------------


def test_digits_search_by_aga_number(index: MemberIndex) -> None:
    (found,) = index.search("1062")
    assert found.name == "Small, Haskell"  # line: Small, Haskell	1062	Life ...
    assert index.search(" #1062 ") == [found]


def test_unknown_number_finds_nothing(index: MemberIndex, members: list[Member]) -> None:
    unused = max(m.aga_id for m in members) + 1
    assert index.search(str(unused)) == []
    assert unused not in index
    assert index.by_id(unused) is None


def test_number_is_exact_not_a_prefix(index: MemberIndex) -> None:
    assert [m.aga_id for m in index.search("10")] == [10]


# --- by family name -------------------------------------------------------------------


def test_family_prefix_is_case_and_accent_insensitive(index: MemberIndex) -> None:
    found = index.search("gomez")
    assert "Gómez, David" in [m.name for m in found]
    assert found == index.search("GÓMEZ") == index.search("  Gomez ")


@pytest.mark.parametrize("query", ["Smi", "gomez", "o'", "van ", "Lee", "Kim", "z", "de la"])
def test_family_prefix_matches_the_brute_force_scan(
    index: MemberIndex, members: list[Member], query: str
) -> None:
    found = {m.aga_id for m in index.search(query)}
    assert found == brute_force(members, query)
    assert found  # each query names families that the snapshot has


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_prefix_of_a_real_family_name(
    index: MemberIndex, members: list[Member], data: st.DataObject
) -> None:
    member = data.draw(st.sampled_from(members).filter(lambda m: m.family_name))
    length = data.draw(st.integers(min_value=1, max_value=len(member.family_name)))
    query = member.family_name[:length]
    if "," in query or not query.strip() or query.strip().isdigit():
        return
    found = {m.aga_id for m in index.search(query)}
    assert member.aga_id in found
    if len(query_words(query)) < 2:
        assert found == brute_force(members, query)
    else:  # several words: the family prefix, and the words in either order
        assert found >= brute_force(members, query)
        assert found == {
            m.aga_id for m in members if name_matches(query, m.family_name, m.given_name)
        }


def test_results_read_like_a_list(index: MemberIndex) -> None:
    """Family name, then given name, then number: "Gomez" before "Gomez Flores"."""
    names = [m.name for m in index.search("gomez")]
    assert names.index("Gómez, David") < names.index("Gomez Flores, Mario Roberto")
    keys = [(fold(m.family_name), fold(m.given_name), m.aga_id) for m in index.search("smith")]
    assert keys == sorted(keys)


def test_empty_query_finds_nothing(index: MemberIndex) -> None:
    assert index.search("") == []
    assert index.search("   ") == []


# --- "Family, Given" ------------------------------------------------------------------


def test_family_comma_given_prefix(index: MemberIndex, members: list[Member]) -> None:
    found = index.search("Smith, J")
    expected = {
        m.aga_id
        for m in members
        if fold(m.family_name) == "smith" and fold(m.given_name).startswith("j")
    }
    assert {m.aga_id for m in found} == expected
    assert expected  # the snapshot has Smiths called J...


def test_family_comma_alone_means_exactly_that_family(index: MemberIndex) -> None:
    found = index.search("Smith,")
    assert found
    assert {fold(m.family_name) for m in found} == {"smith"}
    assert len(index.search("Smith")) > len(found)  # Smithers, Smithson, ...


def test_spacing_around_the_comma_does_not_matter(index: MemberIndex) -> None:
    # The snapshot writes "Hara  , Takashi" (two spaces before the comma).
    (found,) = index.search("hara,takashi")
    assert found.name == "Hara  , Takashi"
    assert index.search("Hara , Taka") == [found]


def test_full_width_parentheses_fold(index: MemberIndex) -> None:
    # Pang, Yihan （Crystal）	24161	Youth ...
    assert [m.aga_id for m in index.search("Pang, Yihan (crystal")] == [24161]


def test_by_name_finds_every_member_of_that_exact_name(index: MemberIndex) -> None:
    # Ohmart, Paul	6068	Life ... SFGC	CA   and   Ohmart, Paul	20266	Life ... OLYM	WA
    assert [m.aga_id for m in index.by_name("ohmart ,  PAUL")] == [6068, 20266]
    assert index.by_name("Ohmart, Pau") == []


# --- empty family names (edge-case file) ----------------------------------------------------


def test_empty_family_name_is_found_by_given_name_and_number() -> None:
    edge = parse_tdlista((TDLISTA / "tdlista-edge-cases.txt").read_bytes()).members
    index = MemberIndex(edge)
    assert [m.name for m in index.search("eric")] == [", Eric Yang"]
    assert [m.name for m in index.search("Joplin Go")] == [", Joplin Go Club"]
    assert [m.name for m in index.search("23699")] == [", Eric Yang"]
    assert [m.name for m in index.search(", Eric")] == [", Eric Yang"]


def test_search_members_accepts_a_plain_list(members: list[Member], index: MemberIndex) -> None:
    assert search_members(members[:500], "Ab") == MemberIndex(members[:500]).search("Ab")
    assert search_members(index, "Ohmart, Paul") == index.by_name("Ohmart, Paul")


def test_an_index_kept_and_read_back_answers_as_the_one_made(
    index: MemberIndex, members: list[Member]
) -> None:
    """The index is kept (pickled) as plain fields and made into members when asked for."""
    import pickle

    again = pickle.loads(pickle.dumps(index))
    assert len(again) == len(index)
    for query in ("smi", "Smith, J", "gomez", "o'", "#1310", str(members[100].aga_id), "zz"):
        assert again.search(query) == index.search(query)
    assert all(
        m.aga_id in again and again.by_id(m.aga_id) == index.by_id(m.aga_id) for m in members
    )
    assert pickle.loads(pickle.dumps(again)).search("smi") == index.search("smi")


# --- a name as a player says it: either order, no apostrophe (issue 50, item 4) -------------


def named(members: list[Member], family: str, given: str) -> set[int]:
    """The list's members of that family and given name (folded): what a query must find."""
    return {
        m.aga_id
        for m in members
        if fold(m.family_name).strip() == fold(family) and fold(m.given_name).strip() == fold(given)
    }


@pytest.mark.parametrize(
    ("query", "family", "given"),
    [
        ("Jiayang Su", "Su", "Jiayang"),
        ("Janice Kim", "Kim", "Janice"),
        ("kim janice", "Kim", "Janice"),
        ("KIM JANICE", "Kim", "Janice"),
        ("Janice Ki", "Kim", "Janice"),  # the part typed last may be cut short
        ("Kevin OBrien", "O'Brien", "Kevin"),
        ("obrien kevin", "O'Brien", "Kevin"),
    ],
)
def test_a_name_without_a_comma_is_found_in_either_order(
    index: MemberIndex, members: list[Member], query: str, family: str, given: str
) -> None:
    expected = named(members, family, given)
    assert expected, "the snapshot holds the member the issue names"
    assert expected <= {m.aga_id for m in index.search(query)}


def test_a_middle_name_in_the_list_does_not_hide_a_member_found_by_first_name(
    index: MemberIndex, members: list[Member]
) -> None:
    # O'Brien, Kenneth J.	5505 ...: "Kenneth OBrien" is how the player says it
    assert named(members, "O'Brien", "Kenneth J.") <= {
        m.aga_id for m in index.search("Kenneth OBrien")
    }


@pytest.mark.parametrize(
    ("typed", "written"),
    [("OBrien", "O'Brien"), ("o\u2019brien", "O'Brien"), ("DAGOSTINO", "D'Agostino")],
)
def test_apostrophes_do_not_matter(
    index: MemberIndex, members: list[Member], typed: str, written: str
) -> None:
    listed = {m.aga_id for m in members if m.family_name.casefold().startswith(written.casefold())}
    assert listed, "the snapshot writes these families with an apostrophe"
    assert index.search(typed) == index.search(written)
    assert listed <= {m.aga_id for m in index.search(typed)}


@pytest.mark.parametrize(
    "query",
    [
        "Janice Kim",
        "kim j",
        "Smith J",
        "John Smith",
        "de la",
        "Li Wei",
        "a b",
        "Eric Yang",
        "x y z",
    ],
)
def test_either_order_matches_the_definition_over_the_whole_list(
    index: MemberIndex, members: list[Member], query: str
) -> None:
    """The index finds exactly the members ``name_matches`` accepts, scanned one by one."""
    found = {m.aga_id for m in index.search(query)}
    assert found == {m.aga_id for m in members if name_matches(query, m.family_name, m.given_name)}


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_member_is_found_by_its_name_in_either_order(
    index: MemberIndex, members: list[Member], data: st.DataObject
) -> None:
    member = data.draw(
        st.sampled_from(members).filter(
            lambda m: m.family_name.strip() and m.given_name.strip() and "," not in m.given_name
        )
    )
    for query in (
        f"{member.given_name} {member.family_name}",
        f"{member.family_name} {member.given_name}",
    ):
        assert member in index.search(query), query
        assert member in index.by_name(query), query


def test_by_name_takes_a_name_without_a_comma_in_either_order_but_whole(
    index: MemberIndex,
) -> None:
    kim = index.by_name("Kim, Janice")
    assert kim and index.by_name("Janice Kim") == kim == index.by_name("kim  janice")
    assert index.by_name("Janice Ki") == []
    assert index.by_name("Janice") == []


def test_a_comma_keeps_the_order_fixed(index: MemberIndex) -> None:
    assert index.search("Janice, Kim") == []  # no family Janice: "Family, Given" as written


# --- lapsed members (issue 50, item 12) --------------------------------------------------


def test_lapsed_means_expired_before_the_first_day(members: list[Member]) -> None:
    member = next(m for m in members if m.expiry is not None)
    assert member.expiry is not None
    assert not is_lapsed(member, member.expiry), "a membership ending that day still counts"
    assert is_lapsed(member, member.expiry + timedelta(days=1))
    assert expiry_text(member, member.expiry) == f"expires {member.expiry.isoformat()}"
    later = member.expiry + timedelta(days=1)
    assert expiry_text(member, later) == f"LAPSED {member.expiry.isoformat()}"


def test_current_members_come_first_each_part_in_list_order(index: MemberIndex) -> None:
    day = date(2026, 11, 28)
    found = index.search("kim")
    ordered = current_first(found, day)
    lapsed = [is_lapsed(m, day) for m in ordered]
    assert lapsed == sorted(lapsed) and any(lapsed) and not all(lapsed)
    assert [m for m in ordered if not is_lapsed(m, day)] == [
        m for m in found if not is_lapsed(m, day)
    ]
    assert sorted(ordered, key=lambda m: m.aga_id) == sorted(found, key=lambda m: m.aga_id)
