"""A newer TDListA and a temporary number replaced, through the real command line.

The old list is the first lines of the real TDListA snapshot; the newer list is a copy of it
with a few members' lines edited as the AGA's next list would have them (rating, expiry,
chapter). Every expectation is derived from the lines edited.
"""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import openpyxl
import pytest

from addin.core.ratings import rank_of
from addin.formats.tdlista import Member, parse_tdlista
from tests.helpers import TDLISTA_SNAPSHOT, digest, log_messages, run, sheet_rows

LINES = TDLISTA_SNAPSHOT.read_text(encoding="utf-8").splitlines(keepends=True)[:400]
OLD = parse_tdlista("".join(LINES).encode())
RATED = [m for m in OLD.members if m.rating is not None and m.expiry is not None]
A, B, C = RATED[0], RATED[1], RATED[2]
"""A: rating and expiry change; B: chapter changes; C: rating changes, but the TD set C's."""
SPARE = RATED[3]
"""A member not registered: the real number of the player with a temporary one."""
NEW_RATING_A = round(A.rating + 1.3, 5)  # type: ignore[operator]
NEW_EXPIRY_A = date(A.expiry.year + 3, A.expiry.month, 1)  # type: ignore[union-attr]
NEW_CHAPTER_B = "ZZTP" if B.chapter != "ZZTP" else "ZZTQ"
NEW_RATING_C = round(C.rating + 0.8, 5)  # type: ignore[operator]
TD_RATING_C = round(C.rating - 0.5, 1)  # type: ignore[operator]


def _line(m: Member, rating: float | None, expiry: date | None, chapter: str) -> str:
    fields = LINES[_index(m)].rstrip("\r\n").split("\t")
    fields[3] = f"{rating:.5f}" if rating is not None else ""
    fields[4] = f"{expiry.month}/{expiry.day}/{expiry.year}" if expiry else ""
    fields[5] = chapter
    return "\t".join(fields) + "\n"


def _index(m: Member) -> int:
    return next(i for i, line in enumerate(LINES) if line.split("\t")[1] == str(m.aga_id))


def newer_lines() -> list[str]:
    lines = list(LINES)
    lines[_index(A)] = _line(A, NEW_RATING_A, NEW_EXPIRY_A, A.chapter)
    lines[_index(B)] = _line(B, B.rating, B.expiry, NEW_CHAPTER_B)
    lines[_index(C)] = _line(C, NEW_RATING_C, C.expiry, C.chapter)
    return lines


