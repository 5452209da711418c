"""TDListA import: the AGA membership list as the AGA publishes it, warts and all.

Expected rows are copied from the real files in tests/data/tdlista/; counts and
cross-checks are derived from those files' own bytes.
"""

from __future__ import annotations

import time
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from addin.formats.tdlista import (
    FIELD_NAMES,
    Member,
    TDListAError,
    parse_tdlista,
    split_name,
)
from tests.helpers import DATA

TDLISTA = DATA / "tdlista"
SNAPSHOT = TDLISTA / "tdlista-snapshot.txt"
SHORT = TDLISTA / "tdlista-short.txt"
EDGE = TDLISTA / "tdlista-edge-cases.txt"


@pytest.fixture(scope="module")
def snapshot_bytes() -> bytes:
    return SNAPSHOT.read_bytes()


@pytest.fixture(scope="module")
def snapshot(snapshot_bytes: bytes) -> dict[int, Member]:
    report = parse_tdlista(snapshot_bytes, SNAPSHOT.name)
    return {m.aga_id: m for m in report.members}


# --- the real snapshot (22,410 CRLF lines) --------------------------------------------


def test_snapshot_every_line_is_a_member(snapshot_bytes: bytes) -> None:
    report = parse_tdlista(snapshot_bytes, SNAPSHOT.name)
    line_count = snapshot_bytes.count(b"\r\n")
    assert line_count == snapshot_bytes.count(b"\n")  # CRLF throughout
    assert report.line_count == line_count
    assert len(report.members) == line_count
    assert report.skipped == []
    assert report.encoding == "UTF-8"
    assert len({m.aga_id for m in report.members}) == line_count  # no duplicate numbers


def test_snapshot_members_agree_with_their_lines(snapshot_bytes: bytes) -> None:
    """Each member's text fields are its line's fields, stripped; numbers read as written."""
    report = parse_tdlista(snapshot_bytes)
    lines = snapshot_bytes.decode("utf-8").removesuffix("\r\n").split("\r\n")
    for member, line in zip(report.members, lines, strict=True):
        fields = [f.strip() for f in line.split("\t")]
        assert member.name == fields[0]
        assert member.aga_id == int(fields[1])
        assert member.membership_type == fields[2]
        assert member.rating == (float(fields[3]) if fields[3] else None)
        assert (member.expiry is None) == (fields[4] == "")
        assert (member.chapter, member.state) == (fields[5], fields[6])
        assert member.sigma == (float(fields[7]) if fields[7] else None)
        assert (member.rating_date is None) == (fields[8] == "")


def test_snapshot_membership_types_are_kept_as_given(snapshot_bytes: bytes) -> None:
    report = parse_tdlista(snapshot_bytes)
    in_file = {line.split(b"\t")[2].decode() for line in snapshot_bytes.splitlines()}
    assert {m.membership_type for m in report.members} == in_file
    assert {"Full", "Youth", "Non", "Forgn", "Life", "Spons"} <= in_file


@pytest.mark.parametrize(
    ("aga_id", "expected"),
    [
        # Aal, Zachary	15648	Full	-20.05711	7/2/2008	LIGC	NY	1.09198	8/1/2007
        (
            15648,
            Member(
                "Aal, Zachary", "Aal", "Zachary", 15648, "Full", -20.05711,
                date(2008, 7, 2), "LIGC", "NY", 1.09198, date(2007, 8, 1),
            ),
        ),
        # Small, Haskell	1062	Life	-1.05678	12/31/2199	GWGC	DC	0.23382	12/14/2019
        (
            1062,
            Member(
                "Small, Haskell", "Small", "Haskell", 1062, "Life", -1.05678,
                date(2199, 12, 31), "GWGC", "DC", 0.23382, date(2019, 12, 14),
            ),
        ),
        # Go Club, Joplin	23160	Full					MO		 (no rating, no expiry)
        (23160, Member("Go Club, Joplin", "Go Club", "Joplin", 23160, "Full", state="MO")),
        # Goldschtein , Juan José 	23669	Full		12/28/2019		MD		 (stray spaces)
        (
            23669,
            Member(
                "Goldschtein , Juan José", "Goldschtein", "Juan José", 23669, "Full",
                expiry=date(2019, 12, 28), state="MD",
            ),
        ),
        # Baugsson Sigríðarson, Rúnar Berg	25216	Full		7/17/2022	SEAG	WA
        (
            25216,
            Member(
                "Baugsson Sigríðarson, Rúnar Berg", "Baugsson Sigríðarson", "Rúnar Berg",
                25216, "Full", expiry=date(2022, 7, 17), chapter="SEAG", state="WA",
            ),
        ),
        # Danio	14281	Non	-21.30376	1/28/2006		VA	0.91707	2/1/2006  (no comma)
        (
            14281,
            Member(
                "Danio", "Danio", "", 14281, "Non", -21.30376, date(2006, 1, 28), "",
                "VA", 0.91707, date(2006, 2, 1),
            ),
        ),
        # Adamson, Charles Edwin, Jr	24022	Full		7/18/2020  (two commas)
        (
            24022,
            Member(
                "Adamson, Charles Edwin, Jr", "Adamson", "Charles Edwin, Jr", 24022, "Full",
                expiry=date(2020, 7, 18),
            ),
        ),
        # Cho, Ki Sun	19542	Non	-3.45686				0.95373	1/8/2012  (no expiry)
        (
            19542,
            Member(
                "Cho, Ki Sun", "Cho", "Ki Sun", 19542, "Non", -3.45686, None, "", "",
                0.95373, date(2012, 1, 8),
            ),
        ),
        # Jung, Seo Joon	22112	Full	10.22807	9/27/2015  (a professional's rating)
        (
            22112,
            Member(
                "Jung, Seo Joon", "Jung", "Seo Joon", 22112, "Full", 10.22807,
                date(2015, 9, 27), "", "", 0.73883, date(2015, 9, 26),
            ),
        ),
    ],
)  # fmt: skip
def test_snapshot_rows(snapshot: dict[int, Member], aga_id: int, expected: Member) -> None:
    assert snapshot[aga_id] == expected


