"""A TD's hand, or another program, between two desk commands: the file store still writes
what the openpyxl gateway writes, or stops in one line and leaves the workbook as it was.

The desk commands read with python-calamine and write by editing sheet XML
(``addin.workbook.file_store``). Between them the file is edited the ways it is in a
tournament room: a sheet renamed, cells typed, a package written by another program (a
namespace prefix, UTF-16, stored entries, a streamed zip, parts of its own). Each case runs
one desk action on the edited file through the store and through the openpyxl gateway
(the reference) and compares what a TD sees (``test_file_store._cells``).
"""

from __future__ import annotations

import re
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest

from addin.workbook.calamine_reader import CalamineReader
from addin.workbook.file_store import FileStore
from addin.workbook.layout import players_table
from addin.workbook.openpyxl_gateway import OpenpyxlGateway
from addin.workbook.package import sheet_part
from tests.helpers import DATA, digest, libreoffice_convert, run
from tests.test_file_store import _cells, _members, _run, _with_defaults, _with_part

ROUNDS = 3
MAIN = b"http://schemas.openxmlformats.org/spreadsheetml/2006/main"


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 40-player event, three rounds played, the real TDListA imported."""
    book = tmp_path_factory.mktemp("hostile-store") / "event.xlsx"
    done = run("demo", book, "--players", 40, "--rounds", ROUNDS)
    assert done.returncode == 0, done.stderr
    short = DATA / "tdlista" / "tdlista-short.txt"
    done = run("import-tdlista", book, short, "--yes")
    assert done.returncode == 0, done.stderr
    return book


def _part(book: Path, sheet: str) -> str:
    with zipfile.ZipFile(book) as package:
        part = sheet_part(package, sheet)
    assert part is not None
    return part


def _action(book: Path, action: str) -> dict[str, object]:
    """The parameters of one desk action on ``book`` (board 1 of the last round turned)."""
    member, player = _members(book)
    if action == "result":
        ws = openpyxl.load_workbook(book)[f"Round {ROUNDS}"]
        turned = "B" if ws["F2"].value == "White wins" else "W"
        given: dict[str, object] = {"round": ROUNDS, "board": ws["A2"].value, "result": turned}
        given["yes"] = True
    elif action == "register":
        given = {"aga": member, "yes": True}
    elif action == "drop":
        given = {"player": player, "yes": True}
    else:
        given = {"player": player, "rating": "3d", "yes": True}
    return _with_defaults(action, given)


def _store_and_reference(book: Path, tmp_path: Path, action: str) -> tuple[Path, Path, bool]:
    """``action`` run on copies of ``book`` through the store and through openpyxl; whether
    the store handed over to openpyxl."""
    fast, reference = tmp_path / "fast.xlsx", tmp_path / "reference.xlsx"
    shutil.copyfile(book, fast)
    shutil.copyfile(book, reference)
    params = _action(book, action)
    store = FileStore.open(fast)
    _run(store, action, params)
    _run(OpenpyxlGateway.open(reference), action, params)
    return fast, reference, store._full is not None


def _prefixed(xml: bytes) -> bytes:
    """The sheet as some generators write it: every element with an ``x:`` prefix."""
    xml = xml.replace(b'xmlns="' + MAIN + b'"', b'xmlns:x="' + MAIN + b'"', 1)
    return re.sub(rb"<(/?)(?!x:)([A-Za-z]+)(?=[ />])", rb"<\1x:\2", xml)


def _utf16(xml: bytes) -> bytes:
    body = xml[xml.index(b"?>") + 2 :] if xml.startswith(b"<?xml") else xml
    return ('<?xml version="1.0" encoding="UTF-16"?>' + body.decode()).encode("utf-16")


def _result_formula(xml: bytes) -> bytes:
    """Board 1's result typed as a formula giving a result (its cached text is one)."""
    formula = b'<c r="F2" t="str"><f>"White"&amp;" wins"</f><v>White wins</v></c>'
    return re.sub(rb'<c r="F2"[^>]*?(?:/>|>.*?</c>)', formula, xml, count=1, flags=re.S)


# --- the Log ---------------------------------------------------------------------------


