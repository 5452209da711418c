"""A text file the TD hands us, as text: one decoder and one line splitter for every reader.

Read: UTF-8 (with or without a byte-order mark), UTF-16 and UTF-32 with a byte-order mark,
and Windows-1252 (what Excel and older Windows tools save). Line ends CR, LF and CRLF, in any
mix. Anything else (UTF-16 without a mark, a binary file, bytes no text encoding here can
read) is refused with a message that names the file, the line and what was found, so a
UTF-16 CSV is not reported as "no name column".

Pure: no spreadsheet library is imported here.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

_BOMS: tuple[tuple[bytes, str, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8 with BOM"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)
"""Longest first: the UTF-32 LE mark begins with the UTF-16 LE one."""

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
"""Characters no spreadsheet cell may hold (XML 1.0 forbids them); tab, CR and LF excepted."""


class TextInputError(ValueError):
    """The file cannot be read as text; the message names the file, the line and why."""

    def __init__(self, source: str, line: int | None, problem: str) -> None:
        super().__init__(
            f"{source}: {problem}" if line is None else f"{source}, line {line}: {problem}"
        )
        self.source = source
        self.line = line
        self.problem = problem


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str
    """What the file was read as, for the TD: "UTF-8", "UTF-16", "Windows-1252", ..."""


def decode(data: bytes, source: str, *, expected: str = "a text file") -> Decoded:
    """The text of ``data``; raises ``TextInputError`` when it is not text this reads."""
    for bom, codec, name in _BOMS:
        if data.startswith(bom):
            try:
                return Decoded(data[len(bom) :].decode(codec), name)
            except UnicodeDecodeError as err:
                raise TextInputError(
                    source,
                    _line_of(data, err.start),
                    f"the file starts as {name} but byte {err.start + 1} is not {name}; "
                    f"expected {expected} saved as UTF-8",
                ) from None
    nul = data.find(b"\x00")
    if nul >= 0:
        line, problem = _binary_kind(data, nul)
        raise TextInputError(source, line, f"{problem}; expected {expected}")
    try:
        return Decoded(data.decode("utf-8"), "UTF-8")
    except UnicodeDecodeError:
        pass
    try:
        return Decoded(data.decode("cp1252"), "Windows-1252")
    except UnicodeDecodeError as err:
        byte = data[err.start]
        raise TextInputError(
            source,
            _line_of(data, err.start),
            f"byte 0x{byte:02X} is neither UTF-8 nor Windows-1252; "
            f"expected {expected} saved as UTF-8",
        ) from None


def _binary_kind(data: bytes, nul: int) -> tuple[int | None, str]:
    """Where and what a file with NUL bytes most likely is, for the message."""
    if data.startswith(b"PK\x03\x04"):
        what = "a binary file (a zip: an .xlsx workbook?)"
        return _line_of(data, nul), f"NUL byte: this is {what}, not text"
    utf16 = _utf16_without_bom(data[:4096])
    if utf16:
        return None, f"the file is {utf16} without a byte-order mark (save it as UTF-8)"
    return _line_of(data, nul), "NUL byte: this is a binary file, not text"


def _utf16_without_bom(head: bytes) -> str | None:
    """ "UTF-16" when every other byte is NUL, as in UTF-16 text of Latin letters."""
    if len(head) < 8:
        return None
    even, odd = head[0::2], head[1::2]
    if odd.count(0) > len(odd) * 0.4 and even.count(0) < len(even) * 0.1:
        return "UTF-16"
    if even.count(0) > len(even) * 0.4 and odd.count(0) < len(odd) * 0.1:
        return "UTF-16 (big-endian)"
    return None


def _line_of(data: bytes, offset: int) -> int:
    return (
        data.count(b"\n", 0, offset)
        + data[:offset].count(b"\r")
        - data.count(b"\r\n", 0, offset)
        + 1
    )


def split_lines(text: str) -> list[str]:
    """The lines, for CR, LF and CRLF ends in any mix (a trailing end adds no line).

    Not ``str.splitlines``: it also breaks at U+0085, U+2028, form feeds and more, which
    would shift every later line number.
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            text = text.replace("\r", "\n")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def normalise_line_ends(text: str) -> str:
    """``text`` with every CR and CRLF made LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


_NOT_CONTROL_BYTES = b"\t\n\r" + bytes(range(0x20, 0x100))


def control_bytes(data: bytes) -> bool:
    """Whether UTF-8 or single-byte ``data`` holds a control character: a fast first look
    (no decoding; in UTF-8 a byte below 0x20 is always that ASCII character)."""
    return bool(data.translate(None, _NOT_CONTROL_BYTES))


def control_characters(text: str) -> bool:
    """Whether ``text`` holds a character no spreadsheet cell may hold."""
    return _CONTROL.search(text) is not None


def without_control_characters(text: str) -> str:
    """``text`` less the characters no spreadsheet cell may hold (tab, CR and LF kept)."""
    return _CONTROL.sub("", text)


_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def formula_like(text: str) -> bool:
    """Would a spreadsheet take ``text`` as a formula (and not as a plain number)?"""
    return text.startswith(_TRIGGERS) and not _NUMBER.fullmatch(text.strip())
