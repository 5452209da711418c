"""The journal and undo, through the real command line on real workbooks.

Every writing action of the registry is run, taken back with ``undo`` and compared,
sheet by sheet and byte by byte, with the workbook before it; an undo is undone; a whole
tournament made through the command line is undone step by step to its start and redone.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import openpyxl
import pytest
from workbook_fixtures import simple_tournament, write_workbook

from addin.actions.registry import Action, ParamKind, load_all
from addin.core.model import Tournament
from addin.journal.store import Journal, folder_of
from tests.helpers import DATA, digest, run
from tests.list_server import closed_port

SAMPLE_INPUTS = {
    "import-aga-xml": DATA / "aga-xml" / "2013-12.xml",
    "import-aga-text": DATA / "aga-text" / "eggplant-sample-report.txt",
    "import-opengotha": DATA / "opengotha" / "simplemm.xml",
    "import-egd-list": DATA / "egd" / "allworld_lp-2018-12-27-excerpt.html",
}


def values(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every sheet's values, as a TD sees them."""
    wb = openpyxl.load_workbook(path)
    return {ws.title: [tuple(r) for r in ws.iter_rows(values_only=True)] for ws in wb}


def journal(book: Path) -> list[dict[str, object]]:
    return [asdict(e) for e in Journal.load(book).entries]


def tdlista_of(directory: Path, t: Tournament) -> Path:
    """A TDListA listing the field (current members) and two others."""
    lines = [
        f"{p.family_name}, {p.given_name}\t{p.aga_id}\tFull\t{p.rating:.5f}\t12/31/2030"
        f"\t{p.chapter}\t{p.state}\t0.5\t1/1/2025"
        for p in t.players.values()
    ]
    lines += ["Other, Olga\t20001\tFull\t-3.5\t12/31/2030\tSEAG\tWA\t0.5\t1/1/2025"]
    path = directory / "TDListA.txt"
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    return path


def argv(spec: Action, params: dict[str, object]) -> list[object]:
    args: list[object] = []
    for param in spec.params:
        value = params.get(param.name)
        if value is None or value is False:
            continue
        if param.positional:
            args.append(value)
        elif param.kind is ParamKind.FLAG:
            args.append(f"--{param.name.replace('_', '-')}")
        else:
            args += [f"--{param.name.replace('_', '-')}", value]
    return args


def sample_params(spec: Action, tmp: Path, t: Tournament) -> dict[str, object]:
    """Parameters that make sense on the 12-player tournament of ``played``."""
    ids = sorted(t.players)
    csv = tmp / "prereg.csv"
    csv.write_text('Name,AGA #,Rank\r\n"Doe, John",,5k\r\n', encoding="utf-8")
    known: dict[str, dict[str, object]] = {
        "import-tdlista": {"tdlista": tdlista_of(tmp, t)},
        "preregister": {"csv": csv},
        "register": {"name": "Doe, Jane", "rank": "3k"},
        "lookup": {"query": t.players[ids[0]].family_name[:4]},
        "unpair": {},
        "pair": {},
        "result": {"round": 2, "board": 1, "result": "W"},
        "set-game": {"round": 2, "board": 1, "swap_colours": True},
        "break-pair": {"round": 2, "board": 1},
        "serve": {"poster_only": True},  # serving runs until stopped; the poster alone ends
        # nobody listens there: refused, no journal entry (import-tdlista's entry is undone)
        "download-list": {"url": f"http://127.0.0.1:{closed_port()}/tdlista.txt"},
    }
    if spec.id in known:
        return known[spec.id]
    by_name: dict[str, object] = {
        "player": ids[1],
        "first": ids[2],
        "second": ids[4],
        "white": ids[3],
        "black": ids[5],
        "board": 1,
        "band": 1,
        "rating": "2k",
        "round": 3,
    }
    params: dict[str, object] = {}
    for param in spec.params:
        if param.kind is ParamKind.FILE_IN:
            params[param.name] = SAMPLE_INPUTS[spec.id]
        elif param.kind is ParamKind.FILE_OUT:
            params[param.name] = tmp / f"{spec.id}-{param.name}.out"
        elif param.choices:
            params[param.name] = param.choices[0]
        elif param.name in by_name:
            params[param.name] = by_name[param.name]
    return params


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Tournament]:
    """12 players, 2 of 3 rounds played, and a fresh workbook (for the importers)."""
    folder = tmp_path_factory.mktemp("played")
    t = simple_tournament(12, 2, seed=12)
    write_workbook(folder / "played.xlsx", t, 3)
    assert run("bands", folder / "played.xlsx", "--yes").returncode == 0
    shutil.rmtree(folder_of(folder / "played.xlsx"))  # each test starts a journal of its own
    assert run("new", folder / "empty.xlsx", "--name", "Empty").returncode == 0
    return folder, t


