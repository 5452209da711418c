"""Stations at a real server on the loopback, writing a real workbook (the real TDListA) through
the writer process: each entry goes through its action with the station's name in the Log;
collisions are settled and both stations are told what stands; a form sent twice, or a
writer killed mid-entry, keeps each entry once; and the stations' pages keep strangers out."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import date
from pathlib import Path

import pytest

from addin.core.lookup import SHOWN, fold
from addin.journal.store import Journal
from addin.station.entries import EntryQueue, new_id, stations_folder
from addin.store import entries_in
from tests.helpers import digest, log_messages, run, sheet_rows
from tests.station_support import (
    MEMBERS,
    Station,
    copied,
    event_in_play,
    key_of,
    lapsed_member,
    rated_members,
    serving,
)
from tests.typing_helpers import players

PLAYING = rated_members(8, current=True)
WAITING = rated_members(3, skip=8, current=True)
WALK_INS = rated_members(4, skip=11, current=True)
LAPSED = lapsed_member()


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return event_in_play(tmp_path_factory.mktemp("event"), PLAYING, WAITING)


@pytest.fixture
def book(event: Path, tmp_path: Path) -> Path:
    return copied(event, tmp_path / "hall")


def log_of(book: Path, station: str) -> list[tuple[str, str, str]]:
    return [row for row in log_messages(book) if row[1].endswith(f"({station})")]


def first_board(book: Path) -> tuple[int, int, int]:
    """Round 1's first board: (board, white, black)."""
    row = sheet_rows(book, "Round 1")[0]
    return int(str(row["Board"])), int(str(row["White AGA #"])), int(str(row["Black AGA #"]))


def test_a_station_registers_checks_in_and_enters_a_result_each_signed(book: Path) -> None:
    walk_in, expected = WALK_INS[0], WAITING[0]
    board, _, _ = first_board(book)
    with serving(book) as served:
        desk = Station(served.url, "Desk 1")
        desk.sign_in(key_of(book))
        assert desk.get(f"/station/?q={walk_in.family_name.lower()}")[0] == 200
        assert str(walk_in.aga_id) in desk.page
        registered = desk.send("register", aga=walk_in.aga_id)
        told = desk.settled(registered)  # after the bands: placed, and told, never asked
        assert told["state"] == "written", told
        assert "registered after the bands were made: placed in band" in told["message"]
        checked = desk.settled(desk.send("checkin", player=expected.aga_id))
        assert checked["state"] == "written", checked
        result = desk.settled(desk.send("result", round=1, board=board, result="W", if_blank="yes"))
        assert result["state"] == "written", result
    registered_players = players(book)
    assert registered_players[walk_in.aga_id]["Status"] == "Active"
    assert registered_players[expected.aga_id]["Status"] == "Active"
    assert sheet_rows(book, "Round 1")[0]["Result"] == "White wins"
    signed = log_of(book, "Desk 1")
    band = players(book)[walk_in.aga_id]["Band"]
    assert any(
        f"{walk_in.name} (AGA # {walk_in.aga_id}" in m and f"placed in band {band}" in m
        for _, _, m in signed
    ), "the TD reads the late arrival's band in the Log"
    assert {action for _, action, _ in signed} == {
        "register (Desk 1)",
        "checkin (Desk 1)",
        "result (Desk 1)",
    }
    assert entries_in(m for _, _, m in signed) >= {registered}
    doors = [e.door for e in Journal.load(book).entries[-3:]]
    assert doors == ["Desk 1"] * 3


