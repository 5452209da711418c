"""Workbooks a TD types into: a real TDListA excerpt imported, rows typed with openpyxl."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from pathlib import Path

import openpyxl

from addin.formats.tdlista import Member, parse_tdlista
from tests.helpers import TDLISTA_SNAPSHOT, run

START = date(2026, 11, 28)
SNAPSHOT_LINES = TDLISTA_SNAPSHOT.read_bytes().split(b"\r\n")
MEMBERS = parse_tdlista(TDLISTA_SNAPSHOT.read_bytes()).members
BY_ID = {m.aga_id: m for m in MEMBERS}


def first_member(test: Callable[[Member], bool]) -> Member:
    """The first member of the real snapshot passing ``test`` (derived, not hard-coded)."""
    return next(m for m in MEMBERS if test(m))


def current(m: Member) -> bool:
    return m.rating is not None and m.expiry is not None and m.expiry > date(2100, 1, 1)


def lapsed(m: Member) -> bool:
    return m.rating is not None and m.rating > 3 and m.expiry is not None and m.expiry.year < 2005


def shared_name() -> list[Member]:
    """Members sharing one whole name (the first such name in the snapshot)."""
    names: dict[str, list[Member]] = {}
    for m in MEMBERS:
        names.setdefault(m.name.casefold(), []).append(m)
    return next(ms for ms in names.values() if len(ms) > 1 and all(x.rating for x in ms))


def unique_name() -> Member:
    """A current member whose name no other member shares."""
    counts: dict[str, int] = {}
    for m in MEMBERS:
        counts[m.name.casefold()] = counts.get(m.name.casefold(), 0) + 1
    return first_member(lambda m: current(m) and counts[m.name.casefold()] == 1 and m.given_name)


def excerpt(directory: Path, members: list[Member]) -> Path:
    """The snapshot's own lines for ``members`` plus its first 300 lines, as published."""
    wanted = {str(m.aga_id).encode() for m in members}
    lines = list(SNAPSHOT_LINES[:300])
    lines += [
        line for line in SNAPSHOT_LINES[300:] if line.split(b"\t")[1:2] in ([w] for w in wanted)
    ]
    path = directory / "tdlista-excerpt.txt"
    path.write_bytes(b"\r\n".join(lines) + b"\r\n")
    return path


def new_book(directory: Path, members: list[Member], *, rounds: int = 4) -> Path:
    """A new tournament with the TDListA excerpt imported, through the command line."""
    path = directory / "open.xlsx"
    made = run("new", path, "--name", "Typed Open", "--start", START, "--rounds", rounds)
    assert made.returncode == 0, made.stderr
    imported = run("import-tdlista", path, excerpt(directory, members))
    assert imported.returncode == 0, imported.stderr
    return path


def type_rows(path: Path, rows: list[Mapping[str, object]], sheet: str = "Players") -> list[int]:
    """Type ``rows`` (header -> value) below the last filled row, as a TD does in Excel."""
    wb = openpyxl.load_workbook(path)
    ws = wb[sheet]
    header = [c.value for c in ws[1]]
    last = max(
        (c.row for col in ws.iter_cols(min_row=2) for c in col if c.value is not None), default=1
    )
    numbers = []
    for offset, values in enumerate(rows, start=1):
        for title, value in values.items():
            ws.cell(row=last + offset, column=header.index(title) + 1, value=value)
        numbers.append(last + offset)
    wb.save(path)
    return numbers


def set_setting(path: Path, label: str, value: object) -> str:
    """Type ``value`` into the Tournament sheet's row ``label``; returns the cell."""
    wb = openpyxl.load_workbook(path)
    ws = wb["Tournament"]
    for row in ws.iter_rows():
        if row[0].value == label:
            row[1].value = value
            wb.save(path)
            return row[1].coordinate
    raise LookupError(label)


def players(path: Path) -> dict[int, dict[str, object]]:
    from tests.helpers import sheet_rows

    return {int(r["AGA #"]): r for r in sheet_rows(path, "Players") if r.get("AGA #")}
