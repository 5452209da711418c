"""Reporting a result from the board in a real browser (Chromium at a phone's 360 x 740, with
JavaScript on and off, light and dark), to the real ``serve``; then ``accept-results`` and
``undo`` on the real command line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from addin.actions.serve import phones_folder
from addin.publish.assets import REFRESH_SECONDS
from addin.publish.board_reports import REPORTS_FILE
from tests.helpers import log_messages, run, sheet_rows
from tests.test_board_reports import desk_of, post
from tests.test_publish_browser import PHONE, browser, scroll_width  # noqa: F401
from tests.test_publish_site import played_book
from tests.test_serve import Server, start_serve, stop

WAIT = (2 * REFRESH_SECONDS + 5) * 1000
"""Milliseconds an open page may take to show what the server heard (two refresh periods)."""


@pytest.fixture
def chromium(request: pytest.FixtureRequest) -> Any:
    """``test_publish_browser``'s Chromium (skipped without it, failed in CI)."""
    return request.getfixturevalue("browser")


def phone(chromium: Any, *, js: bool = True, scheme: str = "light") -> Any:
    """A phone's browser context: 360 x 740, touch, JavaScript on or off, light or dark."""
    return chromium.new_context(
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        java_script_enabled=js,
        color_scheme=scheme,
    )


@pytest.fixture
def phone_context(request: pytest.FixtureRequest) -> Iterator[Any]:
    """A phone's browser context (``test_publish_browser``'s Chromium, skipped without it)."""
    context = phone(request.getfixturevalue("chromium"))
    yield context
    context.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, Server]]:
    book = played_book(tmp_path)
    assert run("publish", book).returncode == 0
    server = start_serve(book, "--port", "0", "--bind", "127.0.0.1", "--loopback")
    yield book, server
    if server.process.poll() is None:
        stop(server)


def report(page: Any, url: str, board: dict, side: str, result: str, code: str) -> str:
    """What the phone shows after sending the Report a result page's form, as a player
    fills it in (the board chosen from the list that names both players)."""
    page.goto(f"{url}report.html")
    page.select_option("select[name=board]", str(board["board"]))
    page.check(f"input[name=side][value={side}]")
    page.fill("input[name=code]", code)
    page.check(f"input[name=result][value={result}]")
    return send(page)


def send(page: Any) -> str:
    """Tap Send; the answer (said on the same page with JavaScript, on the server's page
    without)."""
    if page.evaluate("typeof window.agaPageStamp === 'function'"):  # site.js runs
        page.click("button.send")
        page.wait_for_function(
            "['ok', 'warn', 'bad'].some(c => "
            "document.getElementById('report-status').classList.contains(c))",
            timeout=10_000,
        )
    else:
        with page.expect_navigation(timeout=10_000):
            page.click("button.send")
    return str(page.inner_text("#report-status"))


def report_own(page: Any, url: str, pid: int, code: str, won: bool | None) -> str:
    """A player reports from their own page: "I won" (True), "OPPONENT won" (False) or
    "Jigo" (None)."""
    page.goto(f"{url}p{pid}.html")
    page.fill("section.now input[name=code]", code)
    page.locator("section.now input[name=result]").nth({True: 0, False: 1, None: 2}[won]).check()
    return send(page)


def test_a_player_reports_from_a_phone_and_accept_results_takes_it_in_and_undo_back(
    served: tuple[Path, Server], phone_context: Any
) -> None:
    book, server = served
    board = desk_of(book)["boards"][0]
    white, black = phone_context.new_page(), phone_context.new_page()
    url = f"http://127.0.0.1:{server.port}/"
    said = report(white, url, board, "white", "black", board["code"].lower())
    assert "Waiting for your opponent" in said, said
    assert scroll_width(white) <= PHONE["width"]
    button = white.locator("button.send").bounding_box()
    assert button is not None and button["height"] >= 44
    said = report(black, url, board, "black", "black", board["code"])
    assert "Both players agree" in said, said
    said = report(white, url, board, "white", "white", board["code"])
    assert f"a report for White ({board['white_name']}) is already kept: Black wins" in said
    other = desk_of(book)["boards"][1]
    wrong = report(phone_context.new_page(), url, other, "white", "white", "ZZZZ")
    assert "not board" in wrong and "result code" in wrong

    done = run("accept-results", book)
    assert done.returncode == 0, done.stderr
    row = next(g for g in sheet_rows(book, "Round 3") if g["Board"] == board["board"])
    assert row["Result"] == "Black wins"
    assert any(a == "accept-results" and "Black wins" in m for _, a, m in log_messages(book))
    assert run("undo", book, "--yes").returncode == 0
    row = next(g for g in sheet_rows(book, "Round 3") if g["Board"] == board["board"])
    assert row["Result"] is None