def test_pair_and_check_name_every_station_entry_not_yet_in_the_workbook(book: Path) -> None:
    """A walk-in whose registration waits (for the writer, or for its desk's answer) is not
    in the workbook: ``check`` and ``pair`` name each such entry, and ``pair`` asks first."""
    walk_in = WALK_INS[2]
    with serving(book) as served:
        desk = Station(served.url, "Desk 1")
        desk.sign_in(key_of(book))
        asks = desk.send("register", aga=LAPSED.aga_id)
        told = desk.settled(asks)
        assert told["state"] == "asks" and "lapsed" in told["question"], told
    with serving(book, writer=False) as served:  # the writer has not got to it yet
        desk = Station(served.url, "Desk 2")
        desk.sign_in(key_of(book))
        desk.send("register", aga=walk_in.aga_id)
    before = digest(book)
    checked = run("check", book)
    paired = run("pair", book)
    assert paired.returncode == 3, paired.stdout + paired.stderr
    assert digest(book) == before
    for said in (checked.stdout, paired.stderr):
        asking = f"Desk 1, {told_time(book, asks)}: register AGA # {LAPSED.aga_id}: waits for"
        assert asking in said and "lapsed" in said, said
        assert "Desk 2, " in said and f"register AGA # {walk_in.aga_id}: waits to be " in said
    assert "round 2 is paired without it" in paired.stderr
    assert run("pair", book, "--yes").returncode == 0  # the TD may go on: it is logged
    warned = [m for level, _, m in log_messages(book) if level == "Warning"]
    assert any(f"register AGA # {walk_in.aga_id}" in m for m in warned)


def test_the_first_look_up_while_serve_starts_shows_the_workbook_as_it_is(book: Path) -> None:
    """Not a page made before the workbook was read: the event's own title, the round in
    play, and a pre-registered player to check in (not to register)."""
    expected = WAITING[2]
    with serving(book) as served:
        desk = Station(served.url, "Desk 1")
        desk.sign_in(key_of(book))  # at once: the server reads the workbook meanwhile
        status, page = desk.get(f"/station/?q={expected.aga_id}")
    assert status == 200
    assert "<h1>Station Open</h1>" in page and "Round 1 in play" in page
    row = page[page.index(f"<td>{expected.aga_id}</td>") :].split("</tr>", 1)[0]
    assert "Check in" in row and "Register" not in row


def told_time(book: Path, entry: str) -> str:
    kept = EntryQueue(stations_folder(book)).entry(entry)
    assert kept is not None
    return kept.time


def test_two_stations_registering_one_member_the_first_is_written_the_second_told(
    book: Path,
) -> None:
    member = WALK_INS[1]
    with serving(book, writer=False) as served:
        one, two = Station(served.url, "Desk 1"), Station(served.url, "Desk 2")
        for s in (one, two):
            s.sign_in(key_of(book))
        first = one.send("register", aga=member.aga_id)
        second = two.send("register", aga=member.aga_id)
        served.desk.start()
        told_one, told_two = one.settled(first), two.settled(second)
    assert told_one["state"] == "written", told_one
    assert told_two["state"] == "refused", told_two
    assert f"AGA # {member.aga_id} is already registered: {member.name}" in told_two["message"]
    assert len([p for p in players(book) if p == member.aga_id]) == 1
    assert not log_of(book, "Desk 2")


def test_two_stations_checking_in_one_player_the_second_is_told_it_stands(book: Path) -> None:
    member = WAITING[1]
    with serving(book, writer=False) as served:
        one, two = Station(served.url, "Desk 1"), Station(served.url, "Desk 3")
        for s in (one, two):
            s.sign_in(key_of(book))
        first = one.send("checkin", player=member.aga_id)
        second = two.send("checkin", player=member.aga_id)
        served.desk.start()
        told_one, told_two = one.settled(first), two.settled(second)
    assert told_one["state"] == "written", told_one
    assert told_one["message"].startswith(f"Checked in {member.name} ({member.aga_id})")
    assert told_two["state"] == "refused", told_two
    assert "is already checked in (Status Active)" in told_two["message"]
    assert players(book)[member.aga_id]["Status"] == "Active"
    assert not log_of(book, "Desk 3")


def test_two_results_for_one_board_the_first_stands_and_the_second_is_told(book: Path) -> None:
    board, _, _ = first_board(book)
    with serving(book, writer=False) as served:
        one, two = Station(served.url, "Results A"), Station(served.url, "Results B")
        for s in (one, two):
            s.sign_in(key_of(book))
        first = one.send("result", round=1, board=board, result="B", if_blank="yes")
        second = two.send("result", round=1, board=board, result="W", if_blank="yes")
        served.desk.start()
        told_one, told_two = one.settled(first), two.settled(second)
    assert told_one["state"] == "written", told_one
    assert told_two["state"] == "refused", told_two
    assert "already has its result, Black wins, which stands" in told_two["message"]
    assert sheet_rows(book, "Round 1")[0]["Result"] == "Black wins"


