"""``export-egd`` against OpenGotha's own EGF tables of the same events.

OpenGotha 3.51.02 wrote ``tests/data/egd/*.h9`` (``ExternalDocument.generateH9File``, built
from its source: ``benchmarks/compare_egd.py --opengotha-git CLONE --keep tests/data/egd``)
from each event as ``export-opengotha`` writes it: every OpenGotha file of tests/data
imported, the demo's EGF event, and that event with every kind of result. CI has no
OpenGotha: it runs our side (the same workbooks, ``export-egd``) and holds the two tables
against each other with ``tests/egd.py``. Every player, grade, place and round entry must be
the same, or differ for a reason the two programs' rules give (docs/opengotha.md, "The EGD's
table beside OpenGotha's"), which ``compare`` checks case by case.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from lxml import etree

from tests.egd import (
    DATA,
    DEMO,
    DEMO_RESULTS,
    EVENTS,
    KEPT,
    REASONS,
    Comparison,
    build_event,
    compare,
    name_key,
    our_record,
    read_h9,
)
from tests.helpers import run


@pytest.fixture(scope="module")
def comparisons(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Comparison]:
    folder = tmp_path_factory.mktemp("egd")
    found = {}
    for name in EVENTS:
        book = build_event(name, folder)
        ours = folder / f"{name}.h9"
        done = run("export-egd", book, "--out", ours, "--yes", "--force")
        assert done.returncode == 0, done.stderr
        outcomes, sleeping = our_record(book)
        theirs = read_h9((KEPT / f"{name}.h9").read_bytes())
        found[name] = compare(name, read_h9(ours.read_bytes()), theirs, outcomes, sleeping)
    return found


def test_opengothas_table_is_kept_for_every_event() -> None:
    assert sorted(p.stem for p in KEPT.glob("*.h9")) == sorted(EVENTS)


@pytest.mark.parametrize("name", EVENTS)
def test_every_player_grade_place_and_round_is_opengothas_or_differs_for_a_known_reason(
    comparisons: dict[str, Comparison], name: str
) -> None:
    c = comparisons[name]
    assert c.players > 0
    assert (c.only_ours, c.only_theirs) == ([], [])
    assert c.unexplained == []
    for what in ("grade", "place"):
        differing = sum(c.differences.get(what, Counter()).values())
        assert c.equal[what] + differing == c.players, what
    assert c.equal["header"] == 6, "CL, EV, DT, KM, TM, HA"


def test_the_demos_egf_event_has_opengothas_entries_exactly(
    comparisons: dict[str, Comparison],
) -> None:
    """Every game played out and no one missing a round: nothing to differ on but places."""
    c = comparisons[DEMO]
    assert "entry" not in c.differences
    assert c.equal["entry"] == c.players * 5


def test_forfeits_and_a_double_forfeit_are_the_only_entries_that_differ_once_results_change(
    comparisons: dict[str, Comparison],
) -> None:
    entries = comparisons[DEMO_RESULTS].differences["entry"]
    assert entries == Counter({"forfeit": 4, "double forfeit": 2})


def test_every_reason_the_docs_give_is_met_in_some_event(
    comparisons: dict[str, Comparison],
) -> None:
    met = {reason for c in comparisons.values() for by in c.differences.values() for reason in by}
    assert met == set(REASONS)


def test_a_difference_no_reason_covers_is_reported_as_unexplained(tmp_path: Path) -> None:
    """The comparison can fail: one result turned round in OpenGotha's table is caught."""
    kept = (KEPT / f"{DEMO}.h9").read_bytes()
    line = next(x for x in kept.split(b"\n") if x.startswith(b"   1 "))
    won = re.search(rb" (\d+)\+(/[wb]\d)", line)
    assert won is not None, "the winner of the demo won a game"
    changed = kept.replace(
        line, line.replace(won.group(0), b" " + won.group(1) + b"-" + won.group(2), 1), 1
    )
    book = build_event(DEMO, tmp_path)
    ours = tmp_path / "ours.h9"
    assert run("export-egd", book, "--out", ours, "--yes").returncode == 0
    outcomes, sleeping = our_record(book)
    c = compare(DEMO, read_h9(ours.read_bytes()), read_h9(changed), outcomes, sleeping)
    assert len(c.unexplained) == 1 and "entry" in c.unexplained[0]


def test_the_pins_an_opengotha_file_holds_end_our_lines_and_go_back_to_opengotha(
    tmp_path: Path,
) -> None:
    """``egfPin`` is read into EGD PIN, written as ``|PIN`` and back as ``egfPin``."""
    name = "Toulouse2024"
    root = etree.parse(str(DATA / "opengotha" / f"{name}.xml")).getroot()
    pins = {
        name_key(el.get("name", ""), el.get("firstName", "")): el.get("egfPin")
        for el in root.iterfind("Players/Player")
        if el.get("egfPin")
    }
    book = build_event(name, tmp_path)
    ours = tmp_path / "ours.h9"
    assert run("export-egd", book, "--out", ours, "--yes", "--force").returncode == 0
    written = {line.key: line.pin for line in read_h9(ours.read_bytes()).lines if line.pin}
    assert written and written == {k: v for k, v in pins.items() if k in written}
    assert len(written) == len(pins), "every player with a PIN played"
    back = tmp_path / "back.xml"
    assert run("export-opengotha", book, back, "--yes").returncode == 0
    again = {el.get("egfPin") for el in etree.parse(str(back)).getroot().iterfind("Players/Player")}
    assert set(pins.values()) <= again
