"""The published site in a real browser: Debian's Chromium driven by Playwright.

A phone's viewport (360 x 740): a player finds their name with no sideways scroll; a page
left open shows a new result by itself after ``result`` and ``publish`` (from ``file://``
and over http); hostile names stay text. Skipped when Chromium or Playwright is missing,
unless ``AGA_REQUIRE_BROWSER=1`` (CI), which makes their absence a failure.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from addin.publish.assets import HALL_HOLD_SECONDS, HALL_SLIDE_SECONDS, REFRESH_SECONDS
from tests.helpers import run, sheet_rows
from tests.test_publish_site import played_book, published
from tests.test_serve import start_serve, stop
from tests.typing_helpers import players, set_setting

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 740}


def chromium_path() -> str | None:
    for candidate in (
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def why_no_browser() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install playwright)"
    if chromium_path() is None:
        return "Chromium is not installed (apt-get install chromium)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    missing = why_no_browser()
    if missing is not None:
        if os.environ.get("AGA_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{missing}, and AGA_REQUIRE_BROWSER=1 requires the browser tests")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    yield context
    context.close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def serving(folder: Path) -> Iterator[str]:
    """The standard library's server on a free port, serving ``folder``; its address."""
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def scroll_width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return played_book(tmp_path_factory.mktemp("browser"))


def test_a_player_finds_their_name_on_a_phone_without_scrolling_sideways(
    book: Path, tmp_path: Path, phone: Any
) -> None:
    folder = tmp_path / "site"
    published(book, folder)
    page = phone.new_page()
    for name in ("standings.html", "crosstable.html", "event.html"):
        page.goto((folder / name).as_uri())
        assert scroll_width(page) <= PHONE["width"], name
    player = next(p for p in sheet_rows(book, "Players") if p["Status"] == "Active")
    family, pid = str(player["Family name"]), player["AGA #"]
    page.goto((folder / f"p{pid}.html").as_uri())
    assert scroll_width(page) <= PHONE["width"]

    page.goto((folder / "index.html").as_uri())
    assert scroll_width(page) <= PHONE["width"]
    assert page.evaluate("name => window.find(name)", family), "the browser's own find"
    page.fill("#find", family.lower())
    entries = page.locator("ul.names > li")
    shown = [i for i in range(entries.count()) if entries.nth(i).is_visible()]
    assert 1 <= len(shown) < entries.count(), "the find box leaves the matching players"
    assert all(family in entries.nth(i).inner_text() for i in shown)
    mine = page.locator(f'ul.names > li:has(a[href="p{pid}.html"].who, .who a[href="p{pid}.html"])')
    assert mine.is_visible()
    assert "Board" in mine.inner_text()
    box = mine.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert scroll_width(page) <= PHONE["width"]


def test_an_open_page_shows_a_new_result_by_itself_from_a_file_and_over_http(
    tmp_path: Path, phone: Any
) -> None:
    book = played_book(tmp_path)
    folder = tmp_path / "site"
    published(book, folder)
    board = sheet_rows(book, "Round 3")[0]
    white = board["White AGA #"]
    result = "#board-1 .result"
    with serving(folder) as address:
        pages = {
            "file": phone.new_page(),
            "http": phone.new_page(),
            "player": phone.new_page(),
        }
        pages["file"].goto((folder / "index.html").as_uri())
        pages["http"].goto(address + "index.html")
        pages["player"].goto(address + f"p{white}.html")
        for page in (pages["file"], pages["http"]):
            assert page.inner_text(result) == "Not played yet"
        assert pages["player"].inner_text("#r3 .result") == "Not played yet"
        for page in pages.values():
            page.evaluate("window.__openedByTheTest = true")

        assert run("result", book, "--round", 3, "--board", 1, "--result", "W").returncode == 0
        done = run("publish", book, "--to", folder)
        assert done.returncode == 0, done.stderr
        started = time.monotonic()
        limit = (2 * REFRESH_SECONDS + 5) * 1000
        for page in (pages["file"], pages["http"]):
            page.wait_for_function(
                f"document.querySelector('{result}') && "
                f"document.querySelector('{result}').textContent === 'White wins'",
                timeout=limit,
            )
        pages["player"].wait_for_function(
            "document.querySelector('#r3 .result') && "
            "document.querySelector('#r3 .result').textContent === 'Won'",
            timeout=limit,
        )
        waited = time.monotonic() - started
        for name, page in pages.items():
            assert page.evaluate("window.__openedByTheTest") is None, f"{name}: reloaded itself"
    assert waited <= REFRESH_SECONDS + 8, f"shown within one refresh period ({waited:.1f} s)"


