"""The EGD's rating list read, and the entry rating GoR and grade give on each McMahon scale.

The lists are real: two excerpts of the EGD's ``allworld_lp`` web page as OpenGotha shipped
it (1 July and 27 December 2018; tests/data/README.md), each line kept byte for byte. The
expectations are read from the files' own lines (by the fixed columns OpenGotha's reader
uses), or follow from the EGF's definition of the GoR: 2100 is the middle of 1 dan, a grade
is 100 points.
"""

from __future__ import annotations

import re

import pytest

from addin.core.egd import EgdIndex, EgdPlayer, entry_rating, gor_rating, grade_rating
from addin.core.egd_refresh import refresh
from addin.core.european import GradeScale
from addin.core.ratings import parse_rating, rank_of
from addin.formats.egd_list import EgdListError, parse_egd_list
from tests.helpers import DATA, TDLISTA_SNAPSHOT

OLD = DATA / "egd" / "allworld_lp-2018-07-01-excerpt.html"
NEW = DATA / "egd" / "allworld_lp-2018-12-27-excerpt.html"
LINES = NEW.read_bytes().split(b"\n")
PLAYER_LINES = [line for line in LINES if re.match(rb" \d{8} ", line)]


def columns(line: bytes) -> dict[str, str]:
    """A line as OpenGotha's RatingList reads it: by position (in bytes: one name is UTF-8)."""

    def field(start: int, stop: int) -> str:
        piece = line[start:stop]
        try:
            return piece.decode("utf-8").strip()
        except UnicodeDecodeError:
            return piece.decode("cp1252").strip()

    return {
        "pin": field(1, 9),
        "name": field(11, 48),
        "country": field(49, 52),
        "club": field(53, 57),
        "grade": field(60, 63),
        "gor": field(71, 75),
    }


@pytest.fixture(scope="module")
def new() -> list[EgdPlayer]:
    return parse_egd_list(NEW.read_bytes(), NEW.name).players


# --- the reader ---------------------------------------------------------------------------


def test_every_player_line_of_the_real_list_is_read(new: list[EgdPlayer]) -> None:
    report = parse_egd_list(NEW.read_bytes(), NEW.name)
    assert report.skipped == []
    assert [p.pin for p in new] == [int(columns(line)["pin"]) for line in PLAYER_LINES]


def test_the_fields_are_those_of_openGothas_fixed_columns(new: list[EgdPlayer]) -> None:
    for player, line in zip(new, PLAYER_LINES, strict=True):
        c = columns(line)
        assert player.grade == c["grade"].lower()
        if c["gor"] != "0":
            assert player.gor == int(c["gor"])
        if c["country"] != "XX":
            assert player.country == c["country"]
        if set(c["club"].lower()) != {"x"}:
            assert player.club == c["club"]
        family, _, given = c["name"].partition(" ")
        assert player.family_name == family.replace("_", " ")
        assert player.given_name == given.replace("_", " ")


def test_the_lists_date_is_read() -> None:
    dated = next(line for line in LINES if re.fullmatch(rb"\(\d+ \w+ \d{4}\)", line.strip()))
    assert dated == b"(27 Dec 2018)"
    assert str(parse_egd_list(NEW.read_bytes()).published) == "2018-12-27"


def test_underscores_are_the_spaces_within_a_name(new: list[EgdPlayer]) -> None:
    line = next(line for line in PLAYER_LINES if b"Bustos_Langton" in line)
    player = next(p for p in new if p.pin == int(columns(line)["pin"]))
    assert (player.family_name, player.given_name) == ("Bustos Langton", "Oliver")


def test_a_single_word_is_a_family_name_alone(new: list[EgdPlayer]) -> None:
    line = next(line for line in PLAYER_LINES if len(columns(line)["name"].split()) == 1)
    player = next(p for p in new if p.pin == int(columns(line)["pin"]))
    assert player.family_name == columns(line)["name"] and player.given_name == ""
    assert player.name == player.family_name


def test_unknown_country_and_club_are_blank_not_a_shared_code(new: list[EgdPlayer]) -> None:
    unknown = [p for p, line in zip(new, PLAYER_LINES, strict=True) if b" XX  " in line]
    assert unknown and all(p.country == "" and p.club == "" for p in unknown)