def test_a_form_sent_again_after_a_dropped_connection_is_kept_once(book: Path) -> None:
    member = WAITING[2]
    with serving(book) as served:
        desk = Station(served.url, "Desk 1")
        desk.sign_in(key_of(book))
        entry = new_id()
        desk.send("checkin", entry=entry, player=member.aga_id)
        desk.send("checkin", entry=entry, player=member.aga_id)  # the browser sent it again
        assert desk.settled(entry)["state"] == "written"
    assert [e.id for e in EntryQueue(stations_folder(book)).entries()].count(entry) == 1
    assert [m for _, _, m in log_of(book, "Desk 1")].count(f"Entry {entry} from Desk 1") == 1


def test_a_writer_killed_mid_entry_and_started_again_writes_each_entry_once(book: Path) -> None:
    queue = EntryQueue(stations_folder(book))
    from addin.station.entries import Entry

    sent = [Entry(new_id(), "Desk 1", "bye", {"player": m.aga_id, "round": 3}) for m in PLAYING]
    sent += [Entry(new_id(), "Desk 1", "checkin", {"player": m.aga_id}) for m in WAITING[:2]]
    for e in sent:
        queue.submit(e)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    rng = random.Random(44)
    command = [sys.executable, "-m", "addin.station", str(book)]
    for _ in range(4):
        writer = subprocess.Popen(command, env=env)
        time.sleep(rng.uniform(0.8, 2.5))
        writer.send_signal(signal.SIGKILL)
        writer.wait()
    writer = subprocess.Popen(command, env=env)
    try:
        deadline = time.monotonic() + 180
        while EntryQueue(stations_folder(book)).pending() and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        writer.terminate()
        writer.wait()
    in_log = [m for _, _, m in log_messages(book) if m.startswith("Entry ")]
    assert sorted(in_log) == sorted(f"Entry {e.id} from Desk 1" for e in sent)
    now = players(book)
    assert all(now[m.aga_id]["R3"] == "Bye" for m in PLAYING)
    assert all(now[m.aga_id]["Status"] == "Active" for m in WAITING[:2])


def test_while_the_workbook_is_held_open_entries_wait_and_a_refusal_is_told_at_once(
    book: Path,
) -> None:
    lock = book.with_name(f".~lock.{book.name}#")
    lock.write_text("TD,hall-laptop,td,27.11.2026 09:00,file:///x;\n", encoding="utf-8")
    member = WAITING[0]
    with serving(book) as served:
        desk = Station(served.url, "Desk 1")
        desk.sign_in(key_of(book))
        waits = desk.send("checkin", player=member.aga_id)
        refused = desk.send("checkin", player=PLAYING[0].aga_id)  # checked in already
        assert desk.settled(refused)["state"] == "refused"
        deadline = time.monotonic() + 60
        while "is open in LibreOffice" not in desk.state(waits)["message"]:
            assert time.monotonic() < deadline, desk.state(waits)
            time.sleep(0.2)
        assert desk.state(waits)["state"] == "waiting"
        assert players(book)[member.aga_id]["Status"] == "Not arrived"
        assert "is open in LibreOffice" in desk.get("/station/")[1]
        lock.unlink()  # the TD closed the workbook: the writer writes what waited
        assert desk.settled(waits)["state"] == "written"
    assert players(book)[member.aga_id]["Status"] == "Active"


# --- keeping strangers out ------------------------------------------------------------------