WRITERS_EXPECTED = {"import-tdlista", "register", "bands", "pair", "unpair", "result", "drop"}


def test_each_writing_action_is_taken_back_by_undo(
    played: tuple[Path, Tournament], tmp_path: Path
) -> None:
    folder, t = played
    changed: set[str] = set()
    for spec in load_all().values():
        base = "empty.xlsx" if spec.id.startswith("import-aga") else "played.xlsx"
        book = tmp_path / f"{spec.id}.xlsx"
        book.write_bytes((folder / base).read_bytes())
        before, shown = digest(book), values(book)
        done = run(spec.id, book, *argv(spec, sample_params(spec, tmp_path, t)), "--yes")
        if digest(book) == before:  # a reading action, or one that refused: no entry at all
            assert not folder_of(book).exists(), spec.id
            continue
        assert done.returncode == 0, (spec.id, done.stderr)
        changed.add(spec.id)
        entries = journal(book)
        assert [e["action"] for e in entries] == [spec.id]
        assert entries[0]["door"] == "CLI" and entries[0]["after"] == digest(book)
        undone = run("undo", book)
        assert undone.returncode == 0, (spec.id, undone.stderr)
        assert values(book) == shown, spec.id
        assert digest(book) == before, spec.id
    assert changed >= WRITERS_EXPECTED, sorted(changed)
    assert len(changed) >= 15, sorted(changed)


def test_reading_actions_never_touch_the_journal(
    played: tuple[Path, Tournament], tmp_path: Path
) -> None:
    folder, t = played
    book = copy_of_played(folder, tmp_path)
    assert run("drop", book, "--player", min(t.players), "--yes").returncode == 0
    kept = {p.name: p.read_bytes() for p in folder_of(book).rglob("*") if p.is_file()}
    before = digest(book)
    for command in (
        ["report", book, "--kind", "pairings", "--out", tmp_path / "r.html"],
        ["lookup", book, t.players[min(t.players)].family_name],
        ["check", book],
        ["history", book],
    ):
        run(*command)
    assert digest(book) == before
    assert {p.name: p.read_bytes() for p in folder_of(book).rglob("*") if p.is_file()} == kept


def test_undo_of_an_undo_puts_the_action_back(
    played: tuple[Path, Tournament], tmp_path: Path
) -> None:
    folder, _t = played
    book = copy_of_played(folder, tmp_path)
    first = digest(book)
    assert run("pair", book, "--yes").returncode == 0
    paired, paired_values = digest(book), values(book)
    assert run("undo", book).returncode == 0 and digest(book) == first
    again = run("undo", book, "--to", 2)  # entry 2 is the undo: the state before it
    assert again.returncode == 0, again.stderr
    assert digest(book) == paired and values(book) == paired_values
    assert run("undo", book).returncode == 0 and digest(book) == first  # undo steps back again
    assert run("redo", book).returncode == 0 and digest(book) == paired
    listing = run("history", book).stdout
    assert "undo: back to the state before entry 1" in listing and "redo" in listing
    assert [e["action"] for e in journal(book)] == ["pair", "undo", "undo", "undo", "redo"]


def test_a_tournament_made_by_the_cli_is_undone_to_its_start_and_redone(tmp_path: Path) -> None:
    t = simple_tournament(6, 0, seed=6)
    book = tmp_path / "club.xlsx"
    steps = [["new", book, "--name", "Club", "--rounds", 5, "--start", "2026-01-10"]]
    steps.append(["import-tdlista", book, tdlista_of(tmp_path, t), "--yes"])
    steps += [["register", book, "--aga", pid, "--yes"] for pid in sorted(t.players)]
    steps.append(["bands", book, "--yes"])
    for n in range(1, 6):
        steps.append(["pair", book, "--yes"])
        steps += [
            ["result", book, "--round", n, "--board", b, "--result", "WB"[(n + b) % 2]]
            for b in (1, 2, 3)
        ]
        steps.append(["standings", book, "--yes"])
    for step in steps:
        done = run(*step)
        assert done.returncode == 0, (step, done.stderr)
    entries = journal(book)
    assert len(entries) == len(steps)
    start = entries[0]["after"]
    final, final_values = digest(book), values(book)
    seen = [final]
    for _ in range(len(steps) - 1):
        assert run("undo", book).returncode == 0
        seen.append(digest(book))
    assert digest(book) == start
    assert seen == [e["after"] for e in reversed(entries)]  # each step back is the state before
    refused = run("undo", book)
    assert refused.returncode == 1 and "no state before it" in refused.stderr
    assert digest(book) == start
    for _ in range(len(steps) - 1):
        assert run("redo", book).returncode == 0
    assert digest(book) == final and values(book) == final_values
    assert run("redo", book).returncode == 1  # nothing more to redo