def test_snapshot_parses_in_well_under_a_second(snapshot_bytes: bytes) -> None:
    """22,410 lines on every import: the best of three runs stays under one second."""
    timings = []
    for _ in range(3):
        start = time.perf_counter()
        parse_tdlista(snapshot_bytes)
        timings.append(time.perf_counter() - start)
    assert min(timings) < 1.0


# --- the short file (LF endings) ------------------------------------------------------


def test_short_file_with_lf_endings() -> None:
    data = SHORT.read_bytes()
    assert b"\r" not in data
    report = parse_tdlista(data, SHORT.name)
    assert len(report.members) == data.count(b"\n") == 13
    assert report.skipped == []
    by_id = {m.aga_id: m for m in report.members}
    # Cornell, Dewey G.	1310	Spons	1.93668	4/28/2019	GCUV	VA	0.49755	8/1/2009
    assert by_id[1310] == Member(
        "Cornell, Dewey G.", "Cornell", "Dewey G.", 1310, "Spons", 1.93668,
        date(2019, 4, 28), "GCUV", "VA", 0.49755, date(2009, 8, 1),
    )  # fmt: skip
    # Cristal, Rexford	20388	Full		1/31/2019		NJ		 (trailing fields empty)
    assert by_id[20388] == Member(
        "Cristal, Rexford", "Cristal", "Rexford", 20388, "Full", expiry=date(2019, 1, 31),
        state="NJ",
    )  # fmt: skip
    # Zweig, Adrian	4925	Full	3.20000	11/30/2005				11/15/1992
    assert by_id[4925] == Member(
        "Zweig, Adrian", "Zweig", "Adrian", 4925, "Full", 3.2, date(2005, 11, 30),
        rating_date=date(1992, 11, 15),
    )  # fmt: skip
    assert [m.name for m in report.members][:2] == ["Adam, Kurt", "Cornell, Dewey G."]


# --- the edge-case file: every line ---------------------------------------------------


def test_edge_case_file_every_line() -> None:
    data = EDGE.read_bytes()
    report = parse_tdlista(data, EDGE.name)
    assert report.skipped == []
    assert report.members == [
        # " Anderson, Glenn" (leading space), all 9 fields
        Member(
            "Anderson, Glenn", "Anderson", "Glenn", 23168, "Full", -13.66602,
            date(2018, 3, 5), "SEAG", "WA", 0.90598, date(2017, 3, 5),
        ),
        # leading space, 7 fields (sigma and date missing)
        Member("Brain, Cocoa", "Brain", "Cocoa", 23323, "Full", None, date(2019, 5, 12),
               "SPRI", "CO"),
        Member("Kiernan-Paadre, Argo", "Kiernan-Paadre", "Argo", 23502, "Youth", None,
               date(2018, 9, 6), "NUGC", "MA"),
        # empty family name
        Member(
            ", Eric Yang", "", "Eric Yang", 23699, "Youth", -32.13307, date(2019, 1, 21),
            "", "", 1.15072, date(2018, 1, 6),
        ),
        # empty family name, no rating, no expiry, 7 fields
        Member(", Joplin Go Club", "", "Joplin Go Club", 23160, "Full", state="MO"),
        Member(
            "Aal, Zachary", "Aal", "Zachary", 15648, "Full", -20.05711, date(2008, 7, 2),
            "LIGC", "NY", 1.09198, date(2007, 8, 1),
        ),
        Member(
            "Aarhus, Bob", "Aarhus", "Bob", 9616, "Full", -21.94348, date(2008, 1, 1),
            "NOVA", "VA", 0.87341, date(2001, 11, 1),
        ),
        Member(
            "Aaron, William C.", "Aaron", "William C.", 7206, "Full", None,
            date(1994, 12, 28), "", "CA", None, date(1994, 12, 28),
        ),
        Member(
            "Abarbanel, Jacob", "Abarbanel", "Jacob", 17213, "Youth", None, date(2009, 8, 9),
            rating_date=date(2009, 8, 9),
        ),
        # trailing space after the given name, 7 fields
        Member("Abasolo, Joy", "Abasolo", "Joy", 23206, "Youth", None, date(2018, 10, 3),
               "STON", "NY"),
    ]  # fmt: skip
    assert len(report.members) == data.count(b"\n")


