"""Every page type of the players' site, checked for what the README promises, in Chromium:
light and dark colour schemes, JavaScript on and off, a phone's 360 x 740 (the hall screen at
1920 x 1080).

The check is this file's own (no download at test time): WCAG 2 contrast computed from each
piece of text's computed colour over the backgrounds composited beneath it (at least 4.5:1
for all text, large or not, placeholders and form fields included), tap targets of at least
44 x 44 CSS pixels for every link, button and field (a radio button's target is its label),
a label for every field, one ``h1`` and no skipped heading level, a language and a title, no
sideways scroll.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import run, sheet_rows
from tests.test_board_reports import desk_of
from tests.test_publish_browser import PHONE, browser  # noqa: F401
from tests.test_publish_site import played_book, published
from tests.test_serve import start_serve, stop
from tests.typing_helpers import set_setting

HALL = (1920, 1080)
SCHEMES = ("light", "dark")

CHECK = """() => {
  const found = [];
  const say = (what, el) => found.push(what + ": " + describe(el));
  function describe(el) {
    const text = (el.innerText || el.value || el.getAttribute("aria-label") || "").trim();
    const css = typeof el.className === "string" && el.className ?
      "." + el.className.split(" ").join(".") : "";
    return el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + css +
      " '" + text.slice(0, 40) + "'";
  }
  function rgba(c) {
    const m = /rgba?\\(([^)]+)\\)/.exec(c || "");
    if (!m) { return null; }
    const p = m[1].split(/[\\s,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  }
  const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3]))
    .concat([1]);
  function lum(c) {
    const f = v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  }
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  function under(el) {  /* the backgrounds beneath el, from the canvas up */
    const chain = [];
    for (let e = el; e; e = e.parentElement) { chain.unshift(e); }
    let bg = [255, 255, 255, 1];
    for (const e of chain) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) { bg = over(c, bg); }
    }
    return bg;
  }
  const shown = el =>
    el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  function contrast(el, color, what) {
    const bg = under(el);
    const fg = over(rgba(color), bg);
    const r = ratio(fg, bg);
    if (r < 4.5) { say(what + " contrast " + r.toFixed(2) + ":1", el); }
  }
  for (const el of document.body.querySelectorAll("*")) {
    if (!shown(el)) { continue; }
    const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    if (own) { contrast(el, getComputedStyle(el).color, "text"); }
    if (el.matches("input:not([type=hidden]):not([type=radio]), select, textarea")) {
      if (el.value || el.tagName === "SELECT") {
        contrast(el, getComputedStyle(el).color, "field");
      } else if (el.placeholder) {
        contrast(el, getComputedStyle(el, "::placeholder").color, "placeholder");
      }
      if (!(el.labels && el.labels.length) && !el.getAttribute("aria-label")) {
        say("field without a label", el);
      }
    }
    if (el.matches("input[type=radio]") && !el.closest("label")) {
      say("radio without a label", el);
    }
    const control = "a[href], button, select, input:not([type=hidden]), textarea, summary";
    const target = el.matches("input[type=radio], input[type=checkbox]") ? el.closest("label") :
      el.matches(control) ? el : null;
    if (target) {
      const box = target.getBoundingClientRect();
      if (box.width < 44 || box.height < 44) {
        say("tap target " + Math.round(box.width) + "x" + Math.round(box.height), el);
      }
    }
    if (el.matches("fieldset") && !el.querySelector("legend")) {
      say("fieldset without a legend", el);
    }
  }
  const headings = Array.from(document.querySelectorAll("h1, h2, h3, h4, h5, h6"));
  if (document.querySelectorAll("h1").length !== 1) { found.push("not one h1"); }
  let level = 0;
  for (const h of headings) {
    const n = Number(h.tagName[1]);
    if (n > level + 1) { say("heading skips from h" + level, h); }
    if (!h.textContent.trim()) { say("empty heading", h); }
    level = n;
  }
  if (!document.documentElement.lang) { found.push("no lang"); }
  if (!document.title.trim()) { found.push("no title"); }
  if (!document.querySelector("main")) { found.push("no main"); }
  if (document.documentElement.scrollWidth > window.innerWidth) {
    found.push("sideways scroll: " + document.documentElement.scrollWidth);
  }
  return found;
}"""
"""The page's problems, one line each ([] when none)."""


