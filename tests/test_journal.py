"""The journal keeps parts, not workbooks, and appends its entries.

A state is a manifest of the package's members, each member's compressed bytes kept once
by its SHA-256; undo rebuilds the package from them, the same workbook part for part. The
entries are one JSON line each, appended: a line cut short by a kill is set aside with a
note, never a refusal of the whole journal; a journal of format 1 (journal.json and whole
copies, tests/data/journal-format-1, made by the code before this one) is read as it is and
continued. Pruning keeps every part a kept state needs and removes the rest. Two processes
writing one workbook take turns in its journal.
"""

from __future__ import annotations

import gzip
import io
import json
import shutil
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import pytest
from workbook_fixtures import simple_tournament, write_workbook

from addin.journal.errors import JournalError
from addin.journal.parts import States, members, sha256
from addin.journal.store import Journal, folder_of
from tests.helpers import DATA, digest, run

FORMAT_1 = DATA / "journal-format-1"


def parts_of(data: bytes) -> dict[str, bytes]:
    """The package's members: name -> uncompressed bytes (what a spreadsheet reads)."""
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        return {info.filename: package.read(info) for info in package.infolist()}


def stored(book: Path) -> list[Path]:
    """The files holding the journal's parts: each its own, or packed together."""
    history = folder_of(book)
    return [*(history / "parts").glob("*/*"), *(history / "packs").glob("*.pack")]


def lines(book: Path) -> list[bytes]:
    return (folder_of(book) / "journal.jsonl").read_bytes().splitlines(keepends=True)


