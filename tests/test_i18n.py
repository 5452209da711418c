"""The players' pages in the players' languages (issue 53): the catalogues, the choice of a
language, and pages served in Korean and in German to a phone.

Every catalogue has English's keys and placeholders and every plural form its language has
(CLDR's, by Babel); every message a page names is in the catalogues; no message carries
markup. ``serve`` sends a root page on to the reader's language (``Accept-Language``, or the
menu's ``?lang=``, kept in a cookie); a Korean and a German phone read a player's page and the
pairings without sideways scroll, with JavaScript off.
"""

from __future__ import annotations

import http.client
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from addin.publish.i18n import (
    DEFAULT,
    LANGUAGES,
    catalogue,
    format_number,
    negotiate,
    plural_categories,
    translate,
)
from tests.helpers import run, sheet_rows
from tests.test_board_reports import desk_of
from tests.test_publish_browser import PHONE, browser, scroll_width  # noqa: F401
from tests.test_publish_site import played_book
from tests.test_serve import start_serve, stop

PAGES = Path(__file__).resolve().parent.parent / "addin" / "publish"
SOURCES = ("pages.py", "shell.py", "localized.py", "report_form.py")
"""The modules that write the translated pages' words."""


def placeholders(message: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(message) if name}


def forms(entry: str | dict[str, str]) -> dict[str, str]:
    return {"": entry} if isinstance(entry, str) else entry


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != DEFAULT])
def test_every_catalogue_has_englishs_keys_placeholders_and_its_plural_forms(lang: str) -> None:
    english, mine = catalogue(DEFAULT), catalogue(lang)
    assert set(mine) == set(english), "the same keys as English, no more, no fewer"
    for key, entry in english.items():
        wanted = set().union(*(placeholders(m) for m in forms(entry).values()))
        for form, message in forms(mine[key]).items():
            assert message.strip(), f"{lang} {key}: empty"
            assert placeholders(message) == wanted, f"{lang} {key} {form}: {message!r}"
        if not isinstance(entry, str):
            assert isinstance(mine[key], dict), f"{lang} {key}: a plural in English"
            assert set(forms(mine[key])) == plural_categories(lang), (
                f"{lang} {key}: CLDR's plural forms of {lang}"
            )


def test_every_message_a_page_names_is_in_the_catalogues() -> None:
    english = catalogue(DEFAULT)
    prefixes = {key.split(".")[0] for key in english}
    named = set()
    for source in SOURCES:
        text = (PAGES / source).read_text(encoding="utf-8")
        named |= {
            key for key in re.findall(r'"([a-z]+\.[a-z_]+)"', text) if key.split(".")[0] in prefixes
        }
    named |= {f"state.{s}" for s in ("provisional", "final", "complete")}  # "state." + css
    assert len(named) > 50, "the pages' messages are found"
    assert named <= set(english), sorted(named - set(english))


def test_no_message_carries_markup() -> None:
    for lang in LANGUAGES:
        for key, entry in catalogue(lang).items():
            for message in forms(entry).values():
                assert not re.search(r"[<>&\"]", message), f"{lang} {key}: {message!r}"


def test_plural_forms_and_numbers_are_each_languages() -> None:
    def stones(lang: str, count: int) -> str:
        return translate("conditions.stones", lang, count=count, komi="K")

    assert (stones("en", 1), stones("en", 2)) == ("1 stone, komi K", "2 stones, komi K")
    assert (stones("de", 1), stones("de", 3)) == (
        "1 Vorgabestein, Komi K",
        "3 Vorgabesteine, Komi K",
    )
    assert stones("fr", 1).startswith("1 pierre,") and stones("fr", 2).startswith("2 pierres,")
    assert stones("ko", 1) == stones("ko", 2).replace("2", "1"), "Korean: one form for all"
    assert plural_categories("es") == {"one", "many", "other"}, "CLDR's, by Babel"
    assert [format_number(6.5, lang) for lang in ("en", "de", "fr", "ko")] == [
        "6.5",
        "6,5",
        "6,5",
        "6.5",
    ]
    assert format_number(12.5, "de", places=2) == "12,50"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7", "ko"),
        ("en-US,en;q=0.9,ko;q=0.8", "en"),
        ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr"),
        ("en;q=0.5, de", "de"),
        ("zh-TW,zh;q=0.9", "zh-Hant"),
        ("zh-HK", "zh-Hant"),
        ("zh-Hant-TW", "zh-Hant"),
        ("zh", "zh-Hans"),
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh-Hans"),
        ("ja-JP", "ja"),
        ("es-419,es;q=0.9", "es"),
        ("pt-BR,pt;q=0.9", "en"),
        ("de;q=0, ja", "ja"),
        ("", "en"),
        ("ko;q=x, es", "es"),
    ],
)
def test_accept_language_picks_the_readers_language(header: str, expected: str) -> None:
    assert negotiate(header) == expected


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """A round in play published in every language and served (reports taken): the
    workbook, and the server's port and a player's AGA number."""
    book = played_book(tmp_path_factory.mktemp("i18n"))
    assert run("publish", book).returncode == 0
    server = start_serve(book, "--port", "0", "--bind", "127.0.0.1", "--loopback")
    player = next(p for p in sheet_rows(book, "Players") if p["Status"] == "Active")
    try:
        yield book, f"{server.port}:{player['AGA #']}"
    finally:
        stop(server)