def test_a_page_published_again_within_the_same_second_still_shows_the_new_result(
    tmp_path: Path, phone: Any
) -> None:
    """A web host counts Last-Modified in whole seconds: the reload of a page published
    again within the second is answered 304 and brings back the old page. The page then
    goes once to an address no cache holds, and shows its plain address again."""
    book = played_book(tmp_path)
    folder = tmp_path / "site"
    published(book, folder)
    index = folder / "index.html"
    first = index.stat()
    result = "#board-1 .result"
    with serving(folder) as address:
        page = phone.new_page()
        page.goto(address + "index.html")
        assert page.inner_text(result) == "Not played yet"
        page.evaluate("window.scrollTo(0, 120)")
        assert run("result", book, "--round", 3, "--board", 1, "--result", "W").returncode == 0
        assert run("publish", book, "--to", folder).returncode == 0
        os.utime(index, ns=(first.st_atime_ns, first.st_mtime_ns))
        page.wait_for_function(
            f"document.querySelector('{result}') && "
            f"document.querySelector('{result}').textContent === 'White wins'",
            timeout=(2 * REFRESH_SECONDS + 5) * 1000,
        )
        page.wait_for_load_state()
        assert page.url == address + "index.html", "the plain address again"
        assert page.evaluate("window.scrollY") == 120, "where the phone was"


HOSTILE_NAMES = (
    "<script>window.__pwned=1</script>, Eve",
    '"><img src=x onerror="window.__pwned=2">, Img',
    '=HYPERLINK("http://evil.example/x";"click"), Hy',
    "javascript:window.__pwned=3, Link",
    "W" * 30_000 + ", Long",
    "\u202eEvil\u202c \u0645\u0631\u062d\u0628\u0627, Bidi",
)


def test_hostile_names_are_shown_as_text_and_run_nothing(tmp_path: Path, phone: Any) -> None:
    book = tmp_path / "hostile.xlsx"
    assert (
        run("new", book, "--name", "<script>window.__pwned=4</script>", "--rounds", 2).returncode
        == 0
    )
    for name in HOSTILE_NAMES:
        done = run("register", book, "--name", name, "--rank", "5k", "--yes")
        assert done.returncode == 0, done.stderr
    assert run("bands", book, "--yes").returncode == 0
    assert run("pair", book, "--yes").returncode == 0
    assert run("result", book, "--board", 1, "--result", "B").returncode == 0
    folder = tmp_path / "site"
    published(book, folder)
    pages = ["index.html", "standings.html", "crosstable.html", "event.html"]
    pages += sorted(p.name for p in folder.glob("p*.html"))
    dialogs: list[str] = []
    page = phone.new_page()
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    for name in pages:
        page.goto((folder / name).as_uri())
        assert page.evaluate("window.__pwned") is None, name
        assert page.locator("img").count() == 0, name
        assert page.locator("script").count() == 1, f"{name}: only site.js"
        assert scroll_width(page) <= PHONE["width"], name
    page.goto((folder / "index.html").as_uri())
    text = page.inner_text("body")
    assert "<script>window.__pwned=1</script>" in text
    assert '"><img src=x onerror="window.__pwned=2">' in text
    assert "<script>window.__pwned=4</script>" in text, "the tournament's name too"
    page.fill("#find", "<script>")
    assert page.locator("ul.names > li:visible").count() == 1
    assert dialogs == []


# --- a page reloads only when its own content changed -------------------------------------

HEARD = """() => {
  const answer = window.agaPageStamp;
  window.__heard = 0;
  window.agaPageStamp = function (stamp, when) { window.__heard += 1; answer(stamp, when); };
  window.__kept = true;
}"""
"""Counts the answers of the page's stamp file (its own polls, nothing else) and marks the
page: a reload loses both."""