def test_undo_to_an_entry_and_its_redo_name_every_action_they_move(
    played: tuple[Path, Tournament], tmp_path: Path
) -> None:
    """A redo after ``undo --to N`` brings back every action from N on, and says so: a
    message naming only entry N would let the TD think the rest is still gone."""
    folder, _t = played
    book = copy_of_played(folder, tmp_path)
    assert run("pair", book, "--yes").returncode == 0
    for board in (1, 2):
        assert run("result", book, "--board", board, "--result", "W").returncode == 0
    done = run("result", book, "--board", 3, "--result", "B")
    assert done.returncode == 0, done.stderr
    back = run("undo", book, "--to", 2)
    assert back.returncode == 0, back.stderr
    assert "as it was before entry 2 (result board=1 result=W)" in back.stdout
    assert "took back 3 entries: 2 (result board=1 result=W), 3 (result board=2 result=W)" in (
        back.stdout
    )
    again = run("redo", book)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("Redid 3 entries: 2 (result board=1 result=W), 3 (")
    assert "and 4 (result board=3 result=B), which undo entry 5 took back" in again.stdout


def copy_of_played(folder: Path, tmp_path: Path) -> Path:
    """A fresh copy of the played workbook, with no journal yet."""
    book = tmp_path / "t.xlsx"
    book.write_bytes((folder / "played.xlsx").read_bytes())
    return book


def hand_edit(book: Path, sheet: str, cell: str, value: object) -> None:
    wb = openpyxl.load_workbook(book)
    wb[sheet][cell] = value
    wb.save(book)


def test_hand_edits_after_the_last_action_are_named_and_kept_unless_confirmed(
    played: tuple[Path, Tournament], tmp_path: Path
) -> None:
    folder, t = played
    book = copy_of_played(folder, tmp_path)
    before = values(book)
    assert run("drop", book, "--player", min(t.players), "--yes").returncode == 0
    hand_edit(book, "Tournament", "B2", "Renamed by hand")
    edited = digest(book)
    asked = run("undo", book)
    assert asked.returncode == 3
    assert "changed after entry 1 (sheets Tournament)" in asked.stderr
    assert "hand edits would be lost" in asked.stderr and "--yes" in asked.stderr
    assert digest(book) == edited and len(journal(book)) == 1
    assert "note: t.xlsx was changed after entry 1" in run("history", book).stdout
    done = run("undo", book, "--yes")
    assert done.returncode == 0, done.stderr
    assert values(book) == before
    assert run("undo", book, "--to", 2).returncode == 0  # the hand edit comes back with it
    assert digest(book) == edited


def test_a_workbook_saved_again_without_changes_is_no_hand_edit(
    played: tuple[Path, Tournament], tmp_path: Path
) -> None:
    folder, t = played
    book = copy_of_played(folder, tmp_path)
    assert run("drop", book, "--player", min(t.players), "--yes").returncode == 0
    openpyxl.load_workbook(book).save(book)  # other bytes, the same values
    assert run("undo", book).returncode == 0


@pytest.mark.parametrize(
    "damage",
    [
        "no folder",
        "journal garbage",
        "journal missing",
        "state missing",
        "manifest damaged",
        "part missing",
        "part damaged",
        "read-only book",
    ],
)
def test_a_broken_journal_is_one_line_and_leaves_the_workbook_alone(
    played: tuple[Path, Tournament], tmp_path: Path, damage: str
) -> None:
    folder, t = played
    book = copy_of_played(folder, tmp_path)
    first = digest(book)
    assert run("drop", book, "--player", min(t.players), "--yes").returncode == 0
    history = folder_of(book)
    manifest = history / "states" / f"{first}.json.gz"
    part = max(Journal.load(book).states.files_of(first, ""), key=lambda p: p.stat().st_size)
    if damage == "no folder":
        for p in sorted(history.rglob("*"), reverse=True):
            p.rmdir() if p.is_dir() else p.unlink()
        history.rmdir()
    elif damage == "journal garbage":
        (history / "journal.jsonl").write_text("{not json", encoding="utf-8")
    elif damage == "journal missing":
        (history / "journal.jsonl").unlink()
    elif damage == "state missing":
        manifest.unlink()
    elif damage == "manifest damaged":
        manifest.write_bytes(manifest.read_bytes()[:-10])
    elif damage == "part missing":
        part.unlink()
    elif damage == "part damaged":
        part.write_bytes(part.read_bytes()[:-10])
    else:
        os.chmod(book, stat.S_IRUSR)
    kept = digest(book)
    files = {p: p.read_bytes() for p in history.rglob("*") if p.is_file()}
    done = run("undo", book)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "unchanged" in lines[0]
    if damage.startswith(("state", "manifest")):
        assert str(manifest) in lines[0]
    if damage.startswith("part"):
        assert str(part) in lines[0]
    assert digest(book) == kept
    assert {p: p.read_bytes() for p in history.rglob("*") if p.is_file()} == files
    if damage.startswith("journal"):  # a writing action refuses too, rather than lose the net
        refused = run("readmit", book, "--player", min(t.players), "--yes")
        assert refused.returncode == 1 and "journal" in refused.stderr
        assert digest(book) == kept


