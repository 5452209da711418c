"""The site's style sheet and script: phone first, no external resource.

The script does two things and the pages read without it: it adds nothing to the content.

* **Refresh.** Every page carries its own stamp (``data-stamp`` on ``<html>``, a digest of
  that page's content) and the name of its stamp file (``data-stamp-file``, e.g.
  ``p12345.stamp.js``). Every ``REFRESH_SECONDS`` it loads that file again by adding a
  ``<script>`` element (a script element may load a file beside the page both over http and
  from ``file://``, where Chromium blocks ``fetch``); the file calls ``agaPageStamp("...",
  "time")`` with the page's newest stamp, and the page reloads itself only when it differs
  from its own (so a result in the current round does not reload a player page it does not
  change), at most once per stamp heard (no reload loop if a page and its stamp file
  disagree for good); otherwise it shows the newest publication's time. A reload that
  brings back the old page (a server's 304 for a page published again within the same
  second) goes once more to ``page.html?v=STAMP``, an address no cache holds, and then shows
  the plain address again. When its stamp file is missing twice while ``stamp.js`` answers
  (the page left the site: a player deleted or renumbered, a round unpaired), it goes to
  the pairings once and stops polling.
* **Find.** A search box filters the elements marked ``data-find`` (names and AGA numbers);
  what was typed survives the reload.
"""

from __future__ import annotations

import json

from addin.publish.board_reports import state_texts

REFRESH_SECONDS = 10
"""How often an open page asks whether a newer publication exists."""

STAMP_CALLBACK = "agaSiteStamp"
"""Called by ``stamp.js`` (a page of an earlier version reloads when its argument changes)."""
PAGE_CALLBACK = "agaPageStamp"
"""Called by a page's stamp file with the page's stamp and the publication's time."""
STATES_CALLBACK = "agaReportState"
"""Called by the server's ``report-state.js`` with the round in play's report states."""
STATES_FILE = "report-state.js"
"""Made by ``serve`` (never a file of the site): the pages showing the round in play load
it with their stamp file, so a board's report state shows within one refresh period."""

HALL_HOLD_SECONDS = 15.0
"""How long the hall screen holds each screen of a long list (the first too): time to find
one's name among 75."""
HALL_SLIDE_SECONDS = 1.5
"""How long it takes to slide to the next screen."""