def on_first_screen(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_with_javascript_off_a_report_is_sent_kept_and_answered_with_a_page(
    served: tuple[Path, Server], chromium: Any
) -> None:
    """Issue 40 (1): the form is a plain POST to the server (it had no method nor action:
    a GET with the code in the address, nothing kept, nothing said)."""
    book, server = served
    url = f"http://127.0.0.1:{server.port}/"
    for n, scheme in enumerate(("light", "dark")):
        board = desk_of(book)["boards"][2 + n]
        context = phone(chromium, js=False, scheme=scheme)
        try:
            white, black = context.new_page(), context.new_page()
            said = report_own(white, url, board["white"], board["code"], won=True)
            assert white.url == f"{url}report", "posted to the server, not a GET"
            assert "code" not in white.url
            assert "reported by White. Waiting for your opponent's report." in said, said
            assert on_first_screen(white, "#report-status"), "the answer is on the first screen"
            assert white.locator(f'a[href="p{board["white"]}.html"]').count() == 1, "way on"
            said = report_own(black, url, board["black"], board["code"], won=False)
            assert "Both players agree" in said, said
            assert scroll_width(black) <= PHONE["width"]
        finally:
            context.close()
    kept = json.loads((phones_folder(book) / REPORTS_FILE).read_text(encoding="utf-8"))
    assert sorted((r["board"], r["side"], r["result"]) for r in kept["reports"]) == sorted(
        (b["board"], side, "white")
        for b in desk_of(book)["boards"][2:4]
        for side in ("white", "black")
    )
    done = run("accept-results", book)
    assert done.returncode == 0 and "2 result(s) reported by both players taken in" in done.stdout


def test_the_form_names_both_players_so_no_one_reports_the_wrong_colour(
    served: tuple[Path, Server], chromium: Any
) -> None:
    """Issue 40 (2): a player who tapped the wrong colour blocked the real player."""
    book, server = served
    url = f"http://127.0.0.1:{server.port}/"
    board = desk_of(book)["boards"][4]
    white, black = board["white_name"], board["black_name"]
    for js in (True, False):
        context = phone(chromium, js=js)
        try:
            page = context.new_page()
            page.goto(f"{url}p{board['black']}.html")
            form = page.locator("section.now form")
            assert form.locator("input[name=side]").get_attribute("value") == "black"
            assert form.locator("input[name=side]").get_attribute("type") == "hidden"
            labels = form.locator("label.choice").all_inner_texts()
            assert [t.strip() for t in labels] == ["I won", f"{white} won", "Jigo"]

            page.goto(f"{url}report.html")
            option = page.locator(f"select[name=board] option[value='{board['board']}']")
            assert option.inner_text() == f"Board {board['board']}: White: {white}; Black: {black}"
            if js:  # the choices name the players as soon as the board is chosen
                page.select_option("select[name=board]", str(board["board"]))
                sides = page.locator("fieldset:has(input[name=side]) label").all_inner_texts()
                assert [t.strip() for t in sides] == [f"White: {white}", f"Black: {black}"]
                results = page.locator("fieldset:has(input[name=result]) label")
                assert results.nth(0).inner_text().strip() == f"{white} (White) won"
            else:  # refused: the server's page gives the form back, filled in and named
                page.select_option("select[name=board]", str(board["board"]))
                page.check("input[name=side][value=white]")
                page.fill("input[name=code]", "ZZZZ")
                page.check("input[name=result][value=white]")
                said = send(page)
                assert "not board" in said
                assert page.input_value("select[name=board]") == str(board["board"])
                assert page.is_checked("input[name=side][value=white]")
                sides = page.locator("fieldset:has(input[name=side]) label").all_inner_texts()
                assert [t.strip() for t in sides] == [f"White: {white}", f"Black: {black}"]
        finally:
            context.close()


def test_a_disagreement_is_not_shown_as_a_success_and_every_answer_is_on_the_first_screen(
    served: tuple[Path, Server], chromium: Any
) -> None:
    """Issue 40 (4): a disagreement was green, the success style, and below the button."""
    book, server = served
    url = f"http://127.0.0.1:{server.port}/"
    boards = desk_of(book)["boards"]
    ways = [(True, "light"), (True, "dark"), (False, "light"), (False, "dark")]
    for board, (js, scheme) in zip(boards, ways, strict=False):
        context = phone(chromium, js=js, scheme=scheme)
        try:
            first, second = context.new_page(), context.new_page()
            said = report_own(first, url, board["white"], board["code"], won=True)
            assert "Waiting for your opponent" in said, said
            kept = first.locator("#report-status").evaluate("e => getComputedStyle(e).color")
            said = report_own(second, url, board["black"], board["code"], won=True)
            assert "Your opponent reported otherwise: please see the TD" in said, said
            status = second.locator("#report-status")
            assert "warn" in (status.get_attribute("class") or "")
            assert status.evaluate("e => getComputedStyle(e).color") != kept, "not success"
            for page in (first, second):
                assert on_first_screen(page, "#report-status"), (js, scheme)
        finally:
            context.close()


def state_of(page: Any, board: int) -> str:
    marks = page.locator(f"[data-report-board='{board}']:visible")
    return " | ".join(t.strip() for t in marks.all_inner_texts())


def test_both_players_pages_and_the_pairings_show_the_boards_report_state_as_it_changes(
    served: tuple[Path, Server], chromium: Any
) -> None:
    """Issue 40 (5) and the per-board report state: reported by one, both agree, disputed,
    taken in; live on open pages over ``serve`` (JavaScript), and as published without."""
    book, server = served
    url = f"http://127.0.0.1:{server.port}/"
    agree, dispute = desk_of(book)["boards"][5:7]
    context = phone(chromium)
    try:
        pages = {name: context.new_page() for name in ("white", "black", "pairings")}
        pages["white"].goto(f"{url}p{agree['white']}.html")
        pages["black"].goto(f"{url}p{agree['black']}.html")
        pages["pairings"].goto(f"{url}index.html")
        assert state_of(pages["white"], agree["board"]) == ""

        body = {"round": "3", "board": str(agree["board"]), "code": agree["code"]}
        assert post(server.port, {**body, "side": "white", "result": "white"})[0] == 200
        pages["white"].wait_for_function(
            f"document.querySelector('section.now [data-report-board=\"{agree['board']}\"]')"
            ".textContent.includes('waiting for your opponent')",
            timeout=WAIT,
        )
        pages["black"].wait_for_function(
            "document.querySelector('section.now .report-state').textContent"
            ".includes('Your opponent has reported')",
            timeout=WAIT,
        )
        pages["pairings"].wait_for_function(
            f"document.querySelector('#board-{agree['board']} .report-state').textContent"
            " === 'White has reported: waiting for Black.'",
            timeout=WAIT,
        )
        assert post(server.port, {**body, "side": "black", "result": "white"})[0] == 200
        pages["pairings"].wait_for_function(
            f"document.querySelector('#board-{agree['board']} .report-state').textContent"
            ".startsWith('Both players agree')",
            timeout=WAIT,
        )
        other = {"round": "3", "board": str(dispute["board"]), "code": dispute["code"]}
        assert post(server.port, {**other, "side": "white", "result": "white"})[0] == 200
        assert post(server.port, {**other, "side": "black", "result": "black"})[0] == 200
        pages["pairings"].wait_for_function(
            f"document.querySelector('#board-{dispute['board']} .report-state').textContent"
            " === 'The players disagree: please see the TD.'",
            timeout=WAIT,
        )
        disputed = pages["pairings"].locator(f"#board-{dispute['board']} .report-state")
        assert "rs-disputed" in (disputed.get_attribute("class") or "")
    finally:
        context.close()

    assert run("accept-results", book).returncode == 0
    assert run("publish", book).returncode == 0
    context = phone(chromium, js=False, scheme="dark")
    try:
        page = context.new_page()
        page.goto(f"{url}index.html")
        assert state_of(page, agree["board"]).count("The TD has taken the result in.") == 3
        assert "The players disagree" in state_of(page, dispute["board"])
        page.goto(f"{url}p{dispute['black']}.html")
        assert "The players disagree" in page.inner_text("section.now")
    finally:
        context.close()


def test_the_report_page_opened_from_a_file_says_it_works_served_only(
    served: tuple[Path, Server], phone_context: Any
) -> None:
    book, _ = served
    page = phone_context.new_page()
    page.goto((book.with_name("open-site") / "report.html").as_uri())
    assert "served site only" in page.inner_text("#report-status")
    assert scroll_width(page) <= PHONE["width"]