def unchanged_player(book: Path, tmp_path: Path) -> int:
    """A player whose page the result on round 3's board 1 leaves as it is, found by
    publishing a copy of the book before and after that result."""
    copy = tmp_path / "scratch" / "copy.xlsx"
    copy.parent.mkdir()
    shutil.copy(book, copy)
    before = published(copy, copy.with_name("before"))
    assert run("result", copy, "--round", 3, "--board", 1, "--result", "W").returncode == 0
    after = published(copy, copy.with_name("after"))
    board = sheet_rows(book, "Round 3")[0]
    playing = {f"p{board['White AGA #']}.stamp.js", f"p{board['Black AGA #']}.stamp.js"}
    kept = [
        n
        for n in sorted(after)
        if n.startswith("p")
        and n.endswith(".stamp.js")
        and after[n].split('"')[1] == before[n].split('"')[1]
    ]
    assert kept and not playing & set(kept)
    return int(kept[0][1:].split(".")[0])


def heard_twice_more(pages: dict[str, Any]) -> None:
    """Waits until every page has polled its stamp file twice more (one poll at least
    began after the publication the caller just made)."""
    counts = {name: page.evaluate("window.__heard") for name, page in pages.items()}
    for name, page in pages.items():
        page.wait_for_function(
            f"window.__heard >= {counts[name] + 2}", timeout=(3 * REFRESH_SECONDS + 5) * 1000
        )


def test_only_the_pages_a_publication_changes_reload_over_serve_and_from_files(
    tmp_path: Path, phone: Any
) -> None:
    book = played_book(tmp_path)
    published(book, book.with_name("open-site"))
    folder = book.with_name("open-site")
    keep = unchanged_player(book, tmp_path)
    white = sheet_rows(book, "Round 3")[0]["White AGA #"]
    server = start_serve(book, "--port", "0", "--bind", "127.0.0.1", "--loopback")
    try:
        http_ = f"http://127.0.0.1:{server.port}/"
        opened = {
            "pairings over http": http_ + "index.html",
            "pairings as a file": (folder / "index.html").as_uri(),
            "a player over http": http_ + f"p{keep}.html",
            "a player as a file": (folder / f"p{keep}.html").as_uri(),
            "white over http": http_ + f"p{white}.html",
            "round 1 over http": http_ + "round1.html",
        }
        pages = {name: phone.new_page() for name in opened}
        for name, page in pages.items():
            page.goto(opened[name])
            page.evaluate(HEARD)

        published(book, folder)  # nothing changed
        heard_twice_more(pages)
        for name, page in pages.items():
            assert page.evaluate("window.__kept") is True, f"{name}: reloaded for nothing"

        assert run("result", book, "--round", 3, "--board", 1, "--result", "W").returncode == 0
        published(book, folder)
        changed = [n for n in pages if n.startswith(("pairings", "white"))]
        for name in changed:
            pages[name].wait_for_function(
                "window.__kept === undefined", timeout=(2 * REFRESH_SECONDS + 5) * 1000
            )
        for name in ("pairings over http", "pairings as a file"):
            assert pages[name].inner_text("#board-1 .result") == "White wins", name
        assert pages["white over http"].inner_text("#r3 .result") == "Won"
        kept = {n: p for n, p in pages.items() if n not in changed}
        heard_twice_more(kept)
        for name, page in kept.items():
            assert page.evaluate("window.__kept") is True, f"{name}: reloaded, not changed"
        newest = (folder / "index.stamp.js").read_text().split('"')[3]
        for name, page in kept.items():
            assert page.inner_text(".updated time") == newest, f"{name}: says when it was checked"
    finally:
        stop(server)