CSS = """
:root { --ink: #1d2430; --muted: #5b6576; --line: #c9d1dc; --head: #e8eef6; --zebra: #f7f9fc;
  --win: #e3f4e1; --loss: #fbe5e3; --draw: #fff3cf; --bye: #eceff3; --accent: #1f5fbf;
  --on-accent: #fff; --bg: #fff; --ok: #1b6e2a; --warn: #7a4f00; --bad: #a3261b;
  --ok-bg: #e3f4e1; --warn-bg: #fff3cf; --bad-bg: #fbe5e3; color-scheme: light dark; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; background: var(--bg); }
body { margin: 0 auto; max-width: 60rem; padding: 0 .75rem 2rem; color: var(--ink);
  background: var(--bg);
  font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", Arial, sans-serif;
  overflow-wrap: anywhere; word-break: break-word; }
a { color: var(--accent); }
main a, nav a { display: inline-flex; align-items: center; min-height: 44px; min-width: 44px; }
header.site { border-bottom: 2px solid var(--ink); padding: .5rem 0 .4rem; margin-bottom: .6rem; }
.event { font-weight: 700; font-size: 1.05rem; }
nav { display: flex; flex-wrap: wrap; gap: 0 .2rem; margin-top: .2rem; font-size: .92rem; }
nav a { text-decoration: none; font-weight: 600; padding: 0 .45rem; }
nav.rounds { align-items: center; margin: .2rem 0 .4rem; }
nav a[aria-current] { color: var(--ink); text-decoration: underline; }
header.site .bar { display: flex; flex-wrap: wrap; justify-content: space-between;
  align-items: center; gap: 0 .6rem; }
a.lang-jump { display: inline-flex; align-items: center; min-height: 44px; min-width: 44px;
  font-size: .85rem; }
footer.site { border-top: 2px solid var(--ink); margin-top: 1.2rem; padding-top: .3rem; }
nav.languages a { font-weight: 400; }
.updated { color: var(--muted); font-size: .85rem; }
.updated time { white-space: nowrap; }
.state { font-weight: 600; margin: .2rem 0 .5rem; }
.state.provisional { color: var(--warn); } .state.final { color: var(--ok); }
.tag { font-size: .8rem; font-weight: 600; color: var(--muted); border: 1px solid var(--line);
  border-radius: 4px; padding: 0 .25rem; white-space: nowrap; }
#stale { position: sticky; top: 0; z-index: 2; background: #8a1c12; color: #fff;
  padding: .5rem .7rem; font-weight: 600; }
h1 { font-size: 1.35rem; margin: .3rem 0 .5rem; }
h2 { font-size: 1.1rem; margin: 1.1rem 0 .4rem; }
.find { display: block; width: 100%; min-height: 44px; margin: .2rem 0 .6rem;
  padding: .55rem .7rem; font: inherit; color: var(--ink); background: var(--bg);
  border: 1px solid var(--muted); border-radius: 6px; }
.find::placeholder { color: var(--muted); opacity: 1; }
.jump { margin: 0 0 .4rem; }
button.clear { min-height: 44px; font: inherit; font-weight: 600; color: var(--accent);
  background: transparent; border: 1px solid var(--accent); border-radius: 6px;
  padding: 0 .8rem; margin-left: .3rem; }
ul.cards { list-style: none; margin: 0; padding: 0; }
ul.cards > li { border: 1px solid var(--line); border-radius: 6px; padding: .45rem .6rem;
  margin: 0 0 .45rem; }
ul.cards > li:nth-child(even) { background: var(--zebra); }
.who { font-weight: 700; }
.seat { font-weight: 700; }
.sub { color: var(--muted); font-size: .92rem; }
.board-no { font-weight: 700; }
.vs { display: grid; grid-template-columns: 1fr; gap: 0 .6rem; }
.why { font-size: .92rem; margin-top: .2rem; }
.why b { font-weight: 600; }
.result { font-weight: 600; }
.result.win { color: var(--ok); } .result.loss { color: var(--bad); }
.result.pending { font-weight: 400; font-style: italic; color: var(--muted); }
.report-state { font-weight: 600; margin: .15rem 0; }
.report-state.rs-agree, .report-state.rs-taken { color: var(--ok); }
.report-state.rs-disputed { color: var(--bad); }
section.now { border: 2px solid var(--ink); border-radius: 8px; padding: .5rem .7rem;
  margin: .3rem 0 .8rem; }
section.now h2 { margin: 0 0 .2rem; font-size: 1rem; color: var(--muted); }
section.now .seat { font-size: 1.5rem; line-height: 1.25; }
section.now .opp { font-size: 1.1rem; }
.scroll { overflow-x: auto; max-width: 100%; -webkit-overflow-scrolling: touch; }
table.grid { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: .92rem; }
table.grid th, table.grid td { border: 1px solid var(--line); padding: 0 .4rem;
  vertical-align: middle; }
table.grid thead th { background: var(--head); text-align: left; padding: .25rem .4rem; }
table.grid tbody tr:nth-child(even) { background: var(--zebra); }
table.grid td.num, table.grid th.num { text-align: right; white-space: nowrap; }
table.grid th, table.grid td { white-space: nowrap; overflow-wrap: normal; word-break: normal; }
table.grid td.name { min-width: 8rem; max-width: 16rem; white-space: normal;
  overflow-wrap: anywhere; position: sticky; left: 0; z-index: 1; background: var(--bg);
  box-shadow: 1px 0 0 var(--line); }
table.grid tbody tr:nth-child(even) td.name { background: var(--zebra); }
td.game { text-align: center; white-space: nowrap; padding: 0; }
td.game a { justify-content: center; width: 100%; }
td.win { background: var(--win); } td.loss { background: var(--loss); }
td.draw { background: var(--draw); } td.bye { background: var(--bye); }
td.pending { font-style: italic; color: var(--muted); } td.absent { color: var(--muted); }
dl.facts { display: grid; grid-template-columns: fit-content(45%) 1fr; gap: .15rem .8rem;
  margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
dl.projected { display: grid; grid-template-columns: fit-content(45%) 1fr; gap: .15rem .8rem;
  margin: 0; }
dl.projected dt { color: var(--muted); } dl.projected dd { margin: 0; }
.notes { color: var(--muted); font-size: .85rem; margin-top: .6rem; }
.empty { color: var(--muted); font-style: italic; }
.sum { font-size: .9rem; color: var(--muted); }
[hidden] { display: none !important; }
form.report > label { display: block; margin: .5rem 0 .15rem; font-weight: 600; }
form.report .hint { font-weight: 400; color: var(--muted); }
form.report .field { display: block; width: 100%; min-height: 44px; font: inherit;
  color: var(--ink); background: var(--bg); padding: .4rem .6rem;
  border: 1px solid var(--muted); border-radius: 6px; }
form.report fieldset { border: 1px solid var(--line); border-radius: 6px; margin: .5rem 0; }
form.report legend { font-weight: 600; }
form.report label.choice { display: flex; align-items: center; gap: .5rem; min-height: 44px; }
form.report input[type=radio] { width: 1.3rem; height: 1.3rem; flex: none; }
button.send { min-height: 48px; width: 100%; font: inherit; font-weight: 700; border: 0;
  border-radius: 6px; background: var(--accent); color: var(--on-accent); margin-top: .3rem; }
.status { margin: .3rem 0 .6rem; }
.status:empty { display: none; }
.status.ok, .status.warn, .status.bad { font-weight: 600; padding: .5rem .7rem;
  border-radius: 6px; border-left: 6px solid; }
.status.ok { color: var(--ok); background: var(--ok-bg); }
.status.warn { color: var(--warn); background: var(--warn-bg); }
.status.bad { color: var(--bad); background: var(--bad-bg); }
@media (min-width: 40rem) { .vs { grid-template-columns: 1fr 1fr; } }
@media print { nav, .find, .jump { display: none; } .scroll { overflow: visible; } }

html.hall { overflow: hidden; }
html.hall body { max-width: none; height: 100vh; overflow: hidden; padding: 0 2.5vw;
  font-size: 3.2vh; line-height: 1.3; }
html.hall header.site { display: flex; justify-content: space-between; align-items: baseline;
  gap: 2vw; padding: 1vh 0; margin: 0; }
html.hall .event { font-size: 3.6vh; }
html.hall .updated { font-size: 2.4vh; }
html.hall h1 { font-size: 4.4vh; margin: 1vh 0 .5vh; }
html.hall .state { margin: 0 0 1vh; }
html.hall { --screen: 80.6vh; }
.hall-window { height: var(--screen); overflow: hidden;
  --row: calc(var(--screen) / (var(--rows, 25) + 1)); }
.hall-screen { height: var(--screen); overflow: hidden; display: grid; align-content: start;
  grid-template-columns: repeat(var(--columns, 3), minmax(0, 1fr)); gap: 0 1.6vw; }
.hall-head, .hall-row { display: grid; gap: 0 .6vw; align-items: center; height: var(--row);
  padding: 0 .5vw; font-size: min(calc(var(--row) * .74), 1.35vw); line-height: var(--row); }
.hall-head { font-weight: 700; color: var(--muted); border-bottom: 2px solid var(--line); }
.hall-head > span { font-size: .8em; }
.hall-row > span, .hall-head > span { white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; }
.hall-col > .hall-row:nth-child(odd) { background: var(--zebra); }
.hall-row .num, .hall-head .num { text-align: right; }
.hall-row .tag { font-size: .7em; }
.cols-names { grid-template-columns: minmax(0, 1.2fr) 3.8em 1.1em minmax(0, 1fr); }
.cols-pairings { grid-template-columns: 3.2em minmax(0, 1fr) minmax(0, 1fr) 5.2em 6em; }
.cols-standings { grid-template-columns: 2.7em minmax(0, 1fr) 2.4em 2.6em 3.4em; }
.cols-registered { grid-template-columns: minmax(0, 1.4fr) 2.6em minmax(0, 1fr); }
.hall-roll.moving { animation-duration: var(--pass, 60s); animation-iteration-count: infinite;
  animation-timing-function: ease-in-out; }

@media (prefers-color-scheme: dark) {
  :root { --ink: #e6e9ee; --muted: #a5adba; --line: #4a5363; --head: #243041; --zebra: #1b2230;
    --win: #17351c; --loss: #3d1a17; --draw: #3a3113; --bye: #262b33; --accent: #8ab4f8;
    --on-accent: #0b1526; --bg: #12161d; --ok: #8fdc9a; --warn: #f2c46d; --bad: #f6a39b;
    --ok-bg: #17351c; --warn-bg: #3a3113; --bad-bg: #3d1a17; }
}
"""

