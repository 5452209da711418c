"""Players who never came are not ranked and not reported (issue 50, item 1).

In a Check-in Yes event, a pre-registered player who never checks in (Status Not arrived)
and one the TD drops before they play (what a TD does with a no-show) get no place in the
Standings, the Cross Table, the wall reports, the published site or the AGA report; they
are listed apart as "did not arrive". A player who withdrew after playing stays ranked.
Real workbook, real TDListA excerpt, the real command line.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from lxml import etree

from addin.core.model import Player, Status, Tournament
from addin.core.participants import no_shows
from addin.core.tiebreaks import standings
from addin.formats.tdlista import Member
from tests.factories import make_tournament
from tests.helpers import Finished, run, sheet_rows
from tests.typing_helpers import MEMBERS, current, lapsed, new_book, set_setting

ROUNDS = 3


def _named(m: Member) -> bool:
    return m.family_name.isascii() and bool(m.given_name)


PRESENT = [m for m in MEMBERS if current(m) and _named(m)][:6]
"""Six current members who check in and play."""
NEVER_CAME = [m for m in MEMBERS if lapsed(m) and _named(m)][:2]
"""Two strong members with memberships lapsed long ago, pre-registered, who never come:
the first never checks in, the TD drops the second before round 1."""
LEFT_AFTER_ROUND_2 = PRESENT[5]
"""Withdrew after playing two rounds: stays ranked."""
LEFT_AFTER_THE_LAST = PRESENT[4]


def name(m: Member) -> str:
    return f"{m.family_name}, {m.given_name}"


def ok(done: Finished) -> Finished:
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The event played through: 8 pre-registered, 6 checked in, 3 rounds; the outputs of
    the drops and of ``standings`` by name."""
    folder = tmp_path_factory.mktemp("noshows")
    book = new_book(folder, PRESENT + NEVER_CAME, rounds=ROUNDS)
    for label, value in (
        ("Check-in", "Yes"),
        ("Director name", "Pat Director"),
        ("Overtime format", "Canadian"),
        ("Overtime conditions", "15 stones in 5 minutes"),
    ):
        set_setting(book, label, value)
    csv = folder / "pre.csv"
    csv.write_text(
        "Name,AGA #,Rank\n"
        + "".join(f'"{name(m)}",{m.aga_id},{m.rating:.1f}\n' for m in PRESENT + NEVER_CAME),
        encoding="utf-8",
    )
    ok(run("preregister", book, csv, "--yes"))
    for m in PRESENT:
        ok(run("checkin", book, "--player", m.aga_id))
    said = {"drop no-show": ok(run("drop", book, "--player", NEVER_CAME[1].aga_id)).stdout}
    ok(run("bands", book, "--yes"))
    for number in range(1, ROUNDS + 1):
        ok(run("pair", book, "--yes"))
        for game in sheet_rows(book, f"Round {number}"):
            if isinstance(game.get("Board"), int):
                ok(run("result", book, "--board", game["Board"], "--result", "B"))
        if number == 2:
            ok(run("drop", book, "--player", LEFT_AFTER_ROUND_2.aga_id))
    said["drop after last"] = ok(run("drop", book, "--player", LEFT_AFTER_THE_LAST.aga_id)).stdout
    said["standings"] = ok(run("standings", book)).stdout
    return book, said


def ids_in(book: Path, sheet: str, column: str = "AGA #") -> list[object]:
    return [r[column] for r in sheet_rows(book, sheet)]


def test_players_who_never_came_get_no_place_in_standings_or_cross_table(
    event: tuple[Path, dict[str, str]],
) -> None:
    book, said = event
    standing = sheet_rows(book, "Standings")
    assert sorted(r["AGA #"] for r in standing) == sorted(m.aga_id for m in PRESENT), (
        "the six who played are ranked, the one who left after round 2 too; nobody else"
    )
    assert [r["Place"] for r in standing] == sorted(r["Place"] for r in standing)
    crossed = [r["Name"] for r in sheet_rows(book, "Cross Table")]
    assert sorted(crossed) == sorted(name(m) for m in PRESENT)
    assert (
        "Did not arrive (not ranked): 2 players: "
        f"{name(NEVER_CAME[0])} ({NEVER_CAME[0].aga_id}), "
        f"{name(NEVER_CAME[1])} ({NEVER_CAME[1].aga_id}, withdrawn)" in said["standings"]
    )
    report = book.with_name("cross.txt")
    ok(run("report", book, "crosstable", "--out", report))
    wall = report.read_text(encoding="utf-8")
    table, _, notes = wall.partition("\n\n35+")
    assert all(name(m) in table for m in PRESENT)
    assert not any(name(m) in table for m in NEVER_CAME), "not on the wall chart's lines"
    assert "Did not arrive (not ranked): 2 players" in notes, "listed apart below it"