@pytest.fixture(scope="module")
def lists(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("lists")
    old, new = folder / "tdlista-old.txt", folder / "tdlista-new.txt"
    old.write_text("".join(LINES), encoding="utf-8")
    new.write_text("".join(newer_lines()), encoding="utf-8")
    return old, new


@pytest.fixture(scope="module")
def registered(tmp_path_factory: pytest.TempPathFactory, lists: tuple[Path, Path]) -> Path:
    """A, B, C and a new player (temporary number) registered; C's entry rating set by hand."""
    path = tmp_path_factory.mktemp("base") / "base.xlsx"
    assert run("new", path, "--name", "Refresh Open", "--start", "2026-11-28").returncode == 0
    assert run("import-tdlista", path, lists[0]).returncode == 0
    for m in (A, B, C):
        assert run("register", path, "--aga", m.aga_id, "--yes").returncode == 0
    new = run("register", path, "--name", "Newby, Ann", "--rank", "3k", "--yes")
    assert new.returncode == 0, new.stderr
    done = run("set-rating", path, "--player", C.aga_id, "--rating", TD_RATING_C, "--yes")
    assert done.returncode == 0, done.stderr
    return path


@pytest.fixture
def book(registered: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(registered, tmp_path / "t.xlsx"))


def players(path: Path) -> dict[int, dict[str, object]]:
    return {int(r["AGA #"]): r for r in sheet_rows(path, "Players")}  # type: ignore[call-overload]


def temporary(path: Path) -> int:
    return next(pid for pid, r in players(path).items() if r["Family name"] == "Newby")


def paired(path: Path) -> None:
    assert run("bands", path, "--yes").returncode == 0
    other = next(pid for pid in players(path) if pid != temporary(path))
    forced = run("force", path, "--first", temporary(path), "--second", other, "--yes")
    assert forced.returncode == 0, forced.stderr
    result = run("pair", path, "--yes")
    assert result.returncode == 0, result.stderr


def _day(value: object) -> object:
    return value.date() if hasattr(value, "date") else value


# --- rating refresh -----------------------------------------------------------------------


def test_a_newer_list_before_round_1_updates_the_players_and_lists_every_change(
    book: Path, lists: tuple[Path, Path]
) -> None:
    before = players(book)
    result = run("import-tdlista", book, lists[1])
    assert result.returncode == 0, result.stderr
    after = players(book)
    a, b, c = after[A.aga_id], after[B.aga_id], after[C.aga_id]
    assert a["Entry rating"] == NEW_RATING_A and a["AGA rating"] == NEW_RATING_A
    assert a["Rank or rating"] == rank_of(NEW_RATING_A)
    assert _day(a["Expires"]) == NEW_EXPIRY_A
    assert b["Chapter"] == NEW_CHAPTER_B
    assert b["Entry rating"] == before[B.aga_id]["Entry rating"]
    # the TD's rating stays; the published one follows the list, and the change says so
    assert c["Entry rating"] == TD_RATING_C and c["AGA rating"] == NEW_RATING_C
    assert after[temporary(book)] == before[temporary(book)]
    out = result.stdout
    assert f"{A.name} (AGA # {A.aga_id}): Entry rating {A.rating:.5f}".rstrip("0") in out
    assert f"-> {NEW_RATING_A:.5f}".rstrip("0").rstrip(".") in out
    assert f"Expires {A.expiry.isoformat()} -> {NEW_EXPIRY_A.isoformat()}" in out  # type: ignore[union-attr]
    assert f"{B.name} (AGA # {B.aga_id}): Chapter {B.chapter or 'blank'} -> {NEW_CHAPTER_B}" in out
    assert f"entry rating {TD_RATING_C:g} kept, set by the TD" in out
    logged = [m for _, action, m in log_messages(book) if action == "import-tdlista"]
    for line in out.splitlines():
        if "(AGA # " in line:
            assert any(line.strip() in m for m in logged), line


def test_after_round_1_the_players_stay_unless_the_td_asks(
    book: Path, lists: tuple[Path, Path]
) -> None:
    paired(book)
    before = players(book)
    result = run("import-tdlista", book, lists[1])
    assert result.returncode == 0, result.stderr
    assert players(book) == before
    assert "3 registered player(s) have different AGA data in the new list" in result.stdout
    assert "--update-players" in result.stdout
    assert f"{B.name} (AGA # {B.aga_id}): Chapter" in result.stdout
    for m in (A, C):
        assert f"{m.name} (AGA # {m.aga_id}): " in result.stdout
    tdlista = {r["AGA #"]: r for r in sheet_rows(book, "TDListA")}
    assert tdlista[A.aga_id]["Rating"] == NEW_RATING_A

    asked = digest(book)
    refused = run("import-tdlista", book, lists[1], "--update-players")
    assert refused.returncode == 3
    assert "computed from the old ratings" in refused.stderr
    assert digest(book) == asked
    accepted = run("import-tdlista", book, lists[1], "--update-players", "--yes")
    assert accepted.returncode == 0, accepted.stderr
    after = players(book)
    assert after[A.aga_id]["Entry rating"] == NEW_RATING_A
    assert after[C.aga_id]["Entry rating"] == TD_RATING_C
    assert any(
        level == "Warning" and "computed from the old ratings" in m
        for level, _, m in log_messages(book)
    )


# --- replacing a temporary number -----------------------------------------------------------


def cells(path: Path) -> dict[str, list[object]]:
    wb = openpyxl.load_workbook(path)
    return {ws.title: [v for row in ws.iter_rows(values_only=True) for v in row] for ws in wb}


def holds(values: list[object], number: int) -> bool:
    return any(v == number or (isinstance(v, str) and str(number) in v) for v in values)


def test_replace_id_changes_every_occurrence_and_the_tournament_goes_on(
    book: Path, tmp_path: Path
) -> None:
    paired(book)
    assert run("standings", book, "--yes").returncode == 0
    old, new = temporary(book), SPARE.aga_id
    where_before = {s for s, values in cells(book).items() if holds(values, old)}
    assert {"Players", "Round 1", "Requests", "Standings"} <= where_before
    unchanged = digest(book)
    asked = run("replace-id", book, "--from", old, "--to", new)
    assert asked.returncode == 3  # the list names the number differently: an active warning
    assert f"which is {SPARE.name}" in asked.stderr
    assert digest(book) == unchanged
    done = run("replace-id", book, "--from", old, "--to", new, "--yes")
    assert done.returncode == 0, done.stderr

    after = cells(book)
    for sheet, values in after.items():
        if sheet != "Log":
            assert not holds(values, old), sheet
    assert {s for s in where_before if s != "Log"} <= {s for s, v in after.items() if holds(v, new)}
    row = players(book)[new]
    assert row["Family name"] == "Newby" and row["AGA rating"] == SPARE.rating
    assert row["Chapter"] == (SPARE.chapter or None)
    log = [m for _, action, m in log_messages(book) if action == "replace-id"]
    assert any(f"AGA # {old} -> {new}" in m for m in log)
    assert any(holds([m], old) for _, _, m in log_messages(book)), "the Log keeps the history"

    assert run("standings", book, "--yes").returncode == 0
    assert run("pair", book, "--yes").returncode == 0
    # the sample's memberships lapsed long ago: the submission check's errors are beside the point
    exported = run("export-aga", book, "--text", tmp_path / "r.txt", "--yes", "--force")
    assert exported.returncode == 0, exported.stderr
    report = (tmp_path / "r.txt").read_text()
    assert str(new) in report and str(old) not in report


@pytest.mark.parametrize(
    ("source", "target", "expected"),
    [
        ("unknown", "spare", "is not in the Players sheet"),
        ("temporary", "registered", "is already"),
        ("temporary", "abc", "is not an AGA number"),
        ("temporary", "-5", "is not an AGA number"),
        ("temporary", "x" * 40_000, "is not an AGA number"),
        ("temporary", "temporary2", "is not a real AGA number"),
    ],
    ids=["unknown-from", "to-in-use", "text", "negative", "40000-characters", "temporary-to"],
)
def test_bad_numbers_are_refused_in_one_line_and_change_nothing(
    book: Path, source: str, target: str, expected: str
) -> None:
    temp = temporary(book)
    known = {
        "unknown": str(temp + 1),
        "temporary": str(temp),
        "temporary2": str(temp + 1),
        "spare": str(SPARE.aga_id),
        "registered": str(A.aga_id),
    }
    before = digest(book)
    result = run("replace-id", book, "--from", known.get(source, source), "--to",
                 known.get(target, target))  # fmt: skip
    assert result.returncode == 1
    first = result.stderr.splitlines()[0]
    assert expected in first and len(first) < 400  # a long value is cut, not echoed
    assert digest(book) == before