def test_a_page_that_left_the_site_goes_to_the_pairings_once_and_none_loops(
    tmp_path: Path, phone: Any
) -> None:
    book = played_book(tmp_path)
    folder = tmp_path / "site"
    published(book, folder)
    player = next(folder.glob("p*.html")).name
    with serving(folder) as address:
        gone, gone_file, stuck = phone.new_page(), phone.new_page(), phone.new_page()
        gone.goto(address + "round2.html")
        gone_file.goto((folder / "round2.html").as_uri())
        assert run("unpair", book, "--yes").returncode == 0  # round 3 goes: round 2 is current
        published(book, folder)
        assert not (folder / "round2.html").exists() and not (folder / "round2.stamp.js").exists()
        for page in (gone, gone_file):
            page.wait_for_url("**/index.html", timeout=(3 * REFRESH_SECONDS + 5) * 1000)
            assert "Pairings" in page.inner_text("h1")
            page.evaluate(HEARD)

        stuck.goto((folder / player).as_uri())
        stuck.evaluate(HEARD)
        own = folder / player.replace(".html", ".stamp.js")
        own.write_text(own.read_text().replace('("', '("0', 1))  # a stamp no page has
        stuck.wait_for_function(
            "window.__kept === undefined", timeout=(2 * REFRESH_SECONDS + 5) * 1000
        )
        stuck.wait_for_load_state()
        stuck.evaluate(HEARD)
        heard_twice_more({"stuck": stuck})
        assert stuck.evaluate("window.__kept") is True, "one reload per stamp, not a loop"
        for page in (gone, gone_file):
            assert page.evaluate("window.__kept") is True, "the pairings stay put"


# --- issue 40: every page at a glance, with JavaScript on and off, light and dark ----------


def test_a_find_stays_on_its_page_and_a_find_that_matches_nothing_says_so(
    book: Path, tmp_path: Path, phone: Any
) -> None:
    """Issue 40 (3): a board number typed in the pairings' find box carried over to the
    standings and the cross table, which then looked empty with no "no match" line."""
    folder = tmp_path / "site"
    published(book, folder)
    page = phone.new_page()
    page.goto((folder / "index.html").as_uri())
    page.fill("#find", "3")  # board 3
    assert page.locator("#board-3").is_visible() and not page.locator("#board-1").is_visible()
    assert not page.locator("#no-match").is_visible()
    for name in ("standings.html", "crosstable.html"):
        page.goto((folder / name).as_uri())
        assert page.input_value("#find") == "", f"{name}: the pairings' find stays there"
        rows = page.locator("tbody tr")
        assert all(rows.nth(i).is_visible() for i in range(rows.count())), name
        page.fill("#find", "3")
        assert page.locator("tbody tr:visible").count() == 0
        nothing = page.locator("#no-match")
        assert nothing.is_visible() and "Nothing on this page matches" in nothing.inner_text()
        page.click("#no-match button")
        assert page.locator("tbody tr:visible").count() == rows.count()
        assert not nothing.is_visible()
    page.goto((folder / "index.html").as_uri())
    assert page.input_value("#find") == "3", "each page keeps its own find"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_board_and_colour_come_first_and_large_on_a_players_page(
    book: Path, tmp_path: Path, browser: Any, scheme: str
) -> None:
    """Issue 40 (6): the board and colour, the first thing a player looks for, were small
    grey text below a nine-row profile."""
    folder = tmp_path / "site"
    published(book, folder)
    game = sheet_rows(book, "Round 3")[0]
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, color_scheme=scheme
    )
    try:
        page = context.new_page()
        page.goto((folder / f"p{game['Black AGA #']}.html").as_uri())
        seat = page.locator("section.now .seat")
        assert seat.inner_text() == f"Board {game['Board']} · Black"
        box = seat.bounding_box()
        assert box is not None and box["y"] + box["height"] < PHONE["height"] / 2, "at the top"
        style = seat.evaluate("e => [getComputedStyle(e).fontSize, getComputedStyle(e).fontWeight]")
        assert float(style[0].removesuffix("px")) >= 22 and int(style[1]) >= 700
        body = page.evaluate("getComputedStyle(document.body).fontSize")
        assert float(style[0].removesuffix("px")) >= 1.3 * float(body.removesuffix("px"))
        facts = page.locator("dl.facts").bounding_box()
        assert facts is not None and facts["y"] > box["y"], "above the profile"
        page.goto((folder / "index.html").as_uri())
        mine = page.locator(f"ul.names > li:has(a[href='p{game['Black AGA #']}.html'])").first
        assert mine.locator(".seat").inner_text() == f"Board {game['Board']} · Black"
        colour = mine.locator(".seat").evaluate("e => getComputedStyle(e).color")
        ink = page.evaluate("getComputedStyle(document.body).color")
        assert colour == ink, "in the ink of the page, not grey"
    finally:
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_without_javascript_every_page_reads_and_every_form_still_works(
    book: Path, tmp_path: Path, browser: Any, scheme: str
) -> None:
    """Progressive enhancement: with JavaScript off every page shows everything it says,
    no control that needs the script is shown (the find box), and every form is a plain
    POST the server answers."""
    folder = tmp_path / "site"
    published(book, folder)
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, java_script_enabled=False, color_scheme=scheme
    )
    try:
        page = context.new_page()
        for file in sorted(p.name for p in folder.glob("*.html")):
            page.goto((folder / file).as_uri())
            assert page.locator("h1").inner_text(), file
            assert not page.locator("#find").is_visible(), f"{file}: no find box that does nothing"
            for n in range(page.locator("form").count()):
                form = page.locator("form").nth(n)
                assert (form.get_attribute("method"), form.get_attribute("action")) == (
                    "post",
                    "report",
                ), file
            assert scroll_width(page) <= PHONE["width"], file
        page.goto((folder / "index.html").as_uri())
        active = [p for p in sheet_rows(book, "Players") if p["Status"] == "Active"]
        assert page.locator("ul.names > li:visible").count() == len(active), "everyone shown"
    finally:
        context.close()