# --- files that cannot be imported ----------------------------------------------------

GOOD_LINES = SNAPSHOT.read_bytes().split(b"\r\n")[:5]
"""The snapshot's first five lines, to build small files around one bad line."""


def test_empty_file_is_refused() -> None:
    with pytest.raises(TDListAError, match=r"^TDListA\.txt: the file is empty"):
        parse_tdlista(b"", "TDListA.txt")
    with pytest.raises(TDListAError, match="empty"):
        parse_tdlista(b"\r\n  \r\n\t\n", "TDListA.txt")


def test_binary_file_is_refused_naming_the_line() -> None:
    data = b"PK\x03\x04\n\x14\x00\x06\x00"  # the start of a zip (an .xlsx)
    with pytest.raises(TDListAError, match=r"^members\.xlsx, line 2: NUL byte.*binary"):
        parse_tdlista(data, "members.xlsx")


def test_three_column_file_is_not_tdlista() -> None:
    data = b"Smith, John\t1234\t3k\r\nDoe, Jane\t5678\t2d\r\n"
    with pytest.raises(TDListAError) as caught:
        parse_tdlista(data, "players.txt")
    message = str(caught.value)
    assert message.startswith("players.txt, line 1: not a TDListA file")
    assert "expected 9 tab-separated fields: name, AGA number, membership type" in message
    assert "found 3" in message
    assert caught.value.line == 1


def test_csv_file_is_not_tdlista() -> None:
    data = b'Name,AGA #,Rank\r\n"Smith, John",1234,3k\r\n'
    with pytest.raises(TDListAError, match=r"line 1: not a TDListA.*found 1 \(no tab"):
        parse_tdlista(data, "prereg.csv")


def test_non_numeric_aga_number_is_refused_with_its_line() -> None:
    lines = list(GOOD_LINES)
    lines[2] = b"Aaron, William C.\t72O6\tFull\t\t12/28/1994\t\tCA\t\t12/28/1994"
    with pytest.raises(TDListAError) as caught:
        parse_tdlista(b"\r\n".join(lines), "TDListA.txt")
    assert str(caught.value) == (
        "TDListA.txt, line 3: AGA number '72O6' of 'Aaron, William C.' is not a number"
    )
    assert caught.value.line == 3


def test_missing_aga_number_is_refused_with_its_line() -> None:
    data = b"\r\n".join([*GOOD_LINES[:4], b"Someone, New"])
    with pytest.raises(TDListAError, match=r"^TDListA, line 5: no AGA number"):
        parse_tdlista(data)


# --- lines that are skipped, each with its reason -------------------------------------


def test_unreadable_lines_are_skipped_with_line_and_reason() -> None:
    lines = [
        b"Aal, Zachary\t15648\tFull\t-20.05711\t7/2/2008\tLIGC\tNY\t1.09198\t8/1/2007",
        b"",
        b"Bad, Date\t2\tFull\t\t13/45/2020\t\t",
        b"Bad, Rating\t3\tFull\tstrong\t1/1/2020\t\t",
        b"Gap, Rating\t4\tFull\t0.5\t1/1/2020\t\t",
        b"Aal, Zachary\t15648\tFull\t-20.05711\t7/2/2008\tLIGC\tNY\t1.09198\t8/1/2007",
        b"\t5\tFull\t\t1/1/2020\t\t",
        b"Two, Digit Year\t6\tFull\t\t1/1/20\t\t",
    ]
    report = parse_tdlista(b"\n".join(lines), "list.txt")
    assert [m.aga_id for m in report.members] == [15648]
    reasons = {s.line: s.reason for s in report.skipped}
    assert set(reasons) == {2, 3, 4, 5, 6, 7, 8}
    assert reasons[2] == "blank line"
    assert "membership expiry '13/45/2020' is not a calendar date" in reasons[3]
    assert reasons[4] == "rating 'strong' is not a number"
    assert "rating '0.5' is not an AGA rating" in reasons[5]
    assert reasons[6] == "duplicate AGA number 15648 (first on line 1)"
    assert reasons[7] == "no name"
    assert "4-digit year" in reasons[8]
    assert report.skipped[0].text == ""
    assert report.skipped[1].text == lines[2].decode()