SCRIPT = (
    """
(function () {
  "use strict";
  var root = document.documentElement;
  var mine = root.getAttribute("data-stamp");
  var own = root.getAttribute("data-stamp-file");
  var every = REFRESH * 1000;
  var heard = Date.now();
  var banner = null;
  var missed = 0;
  var timer = null;
  var served = /^https?:$/.test(location.protocol);
  function stale(on) {
    if (on && !banner) {
      banner = document.createElement("div");
      banner.id = "stale";
      banner.setAttribute("role", "status");
      document.body.insertBefore(banner, document.body.firstChild);
    }
    if (banner) {
      banner.hidden = !on;
      var t = new Date(heard);
      banner.textContent = "No connection: this page may be out of date (last checked " +
        ("0" + t.getHours()).slice(-2) + ":" + ("0" + t.getMinutes()).slice(-2) + ").";
    }
  }
  var reloading = "aga-reloading:" + own;
  var scrolled = "aga-scroll:" + own;
  function settled() {
    /* A reload a server answered from its cache (a 304 for a page published again within
       the same second: Last-Modified counts whole seconds) brings back the old page: go
       once more to an address no cache holds (?v=stamp), then show the plain address, at
       the place the reader was when the reload was asked for (kept then: the reloaded
       page's own position is still being restored, bit by bit, while it loads). */
    var wanted = null;
    try {
      wanted = sessionStorage.getItem(reloading);
      sessionStorage.removeItem(reloading);
    } catch (e) { /* storage off: the next publication reloads the page */ }
    if (/[?&]v=/.test(location.search)) {
      try {
        history.replaceState(history.state, "", location.pathname + location.hash);
        var y = Number(sessionStorage.getItem(scrolled));
        if (y > 0) { window.scrollTo(0, y); }
        sessionStorage.removeItem(scrolled);
      } catch (e) { /* an address or storage the browser keeps */ }
      return true;
    }
    if (!wanted || !mine || wanted === mine) {
      try { sessionStorage.removeItem(scrolled); } catch (e) { /* storage off */ }
      return true;
    }
    location.replace(location.pathname + "?v=" + encodeURIComponent(wanted) + location.hash);
    return false;
  }
  if (own && !settled()) { return; }
  function reloadedFor(stamp) {  /* one reload per stamp heard: never a loop */
    var key = "aga-reload:" + own;
    try {
      if (sessionStorage.getItem(key) === stamp) { return true; }
      sessionStorage.setItem(key, stamp);
    } catch (e) { /* storage off: the 10 s poll bounds any repeat */ }
    return false;
  }
  window.PAGE = function (stamp, when) {
    heard = Date.now();
    missed = 0;
    stale(false);
    if (typeof stamp !== "string" || !mine) { return; }
    if (stamp !== mine) {
      if (!reloadedFor(stamp)) {
        try {
          sessionStorage.setItem(reloading, stamp);
          sessionStorage.setItem(scrolled, String(window.scrollY));
        } catch (e) { /* off */ }
        location.reload();
      }
      return;
    }
    var t = document.querySelector(".updated time");
    if (t && typeof when === "string") { t.textContent = when; }
  };
  window.CALLBACK = function () {  /* the site answers, this page's stamp file did not */
    heard = Date.now();
    stale(false);
    missed += 1;
    if (missed < 2) { return; }
    clearInterval(timer);
    if (own !== "index.stamp.js") { location.replace("index.html"); }
  };
  function load(src, failed) {
    var s = document.createElement("script");
    s.src = src + "?t=" + Date.now();
    s.onload = s.onerror = function (e) {
      if (s.parentNode) { s.parentNode.removeChild(s); }
      if (e.type === "error" && failed) { failed(); }
    };
    document.head.appendChild(s);
  }

  /* Report states of the round in play: on the page as published, and from the server
     (which alone hears the reports) at every refresh. */
  var marks = document.querySelectorAll("[data-report-board]");
  var texts = TEXTS;
  window.STATES = function (data) {
    if (!data || !data.boards) { return; }
    for (var i = 0; i < marks.length; i++) {
      var m = marks[i];
      if (m.getAttribute("data-report-round") !== String(data.round)) { continue; }
      var s = data.boards[m.getAttribute("data-report-board")] || "";
      var said = s && texts[s] ? texts[s][m.getAttribute("data-side") || ""] : "";
      m.textContent = said;
      m.className = "report-state" + (s ? " rs-" + s : "");
      m.hidden = !said;
    }
  };
  function loadStates() { if (marks.length && served) { load("STATE_FILE"); } }

  function poll() {
    load(own, function () { load("stamp.js"); });
    loadStates();
    if (Date.now() - heard > 2.5 * every || navigator.onLine === false) { stale(true); }
  }
  window.addEventListener("offline", function () { stale(true); });
  if (own) { timer = setInterval(poll, every); }
  loadStates();

  var form = document.getElementById("report");
  if (form) {
    var status = document.getElementById("report-status");
    var board = form.elements.board;
    var choosing = board && board.tagName === "SELECT";
    var names = function () {
      var o = choosing ? board.options[board.selectedIndex] : null;
      var who = { white: o && o.getAttribute("data-white"),
                  black: o && o.getAttribute("data-black") };
      var inputs = form.querySelectorAll("label.choice input");
      for (var i = 0; i < inputs.length; i++) {
        var v = inputs[i].value, n = who[v], label = inputs[i].parentNode.querySelector("span");
        if (!label || !(v in who)) { continue; }
        var colour = v.charAt(0).toUpperCase() + v.slice(1);
        if (inputs[i].name === "side") { label.textContent = n ? colour + ": " + n : colour; }
        if (inputs[i].name === "result") {
          label.textContent = n ? n + " (" + colour + ") won" : colour + " won";
        }
      }
    };
    if (choosing) {
      var given = new URLSearchParams(location.hash.slice(1));
      ["board", "side"].forEach(function (k) {
        var v = given.get(k);
        if (v && form.elements[k]) { form.elements[k].value = v; }
      });
      board.addEventListener("change", names);
      names();
    }
    var tell = function (text, css, state) {
      status.textContent = text;
      status.className = "status " + css;
      if (state) { status.setAttribute("data-state", state); }
      status.focus();
      status.scrollIntoView({ block: "nearest" });
    };
    if (!served) {  /* said where the form is, without moving the page there */
      status.textContent = "Reporting works on the served site only (the poster's address).";
      status.className = "status warn";
    }
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var data = {};
      new FormData(form).forEach(function (v, k) { data[k] = String(v); });
      status.textContent = "Sending...";
      status.className = "status";
      fetch("report", { method: "POST", headers: { "Content-Type": "application/json" },
                        body: JSON.stringify(data) })
        .then(function (r) { return r.json().then(function (j) { return [r.status, j]; }); })
        .then(function (x) {
          var state = x[1].state;
          var css = x[0] !== 200 ? "bad" : state === "disagree" ? "warn" : "ok";
          tell(x[1].message, css, state);
          loadStates();
        })
        .catch(function () {
          tell("No answer from the server: are you on the hall's Wi-Fi?", "bad", "error");
        });
    });
  }

  var box = document.getElementById("find");
  if (!box) { return; }
  box.hidden = false;
  var none = document.getElementById("no-match");
  var kept = "aga-find:" + (own || location.pathname);
  var items = document.querySelectorAll("[data-find]");
  function fold(text) {
    return text.normalize("NFKD").replace(/[\\u0300-\\u036f]/g, "").toLowerCase()
      .replace(/['\\u2019\\u02bc`\\u2018]/g, "").replace(/[^0-9a-z\\u00c0-\\uffff]+/g, " ").trim();
  }
  function shows(key, words, number) {
    if (number) { return (" " + key + " ").indexOf(" #" + number + " ") >= 0; }
    var have = key.split(" ");
    return words.every(function (w) {
      return have.some(function (h) { return h.lastIndexOf(w, 0) === 0; });
    });
  }
  function filter() {
    var q = fold(box.value);
    var number = /^[0-9]+$/.test(q) ? q : "";
    var words = q === "" ? [] : q.split(" ");
    var found = 0;
    for (var i = 0; i < items.length; i++) {
      items[i].hidden = q !== "" && !shows(items[i].getAttribute("data-find"), words, number);
      if (!items[i].hidden) { found += 1; }
    }
    if (none) {
      none.hidden = q === "" || found > 0;
      none.firstChild.textContent = "Nothing on this page matches \\u201c" + box.value + "\\u201d.";
    }
    try { sessionStorage.setItem(kept, box.value); } catch (e) { /* storage off */ }
  }
  if (none) {
    none.querySelector("button").addEventListener("click", function () {
      box.value = "";
      filter();
      box.focus();
    });
  }
  document.addEventListener("click", function (e) {
    var a = e.target.closest ? e.target.closest("a[href^='#']") : null;
    var to = a && document.getElementById(a.getAttribute("href").slice(1));
    if (to && to.hidden) { box.value = ""; filter(); }  /* a link to a row the find hid */
  });
  try { box.value = sessionStorage.getItem(kept) || ""; } catch (e) { /* storage off */ }
  box.addEventListener("input", filter);
  filter();
})();
""".replace("REFRESH", str(REFRESH_SECONDS))
    .replace("CALLBACK", STAMP_CALLBACK)
    .replace("PAGE", PAGE_CALLBACK)
    .replace("STATES", STATES_CALLBACK)
    .replace("STATE_FILE", STATES_FILE)
    .replace("TEXTS", json.dumps(state_texts()))
)

STAMP_MARK = "/* AGA McMahon published site: the newest publication's stamp */"
"""The first line of ``stamp.js``; a folder holding it is a site ``publish`` may rewrite."""


def stamp_script(stamp: str) -> str:
    """``stamp.js``: calls the page's callback with ``stamp`` (hex digits only)."""
    if not stamp.isalnum():
        raise ValueError("a stamp is letters and digits only")
    return f'{STAMP_MARK}\nwindow.{STAMP_CALLBACK} && window.{STAMP_CALLBACK}("{stamp}");\n'


def page_stamp_script(stamp: str, when: str) -> str:
    """A page's stamp file: calls the page's callback with its ``stamp`` (letters and
    digits) and the publication's time (``2026-11-26 10:30``)."""
    if not stamp.isalnum() or not all(c.isdecimal() or c in "-: " for c in when):
        raise ValueError("a stamp is letters and digits only, a time digits, '-', ':' and ' '")
    return f'window.{PAGE_CALLBACK} && window.{PAGE_CALLBACK}("{stamp}", "{when}");\n'