@pytest.mark.parametrize("action", ["result", "register"])
def test_a_log_sheet_renamed_keeps_its_table_and_the_action_stops_in_one_line(
    event: Path, tmp_path: Path, action: str
) -> None:
    """The renamed sheet still holds the Excel Table named Log: a new Log sheet would need a
    second table of that name (openpyxl raised ValueError, a traceback)."""
    book = tmp_path / "event.xlsx"
    wb = openpyxl.load_workbook(event)
    wb["Log"].title = "Journal"
    wb.save(book)
    before = digest(book)
    params = _action(book, action)
    args = [f"--{k}" if v is True else f"--{k}={v}" for k, v in params.items() if v is not None]
    done = run(action, book, *args)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert "'Journal'" in done.stderr and "Log" in done.stderr
    assert digest(book) == before


def test_a_log_sheet_another_program_wrote_in_utf16_is_read_not_taken_as_empty(
    event: Path, tmp_path: Path
) -> None:
    """calamine read a UTF-16 sheet as empty: the action took the Log for empty and wrote
    every warning of the file into it again."""
    book = tmp_path / "event.xlsx"
    _with_part(event, book, _part(event, "Log"), _utf16)
    fast, reference, _ = _store_and_reference(book, tmp_path, "register")
    assert _cells(fast) == _cells(reference)


def _table_part(book: Path, name: str) -> str:
    with zipfile.ZipFile(book) as package:
        return next(
            n
            for n in package.namelist()
            if n.startswith("xl/tables/") and f'name="{name}"'.encode() in package.read(n)
        )


BROKEN: dict[str, tuple[Callable[[Path], str], Callable[[bytes], bytes], tuple[str, ...]]] = {
    "the Log's Table range cut short": (
        lambda book: _table_part(book, "Log"),
        lambda xml: re.sub(rb'ref="A1:D\d+"', b'ref="A1:D"', xml),
        ("Log", "'A1:D'"),
    ),
    "a number format id that is no number": (
        lambda book: "xl/styles.xml",
        lambda xml: re.sub(
            rb'(<cellXfs[^>]*>\s*<xf[^>]*?)numFmtId="\d+"', rb'\1numFmtId="abc"', xml, count=1
        ),
        ("not an Excel .xlsx workbook",),
    ),
    "a column style that is no number": (
        lambda book: _part(book, "Log"),
        lambda xml: re.sub(rb'(<col [^>]*?)style="\d+"', rb'\1style="zz"', xml, count=1),
        ("not an Excel .xlsx workbook",),
    ),
}


@pytest.mark.parametrize("action", ["result", "register"])
@pytest.mark.parametrize("broken", BROKEN)
def test_a_part_openpyxl_cannot_read_stops_the_action_in_one_line(
    event: Path, tmp_path: Path, broken: str, action: str
) -> None:
    """The fast path used to stop on a ValueError of its own ("run again with --debug"), or
    to write on around the part, leaving a file openpyxl cannot open."""
    part, edit, said = BROKEN[broken]
    book = tmp_path / "event.xlsx"
    _with_part(event, book, part(event), edit)
    before = digest(book)
    params = _action(event, action)
    args = [f"--{k}" if v is True else f"--{k}={v}" for k, v in params.items() if v is not None]
    done = run(action, book, *args)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "--debug" not in done.stderr
    assert len(done.stderr.strip().splitlines()) <= 2, done.stderr
    assert all(fragment in done.stderr for fragment in said), done.stderr
    assert digest(book) == before


# --- a sheet another program wrote -----------------------------------------------------


def test_a_result_formula_on_a_prefixed_sheet_is_refused_as_openpyxl_refuses_it(
    event: Path, tmp_path: Path
) -> None:
    """With ``<x:c>`` cells calamine's formula marks were not found: it read the formula's
    cached text as the result and the drop went ahead where openpyxl names the cell."""
    book = tmp_path / "event.xlsx"
    _with_part(
        event, book, _part(event, f"Round {ROUNDS}"), lambda x: _prefixed(_result_formula(x))
    )
    before = digest(book)
    _, player = _members(book)
    done = run("drop", book, "--player", player, "--yes")
    assert done.returncode == 1, done.stdout
    assert "Traceback" not in done.stderr
    assert f"Round {ROUNDS}!F2" in done.stderr
    assert digest(book) == before