def test_prune_keeps_what_later_entries_need(
    played: tuple[Path, Tournament], tmp_path: Path
) -> None:
    folder, t = played
    book = copy_of_played(folder, tmp_path)
    ids = sorted(t.players)
    for pid in ids[:3]:
        assert run("drop", book, "--player", pid, "--yes").returncode == 0
    assert len(list((folder_of(book) / "states").iterdir())) == 4
    pruned = run("history", book, "--prune-before", 3)
    assert pruned.returncode == 0 and "Removed 2 snapshot(s)" in pruned.stdout
    assert run("undo", book).returncode == 0
    refused = run("undo", book)
    assert refused.returncode == 1 and "is missing" in refused.stderr


def test_undo_waits_its_turn_and_gives_up_leaving_the_workbook_alone(
    played: tuple[Path, Tournament], tmp_path: Path
) -> None:
    """Another command holds the workbook's turn lock: undo waits, then says it is busy."""
    folder, t = played
    book = copy_of_played(folder, tmp_path)
    assert run("drop", book, "--player", min(t.players), "--yes").returncode == 0
    kept = digest(book)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_THE_TURN, str(book)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        env = os.environ | {"AGA_MCMAHON_LOCK_TIMEOUT": "1"}
        done = subprocess.run(
            [sys.executable, "-m", "addin", "undo", str(book)],
            capture_output=True,
            text=True,
            env=env,
        )
    finally:
        holder.kill()
        holder.wait()
    assert done.returncode == 1 and "busy" in done.stderr
    assert digest(book) == kept and len(journal(book)) == 1


HOLD_THE_TURN = """
import sys, time
from pathlib import Path
from addin.workbook.saving import one_at_a_time
with one_at_a_time(Path(sys.argv[1])):
    print("holding", flush=True)
    time.sleep(60)
"""


def test_a_journal_that_cannot_be_written_leaves_the_workbook_as_it_was(
    played: tuple[Path, Tournament], tmp_path: Path
) -> None:
    """The save happened, the entry could not be added: the workbook is put back."""
    folder, t = played
    book = copy_of_played(folder, tmp_path)
    ids = sorted(t.players)
    assert run("drop", book, "--player", ids[0], "--yes").returncode == 0
    kept, entries = digest(book), journal(book)
    os.chmod(folder_of(book) / "journal.jsonl", stat.S_IRUSR)
    for command in (["drop", book, "--player", ids[1], "--yes"], ["undo", book]):
        done = run(*command)
        assert done.returncode == 1 and "journal.jsonl is read-only" in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
        assert digest(book) == kept and journal(book) == entries


def test_undo_refuses_while_excel_has_the_workbook_open(
    played: tuple[Path, Tournament], tmp_path: Path
) -> None:
    folder, t = played
    book = tmp_path / "tournament.xlsx"
    book.write_bytes((folder / "played.xlsx").read_bytes())
    first = digest(book)
    assert run("drop", book, "--player", min(t.players), "--yes").returncode == 0
    kept = digest(book)
    owner = tmp_path / "~$tournament.xlsx"
    owner.write_bytes(bytes([4]) + b"Jane" + bytes(50))
    refused = run("undo", book)
    assert refused.returncode == 1 and "open in Excel" in refused.stderr
    assert digest(book) == kept and len(journal(book)) == 1
    assert run("undo", book, "--force").returncode == 0  # a lock file left over from a crash
    assert digest(book) == first


def test_stepping_back_over_hand_edits_between_two_actions_asks_first(
    played: tuple[Path, Tournament], tmp_path: Path
) -> None:
    folder, t = played
    book = copy_of_played(folder, tmp_path)
    ids = sorted(t.players)
    assert run("drop", book, "--player", ids[0], "--yes").returncode == 0
    hand_edit(book, "Tournament", "B2", "Typed between")
    assert run("drop", book, "--player", ids[1], "--yes").returncode == 0
    assert run("undo", book).returncode == 0  # takes back the second drop: the typing stays
    assert openpyxl.load_workbook(book)["Tournament"]["B2"].value == "Typed between"
    kept = digest(book)
    asked = run("undo", book)
    assert asked.returncode == 3 and "changed after entry 1 (sheets Tournament)" in asked.stderr
    assert digest(book) == kept
    assert run("undo", book, "--yes").returncode == 0
    assert openpyxl.load_workbook(book)["Tournament"]["B2"].value != "Typed between"
