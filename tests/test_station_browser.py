"""A station in a real browser (Debian's Chromium, driven by Playwright) at a tablet's
768 x 1024, with the keyboard: it looks up a member of the real 22,410-member TDListA,
registers them (a late arrival: told the band, never asked), checks in a pre-registered
player, turns into a results desk and enters a result from a slip. Each lands in the
workbook with the station's name in the Log, and ``undo`` takes the last one back. The same
forms work with JavaScript turned off: a drop shows the name and asks first, a question
waiting for the desk's answer stands at the top of its page. A results desk's page leads
with its form. The pictures of a station page are taken here (``AGA_WRITE_PICTURES=1``
writes docs/img/station-page.png and docs/img/results-desk-768x1024.png again).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from addin.journal.store import Journal
from addin.station.entries import EntryQueue, stations_folder
from tests.helpers import log_messages, run, sheet_rows
from tests.station_support import (
    Station,
    copied,
    event_in_play,
    key_of,
    lapsed_member,
    rated_members,
    serving,
)
from tests.test_publish_browser import browser  # noqa: F401  (the fixture)
from tests.typing_helpers import players

ROOT = Path(__file__).resolve().parents[1]
PICTURE = ROOT / "docs" / "img" / "station-page.png"
RESULTS_PICTURE = ROOT / "docs" / "img" / "results-desk-768x1024.png"
TABLET = {"width": 768, "height": 1024}
PLAYING = rated_members(8, current=True)
WAITING = rated_members(2, skip=8, current=True)
WALK_IN = rated_members(1, skip=10, current=True)[0]
LAPSED = lapsed_member()


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return event_in_play(tmp_path_factory.mktemp("event"), PLAYING, WAITING)


@pytest.fixture
def book(event: Path, tmp_path: Path) -> Path:
    return copied(event, tmp_path / "hall")


@pytest.fixture
def tablet(browser: Any) -> Iterator[Any]:  # noqa: F811
    context = browser.new_context(viewport=TABLET)
    yield context.new_page()
    context.close()


def settled(page: Any) -> str:
    """The banner's state once the entry is no longer waiting (the page updates itself)."""
    page.wait_for_selector("#banner:not([data-state=waiting])", timeout=120_000)
    return str(page.get_attribute("#banner", "data-state"))


def row_of(page: Any, aga_id: int) -> Any:
    """The look-up's row of this AGA #."""
    return page.locator("tr", has=page.locator(f"td:text-is('{aga_id}')"))


def submit(page: Any, key: str = "Enter") -> None:
    with page.expect_navigation():
        page.keyboard.press(key)


def test_a_station_registers_checks_in_and_enters_a_result_and_undo_takes_the_last_back(
    book: Path, tablet: Any
) -> None:
    board = int(str(sheet_rows(book, "Round 1")[0]["Board"]))
    arriving = WAITING[0]
    with serving(book) as served:
        page = tablet
        page.goto(f"{served.url}/station/?key={key_of(book)}")
        page.keyboard.type("Desk 2")  # the name field has the focus: the key came in the QR
        submit(page)
        # Look up: the family name in lower case, Enter.
        page.keyboard.type(WALK_IN.family_name.lower())
        submit(page)
        row = row_of(page, WALK_IN.aga_id)
        assert WALK_IN.name in row.inner_text()
        row.locator("input[name=rank]").focus()
        submit(page)  # Enter in the row's form: Register
        assert settled(page) == "written", page.inner_text("#banner")
        assert f"Registered {WALK_IN.name}" in page.inner_text("#banner")
        assert "registered after the bands were made: placed in band" in page.inner_text("#banner")
        # Check in a pre-registered player, found by AGA #.
        page.fill("input[name=q]", str(arriving.aga_id))
        submit(page)
        row_of(page, arriving.aga_id).locator("button").focus()
        submit(page)
        assert settled(page) == "written", page.inner_text("#banner")
        # The desk turns into a results desk: its page leads with the slip's form.
        with page.expect_navigation():
            page.click("header button[value=results]")
        assert page.evaluate("document.activeElement.name") == "board"
        # A result from a slip: board, Tab, the result as the slip says it, Enter.
        page.keyboard.type(str(board))
        page.keyboard.press("Tab")
        page.keyboard.type("b")
        submit(page)
        assert settled(page) == "written", page.inner_text("#banner")
        assert page.evaluate("document.activeElement.name") == "board", "next slip: the board"
        page.wait_for_selector("#round td:has-text('Black wins')")
        with page.expect_navigation():
            page.click("header button[value=registration]")
        page.fill("input[name=q]", WALK_IN.family_name[:4].lower())  # the picture: a look-up
        submit(page)
        assert "Active" in row_of(page, WALK_IN.aga_id).inner_text()
        if os.environ.get("AGA_WRITE_PICTURES"):
            page.screenshot(path=str(PICTURE))
        shot = page.screenshot()
    registered = players(book)
    assert registered[WALK_IN.aga_id]["Status"] == "Active"
    assert registered[arriving.aga_id]["Status"] == "Active"
    assert sheet_rows(book, "Round 1")[0]["Result"] == "Black wins"
    signed = {action for _, action, _ in log_messages(book) if action.endswith("(Desk 2)")}
    assert signed == {"register (Desk 2)", "checkin (Desk 2)", "result (Desk 2)"}
    assert [e.door for e in Journal.load(book).entries[-3:]] == ["Desk 2"] * 3
    undone = run("undo", book)
    assert undone.returncode == 0, undone.stderr
    assert "result" in undone.stdout
    assert sheet_rows(book, "Round 1")[0]["Result"] is None
    assert players(book)[arriving.aga_id]["Status"] == "Active", "only the last is taken back"
    assert PICTURE.is_file(), "the README's picture: run with AGA_WRITE_PICTURES=1"
    import io

    fresh = Image.open(io.BytesIO(shot))
    assert Image.open(PICTURE).size == fresh.size == (TABLET["width"], TABLET["height"])