# --- the hall screen: a projector or a TV, no keyboard -------------------------------------

SCREEN = {"width": 1920, "height": 1080}


@pytest.fixture(scope="module")
def hall_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Forty players, round 2 paired again and in play: twenty boards, more than a screen."""
    book = tmp_path_factory.mktemp("hall") / "hall.xlsx"
    assert run("demo", book, "--players", 40, "--rounds", 2, "--seed", 4).returncode == 0
    assert run("unpair", book, "--yes").returncode == 0
    assert run("pair", book, "--yes").returncode == 0
    return book


def first_row_top(page: Any) -> float:
    return float(page.evaluate("document.querySelector('.hall-row').getBoundingClientRect().top"))


@pytest.fixture(scope="module")
def big_hall_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 150-player open, round 2 paired again and in play: more than one screen by name."""
    book = tmp_path_factory.mktemp("big-hall") / "open.xlsx"
    assert run("demo", book, "--players", 150, "--rounds", 2, "--seed", 3).returncode == 0
    assert run("unpair", book, "--yes").returncode == 0
    assert run("pair", book, "--yes").returncode == 0
    return book


def seats(book: Path, sheet: str) -> dict[str, tuple[str, str, str]]:
    """Each player of the round: (board, colour, opponent), from the Round sheet."""
    found: dict[str, tuple[str, str, str]] = {}
    for game in sheet_rows(book, sheet):
        white, black, board = str(game["White"]), str(game["Black"]), str(game["Board"])
        if game["Board"] is not None and game["White"] and game["Black"]:
            found[white] = (board, "W", black)
            found[black] = (board, "B", white)
        if game.get("Bye player"):
            found[str(game["Bye player"])] = ("", "", "bye")
    return found


def seek(page: Any, seconds: float) -> None:
    """Every animation of the page to ``seconds`` (what the screen shows then)."""
    page.evaluate(f"document.getAnimations().forEach(a => {{ a.currentTime = {seconds * 1000}; }})")