def test_a_gor_of_0_before_any_tournament_is_no_gor(new: list[EgdPlayer]) -> None:
    line = next(line for line in PLAYER_LINES if line.split()[-1] == b"0")  # 0 tournaments
    player = next(p for p in new if p.pin == int(columns(line)["pin"]))
    assert columns(line)["gor"] == "0" and player.gor is None and player.tournaments == 0


def test_latin_1_lines_and_the_odd_utf_8_line_both_read(new: list[EgdPlayer]) -> None:
    """The list is Latin-1 with one name in UTF-8: each line is read as what it is."""
    utf8 = next(line for line in PLAYER_LINES if b"\xc3\xaf" in line)
    latin = next(line for line in PLAYER_LINES if b"\xc1gota" in line)
    names = {p.pin: p.given_name for p in new}
    assert names[int(columns(utf8)["pin"])] == utf8[11:48].split()[1].decode("utf-8")
    assert names[int(columns(latin)["pin"])] == latin[11:48].split()[1].decode("cp1252")


def test_the_plain_text_list_reads_as_the_web_page_does(new: list[EgdPlayer]) -> None:
    """The EGD offers the list as text too: the same lines without the page's tags."""
    text = re.sub(rb"<[^>]*>", b"", NEW.read_bytes())
    assert parse_egd_list(text).players == new


def test_a_tdlista_is_not_the_egd_list() -> None:
    with pytest.raises(EgdListError, match="not an EGD rating list: no line holds a player"):
        parse_egd_list(TDLISTA_SNAPSHOT.read_bytes()[:5000], "tdlista.txt")


@pytest.mark.parametrize("data", [b"", b"\n\n  \r\n"], ids=["empty", "blank lines"])
def test_an_empty_file_is_refused(data: bytes) -> None:
    with pytest.raises(EgdListError, match="the file is empty"):
        parse_egd_list(data, "list.txt")


def test_a_binary_file_is_refused() -> None:
    with pytest.raises(EgdListError, match=r"list\.bin"):
        parse_egd_list(b"PK\x03\x04\x00\x00binary", "list.bin")


def test_a_broken_line_a_duplicate_and_a_huge_line_are_skipped_with_their_reason() -> None:
    lines = NEW.read_bytes().split(b"\n")
    first = next(i for i, line in enumerate(lines) if re.match(rb" \d{8} ", line))
    broken = lines[first][:40]  # cut in the name: no country, club, grade
    huge = lines[first][:9] + b" " + b"x" * 40_000
    hostile = [*lines[: first + 1], broken, lines[first], huge, *lines[first + 1 :]]
    report = parse_egd_list(b"\n".join(hostile))
    reasons = {s.line - first - 1: s.reason for s in report.skipped}
    assert reasons[1].startswith("not a player line: expected PIN (8 digits), name")
    assert reasons[2] == f"duplicate PIN {columns(lines[first])['pin']} (first on line {first + 1})"
    assert reasons[3].startswith("40,010 characters long")
    assert len(report.players) == len(PLAYER_LINES)


def test_control_characters_are_removed_and_said() -> None:
    lines = NEW.read_bytes().split(b"\n")
    at = next(i for i, line in enumerate(lines) if re.match(rb" \d{8} ", line))
    lines[at] = lines[at].replace(b"  ", b" \x07", 1)
    report = parse_egd_list(b"\n".join(lines))
    assert report.cleaned == [at + 1] and len(report.players) == len(PLAYER_LINES)


# --- GoR and grade as an entry rating ---------------------------------------------------------


def test_the_middle_of_1_dan_is_gor_2100_and_a_grade_is_100_points() -> None:
    assert gor_rating(2100) == parse_rating("1d")  # 1.5, the middle of 1d
    assert gor_rating(2000) == parse_rating("1k")
    assert gor_rating(2400) == parse_rating("4d")
    assert gor_rating(1700) == parse_rating("4k")
    assert gor_rating(100) == parse_rating("20k")
    assert gor_rating(-900) == parse_rating("30k")  # the EGD's floor since its revision


def test_a_grades_lower_edge_is_in_the_grade_as_the_egf_counts_it() -> None:
    """GoR 2050-2149 is 1d and 1950-2049 is 1k (2100 and 2000 their middles)."""
    assert [rank_of(gor_rating(g)) for g in (2049, 2050, 2149, 2150)] == ["1k", "1d", "1d", "2d"]
    assert [rank_of(gor_rating(g)) for g in (1949, 1950, 1849, 1850)] == ["2k", "1k", "3k", "2k"]