def test_a_line_with_just_name_and_number_is_a_member() -> None:
    data = b"\n".join([*GOOD_LINES[:2], b" Newman, Ada \t 24001 "])
    report = parse_tdlista(data)
    assert report.members[-1] == Member("Newman, Ada", "Newman", "Ada", 24001, "")


def test_fields_beyond_the_ninth_are_ignored() -> None:
    line = GOOD_LINES[0] + b"\textra\t"
    assert parse_tdlista(b"\n".join([line, *GOOD_LINES[1:]])).members[0].name == "Aal, Zachary"


# --- encodings and line endings -------------------------------------------------------


def test_latin1_fallback() -> None:
    """A list saved in Latin-1 / Windows-1252 (not valid UTF-8) still reads, accents intact."""
    line = "Gómez, David\t24687\tFull\t-16.12547\t6/28/2021\t\t\t0.64922\t7/14/2019\r\n"
    data = line.encode("latin-1") + b"\r\n".join(GOOD_LINES[:2])
    assert b"\xf3" in data  # ó as one Latin-1 byte, invalid in UTF-8 here
    report = parse_tdlista(data)
    assert report.encoding == "Windows-1252"
    assert report.members[0].family_name == "Gómez"
    assert report.members[0].rating == -16.12547


def test_latin1_byte_0x85_does_not_break_a_line() -> None:
    """0x85 decodes to U+0085 (NEL), a line break to str.splitlines; not to a TDListA."""
    first = b"Ren\x85, Jo\t24002\tFull\t\t1/1/2020\t\t\t\t"
    second = b"Bad, Number\tX\tFull\t\t1/1/2020\t\t\t\t"
    with pytest.raises(TDListAError, match=r", line 2: AGA number 'X'"):
        parse_tdlista(first + b"\r\n" + second)


def test_utf8_bom_is_not_part_of_the_first_name() -> None:
    data = b"\xef\xbb\xbf" + b"\r\n".join(GOOD_LINES[:2])
    assert parse_tdlista(data).members[0].name == "Aal, Zachary"


def test_old_mac_cr_endings() -> None:
    report = parse_tdlista(b"\r".join(GOOD_LINES[:3]))
    assert [m.aga_id for m in report.members] == [15648, 9616, 7206]


# --- names ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "family", "given_name"),
    [
        ("Aal, Zachary", "Aal", "Zachary"),
        (", Eric Yang", "", "Eric Yang"),
        ("Hara  , Takashi", "Hara", "Takashi"),
        ("Danio", "Danio", ""),
        ("Hatfield, Sr., Sr., Ted", "Hatfield", "Sr., Sr., Ted"),
    ],
)
def test_split_name_at_the_first_comma(name: str, family: str, given_name: str) -> None:
    assert split_name(name) == (family, given_name)


def test_field_names_are_the_nine_of_the_format() -> None:
    assert len(FIELD_NAMES) == 9
    assert FIELD_NAMES[:2] == ("name", "AGA number")


_words = st.text(alphabet=st.characters(categories=("L",)), min_size=1, max_size=12)
_ratings = st.one_of(
    st.none(),
    st.floats(min_value=1.0, max_value=10.9),
    st.floats(min_value=-50.9, max_value=-1.0),
)
_dates = st.one_of(st.none(), st.dates(min_value=date(1900, 1, 1), max_value=date(2299, 12, 31)))


@given(
    family=_words,
    given_name=_words,
    aga_id=st.integers(min_value=1, max_value=99999),
    rating=_ratings,
    expiry=_dates,
    rating_date=_dates,
    membership_type=st.sampled_from(["Full", "Youth", "Non", "Forgn", "Life", "Spons"]),
)
def test_a_written_line_reads_back(
    family: str,
    given_name: str,
    aga_id: int,
    rating: float | None,
    expiry: date | None,
    rating_date: date | None,
    membership_type: str,
) -> None:
    def mdy(day: date | None) -> str:
        return f"{day.month}/{day.day}/{day.year}" if day else ""

    rating_text = f"{rating:.5f}" if rating is not None else ""
    line = "\t".join(
        [f"{family}, {given_name}", str(aga_id), membership_type, rating_text, mdy(expiry),
         "CHAP", "ST", "", mdy(rating_date)]
    )  # fmt: skip
    (member,) = parse_tdlista(line.encode()).members
    assert (member.family_name, member.given_name) == (family, given_name)
    assert member.aga_id == aga_id
    assert member.rating == (float(rating_text) if rating_text else None)
    assert (member.expiry, member.rating_date) == (expiry, rating_date)