def test_the_forms_work_without_javascript(book: Path, browser: Any) -> None:  # noqa: F811
    context = browser.new_context(viewport=TABLET, java_script_enabled=False)
    page = context.new_page()
    arriving = WAITING[1]
    try:
        with serving(book) as served:
            page.goto(f"{served.url}/station/")
            page.fill("input[name=key]", key_of(book).lower())  # typed from the console
            page.fill("input[name=station]", "Desk 4")
            submit(page)
            page.fill("input[name=q]", arriving.family_name)
            submit(page)
            with page.expect_navigation():
                row_of(page, arriving.aga_id).locator("button").click()
            assert settled(page) == "written"  # the page reloads itself while it waits
            assert page.inner_text("#banner").startswith("Written")
    finally:
        context.close()
    assert players(book)[arriving.aga_id]["Status"] == "Active"
    assert ("Action", "checkin (Desk 4)") in {(lv, a) for lv, a, _ in log_messages(book)}


def test_a_station_page_fits_a_tablet_without_sideways_scrolling(book: Path, tablet: Any) -> None:
    with serving(book, writer=False) as served:
        station = Station(served.url, "probe")
        station.sign_in(key_of(book))
        tablet.goto(f"{served.url}/station/?key={key_of(book)}")
        tablet.keyboard.type("Desk 5")
        submit(tablet)
        tablet.keyboard.type("a")  # a one-letter look-up: the longest list it shows
        submit(tablet)
        width = tablet.evaluate("document.documentElement.scrollWidth")
    assert width <= TABLET["width"]


def test_without_javascript_a_drop_shows_the_name_first_and_a_question_leads_the_page(
    book: Path,
    browser: Any,  # noqa: F811
) -> None:
    context = browser.new_context(viewport=TABLET, java_script_enabled=False)
    page = context.new_page()
    leaving, unknown = WAITING[0], 99_999_999  # a pre-registered player who sent word
    try:
        with serving(book) as served:
            page.goto(f"{served.url}/station/?key={key_of(book)}")
            page.fill("input[name=station]", "Desk 6")
            submit(page)
            # A drop by a number that is nobody's: nothing is sent.
            page.fill("input[name=drop]", str(unknown))
            submit(page)
            assert f"No player at this event has AGA # {unknown}" in page.inner_text("#drop")
            # A drop by AGA #: the name first, and nothing sent until the desk says yes.
            page.fill("input[name=drop]", str(leaving.aga_id))
            submit(page)
            assert leaving.name in page.inner_text("#drop")
            assert not EntryQueue(stations_folder(book)).entries()
            with page.expect_navigation():
                page.click(f"#drop button:text-is('Yes, drop {leaving.name}')")
            assert settled(page) == "written", page.inner_text("#banner")
            # A lapsed member's registration asks; the desk moves on to another look-up.
            page.fill("input[name=q]", str(LAPSED.aga_id))
            submit(page)
            with page.expect_navigation():
                row_of(page, LAPSED.aga_id).locator("button").click()
            assert settled(page) == "asks"
            page.fill("input[name=q]", WALK_IN.family_name)
            submit(page)
            first = page.evaluate("document.querySelector('main section').id")
            assert first == "questions", "the open question leads the page"
            assert "lapsed" in page.inner_text("#questions")
            with page.expect_navigation():
                page.click("#questions button[value=yes]")
            assert settled(page) == "written", page.inner_text("#banner")
            assert page.locator("#questions li").count() == 0
            listed = page.inner_text("main").count(f"register {LAPSED.name} ({LAPSED.aga_id})")
            assert listed == 1, "an answered entry is listed once"
    finally:
        context.close()
    now = players(book)
    assert now[leaving.aga_id]["Status"] == "Dropped"
    assert now[LAPSED.aga_id]["Status"] == "Active"


def test_a_results_desk_leads_with_the_slip_form_on_a_tablet(book: Path, tablet: Any) -> None:
    board = int(str(sheet_rows(book, "Round 1")[1]["Board"]))
    with serving(book) as served:
        page = tablet
        page.goto(f"{served.url}/station/?key={key_of(book)}")
        page.keyboard.type("Results 1")
        page.check("input[name=role][value=results]")
        with page.expect_navigation():
            page.click("button:text-is('Sign in')")
        assert page.evaluate("document.querySelector('main section').id") == "result"
        assert page.evaluate("document.activeElement.name") == "board"
        page.keyboard.type(str(board))
        page.keyboard.press("Tab")
        page.keyboard.type("w")
        submit(page)
        assert settled(page) == "written", page.inner_text("#banner")
        page.wait_for_selector("#round td:has-text('White wins')")
        if os.environ.get("AGA_WRITE_PICTURES"):
            page.screenshot(path=str(RESULTS_PICTURE))
        form = page.locator("#result form").bounding_box()
        assert form is not None and form["y"] + form["height"] <= TABLET["height"] / 3
        assert page.locator("#find").count() == 0, "a results desk has no look-up"
    assert sheet_rows(book, "Round 1")[1]["Result"] == "White wins"
    assert Image.open(RESULTS_PICTURE).size == (TABLET["width"], TABLET["height"])
