"""Reporting a result from the board in a real browser (Chromium, a phone's viewport), to the
real ``serve``; then ``accept-results`` and ``undo`` on the real command line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import log_messages, run, sheet_rows
from tests.test_board_reports import desk_of
from tests.test_publish_browser import PHONE, browser, scroll_width  # noqa: F401
from tests.test_publish_site import played_book
from tests.test_serve import Server, start_serve, stop


@pytest.fixture
def phone_context(request: pytest.FixtureRequest) -> Iterator[Any]:
    """A phone's browser context (``test_publish_browser``'s Chromium, skipped without it)."""
    context = request.getfixturevalue("browser").new_context(
        viewport=PHONE, is_mobile=True, has_touch=True
    )
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
    """What the phone shows after sending the form, as a player fills it in."""
    page.goto(f"{url}report.html#board={board['board']}&side={side}")
    assert page.input_value("input[name=board]") == str(board["board"]), "from the link"
    page.fill("input[name=code]", code)
    page.check(f"input[name=result][value={result}]")
    page.click("button.send")
    page.wait_for_function(
        "document.getElementById('report-status').className !== ''", timeout=10_000
    )
    return str(page.inner_text("#report-status"))


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
    assert "you already reported Black wins" in said
    other = desk_of(book)["boards"][1]
    wrong = report(phone_context.new_page(), url, other, "white", "white", "ZZZZ")
    assert "not board" in wrong and "code" in wrong

    done = run("accept-results", book)
    assert done.returncode == 0, done.stderr
    row = next(g for g in sheet_rows(book, "Round 3") if g["Board"] == board["board"])
    assert row["Result"] == "Black wins"
    assert any(a == "accept-results" and "Black wins" in m for _, a, m in log_messages(book))
    assert run("undo", book, "--yes").returncode == 0
    row = next(g for g in sheet_rows(book, "Round 3") if g["Board"] == board["board"])
    assert row["Result"] is None


def test_the_report_page_opened_from_a_file_says_it_works_served_only(
    served: tuple[Path, Server], phone_context: Any
) -> None:
    book, _ = served
    page = phone_context.new_page()
    page.goto((book.with_name("open-site") / "report.html").as_uri())
    assert "served site only" in page.inner_text("#report-status")
    assert scroll_width(page) <= PHONE["width"]