def test_the_published_standings_leave_out_who_never_came(
    event: tuple[Path, dict[str, str]],
) -> None:
    book, _ = event
    ok(run("publish", book))
    site = book.with_name(f"{book.stem}-site")
    for page in ("standings.html", "crosstable.html", "hall.html"):
        text = (site / page).read_text(encoding="utf-8")
        assert all(f"p{m.aga_id}.html" in text or name(m) in text for m in PRESENT), page
        assert not any(str(m.aga_id) in text for m in NEVER_CAME), page
        assert "withdrawn" not in text or LEFT_AFTER_ROUND_2.family_name in text, page
    for m in NEVER_CAME:
        own = (site / f"p{m.aga_id}.html").read_text(encoding="utf-8")
        assert "Did not arrive (not ranked)" in own


def test_the_aga_reports_list_only_who_took_part(
    event: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    book, _ = event
    text, xml = tmp_path / "report.txt", tmp_path / "report.xml"
    done = ok(run("export-aga", book, "--text", text, "--xml", xml, "--yes"))
    assert f"Exported {len(PRESENT)} players" in done.stdout
    assert "Did not arrive (not reported): 2 players" in done.stdout
    written = text.read_text(encoding="utf-8")
    players = written.split("PLAYERS\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert sorted(int(line.split("\t")[0]) for line in players) == sorted(m.aga_id for m in PRESENT)
    assert not any(re.search(rf"\b{m.aga_id}\b", written) for m in NEVER_CAME)
    root = etree.parse(str(xml)).getroot()
    listed = sorted(int(p.get("ID")) for p in root.iter("Player"))
    assert listed == sorted(m.aga_id for m in PRESENT)


def test_check_aga_does_not_count_the_lapsed_memberships_of_who_never_came(
    event: tuple[Path, dict[str, str]],
) -> None:
    book, _ = event
    assert all(m.expiry is not None and m.expiry.year < 2005 for m in NEVER_CAME)
    checked = run("check-aga", book)
    assert checked.returncode == 0, checked.stderr
    lines = checked.stdout.splitlines()
    problems = [x for x in lines if x.startswith(("error", "warning"))]
    assert not any(str(m.aga_id) in x for m in NEVER_CAME for x in problems), problems
    assert any(
        x.startswith("note: Did not arrive (not reported, their memberships not checked)")
        for x in lines
    )
    assert f"AGA check of {len(PRESENT)} players" in lines[-1]


def test_drop_says_what_it_means_before_round_1_and_after_the_last_round(
    event: tuple[Path, dict[str, str]],
) -> None:
    _, said = event
    assert said["drop no-show"].startswith(
        f"Dropped {name(NEVER_CAME[1])} ({NEVER_CAME[1].aga_id}) before round 1: not paired "
        "from round 1 on; never played: not ranked and not reported to the AGA"
    )
    assert said["drop after last"].startswith(
        f"Dropped {name(LEFT_AFTER_THE_LAST)} ({LEFT_AFTER_THE_LAST.aga_id}) after round "
        f"{ROUNDS}: round {ROUNDS} was the last round: withdrawn, takes no further part"
    )
    assert f"round {ROUNDS + 1}" not in said["drop after last"]


# --- the rule, in the pure core -------------------------------------------------------------


def with_no_shows(t: Tournament) -> Tournament:
    """``t`` and two players who never came, ahead of everybody on paper: a 7d Not arrived
    who asked for a bye, and one dropped before round 1; both with a high initial score."""
    top = max((p.initial_score or 0.0) for p in t.players.values()) + 2
    players = dict(t.players)
    players[501] = Player(501, "Never", "Came", rank="7d", rating=7.5, initial_score=top,
                          status=Status.NOT_ARRIVED, bye_requests=frozenset({1}))  # fmt: skip
    players[502] = Player(502, "Dropped", "Early", rank="6d", rating=6.5, initial_score=top,
                          status=Status.DROPPED)  # fmt: skip
    return replace(t, players=players)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_leaving_out_who_never_came_moves_nobody_else(seed: int) -> None:
    """Same lines, places, scores and tiebreaks as the event without their rows: they are
    nobody's opponent, so they feed no SOS or SODOS, and no phantom point goes anywhere."""
    t = make_tournament(seed)
    played = next(iter(t.players))
    withdrew = replace(t.players[played], status=Status.DROPPED)  # after playing: ranked
    t = replace(t, players={**t.players, played: withdrew})
    crowded = with_no_shows(t)
    assert no_shows(crowded) == [501, 502]
    assert standings(crowded) == standings(t)
    assert played in {s.player for s in standings(crowded)}
