"""The players' site as a player uses it during a round (issue 33's list), in Chromium at a
phone's size where a browser is needed, else from the pages' text; and ``serve``'s gzip."""

from __future__ import annotations

import gzip
import http.client
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from addin.publish.explain import _points
from addin.reports.text import clean
from tests.helpers import run, sheet_rows
from tests.test_publish_browser import PHONE, browser, scroll_width  # noqa: F401
from tests.test_publish_site import played_book, published, text_of
from tests.test_serve import start_serve, stop

NAMES = ("He, Zichang", "O'Conner, Pat", "Müller, Jürgen", "Ōta, Ken", "Lee, Ann", "Kim, Bo")


@pytest.fixture(scope="module")
def named(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six players with names a find box must cope with, round 1 paired, one result in."""
    book = tmp_path_factory.mktemp("named") / "named.xlsx"
    assert run("new", book, "--name", "Find Open", "--rounds", 2).returncode == 0
    for i, name in enumerate(NAMES):
        assert run("register", book, "--name", name, "--rank", f"{i + 1}k", "--yes").returncode == 0
    wb = openpyxl.load_workbook(book)
    ws = wb["Players"]
    head = [c.value for c in ws[1]]
    ws.cell(row=2, column=head.index("State") + 1, value="NY")
    wb.save(book)
    before = book.with_name("before-site")
    published(book, before)
    assert run("bands", book, "--yes").returncode == 0
    assert run("pair", book, "--yes").returncode == 0
    assert run("result", book, "--board", 1, "--result", "W").returncode == 0
    published(book, book.with_name("named-site"))
    return book


@pytest.fixture
def page(request: pytest.FixtureRequest) -> Iterator[Any]:
    context = request.getfixturevalue("browser").new_context(
        viewport=PHONE, is_mobile=True, has_touch=True
    )
    yield context.new_page()
    context.close()


def shown(page: Any, selector: str) -> list[str]:
    items = page.locator(selector)
    return [items.nth(i).inner_text() for i in range(items.count()) if items.nth(i).is_visible()]


def test_a_pending_game_shows_no_score_change_and_the_round_in_play_comes_first(
    tmp_path: Path,
) -> None:
    book = played_book(tmp_path)
    site = published(book, tmp_path / "site")
    pid = sheet_rows(book, "Round 3")[0]["White AGA #"]
    mine = site[f"p{pid}.html"]
    assert mine.index('id="r3"') < mine.index('id="r2"') < mine.index('id="r1"')
    card = re.search(r'<li id="r3">.*?</li>', mine, re.S)
    assert card is not None
    assert "Not played yet" in card.group(0) and "McMahon score" not in card.group(0)
    assert "(now)" in card.group(0)
    now = re.search(r'<section class="now".*?</section>', mine, re.S)
    assert now is not None and mine.index("<section") < mine.index("<h2>Player</h2>"), "on top"
    assert "Report a result" in now.group(0) and 'method="post" action="report"' in now.group(0)
    played = re.search(r'<li id="r2">.*?</li>', mine, re.S)
    assert played is not None and "McMahon score" in played.group(0)


def test_standings_and_pairings_say_provisional_until_the_round_is_complete_then_final(
    tmp_path: Path,
) -> None:
    book = played_book(tmp_path)
    games = len(sheet_rows(book, "Round 3"))
    site = published(book, tmp_path / "site")
    for name in ("index.html", "standings.html", "crosstable.html"):
        assert f"Provisional: 0 of {games} results in." in text_of(site[name]), name
    assert "Final" not in text_of(site["standings.html"])
    for board in range(1, games + 1):
        assert run("result", book, "--board", board, "--result", "B").returncode == 0
    site = published(book, tmp_path / "site")
    assert "Final: every result is in" in text_of(site["standings.html"])
    assert "<h1>Final standings</h1>" in site["standings.html"]
    assert "Provisional" not in text_of(site["index.html"])


def test_every_rounds_pairings_stay_with_a_round_selector(tmp_path: Path) -> None:
    book = played_book(tmp_path)
    site = published(book, tmp_path / "site")
    first = sheet_rows(book, "Round 1")[0]
    assert "Pairings, round 1" in site["round1.html"]
    board = re.search(r'<li id="board-1".*?</li>', site["round1.html"], re.S)
    assert board is not None and str(first["White"]).split(",")[0] in text_of(board.group(0))
    for name in ("index.html", "round1.html", "round2.html"):
        selector = re.search(r'<nav class="rounds".*?</nav>', site[name])
        assert selector is not None
        links = selector.group(0)
        assert 'href="round1.html"' in links and 'href="index.html"' in links


def test_before_round_1_standings_list_who_is_registered(named: Path) -> None:
    before = named.with_name("before-site")
    text = text_of((before / "standings.html").read_text(encoding="utf-8"))
    assert "Registered players" in text and "6 players registered" in text
    assert all(name in text for name in NAMES)
    order = [text.index(n) for n in ("He, Zichang", "Kim, Bo", "Lee, Ann", "Müller, Jürgen")]
    assert order == sorted(order), "by name, not by the draw"
    assert "Place" not in text, "no order of merit before a game is played"


def test_names_keep_their_direction_and_length_and_the_small_words_are_right() -> None:
    assert "\u202e" not in clean("\u202eEvil\u202c Name")
    assert clean("\u202eEvil") == "Evil"
    assert _points(1) == "1 McMahon point" and _points(2) == "2 McMahon points"
    assert _points(1.5) == "1.5 McMahon points"


def test_a_long_name_is_whole_on_the_players_own_page(tmp_path: Path) -> None:
    book = tmp_path / "long.xlsx"
    assert run("new", book, "--name", "Long", "--rounds", 1).returncode == 0
    long_family = "Wolfeschlegelsteinhausenbergerdorff" * 6
    assert run("register", book, "--name", f"{long_family}, Hubert", "--rank", "3k").returncode == 0
    site = published(book, tmp_path / "site")
    page = next(v for k, v in site.items() if re.fullmatch(r"p\d+\.html", k))
    assert f"<h1>{long_family}, Hubert</h1>" in page


def test_withdrawn_players_are_marked_and_the_place_column_is_not_repeated(
    tmp_path: Path,
) -> None:
    book = played_book(tmp_path)
    assert run("unpair", book, "--yes").returncode == 0
    leaving = sheet_rows(book, "Round 2")[0]["White AGA #"]
    assert run("drop", book, "--player", leaving, "--yes").returncode == 0, "drop"
    site = published(book, tmp_path / "site")
    rows = re.findall(r"<tr.*?</tr>", site["standings.html"], re.S)
    row = next((r for r in rows if f"p{leaving}.html" in r), None)
    assert row is not None and "withdrawn" in row
    assert '<th class="num">No.</th>' not in site["crosstable.html"]


def test_serve_sends_pages_gzipped_to_a_phone_that_accepts_it(named: Path) -> None:
    server = start_serve(named, "--port", "0", "--bind", "127.0.0.1", "--loopback")
    try:
        plain = (named.with_name("named-site") / "index.html").read_bytes()
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", "/index.html", headers={"Accept-Encoding": "gzip, br"})
        answer = connection.getresponse()
        body = answer.read()
        connection.close()
        assert answer.status == 200 and answer.getheader("Content-Encoding") == "gzip"
        assert gzip.decompress(body) == plain and len(body) < len(plain) / 2
    finally:
        stop(server)


def _fetch(port: int, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path, headers={"Accept-Encoding": "gzip", **headers})
    answer = connection.getresponse()
    body = answer.read()
    connection.close()
    return answer.status, {k.lower(): v for k, v in answer.getheaders()}, body


@pytest.mark.parametrize("name", ["site.css", "site.js", "index.html"])
def test_a_reload_of_what_the_phone_holds_is_a_304_until_it_changes(
    tmp_path: Path, name: str
) -> None:
    """A hall of phones reloading: the style sheet, the script and an unchanged page are
    sent once; a newer version is sent again (the ETag names what was sent)."""
    book = played_book(tmp_path)
    assert run("publish", book).returncode == 0
    server = start_serve(book, "--port", "0", "--bind", "127.0.0.1", "--loopback")
    try:
        status, headers, body = _fetch(server.port, f"/{name}")
        file = book.with_name(f"{book.stem}-site") / name
        assert status == 200 and gzip.decompress(body) == file.read_bytes()
        tag = headers["etag"]
        status, again, body = _fetch(server.port, f"/{name}", **{"If-None-Match": tag})
        assert (status, body, again["etag"]) == (304, b"", tag)
        assert again["cache-control"] == "no-cache"
        file.write_bytes(file.read_bytes() + b"\n")  # a newer publication of it
        status, headers, body = _fetch(server.port, f"/{name}", **{"If-None-Match": tag})
        assert status == 200 and gzip.decompress(body) == file.read_bytes()
        assert headers["etag"] != tag
    finally:
        stop(server)


@pytest.mark.parametrize("name", ["index.html", "index.stamp.js"])
def test_a_page_published_again_within_the_same_second_is_sent_again(
    tmp_path: Path, name: str
) -> None:
    """Last-Modified counts whole seconds: a phone that asks "changed since?" about a page
    published again in the same second gets the new page, not a 304 for the old one."""
    book = played_book(tmp_path)
    assert run("publish", book).returncode == 0
    server = start_serve(book, "--port", "0", "--bind", "127.0.0.1", "--loopback")
    try:
        file = book.with_name(f"{book.stem}-site") / name
        status, headers, _ = _fetch(server.port, f"/{name}", **{"Accept-Encoding": "identity"})
        assert status == 200
        since = headers["last-modified"]
        held = file.stat()
        file.write_bytes(file.read_bytes() + b"\n")  # published again
        os.utime(file, ns=(held.st_atime_ns, held.st_mtime_ns))
        status, _, body = _fetch(
            server.port, f"/{name}", **{"Accept-Encoding": "identity", "If-Modified-Since": since}
        )
        assert (status, body) == (200, file.read_bytes())
    finally:
        stop(server)


# --- in the browser ----------------------------------------------------------------------


def test_the_find_box_matches_either_order_accents_apostrophes_and_whole_numbers(
    named: Path, page: Any
) -> None:
    site = named.with_name("named-site")
    page.goto((site / "index.html").as_uri())
    for query, expected in (
        ("He Zichang", "He, Zichang"),
        ("Zichang He", "He, Zichang"),
        ("he, zich", "He, Zichang"),
        ("oconner", "O'Conner, Pat"),
        ("O'Conner", "O'Conner, Pat"),
        ("muller", "Müller, Jürgen"),
        ("Mueller", "Müller, Jürgen"),
        ("ota", "Ōta, Ken"),
    ):
        page.fill("#find", query)
        names = shown(page, "ul.names > li")
        assert len(names) == 1 and expected in names[0], (query, names)
    page.fill("#find", "1")
    boards = shown(page, "ul.boards > li")
    assert len(boards) == 1 and boards[0].startswith("Board 1"), "board 1, not every 1 in a number"
    names = shown(page, "ul.names > li")
    assert len(names) == 2 and all("Board 1" in n for n in names)
    pid = next(int(r["AGA #"]) for r in sheet_rows(named, "Players"))  # type: ignore[call-overload]
    page.fill("#find", str(pid))
    assert len(shown(page, "ul.names > li")) == 1
    page.fill("#find", str(pid)[:-1])
    assert len(shown(page, "ul.names > li")) == 0, "a number matches whole, not a part of one"


def test_a_cross_table_link_to_a_row_the_find_hid_shows_it(named: Path, page: Any) -> None:
    site = named.with_name("named-site")
    page.goto((site / "crosstable.html").as_uri())
    page.fill("#find", "Zichang")
    link = page.locator("tr:visible td.game a").first
    target = str(link.get_attribute("href"))
    link.click()
    assert page.locator(target).is_visible()
    assert page.input_value("#find") == ""


def test_name_column_stays_in_view_and_taps_are_44_px(named: Path, page: Any) -> None:
    site = named.with_name("named-site")
    page.goto((site / "crosstable.html").as_uri())
    page.evaluate("document.querySelector('.scroll').scrollLeft = 400")
    cell = page.locator("tbody tr td.name").first.bounding_box()
    assert cell is not None and cell["x"] >= 0 and cell["x"] < 40, cell
    for link in page.locator("header nav a").all():
        box = link.bounding_box()
        assert box is not None and box["height"] >= 44, link.inner_text()
    assert (
        page.evaluate("getComputedStyle(document.querySelector('.updated time')).whiteSpace")
        == "nowrap"
    )
    assert scroll_width(page) <= PHONE["width"]
    page.goto((site / "standings.html").as_uri())
    assert "NY" in page.inner_text("table"), "club or state shown"


def test_dark_mode_follows_the_phone(named: Path, request: pytest.FixtureRequest) -> None:
    context = request.getfixturevalue("browser").new_context(
        viewport=PHONE, is_mobile=True, color_scheme="dark"
    )
    try:
        page = context.new_page()
        page.goto((named.with_name("named-site") / "index.html").as_uri())
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        rgb = [int(x) for x in re.findall(r"\d+", background)[:3]]
        assert sum(rgb) < 150, background
    finally:
        context.close()


def test_a_phone_that_lost_the_wifi_says_its_page_may_be_stale(named: Path, page: Any) -> None:
    server = start_serve(named, "--port", "0", "--bind", "127.0.0.1", "--loopback")
    try:
        page.goto(f"http://127.0.0.1:{server.port}/index.html")
        assert page.locator("#stale").count() == 0
        page.context.set_offline(True)
        page.wait_for_selector("#stale", state="visible", timeout=5000)
        assert "out of date" in page.inner_text("#stale")
    finally:
        page.context.set_offline(False)
        stop(server)


def test_a_bye_card_says_it_once(tmp_path: Path) -> None:
    book = played_book(tmp_path)
    assert run("unpair", book, "--yes").returncode == 0
    resting = int(sheet_rows(book, "Players")[0]["AGA #"])  # type: ignore[call-overload]
    assert run("bye", book, "--player", resting, "--round", 3, "--yes").returncode == 0
    assert run("pair", book, "--yes").returncode == 0
    site = published(book, tmp_path / "site")
    card = re.search(r'<li id="r3">.*?</li>', site[f"p{resting}.html"], re.S)
    assert card is not None
    text = text_of(card.group(0))
    assert text.count("Bye asked for (0 points)") == 1, text
    assert "Not in this round" not in text and "McMahon score" in text
