"""Check-in at the desk: with the Tournament sheet's Check-in set to Yes, pre-registered
players wait as Not arrived (OpenGotha's PRE) until ``checkin``; ``pair`` leaves them out
and says whom. With Check-in No (the default) everything is as before."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from addin.formats.tdlista import parse_tdlista
from tests.helpers import TDLISTA_SNAPSHOT, digest, log_messages, run
from tests.typing_helpers import players, set_setting

MEMBERS = [
    m
    for m in parse_tdlista(TDLISTA_SNAPSHOT.read_bytes()).members
    if m.rating is not None and m.family_name.isascii() and m.given_name
][:6]


def preregistrations(tmp: Path) -> Path:
    csv = tmp / "pre.csv"
    lines = ["Name,AGA #,Rank"]
    lines += [f'"{m.family_name}, {m.given_name}",{m.aga_id},5k' for m in MEMBERS]
    csv.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return csv


@pytest.fixture(scope="module")
def listed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("base") / "base.xlsx"
    assert run("new", path, "--name", "Check Open", "--start", "2026-11-28").returncode == 0
    assert run("import-tdlista", path, TDLISTA_SNAPSHOT).returncode == 0
    return path


def preregistered(listed: Path, tmp: Path, check_in: str) -> Path:
    book = Path(shutil.copy(listed, tmp / "t.xlsx"))
    set_setting(book, "Check-in", check_in)
    done = run("preregister", book, preregistrations(tmp), "--yes")
    assert done.returncode == 0, done.stderr
    return book


def test_with_check_in_preregistered_players_wait_as_not_arrived(
    listed: Path, tmp_path: Path
) -> None:
    book = preregistered(listed, tmp_path, "Yes")
    assert {players(book)[m.aga_id]["Status"] for m in MEMBERS} == {"Not arrived"}


def test_without_check_in_preregistered_players_are_active_as_before(
    listed: Path, tmp_path: Path
) -> None:
    book = preregistered(listed, tmp_path, "No")
    assert {players(book)[m.aga_id]["Status"] for m in MEMBERS} == {"Active"}


def test_checkin_makes_a_player_active_and_logs_it(listed: Path, tmp_path: Path) -> None:
    book = preregistered(listed, tmp_path, "Yes")
    first = MEMBERS[0]
    done = run("checkin", book, "--player", first.aga_id)
    assert done.returncode == 0, done.stderr
    assert f"Checked in {first.family_name}, {first.given_name} ({first.aga_id})" in done.stdout
    assert players(book)[first.aga_id]["Status"] == "Active"
    assert players(book)[MEMBERS[1].aga_id]["Status"] == "Not arrived"
    assert ("Action", "checkin", done.stdout.strip()) in log_messages(book)


def test_a_second_checkin_is_refused_saying_what_stands(listed: Path, tmp_path: Path) -> None:
    book = preregistered(listed, tmp_path, "Yes")
    first = MEMBERS[0]
    assert run("checkin", book, "--player", first.aga_id).returncode == 0
    before = digest(book)
    again = run("checkin", book, "--player", first.aga_id)
    assert again.returncode == 1
    assert "is already checked in (Status Active)" in again.stderr
    assert digest(book) == before


def test_a_dropped_player_is_readmitted_not_checked_in(listed: Path, tmp_path: Path) -> None:
    book = preregistered(listed, tmp_path, "Yes")
    first = MEMBERS[0]
    assert run("drop", book, "--player", first.aga_id).returncode == 0
    refused = run("checkin", book, "--player", first.aga_id)
    assert refused.returncode == 1
    assert f"readmit --player {first.aga_id}" in refused.stderr


def test_pair_leaves_out_the_players_not_arrived_and_names_them(
    listed: Path, tmp_path: Path
) -> None:
    book = preregistered(listed, tmp_path, "Yes")
    here = MEMBERS[:4]
    for m in here:
        assert run("checkin", book, "--player", m.aga_id).returncode == 0
    assert run("bands", book, "--yes").returncode == 0
    before = digest(book)
    asked = run("pair", book)
    assert asked.returncode == 3, asked.stdout + asked.stderr
    absent = MEMBERS[4:]
    assert f"{len(absent)} pre-registered player(s) not checked in" in asked.stderr
    for m in absent:
        assert f"{m.family_name}, {m.given_name} ({m.aga_id})" in asked.stderr
    assert digest(book) == before
    paired = run("pair", book, "--yes")
    assert paired.returncode == 0, paired.stderr
    assert "Paired round 1: 2 games, 0 byes" in paired.stdout
