"""Excel calls per action do not grow with the field: 20 players and 400 cost the same.

Every call from xlwings into its engine is a round trip to Excel on the desktop (a COM
call on Windows, an Apple event on macOS). Here the engine is xlwings' remote engine
(see test_excel_remote.py), whose classes are wrapped to count the calls made into
them from outside: the same calls the desktop engines would receive.
"""

from __future__ import annotations

import inspect
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from test_excel_remote import (  # noqa: F401 - remote_engine is an autouse fixture
    ALL_IDS,
    open_remote,
    prepared_file,
    remote_engine,
    sample_params,
)
from workbook_fixtures import simple_tournament

from addin.excel.entry import dispatch
from addin.workbook import book
from addin.workbook.xlwings_gateway import XlwingsGateway

SIZES = (20, 400)


@contextmanager
def engine_calls() -> Iterator[tuple[Counter[str], Counter[str]]]:
    """Count calls into xlwings' remote engine (outermost only), and cell reads by sheet."""
    from xlwings.pro import _xlremote

    calls: Counter[str] = Counter()
    reads: Counter[str] = Counter()
    depth = threading.local()

    def counted(where: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            outermost = not getattr(depth, "n", 0)
            if outermost:
                calls[where] += 1
                if where == "Range.raw_value":
                    reads[args[0].sheet.name] += 1
            depth.n = getattr(depth, "n", 0) + 1
            try:
                return fn(*args, **kwargs)
            finally:
                depth.n -= 1

        return wrapper

    patched: list[tuple[type, str, Any]] = []
    for cls in list(vars(_xlremote).values()):
        if not (isinstance(cls, type) and cls.__module__ == _xlremote.__name__):
            continue
        for name, attr in list(vars(cls).items()):
            where = f"{cls.__name__}.{name}"
            if name.startswith("_"):
                continue
            if isinstance(attr, property):
                new: Any = property(
                    counted(where, attr.fget) if attr.fget else None,
                    counted(f"{where}=", attr.fset) if attr.fset else None,
                )
            elif inspect.isfunction(attr) and not inspect.iscoroutinefunction(attr):
                new = counted(where, attr)
            else:
                continue
            patched.append((cls, name, attr))
            setattr(cls, name, new)
    try:
        yield calls, reads
    finally:
        for cls, name, attr in patched:
            setattr(cls, name, attr)


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    return {n: prepared_file(tmp_path_factory.mktemp(f"field{n}"), n) for n in SIZES}


def cost(action: str, path: Path, players: int, tmp_path: Path) -> tuple[Counter[str], int, str]:
    """Engine calls by kind, recorded Excel actions, and the outcome, for one button press."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    params = sample_params(action, tmp_path, simple_tournament(players, 2, seed=players))
    if params is None:
        pytest.skip(f"no sample input file for {action}")
    remote = open_remote(path)
    with engine_calls() as (calls, reads):
        outcome = dispatch(action, remote, params, yes=True)
    assert all(n == 1 for n in reads.values()), f"a sheet was read twice: {reads}"
    return calls, len(remote.json()["actions"]), outcome.status


@pytest.mark.parametrize("action", ALL_IDS)
def test_excel_calls_are_the_same_for_20_and_for_400_players(
    action: str, workbooks: dict[int, Path], tmp_path: Path
) -> None:
    (small, small_actions, small_status), (large, large_actions, large_status) = (
        cost(action, workbooks[n], n, tmp_path / str(n)) for n in SIZES
    )
    assert small_status == large_status
    assert small_actions == large_actions
    assert small == large, f"{action}: {small - large} vs {large - small}"


def test_reading_the_whole_book_is_one_read_per_sheet(workbooks: dict[int, Path]) -> None:
    counts = []
    for n in SIZES:
        remote = open_remote(workbooks[n])
        with engine_calls() as (calls, reads):
            b = book.read_book(XlwingsGateway(remote))
        assert len(b.tournament.players) == n
        assert set(reads) == {"Tournament", "Players", "Bands", "Requests", "Round 1", "Round 2"}
        assert set(reads.values()) == {1}
        counts.append(calls)
    assert counts[0] == counts[1]


def test_writing_the_players_is_one_block(workbooks: dict[int, Path]) -> None:
    counts = []
    for n in SIZES:
        remote = open_remote(workbooks[n])
        gw = XlwingsGateway(remote)
        data = book.read_book(gw).players_data
        with engine_calls() as (calls, _):
            gw.write_table(data.table, data.rows)
            gw.commit()
        (block,) = [a for a in remote.json()["actions"] if a["func"] == "setValues"]
        assert block["row_count"] == n + 1
        counts.append(calls)
    assert counts[0] == counts[1]