def get(port: int, path: str, **headers: str) -> tuple[int, dict[str, str], str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    connection.request("GET", path, headers=headers)
    answer = connection.getresponse()
    body = answer.read().decode("utf-8")
    connection.close()
    return answer.status, dict(answer.getheaders()), body


def test_serve_sends_a_root_page_to_the_readers_language_and_keeps_their_choice(
    site: tuple[Path, str],
) -> None:
    port = int(site[1].split(":")[0])
    status, headers, _ = get(port, "/index.html", **{"Accept-Language": "ko-KR,ko;q=0.9,en;q=0.8"})
    assert (status, headers["Location"]) == (303, "/ko/index.html")
    assert "Accept-Language" in headers["Vary"]
    status, headers, _ = get(port, "/", **{"Accept-Language": "zh-TW"})
    assert (status, headers["Location"]) == (303, "/zh-Hant/index.html")
    status, _, body = get(port, "/index.html", **{"Accept-Language": "en-US,en;q=0.9"})
    assert status == 200 and '<html lang="en"' in body
    status, _, body = get(port, "/ko/index.html")
    assert status == 200 and '<html lang="ko"' in body and "대진표" in body

    # The menu's choice: kept in a cookie, over the browser's header.
    status, headers, body = get(port, "/index.html?lang=en", **{"Accept-Language": "ko"})
    assert status == 200 and '<html lang="en"' in body
    assert headers["Set-Cookie"].startswith("lang=en;")
    status, _, body = get(port, "/index.html", **{"Accept-Language": "ko", "Cookie": "lang=en"})
    assert status == 200 and '<html lang="en"' in body, "the choice outlives the header"
    status, headers, _ = get(port, "/standings.html?lang=de", **{"Accept-Language": "ko"})
    assert (status, headers["Location"]) == (303, "/de/standings.html")
    assert headers["Set-Cookie"].startswith("lang=de;")


@pytest.mark.parametrize(
    ("locale", "folder", "words"),
    [
        ("ko-KR", "ko", ("대국", "선수", "대진표")),
        ("de-DE", "de", ("Partien", "Spieler", "Paarungen")),
    ],
)
def test_a_phone_reads_its_players_page_and_the_pairings_in_its_language(
    site: tuple[Path, str],
    browser: Any,  # noqa: F811
    locale: str,
    folder: str,
    words: tuple[str, ...],
) -> None:
    port, pid = site[1].split(":")
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, locale=locale, java_script_enabled=False
    )
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/p{pid}.html")  # where the poster's QR code leads
        assert page.url.endswith(f"/{folder}/p{pid}.html"), page.url
        assert page.get_attribute("html", "lang") == folder
        text = page.inner_text("body")
        assert all(w in text for w in words), text[:400]
        assert scroll_width(page) <= PHONE["width"], "no sideways scroll"
        sheet = page.evaluate("document.styleSheets.length && document.styleSheets[0].href")
        assert sheet and sheet.endswith("/site.css"), "the site's one style sheet, at its root"
        page.click("nav[aria-label] a[href='index.html']")  # the menu keeps the language
        page.wait_for_load_state()
        assert page.url.endswith(f"/{folder}/index.html")
        assert scroll_width(page) <= PHONE["width"], "no sideways scroll"
        page.click("nav.languages a[hreflang='en']")  # a plain link: no script
        page.wait_for_load_state()
        assert page.get_attribute("html", "lang") == "en"
        page.goto(f"http://127.0.0.1:{port}/p{pid}.html")
        assert page.get_attribute("html", "lang") == "en", "the choice of English is kept"
    finally:
        context.close()


@pytest.mark.parametrize(
    ("locale", "folder", "board", "kept"),
    [("ko-KR", "ko", 0, "보고가 접수되었습니다"), ("es-ES", "es", 1, "resultado recibido")],
)
def test_a_report_sent_without_javascript_is_kept_and_answered_in_the_pages_language(
    site: tuple[Path, str],
    browser: Any,  # noqa: F811
    locale: str,
    folder: str,
    board: int,
    kept: str,
) -> None:
    book, port = site[0], site[1].split(":")[0]
    seat = desk_of(book)["boards"][board]
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, locale=locale, java_script_enabled=False
    )
    try:
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/p{seat['white']}.html")
        assert page.url.endswith(f"/{folder}/p{seat['white']}.html")
        page.fill("section.now input[name=code]", seat["code"])
        page.locator("section.now input[name=result]").first.check()  # "I won"
        with page.expect_navigation():
            page.click("button.send")
        assert page.url.endswith(f"/{folder}/report"), page.url
        assert page.get_attribute("html", "lang") == folder
        assert kept in page.inner_text("#report-status")
        assert scroll_width(page) <= PHONE["width"]
        page.click("p.jump a[href^='p']")  # back to their page, in their language
        assert page.url.endswith(f"/{folder}/p{seat['white']}.html")
    finally:
        context.close()