@pytest.fixture(scope="module")
def field(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("field")
    write_workbook(folder / "event.xlsx", simple_tournament(10, 1, seed=51), 3)
    return folder / "event.xlsx"


@pytest.fixture
def book(field: Path, tmp_path: Path) -> Path:
    path = tmp_path / "event.xlsx"
    shutil.copyfile(field, path)
    return path


ACTIONS = [
    ("register", "--name", "Aoki, Hana", "--rank", "2k", "--yes"),
    ("register", "--name", "Berg, Olav", "--rank", "4d", "--yes"),
    ("bands", "--yes"),
    ("pair", "--yes"),
    ("drop", "--player", "{player}", "--yes"),
]


def do_actions(book: Path) -> list[bytes]:
    """Run ACTIONS through the command line; the workbook's bytes before each."""
    player = min(simple_tournament(10, 1, seed=51).players)
    before = []
    for action in ACTIONS:
        before.append(book.read_bytes())
        args = [a.format(player=player) for a in action]
        done = run(args[0], book, *args[1:])
        assert done.returncode == 0, done.stderr
    return before


def test_undo_puts_back_the_same_workbook_part_for_part(book: Path) -> None:
    before = do_actions(book)
    for expected in reversed(before):
        assert run("undo", book).returncode == 0
        assert parts_of(book.read_bytes()) == parts_of(expected)
        assert book.read_bytes() == expected, "rebuilt byte for byte from its parts"
    for action in range(len(ACTIONS)):  # redo brings each back, as it was after the action
        assert run("redo", book).returncode == 0
        after = before[action + 1] if action + 1 < len(before) else None
        if after is not None:
            assert parts_of(book.read_bytes()) == parts_of(after)


def test_a_state_is_a_manifest_and_each_part_is_kept_once(book: Path) -> None:
    original = book.read_bytes()
    do_actions(book)
    journal = Journal.load(book)
    states = {d for e in journal.entries for d in (e.before, e.after) if d}
    manifests = sorted((folder_of(book) / "states").glob("*.json.gz"))
    assert {p.name[:64] for p in manifests} == states
    used = set().union(*(journal.states.files_of(s, s) for s in states))
    assert set(stored(book)) == used
    kept = sum(p.stat().st_size for p in stored(book))
    whole = sum(len(journal.read_state(s, s)) for s in states)
    assert kept < whole / 2, f"{len(states)} states: a member unchanged is kept once"
    for path in (folder_of(book) / "parts").glob("*/*"):  # named by the SHA-256 of their
        name = path.parent.name + path.name  # bytes (a chunk: of its content); a packed
        assert name == digest(path) or name == sha256(zlib.decompress(path.read_bytes()))
    # part is checked against its name when read, as every state is read above
    cut = members(original)
    assert cut is not None
    assert [m.name for m in cut] == [
        i.filename for i in zipfile.ZipFile(io.BytesIO(original)).infolist()
    ]
    first = json.loads(
        gzip.decompress(
            (folder_of(book) / "states" / f"{journal.entries[0].before}.json.gz").read_bytes()
        )
    )
    named = [p["name"] for p in first["pieces"] if isinstance(p, dict)]
    assert named == [m.name for m in cut]
    assert journal.read_state(journal.entries[0].before, "the first state") == original


def sheet_package(rows: list[str]) -> bytes:
    """A package as the store writes one: a sheet of ``rows``, and a small member."""
    xml = "".join(
        f'<row r="{n}"><c r="A{n}" t="inlineStr"><is><t>{text}</t></is></c></row>'
        for n, text in enumerate(rows, start=1)
    )
    out = io.BytesIO()
    saved = (2026, 11, 29, 4, 31, 26)  # one time: the same rows make the same package
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        for name, text in (
            ("docProps/core.xml", "<cp:coreProperties/>"),
            ("xl/worksheets/sheet1.xml", f"<worksheet><sheetData>{xml}</sheetData></worksheet>"),
        ):
            info = zipfile.ZipInfo(name, saved)
            info.compress_type = zipfile.ZIP_DEFLATED
            package.writestr(info, text)
    return out.getvalue()


def test_a_member_that_changed_is_kept_as_chunks_and_costs_the_rows_that_changed(
    tmp_path: Path,
) -> None:
    """A member's first change keeps it whole again (a single entry pays no decompression),
    its second as chunks (its whole content once more); from then on a change costs the run
    of rows that holds it."""
    states = States(tmp_path / "x.history")
    rows = [f"Player {n}, {n % 9 + 1}k, Not arrived, club {n * 7919 % 1000}" for n in range(3000)]
    first = sheet_package(rows)
    state, _ = states.keep(first)
    sheet = zipfile.ZipFile(io.BytesIO(first)).getinfo("xl/worksheets/sheet1.xml")
    kept = [(state, first)]
    for n, change in enumerate((10, 1500, 2999, 700, None)):  # check-ins, a registration
        if change is None:
            rows.append("Walk-in, 3k, Active, club 1")
        else:
            rows[change] = rows[change].replace("Not arrived", "Active")
        package = sheet_package(rows)
        state, written = states.keep(package, state)
        cost = sum(p.stat().st_size for p in written if "states" not in p.parts)
        if n >= 2:
            assert 0 < cost < sheet.compress_size / 10, change
        kept.append((state, package))
    for state, package in kept:
        assert states.read(state, "a state") == package, "rebuilt byte for byte"


def test_a_chunked_member_another_zlib_compresses_otherwise_gives_the_same_workbook(
    tmp_path: Path,
) -> None:
    """Restoring a chunked member compresses it again: should this Python's zlib compress
    otherwise than the one that kept it, the package is written again member by member,
    the same workbook part for part."""
    states = States(tmp_path / "x.history")
    rows = [f"row {n} " * 8 for n in range(2000)]
    after, _ = states.keep(sheet_package(rows))
    for change in (7, 8):  # kept as chunks from its second change
        rows[change] = "changed"
        after, _ = states.keep(sheet_package(rows), after)
    path = states.manifest_path(after)
    manifest = json.loads(gzip.decompress(path.read_bytes()))
    [chunked] = [p for p in manifest["pieces"] if isinstance(p, dict) and "chunks" in p]
    chunked["level"] = 1  # as if this zlib's default level compressed otherwise
    path.write_bytes(gzip.compress(json.dumps(manifest).encode()))
    assert parts_of(states.read(after, "after")) == parts_of(sheet_package(rows))


def test_a_file_that_is_no_zip_is_kept_whole_as_one_part(tmp_path: Path) -> None:
    states = States(tmp_path / "x.history")
    data = b"not a zip package, " * 100
    name, written = states.keep(data)
    assert len(written) == 2 and states.read(name, "it") == data


def test_each_entry_is_one_line_appended(book: Path) -> None:
    assert run("bands", book, "--yes").returncode == 0
    first = lines(book)
    assert json.loads(first[0])["format"] == 2 and len(first) == 2
    assert run("register", book, "--name", "Aoki, Hana", "--rank", "2k", "--yes").returncode == 0
    second = lines(book)
    assert second[:2] == first, "the lines already there are not rewritten"
    assert json.loads(second[2])["number"] == 2 and second[2].endswith(b"\n")


def test_a_torn_last_line_is_set_aside_with_a_note_not_refused(book: Path) -> None:
    """A kill while an entry is written leaves a line cut short: the journal is still read
    (the line is left out, with a note), the next entry takes its place, undo works."""
    assert run("bands", book, "--yes").returncode == 0
    kept = book.read_bytes()
    assert run("register", book, "--name", "Aoki, Hana", "--rank", "2k", "--yes").returncode == 0
    whole = lines(book)
    file = folder_of(book) / "journal.jsonl"
    file.write_bytes(b"".join(whole[:-1]) + whole[-1][: len(whole[-1]) // 2])  # cut short
    shown = run("history", book)
    assert shown.returncode == 0
    assert "cut short" in shown.stdout and str(file) in shown.stdout
    assert "register" not in shown.stdout, "the torn entry is left out"
    added = run("register", book, "--name", "Berg, Olav", "--rank", "2k", "--yes")
    assert added.returncode == 0 and "cut short" in added.stdout
    now = lines(book)
    assert now[:-1] == whole[:-1] and json.loads(now[-1])["number"] == 2
    assert "cut short" in " ".join(json.loads(now[-1])["notes"])
    assert "cut short" not in run("history", book).stdout, "set aside once"
    with_torn = parts_of(book.read_bytes())
    assert run("undo", book).returncode == 0
    assert parts_of(book.read_bytes()) not in (with_torn, parts_of(kept)), (
        "back to before entry 2, the torn entry's action still in the workbook"
    )
    assert len(Journal.load(book).entries) == 3


def test_a_damaged_line_before_the_last_refuses_the_journal_in_one_line(book: Path) -> None:
    for name in ("Aoki, Hana", "Berg, Olav"):
        assert run("register", book, "--name", name, "--rank", "1k", "--yes").returncode == 0
    whole = lines(book)
    file = folder_of(book) / "journal.jsonl"
    file.write_bytes(whole[0] + b'{"number": 1, "act\n' + whole[2])
    kept = digest(book)
    for command in (
        ["undo", book],
        ["register", book, "--name", "Cho, Min", "--rank", "1k", "--yes"],
    ):
        refused = run(*command)
        assert refused.returncode == 1
        [line] = refused.stderr.strip().splitlines()
        assert f"{file}: damaged at line 2" in line
    assert digest(book) == kept


def test_a_format_1_journal_is_read_as_it_is_and_continued(tmp_path: Path) -> None:
    shutil.copytree(FORMAT_1, tmp_path / "event")
    book = tmp_path / "event" / "t.xlsx"
    old = folder_of(book) / "journal.json"
    old_text = old.read_bytes()
    snapshots = folder_of(book) / "snapshots"
    before_register = {p.stem: p.read_bytes() for p in snapshots.iterdir()}
    shown = run("history", book).stdout
    assert "undo would take back entry 3 (register name=Okafor, Bayo rank=1d)" in shown
    assert "redo would take back entry 5" in shown
    continued = book.read_bytes()
    assert run("register", book, "--name", "Cho, Min", "--rank", "1k", "--yes").returncode == 0
    assert old.read_bytes() == old_text, "the format 1 file is never written again"
    [header, entry] = [json.loads(line) for line in lines(book)]
    assert header["continues"] == "journal.json" and header["after"] == 5
    assert entry["number"] == 6 and entry["before"] == sha256(continued)
    assert run("undo", book).returncode == 0  # to the state entry 5 left: a whole snapshot
    assert book.read_bytes() == continued
    assert run("undo", book).returncode == 0  # takes back entry 3, a format 1 entry
    journal = Journal.load(book)
    assert book.read_bytes() == before_register[journal.entry(3).before]
    assert parts_of(book.read_bytes()) == parts_of(before_register[journal.entry(3).before])
    assert run("undo", book, "--to", 6).returncode == 0  # back to before the undo of entry 6
    assert book.read_bytes() == continued
    assert [e.number for e in Journal.load(book).entries] == list(range(1, 10))


def test_pruning_keeps_every_part_a_kept_state_needs_and_removes_the_rest(book: Path) -> None:
    do_actions(book)
    journal = Journal.load(book)
    history = folder_of(book)
    everything = set(stored(book))
    pruned = run("history", book, "--prune-before", 4)
    assert pruned.returncode == 0 and "Removed 3 snapshot(s)" in pruned.stdout
    kept_states = {d for e in journal.entries[3:] for d in (e.before, e.after) if d}
    assert {p.name[:64] for p in (history / "states").glob("*.json.gz")} == kept_states
    needed = set().union(*(journal.states.files_of(s, s) for s in kept_states))
    left = set(stored(book))
    assert left == needed, "every part a kept state needs, and no other"
    assert left < everything, "the parts only earlier states used are gone"
    for state in kept_states:  # each kept state still rebuilds, checked against its digest
        journal.read_state(state, state)
    assert run("undo", book).returncode == 0 and run("undo", book).returncode == 0
    refused = run("undo", book)
    assert refused.returncode == 1 and "is missing" in refused.stderr


REGISTER_MANY = """
import sys
from addin.cli import main
book, who, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
for n in range(count):
    code = main(["register", book, "--name", f"{who}, Player {n}", "--rank", "3k", "--yes"])
    assert code == 0, code
"""


def test_two_processes_writing_one_workbook_take_turns_in_its_journal(book: Path) -> None:
    """Each command holds the workbook's turn while it journals: two real processes, four
    registrations each, make eight entries, each starting from the state the one before
    it left."""
    count = 4
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", REGISTER_MANY, str(book), who, str(count)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for who in ("Left", "Right")
    ]
    for writer in writers:
        _out, err = writer.communicate(timeout=300)
        assert writer.returncode == 0, err.decode()
    journal = Journal.load(book)
    assert [e.number for e in journal.entries] == list(range(1, 2 * count + 1))
    assert not journal.warnings
    for earlier, later in zip(journal.entries, journal.entries[1:], strict=False):
        assert later.before == earlier.after, f"entry {later.number} follows {earlier.number}"
    assert journal.entries[-1].after == digest(book)
    names = sorted(str(e.arguments["name"]) for e in journal.entries)
    assert names == sorted(f"{w}, Player {n}" for w in ("Left", "Right") for n in range(count))


def test_a_part_cut_short_is_named_and_mended_by_the_next_state_that_holds_it(
    tmp_path: Path,
) -> None:
    states = States(tmp_path / "x.history")
    rows = [f"row {n}" for n in range(50)]
    package = sheet_package(rows)
    first, _ = states.keep(package)
    smallest = min((tmp_path / "x.history" / "parts").glob("*/*"), key=lambda p: p.stat().st_size)
    smallest.write_bytes(smallest.read_bytes()[:-5])  # docProps/core.xml, cut short
    with pytest.raises(JournalError, match=r"a part of the first state \(docProps/core\.xml\)"):
        states.read(first, "the first state")
    rows.append("one more")  # the next state holds the same docProps/core.xml
    following = sheet_package(rows)
    second, _ = states.keep(following, first)
    assert states.read(second, "the second state") == following
    assert states.read(first, "the first state") == package