def test_the_station_pages_need_the_password_and_are_not_the_players_pages(book: Path) -> None:
    site = book.with_name(f"{book.stem}-site")
    (site / "station").mkdir()
    (site / "station" / "index.html").write_text("a file of the site", encoding="utf-8")
    with serving(book, writer=False) as served:
        stranger = Station(served.url, "Stranger")
        status, page = stranger.get("/station/")
        assert status == 200 and "Sign in a station" in page and "a file of the site" not in page
        refused = stranger.post("/station/entry", {"action": "drop", "player": PLAYING[0].aga_id})
        assert refused[0] == 403
        player_page = urllib.request.urlopen(served.url + "/index.html", timeout=10).read()
        assert b"/station" not in player_page
    assert EntryQueue(stations_folder(book)).entries() == []


def test_five_wrong_passwords_shut_the_address_out(book: Path) -> None:
    with serving(book, writer=False) as served:
        guesser = Station(served.url, "Guesser")
        codes = [
            guesser.post("/station/login", {"key": f"WRONG-{i}", "station": "x"})[0]
            for i in range(6)
        ]
        assert codes == [403] * 5 + [429]
        right = guesser.post("/station/login", {"key": key_of(book), "station": "x"})
        assert right[0] == 429, "even the right password waits ten minutes"


def test_a_form_from_another_site_or_with_a_stale_token_is_refused(book: Path) -> None:
    with serving(book, writer=False) as served:
        desk = Station(served.url, "Desk 1")
        desk.sign_in(key_of(book))
        fields = {
            "csrf": desk.csrf(),
            "id": new_id(),
            "action": "drop",
            "player": PLAYING[0].aga_id,
        }
        assert desk.post("/station/entry", fields, origin="http://evil.example")[0] == 403
        stale = {**fields, "csrf": "0" * 40}
        assert desk.post("/station/entry", stale)[0] == 403
        other = Station(served.url, "Desk 2")
        other.sign_in(key_of(book))
        assert other.post("/station/entry", {**fields, "id": new_id()})[0] == 403, (
            "one station's token is no other's"
        )
    assert EntryQueue(stations_folder(book)).entries() == []


def test_a_server_without_a_workbook_has_no_stations(book: Path, tmp_path: Path) -> None:
    site = book.with_name(f"{book.stem}-site")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "addin.publish.serve",
            str(site),
            "--port",
            "0",
            "--bind",
            "127.0.0.1",
        ],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stdout.readline() if server.stdout else ""
        url = line.split(" at ", 1)[1].split(" ", 1)[0]
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url + "station/", timeout=10)
        assert refused.value.code == 404
    finally:
        server.terminate()
        server.wait()


def test_serve_help_says_the_stations_sign_in_there() -> None:
    helped = run("serve", "--help")
    assert helped.returncode == 0
    text = " ".join(helped.stdout.split())
    assert "Stations (a registration or results desk's" in text and "/station/" in text


