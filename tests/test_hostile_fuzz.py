"""Property-based fuzzing of every file reader: any bytes give a result or a clean error.

A clean error is the reader's own exception (its message names the file and, where there
is one, the line), never a ``UnicodeDecodeError``, ``IndexError``, ``MemoryError`` or any
other exception, and never a message that echoes the input at length. Inputs are random
bytes, random text in every encoding the readers accept, and real files (tests/data) with
random bytes spliced in, so the fuzzing reaches past the first line.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from addin.core.registration import PreRegistrationError, parse_preregistration_csv
from addin.core.text_input import control_characters
from addin.formats.aga_text import AGAReportError, read_aga_text_file
from addin.formats.aga_xml import read_aga_xml
from addin.formats.tdlista import MAX_LINE, ParseReport, TDListAError, parse_tdlista
from tests.helpers import DATA

SOURCE = "fuzz.dat"
MAX_MESSAGE = 2000
"""A message lists at most a handful of problems, each quoting at most 200 characters."""

REAL_FILES = {
    "tdlista": (DATA / "tdlista" / "tdlista-edge-cases.txt").read_bytes()
    + (DATA / "tdlista" / "tdlista-short.txt").read_bytes(),
    "csv": (
        "Name,AGA #,Rank,Club,Email,Bye requests\r\n"
        '"Aal, Zachary",15648,3k,SEAG,z@example.org,2;3\r\n'
        '"Newman, Ada",,15k,,,\r\n'
        "Gómez,,2d,NYGC,,1\r\n"
    ).encode(),
    "aga-text": (DATA / "aga-text" / "eggplant-sample-report.txt").read_bytes(),
    "aga-xml": (DATA / "aga-xml" / "2014-02.xml").read_bytes(),
}

Reader = Callable[[bytes], object]
READERS: dict[str, tuple[Reader, type[Exception]]] = {
    "tdlista": (lambda data: parse_tdlista(data, SOURCE), TDListAError),
    "csv": (lambda data: parse_preregistration_csv(data, SOURCE), PreRegistrationError),
    "aga-text": (lambda data: read_aga_text_file(data, SOURCE), AGAReportError),
    "aga-xml": (lambda data: read_aga_xml(data, SOURCE), AGAReportError),
}

ENCODINGS = ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "cp1252", "latin-1")
NASTY = st.sampled_from(
    ["\x00", "\x01", "\x07", "\x1b", "\r", "\n", "\r\n", "\t", "\ufeff", "\u2028", "\x85",
     "\ud7ff", "é", "中", "😀", "=", ",", ";", '"', "<", "&", "GAMES 99999", "9" * 50]
)  # fmt: skip


def clean_outcome(reader: str, data: bytes) -> None:
    read, error = READERS[reader]
    try:
        result = read(data)
    except error as err:
        message = str(err)
        assert message.startswith(SOURCE), message[:300]
        assert len(message) <= MAX_MESSAGE, message[:300]
        return
    if reader == "tdlista":
        for member in result.members:  # type: ignore[attr-defined]
            assert not control_characters(member.name)
            assert len(member.name) <= MAX_LINE


@st.composite
def spliced(draw: st.DrawFn, reader: str) -> bytes:
    """A real file with a few random byte strings inserted, replaced or cut."""
    data = bytearray(REAL_FILES[reader])
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        cut = draw(st.integers(0, 8))
        data[at : at + cut] = draw(st.binary(max_size=12))
    return bytes(data)


@st.composite
def encoded_text(draw: st.DrawFn, reader: str) -> bytes:
    """A real file's text with nasty pieces mixed in, in an encoding a TD's tool may use."""
    text = REAL_FILES[reader].decode("utf-8", errors="replace")
    for _ in range(draw(st.integers(1, 5))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(NASTY) + text[at:]
    encoding = draw(st.sampled_from(ENCODINGS))
    return text.encode(encoding, errors="replace")


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("reader", sorted(READERS))
@FUZZ
@given(data=st.binary(max_size=3000))
def test_random_bytes_give_a_result_or_a_clean_error(reader: str, data: bytes) -> None:
    clean_outcome(reader, data)


@pytest.mark.parametrize("reader", sorted(READERS))
@FUZZ
@given(data=st.data())
def test_real_files_with_random_bytes_spliced_in(reader: str, data: st.DataObject) -> None:
    clean_outcome(reader, data.draw(spliced(reader)))


@pytest.mark.parametrize("reader", sorted(READERS))
@FUZZ
@given(data=st.data())
def test_real_files_with_nasty_text_in_any_encoding(reader: str, data: st.DataObject) -> None:
    clean_outcome(reader, data.draw(encoded_text(reader)))


def test_a_date_with_a_huge_month_skips_the_line() -> None:
    """Found by the fuzzer: ``date()`` raised OverflowError for a 50-digit month."""
    line = "Aarhus, Bob\t9616\tFull\t-21.9\t" + "9" * 50 + "1/1/2008\tNOVA\tVA\t0.8\t11/1/2001"
    report = parse_tdlista(line.encode(), SOURCE)
    assert report.members == []
    assert "is not a calendar date" in report.skipped[0].reason


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("ends", [b"\r", b"\n", b"\r\n"], ids=["CR", "LF", "CRLF"])
@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "cp1252"])
def test_every_line_end_and_encoding_reads_the_same(
    reader: str, ends: bytes, encoding: str
) -> None:
    """CR, LF or CRLF; UTF-8 with or without BOM, UTF-16 with BOM, Windows-1252: one result."""
    read, _ = READERS[reader]
    text = REAL_FILES[reader].decode("utf-8")
    lines = text.replace("\r\n", "\n").split("\n")
    baseline = read("\n".join(lines).encode("utf-8"))
    data = (
        "\n".join(lines).encode(encoding).replace(b"\n", ends)
        if encoding != "utf-16"
        else (ends.decode().join(lines).encode("utf-16"))
    )
    if reader == "aga-xml" and encoding in ("utf-16", "cp1252"):
        pytest.skip("XML names its own encoding in its declaration")
    assert same(read(data)) == same(baseline)


def same(result: object) -> object:
    """What must not depend on the encoding or the line ends (a TDListA names its encoding)."""
    if isinstance(result, ParseReport):
        return result.members, [(s.line, s.reason) for s in result.skipped], result.line_count
    return result