def test_an_amateur_gor_above_9_dan_stays_9_dan() -> None:
    assert rank_of(gor_rating(3100)) == "9d"


ZERO_20 = GradeScale.ZERO_20_KYU


@pytest.mark.parametrize("scale", [GradeScale.ZERO_20_KYU, GradeScale.ZERO_SHODAN])
def test_on_a_grade_scale_the_grade_is_the_rank_and_the_gor_places_within_it(
    new: list[EgdPlayer], scale: GradeScale
) -> None:
    for p in new:
        if p.gor is None or p.grade.endswith("p"):
            continue
        rating = entry_rating(p.gor, p.grade, scale)
        assert rating is not None and rank_of(rating) == p.grade
        if rank_of(gor_rating(p.gor)) == p.grade:
            assert rating == gor_rating(p.gor)


def test_on_the_aga_bands_the_gor_is_the_rating(new: list[EgdPlayer]) -> None:
    for p in new:
        if p.gor is not None and not p.grade.endswith("p"):
            assert entry_rating(p.gor, p.grade, GradeScale.AGA_BANDS) == gor_rating(p.gor)


def test_a_professional_grade_is_its_professional_rating(new: list[EgdPlayer]) -> None:
    pros = [p for p in new if p.grade.endswith("p")]
    assert pros
    for p in pros:
        for scale in GradeScale:
            assert entry_rating(p.gor, p.grade, scale) == parse_rating(p.grade)


def test_no_gor_leaves_the_grade_and_no_grade_the_gor() -> None:
    assert entry_rating(None, "3k", ZERO_20) == grade_rating("3k") == -3.5
    assert entry_rating(1700, "", ZERO_20) == gor_rating(1700)
    assert entry_rating(1700, "?", ZERO_20) == gor_rating(1700)
    assert entry_rating(None, "", ZERO_20) is None


def test_the_index_finds_players_by_pin_and_by_name_prefix(new: list[EgdPlayer]) -> None:
    index = EgdIndex(new)
    someone = next(p for p in new if p.given_name)
    assert index.search(str(someone.pin)) == [someone]
    assert someone in index.search(someone.family_name[:3].lower())
    assert index.by_name(someone.name) == [someone]
    accented = next(p for p in new if p.given_name == "Ágota")
    assert index.search(f"{accented.family_name.upper()}, ago") == [accented]


def test_the_index_finds_a_name_typed_in_either_order(new: list[EgdPlayer]) -> None:
    """As the TDListA's look-up does: "Given Family" and "family given", no comma."""
    index = EgdIndex(new)
    named = [p for p in new if p.given_name and " " not in p.family_name + p.given_name]
    assert named
    for p in named:
        assert p in index.search(f"{p.given_name} {p.family_name}")
        assert p in index.search(f"{p.family_name.lower()} {p.given_name.lower()}")


# --- a newer list --------------------------------------------------------------------------------


def test_a_newer_list_moves_a_rating_entered_as_the_old_list_gave_it(
    new: list[EgdPlayer],
) -> None:
    old = {p.pin: p for p in parse_egd_list(OLD.read_bytes()).players}
    moved = [p for p in new if p.pin in old and old[p.pin].gor != p.gor and p.gor is not None]
    assert len(moved) >= 10
    for p in moved:
        before = old[p.pin]
        rating = entry_rating(before.gor, before.grade, ZERO_20)
        values = {"rating": rating, "rank": rank_of(rating), "gor": before.gor,
                  "chapter": before.club, "country": before.country}  # fmt: skip
        r = refresh(90000, values, p, before, ZERO_20)
        now = entry_rating(p.gor, p.grade, ZERO_20)
        assert r.values()["gor"] == p.gor
        assert r.values().get("rating", rating) == now
        assert r.kept_rating is None


def test_a_rating_the_td_set_is_kept_and_said(new: list[EgdPlayer]) -> None:
    old = {p.pin: p for p in parse_egd_list(OLD.read_bytes()).players}
    p = next(p for p in new if p.pin in old and p.gor is not None and old[p.pin].gor != p.gor)
    values = {"rating": parse_rating("9d"), "rank": "9d", "gor": old[p.pin].gor}
    r = refresh(90000, values, p, old[p.pin], ZERO_20)
    assert r.kept_rating == parse_rating("9d") and "rating" not in r.values()