def _edit(part_of: str, edit: Callable[[bytes], bytes]) -> Callable[[Path, Path], None]:
    def make(event: Path, out: Path) -> None:
        part = part_of if "/" in part_of else _part(event, part_of)
        _with_part(event, out, part, edit)

    return make


def _repacked(how: int, extra: dict[str, bytes]) -> Callable[[Path, Path], None]:
    def make(event: Path, out: Path) -> None:
        with zipfile.ZipFile(event) as source, zipfile.ZipFile(out, "w") as copy:
            for item in source.infolist():
                info = zipfile.ZipInfo(item.filename, item.date_time)
                info.compress_type = how
                copy.writestr(info, source.read(item))
            for name, data in extra.items():
                copy.writestr(name, data, zipfile.ZIP_DEFLATED)

    return make


def _streamed(event: Path, out: Path) -> None:
    """Every entry with a data descriptor after it (a zip written to a pipe)."""

    class Unseekable:
        def __init__(self, raw: object) -> None:
            self.raw = raw

        def write(self, data: bytes) -> int:
            return self.raw.write(data)  # type: ignore[attr-defined,no-any-return]

        def tell(self) -> int:
            return self.raw.tell()  # type: ignore[attr-defined,no-any-return]

        def flush(self) -> None:
            self.raw.flush()  # type: ignore[attr-defined]

    with zipfile.ZipFile(event) as source:
        items = [(item, source.read(item)) for item in source.infolist()]
    with open(out, "wb") as raw, zipfile.ZipFile(Unseekable(raw), "w", zipfile.ZIP_DEFLATED) as z:
        for item, data in items:
            with z.open(zipfile.ZipInfo(item.filename, item.date_time), "w") as entry:
                entry.write(data)
    with zipfile.ZipFile(out) as written:
        assert all(item.flag_bits & 0x08 for item in written.infolist())


def _below_the_log(cells: bytes) -> Callable[[bytes], bytes]:
    return lambda xml: xml.replace(b"</sheetData>", cells + b"</sheetData>")


def _rows_swapped(xml: bytes) -> bytes:
    five = re.search(rb'<row r="5".*?</row>', xml, re.S)
    six = re.search(rb'<row r="6".*?</row>', xml, re.S)
    assert five and six
    return xml.replace(five[0], b"\0").replace(six[0], five[0]).replace(b"\0", six[0])


def _escaped_name(xml: bytes) -> bytes:
    """Excel writes a control character typed in a cell as ``_x0009_``."""
    name = re.compile(rb'(<c r="C3"[^>]*><is><t>)[^<]*(</t>)')
    assert name.search(xml)
    return name.sub(rb"\1Chris_x0009_tina\2", xml, count=1)


EXTRA = {
    "customXml/item1.xml": b"<root>the TD's own</root>",
    "xl/vbaProject.bin": bytes(range(256)),
}
RICH = b'<c r="K3" t="inlineStr"><is><r><t>late</t></r><r><rPr><b/></rPr><t> in</t></r></is></c>'
FORMULA = b'<row r="60"><c r="D60" t="str"><f>"x"&amp;"y"</f><v>xy</v></c></row>'
LONG = b'<row r="60"><c r="D60" t="inlineStr"><is><t>' + b"y" * 40000 + b"</t></is></c></row>"