def test_serve_shows_the_stations_address_and_password(book: Path) -> None:
    done = run("serve", book, "--poster-only", "--loopback")
    assert done.returncode == 0, done.stderr
    poster = book.with_name(f"{book.stem}-poster.pdf")
    text = subprocess.run(["pdftotext", str(poster), "-"], capture_output=True, text=True).stdout
    assert "STAFF ONLY" in text and f"Password: {key_of(book)}" in text
    qr = subprocess.run(
        ["sh", "-c", f"pdftoppm -f 2 -l 2 -r 100 -png '{poster}' | zbarimg -q --raw -"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert qr.endswith(f"/station/?key={key_of(book)}")


def test_a_hostile_station_name_is_cut_short_and_stays_text(book: Path) -> None:
    member = WAITING[0]
    hostile = '=HYPERLINK("http://evil.example","x")\x07' + "y" * 3_000
    with serving(book) as served:
        huge = Station(served.url, "z" * 40_000)
        assert huge.post("/station/login", {"key": key_of(book), "station": huge.name})[0] == 400
        desk = Station(served.url, hostile)
        desk.sign_in(key_of(book))
        assert desk.settled(desk.send("checkin", player=member.aga_id))["state"] == "written"
        plain = Station(served.url, "Desk 1")
        plain.sign_in(key_of(book))
        page, usual = desk.get("/station/")[1], plain.get("/station/")[1]
        assert page.count("<script") == usual.count("<script"), "the name adds no script"
        assert "\x07" not in page and 'evil.example","x")' not in page, "kept as text"
    logged = [(a, m) for _, a, m in log_messages(book) if a.startswith("checkin (")]
    signed = [a for a, m in logged if m.startswith("Checked in")]
    assert len(signed) == 1 and len(logged) == 2, "the check-in, and its entry's id"
    assert signed[0].startswith('checkin (=HYPERLINK("http://evil.')
    assert "\x07" not in signed[0] and len(signed[0]) < 60
    door = Journal.load(book).entries[-1].door
    assert door.startswith("=HYPERLINK") and len(door) <= 31


def test_a_superscript_two_is_no_number_and_the_desk_still_gets_its_page(book: Path) -> None:
    """A "²" is a digit to ``str.isdigit`` but not to ``int``: the entry is refused in words,
    and the station's page, which lists it, still renders (it answered nothing before)."""
    with serving(book) as served:
        desk = Station(served.url, "Desk 1")
        desk.sign_in(key_of(book))
        told = desk.settled(desk.send("register", aga="²"))
        assert told["state"] == "refused" and "'²' is not a whole number" in told["message"]
        status, page = desk.get("/station/")
        assert status == 200 and "register AGA # ²" in page
        request = urllib.request.Request(
            served.url + "/station/entry", data=b"x", headers={"Content-Length": "²"}
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            desk.opener.open(request, timeout=30)
        assert 400 <= refused.value.code < 500


FOUND_ROW = re.compile(
    r'<tr><td>[^<]*</td><td>(\d+)</td><td>[^<]*</td><td class="nowrap">([^<]*)</td>'
)


def found(desk: Station, query: str) -> list[tuple[int, str]]:
    """The find box's answer: (AGA #, Expires) of each row, in the page's order."""
    status, page = desk.get("/station/?" + urllib.parse.urlencode({"q": query}))
    assert status == 200
    return [(int(aga), expires) for aga, expires in FOUND_ROW.findall(page)]


KIM_JANICE = ("kim", "janice")


def test_the_find_box_takes_a_name_in_either_order_and_marks_lapsed_members(book: Path) -> None:
    """As ``lookup`` does (issue 50, items 4 and 12): "Janice Kim", "kim janice" and
    "OBrien" find the members the list writes "Kim, Janice" and "O'Brien, ..."; a
    pre-registered player is found by "Given Family"; a family as common as Kim shows its
    first twenty, current members first, lapsed ones marked, and says how many more."""
    kim = {
        m.aga_id for m in MEMBERS if (fold(m.family_name), fold(m.given_name)) == ("kim", "janice")
    }
    obriens = {m.aga_id for m in MEMBERS if fold(m.family_name) == "obrien"}
    kims = [m for m in MEMBERS if fold(m.family_name).startswith("kim")]
    start = date(2026, 11, 28)  # the event's first day (station_support.listed_event)
    lapsed = {m.aga_id for m in kims if m.expiry is not None and m.expiry < start}
    waiting = WAITING[0]
    with serving(book, writer=False) as served:
        desk = Station(served.url, "Desk 1")
        desk.sign_in(key_of(book))
        assert kim and kim <= {a for a, _ in found(desk, "Janice Kim")}
        assert kim <= {a for a, _ in found(desk, "kim janice")}
        assert obriens and {a for a, _ in found(desk, "OBrien")} == obriens
        pre = found(desk, f"{waiting.given_name} {waiting.family_name}")
        assert waiting.aga_id in {a for a, _ in pre}
        assert "Check in" in desk.page
        listed = found(desk, "kim")
        more = f"and {len(kims) - SHOWN} more"
        assert more in desk.page and "narrow the search" in desk.page
    assert len(listed) == SHOWN
    marked = [expires.startswith("LAPSED ") for _, expires in listed]
    assert marked == sorted(marked), "current members first"
    assert [aga in lapsed for aga, _ in listed] == marked
    assert all(re.fullmatch(r"(LAPSED )?\d{4}-\d\d-\d\d|", e) for _, e in listed)