@dataclass(frozen=True)
class Kind:
    name: str
    open: str
    """A file of the site (``SITE/...``), or an answer of the server (``POST ...``)."""
    viewport: tuple[int, int] = (PHONE["width"], PHONE["height"])


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A tournament in round 3 (served), one before round 1, one whose round is complete (the
    hall shows standings), and an EGF event with a ghost player."""
    folder = tmp_path_factory.mktemp("a11y")
    book = played_book(folder)
    assert run("publish", book).returncode == 0
    before = folder / "before" / "before.xlsx"
    before.parent.mkdir()
    assert run("new", before, "--name", "Spring Open", "--rounds", 3).returncode == 0
    for n, name in enumerate(("Lee, Ann", "Kim, Bo", "O'Conner, Pat")):
        assert (
            run("register", before, "--name", name, "--rank", f"{n + 2}k", "--yes").returncode == 0
        )
    set_setting(before, "Check-in", "Yes")  # one pre-registered, not checked in yet
    csv = before.with_name("pre.csv")
    csv.write_text('Name,Rank\n"Nakamura, Yui",1d\n', encoding="utf-8")
    assert run("preregister", before, csv, "--yes").returncode == 0
    published(before, before.with_name("site"))
    complete = folder / "complete" / "complete.xlsx"
    complete.parent.mkdir()
    assert run("demo", complete, "--players", "40", "--rounds", "2", "--seed", "4").returncode == 0
    published(complete, complete.with_name("site"))
    egf = folder / "egf" / "egf.xlsx"
    egf.parent.mkdir()
    assert run("demo", egf, "--players", "21", "--rounds", "3", "--rules", "egf").returncode == 0
    published(egf, egf.with_name("site"))
    server = start_serve(book, "--port", "0", "--bind", "127.0.0.1", "--loopback")
    try:
        yield {
            "SITE": book.with_name("open-site"),
            "BEFORE": before.with_name("site"),
            "COMPLETE": complete.with_name("site"),
            "EGF": egf.with_name("site"),
            "url": f"http://127.0.0.1:{server.port}/",
            "book": book,
        }
    finally:
        stop(server)


def _pending_player(sites: dict[str, Any]) -> int:
    return int(sheet_rows(sites["book"], "Round 3")[0]["White AGA #"])  # type: ignore[call-overload]


KINDS = (
    Kind("pairings", "SITE/index.html"),
    Kind("pairings of an earlier round", "SITE/round1.html"),
    Kind("standings", "SITE/standings.html"),
    Kind("cross table", "SITE/crosstable.html"),
    Kind("event", "SITE/event.html"),
    Kind("report a result", "SITE/report.html"),
    Kind("a player in the round in play", "SITE/p{pending}.html"),
    Kind("a player in the round in play, in Korean", "SITE/ko/p{pending}.html"),
    Kind("pairings, in German", "SITE/de/index.html"),
    Kind("hall screen: pairings by name", "SITE/hall.html", HALL),
    Kind("hall screen: pairings by board", "SITE/hall-boards.html", HALL),
    Kind("pairings before round 1", "BEFORE/index.html"),
    Kind("registered players", "BEFORE/standings.html"),
    Kind("report before round 1", "BEFORE/report.html"),
    Kind("hall screen: registered players", "BEFORE/hall.html", HALL),
    Kind("final standings", "COMPLETE/standings.html"),
    Kind("hall screen: standings between rounds", "COMPLETE/hall.html", HALL),
    Kind("a finished player", "COMPLETE/p{finished}.html"),
    Kind("European event (ghost, supergroup)", "EGF/event.html"),
    Kind("European pairings (the ghost marked)", "EGF/round1.html"),
    Kind("server: report kept", "POST ok"),
    Kind("server: reports disagree", "POST warn"),
    Kind("server: report refused", "POST bad"),
)


def _open(page: Any, kind: Kind, sites: dict[str, Any], js: bool, scheme: str) -> None:
    if kind.open.startswith("POST"):
        _answer_page(page, kind.open.split()[1], sites, js, scheme)
        return
    where, _, file = kind.open.partition("/")
    finished = next(Path(sites["COMPLETE"]).glob("p*.html")).stem[1:]
    file = file.format(pending=_pending_player(sites), finished=finished)
    page.goto((Path(sites[where]) / file).as_uri())
    if js and page.locator("#find").count():
        page.fill("#find", "zzzz")  # the "nothing matches" line shows, and is checked too


_BOARDS = {  # a board of its own per way of answering, colour scheme and JavaScript setting
    (way, scheme, js): n
    for n, (way, scheme, js) in enumerate(itertools.product(("ok", "warn"), SCHEMES, (True, False)))
}


def _answer_page(page: Any, way: str, sites: dict[str, Any], js: bool, scheme: str) -> None:
    """The server's answer to a report sent from a player's page: kept (ok), disagreeing
    (warn), refused (bad), as the phone shows it with JavaScript on (the same page) or off
    (the server's page)."""
    boards = desk_of(sites["book"])["boards"]
    board = boards[_BOARDS.get((way, scheme, js), 0)]
    url = sites["url"]

    def send(pid: int, code: str) -> None:
        page.goto(f"{url}p{pid}.html")
        page.fill("section.now input[name=code]", code)
        page.locator("section.now input[name=result]").first.check()
        if js:
            page.click("button.send")
            page.wait_for_function(
                "/ok|warn|bad/.test(document.getElementById('report-status').className)"
            )
        else:
            with page.expect_navigation():
                page.click("button.send")

    if way == "bad":
        send(board["white"], "ZZZZ")
        return
    send(board["white"], board["code"])
    if way == "warn":  # both say "I won"
        send(board["black"], board["code"])


@pytest.mark.parametrize("js", [True, False], ids=["javascript", "no-javascript"])
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_every_page_type_meets_the_contrast_tap_target_label_and_heading_rules(
    request: pytest.FixtureRequest, sites: dict[str, Any], kind: Kind, scheme: str, js: bool
) -> None:
    chromium = request.getfixturevalue("browser")
    phone = kind.viewport != HALL
    context = chromium.new_context(
        viewport={"width": kind.viewport[0], "height": kind.viewport[1]},
        is_mobile=phone,
        has_touch=phone,
        color_scheme=scheme,
        java_script_enabled=js,
    )
    try:
        page = context.new_page()
        _open(page, kind, sites, js, scheme)
        problems = page.evaluate(CHECK)
        assert problems == [], f"{kind.name} ({scheme}, js={js}):\n" + "\n".join(problems[:20])
        if kind.open.startswith("POST") and kind.open != "POST bad":
            status = page.locator("#report-status")
            assert status.is_visible() and kind.open.split()[1] in status.get_attribute("class")
    finally:
        context.close()


def test_the_checker_finds_what_it_looks_for(request: pytest.FixtureRequest) -> None:
    """A page breaking each rule once is caught, rule by rule (a check that finds nothing
    on a bad page proves nothing on a good one)."""
    chromium = request.getfixturevalue("browser")
    context = chromium.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.set_content(
            "<html><head><title>t</title></head><body><main><h2>skipped h1</h2>"
            '<p style="color:#999">grey on white</p>'
            '<a href="#x">x</a><input name="q"><h4>skip</h4>'
            '<div style="width:2000px">wide</div></main></body></html>'
        )
        found = "\n".join(page.evaluate(CHECK))
    finally:
        context.close()
    for expected in (
        "text contrast 2.85:1",
        "tap target",
        "field without a label",
        "not one h1",
        "heading skips from h0",
        "heading skips from h2",
        "no lang",
        "sideways scroll",
    ):
        assert expected in found, (expected, found)