PACKAGES: dict[str, Callable[[Path, Path], None]] = {
    "Round sheet with x: prefixes": _edit(f"Round {ROUNDS}", _prefixed),
    "Players sheet with x: prefixes": _edit("Players", _prefixed),
    "Round sheet in UTF-16": _edit(f"Round {ROUNDS}", _utf16),
    "Round sheet rows out of order": _edit(f"Round {ROUNDS}", _rows_swapped),
    "Round sheet without a dimension": _edit(
        f"Round {ROUNDS}", lambda x: re.sub(rb"<dimension[^>]*/>", b"", x)
    ),
    "Round sheet rich text": _edit(
        f"Round {ROUNDS}",
        lambda x: re.sub(
            rb'<c r="K3"[^>]*?(?:/>|>.*?</c>)',
            RICH,
            x,
            count=1,
            flags=re.S,
        ),
    ),
    "Log with a formula and its cached text": _edit(
        "Log",
        _below_the_log(FORMULA),
    ),
    "Log with 40,000 characters in a cell": _edit(
        "Log",
        _below_the_log(
            b'<row r="60"><c r="D60" t="inlineStr"><is><t>' + b"y" * 40000 + b"</t></is></c></row>"
        ),
    ),
    "styles with a wrong count of cell formats": _edit(
        "xl/styles.xml", lambda x: re.sub(rb'<cellXfs count="\d+"', b'<cellXfs count="3"', x)
    ),
    "Players name with Excel's escape of a tab": _edit("Players", _escaped_name),
    "entries stored, not compressed": _repacked(zipfile.ZIP_STORED, {}),
    "parts of another program's own": _repacked(zipfile.ZIP_DEFLATED, EXTRA),
    "entries with data descriptors": _streamed,
}


@pytest.mark.parametrize("action", ["result", "register"])
@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_another_program_wrote_takes_a_desk_action_as_openpyxl_does(
    event: Path, tmp_path: Path, package: str, action: str
) -> None:
    book = tmp_path / "event.xlsx"
    PACKAGES[package](event, book)
    fast, reference, _ = _store_and_reference(book, tmp_path, action)
    assert _cells(fast) == _cells(reference)
    with zipfile.ZipFile(book) as before, zipfile.ZipFile(fast) as after:
        assert after.testzip() is None
        for name in set(EXTRA) & set(before.namelist()):
            assert after.read(name) == before.read(name)


def test_what_the_store_wrote_on_a_prefixed_utf16_package_opens_in_libreoffice(
    event: Path, tmp_path: Path
) -> None:
    book = tmp_path / "event.xlsx"
    _with_part(event, book, _part(event, f"Round {ROUNDS}"), lambda x: _utf16(_prefixed(x)))
    params = _action(book, "result")
    store = FileStore.open(book)
    _run(store, "result", params)
    saved = libreoffice_convert(book, "xlsx:Calc MS Excel 2007 XML", tmp_path / "lo")
    ws = openpyxl.load_workbook(saved)[f"Round {ROUNDS}"]
    assert ws["F2"].value == ("Black wins" if params["result"] == "B" else "White wins")


def test_a_name_in_rich_text_runs_keeps_its_space_in_a_workbook_libreoffice_saved(
    event: Path, tmp_path: Path
) -> None:
    """A shared string of two runs, the second beginning with a space that is not marked
    preserved: openpyxl reads "Elwyn R.", calamine read "ElwynR.", and a rating set wrote
    the player's row back with the name nobody typed."""
    saved = libreoffice_convert(event, "xlsx:Calc MS Excel 2007 XML", tmp_path / "lo")
    book = tmp_path / "event.xlsx"

    def runs(xml: bytes) -> bytes:
        name = re.compile(rb'<si><t xml:space="preserve">(\w+)( [A-Z]\.)</t></si>')
        assert name.search(xml)
        return name.sub(rb"<si><r><t>\1</t></r><r><rPr><b/></rPr><t>\2</t></r></si>", xml)

    _with_part(saved, book, "xl/sharedStrings.xml", runs)
    players = players_table(ROUNDS)
    fast = CalamineReader.open(book, [players.sheet]).read_table(players)
    slow = OpenpyxlGateway.open(book).read_table(players)
    assert [r.values for r in fast.rows] == [r.values for r in slow.rows]
    fast_book, reference, _ = _store_and_reference(book, tmp_path, "set-rating")
    assert _values(fast_book) == _values(reference)


def _values(book: Path) -> dict[str, object]:
    """Each cell's value and number format (openpyxl reads LibreOffice's own cell styles
    back otherwise than it writes its own: wrapping False or None, row heights kept)."""
    return {k: v[:2] for k, v in _cells(book).items() if isinstance(v, tuple)}