@pytest.mark.parametrize("js", [True, False], ids=["javascript", "no-javascript"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_hall_screen_lists_every_player_by_name_in_columns_a_screen_at_a_time(
    big_hall_book: Path, tmp_path: Path, browser: Any, scheme: str, js: bool
) -> None:
    folder = tmp_path / "site"
    published(big_hall_book, folder)
    expected = seats(big_hall_book, "Round 2")
    context = browser.new_context(viewport=SCREEN, color_scheme=scheme, java_script_enabled=js)
    try:
        page = context.new_page()
        page.goto((folder / "hall.html").as_uri())
        assert page.inner_text("h1") == "Pairings, round 2, by name"
        rows = page.locator(".hall-list:not(.copy) .hall-row")
        cells = rows.evaluate_all(
            "rows => rows.map(r => [...r.children].map(c => c.textContent.trim()))"
        )
        shown = {name: (board, colour, opponent) for name, board, colour, opponent in cells}
        assert len(cells) == len(shown) == len(expected) > 150, "each player once"
        assert shown == expected, "board, colour and opponent as paired"
        names = [c[0] for c in cells]
        assert names == sorted(names, key=str.casefold), "alphabetical, down each column"
        size = float(rows.first.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px"))
        assert size >= SCREEN["height"] / 50, f"large: {size}px"
        columns = page.locator(".hall-list:not(.copy) .hall-screen").first.locator(".hall-col")
        boxes = [columns.nth(n).bounding_box() for n in range(columns.count())]
        assert len(boxes) == 3 and len({round(b["x"]) for b in boxes}) == 3, "side by side"
        used = boxes[-1]["x"] + boxes[-1]["width"] - boxes[0]["x"]
        assert used >= 0.9 * SCREEN["width"], f"the columns fill the width: {used}px"
        window = page.locator(".hall-window").bounding_box()
        assert window["y"] + window["height"] <= SCREEN["height"], "a screen fits the screen"
        assert page.evaluate("document.documentElement.scrollWidth") <= SCREEN["width"]
        assert page.locator("nav, input, button").count() == 0, "nothing to press"
        screens = page.locator(".hall-list:not(.copy) .hall-screen").count()
        assert screens == 2, f"{len(expected)} players by name: two screens, not three"
        top = first_row_top(page)
        page.wait_for_timeout(2000)
        assert first_row_top(page) == top, "the first screen holds: the top is read first"
        height = window["height"]
        seek(page, HALL_HOLD_SECONDS + HALL_SLIDE_SECONDS + 1)
        assert abs(first_row_top(page) - (top - height)) < 2, "then the next screen slides in"
        at_top = page.evaluate(
            f"document.elementFromPoint(300, {top + 5}).closest('.hall-row').textContent"
        )
        second = page.locator(".hall-list:not(.copy) .hall-screen").nth(1)
        assert at_top == second.locator(".hall-row").first.text_content()
        hidden = page.locator(".hall-list.copy")
        assert hidden.count() == 1 and hidden.get_attribute("aria-hidden") == "true"
        if not js:
            wait = page.locator("noscript meta[http-equiv=refresh]").get_attribute("content")
            assert wait is not None and int(wait) >= 60, "reloads itself after a pass"
    finally:
        context.close()


def test_the_hall_screen_by_board_shows_each_board_once_in_order(
    hall_book: Path, tmp_path: Path, browser: Any
) -> None:
    folder = tmp_path / "site"
    published(hall_book, folder)
    games = sheet_rows(hall_book, "Round 2")
    context = browser.new_context(viewport=SCREEN)
    try:
        page = context.new_page()
        page.goto((folder / "hall-boards.html").as_uri())
        assert page.inner_text("h1") == "Pairings, round 2, by board"
        rows = page.locator(".hall-list:not(.copy) .hall-row")
        by_board = sorted(
            (g for g in games if g["Board"] is not None),
            key=lambda g: int(g["Board"]),  # type: ignore[call-overload]
        )
        for n, game in enumerate(by_board):
            text = rows.nth(n).inner_text()
            assert str(game["White"]) in text and str(game["Black"]) in text, (n, text)
        rest = [rows.nth(n).inner_text() for n in range(len(by_board), rows.count())]
        assert all("bye" in text for text in rest), rest
        assert page.locator(".hall-list.copy").count() == 0, "a round that fits stays still"
        page.goto((folder / "event.html").as_uri())
        assert page.locator('a[href="hall-boards.html"]').count() == 1
    finally:
        context.close()


def test_between_rounds_the_hall_screen_shows_the_standings_and_before_round_1_who_is_in(
    hall_book: Path, tmp_path: Path, browser: Any
) -> None:
    book = tmp_path / "between.xlsx"
    shutil.copy(hall_book, book)
    for game in sheet_rows(book, "Round 2"):
        assert run("result", book, "--board", game["Board"], "--result", "B").returncode == 0
    folder = tmp_path / "site"
    published(book, folder)
    (tmp_path / "few").mkdir()
    few = played_book(tmp_path / "few")
    folder_few = tmp_path / "few-site"
    published(few, folder_few)
    before = tmp_path / "before.xlsx"
    assert run("new", before, "--name", "Club night", "--rounds", 3).returncode == 0
    assert run("register", before, "--name", "Lee, Ann", "--rank", "3k", "--yes").returncode == 0
    published(before, tmp_path / "before-site")
    context = browser.new_context(viewport=SCREEN)
    try:
        page = context.new_page()
        page.goto((folder / "hall.html").as_uri())
        assert page.inner_text("h1") == "Final standings"
        rows = page.locator(".hall-list:not(.copy) .hall-row")
        listed = (folder / "standings.html").read_text(encoding="utf-8").count("<tr data-find")
        assert rows.count() == listed > 0, "everyone in the standings"
        assert rows.first.locator("span").first.inner_text() == "1"
        page.goto((folder_few / "hall.html").as_uri())
        assert page.inner_text("h1") == "Pairings, round 3, by name"
        assert page.locator(".hall-list.copy").count() == 0, "a round that fits stays still"
        top = first_row_top(page)
        page.wait_for_timeout(1500)
        assert first_row_top(page) == top
        page.goto((tmp_path / "before-site" / "hall.html").as_uri())
        assert page.inner_text("h1") == "Registered players"
        assert "Lee, Ann" in page.inner_text(".hall-list")
    finally:
        context.close()


# --- who is registered: the pre-registered too, before they check in ------------------------


@pytest.fixture(scope="module")
def checking_in(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Check-in Yes: three pre-registered players (Not arrived), one of them checked in, and
    a walk-in registered at the desk; round 1 not paired yet."""
    book = tmp_path_factory.mktemp("check-in") / "spring.xlsx"
    assert run("new", book, "--name", "Spring Open", "--rounds", 3).returncode == 0
    set_setting(book, "Check-in", "Yes")
    csv = book.with_name("pre.csv")
    csv.write_text('Name,Rank\n"Lee, Ann",3k\n"Kim, Bo",5k\n"Oh, Su",2d\n', encoding="utf-8")
    assert run("preregister", book, csv, "--yes").returncode == 0
    assert run("register", book, "--name", "Walker, In", "--rank", "1k", "--yes").returncode == 0
    kim = next(pid for pid, p in players(book).items() if p["Family name"] == "Kim")
    assert run("checkin", book, "--player", kim).returncode == 0
    return book


@pytest.mark.parametrize("js", [True, False], ids=["javascript", "no-javascript"])
def test_who_is_registered_lists_the_pre_registered_marked_not_checked_in_yet(
    checking_in: Path, tmp_path: Path, phone: Any, browser: Any, js: bool
) -> None:
    listed = players(checking_in)
    waiting = {str(p["Family name"]) for p in listed.values() if p["Status"] == "Not arrived"}
    assert waiting == {"Lee", "Oh"}, "two pre-registered players have not checked in"
    folder = tmp_path / "site"
    published(checking_in, folder)
    context = browser.new_context(viewport=PHONE, is_mobile=True, java_script_enabled=js)
    try:
        page = context.new_page()
        page.goto((folder / "standings.html").as_uri())
        rows = page.locator("tbody tr")
        assert rows.count() == len(listed) == 4, "everyone on the list, arrived or not"
        said = page.inner_text("main")
        assert f"{len(listed)} players registered (2 not checked in yet)" in said
        for n in range(rows.count()):
            name = rows.nth(n).locator("td.name a").inner_text()
            marked = rows.nth(n).locator(".tag").count() == 1
            assert marked == (name.split(",")[0] in waiting), name
            if marked:
                assert rows.nth(n).locator(".tag").inner_text() == "not checked in yet"
        names = [rows.nth(n).locator("td.name a").inner_text() for n in range(rows.count())]
        assert names == sorted(names), "by name"
        if js:
            page.fill("#find", "lee")
            assert page.locator("tbody tr:visible").count() == 1
        assert scroll_width(page) <= PHONE["width"]
        lee = next(pid for pid, p in listed.items() if p["Family name"] == "Lee")
        page.goto((folder / f"p{lee}.html").as_uri())
        facts = page.inner_text("dl.facts")
        assert "Not arrived" in facts and "Place" not in facts, "no place before round 1"
        assert "Tiebreaks" not in page.inner_text("main")
    finally:
        context.close()
    hall = browser.new_context(viewport=SCREEN, java_script_enabled=js)
    try:
        page = hall.new_page()
        page.goto((folder / "hall.html").as_uri())
        rows = page.locator(".hall-list:not(.copy) .hall-row")
        assert rows.count() == len(listed)
        marked = [rows.nth(n).inner_text() for n in range(rows.count())]
        assert sum("not checked in yet" in text for text in marked) == 2, marked
    finally:
        hall.close()
