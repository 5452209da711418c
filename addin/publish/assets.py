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

REFRESH_SECONDS = 10
"""How often an open page asks whether a newer publication exists."""

STAMP_CALLBACK = "agaSiteStamp"
"""Called by ``stamp.js`` (a page of an earlier version reloads when its argument changes)."""
PAGE_CALLBACK = "agaPageStamp"
"""Called by a page's stamp file with the page's stamp and the publication's time."""

CSS = """
:root { --ink: #1d2430; --muted: #5b6576; --line: #d5dbe3; --head: #e8eef6; --zebra: #f7f9fc;
  --win: #e3f4e1; --loss: #fbe5e3; --draw: #fff3cf; --bye: #eceff3; --accent: #1f5fbf;
  --bg: #fff; color-scheme: light dark; }
@media (prefers-color-scheme: dark) {
  :root { --ink: #e6e9ee; --muted: #a5adba; --line: #3a4250; --head: #243041; --zebra: #1b2230;
    --win: #17351c; --loss: #3d1a17; --draw: #3a3113; --bye: #262b33; --accent: #8ab4f8;
    --bg: #12161d; }
  .result.win, .state.final, #report-status.ok { color: #7fd18b; }
  .result.loss, #report-status.bad { color: #f28b82; } .state.provisional { color: #f2c46d; }
}
body { background: var(--bg); }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0 auto; max-width: 60rem; padding: 0 .75rem 2rem; color: var(--ink);
  font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", Arial, sans-serif;
  overflow-wrap: anywhere; word-break: break-word; }
a { color: var(--accent); }
header.site { border-bottom: 2px solid var(--ink); padding: .5rem 0 .4rem; margin-bottom: .6rem; }
.event { font-weight: 700; font-size: 1.05rem; }
nav { display: flex; flex-wrap: wrap; gap: 0 .2rem; margin-top: .2rem; font-size: .92rem; }
nav a { text-decoration: none; font-weight: 600; display: inline-flex; align-items: center;
  min-height: 44px; min-width: 44px; padding: 0 .45rem; }
nav.rounds { align-items: center; margin: .2rem 0 .4rem; }
.jump a, a.action { display: inline-flex; align-items: center; min-height: 44px; }
.find { min-height: 44px; }
.updated time { white-space: nowrap; }
.state { font-weight: 600; margin: .2rem 0 .5rem; }
.state.provisional { color: #8a5a00; } .state.final { color: #1b6e2a; }
.tag { font-size: .8rem; font-weight: 600; color: var(--muted); border: 1px solid var(--line);
  border-radius: 4px; padding: 0 .25rem; white-space: nowrap; }
#stale { position: sticky; top: 0; z-index: 2; background: #8a1c12; color: #fff;
  padding: .5rem .7rem; font-weight: 600; }
nav a[aria-current] { color: var(--ink); text-decoration: underline; }
.updated { color: var(--muted); font-size: .85rem; }
h1 { font-size: 1.35rem; margin: .3rem 0 .5rem; }
h2 { font-size: 1.1rem; margin: 1.1rem 0 .4rem; }
.find { display: block; width: 100%; margin: .2rem 0 .6rem; padding: .55rem .7rem; font: inherit;
  border: 1px solid var(--line); border-radius: 6px; }
.jump { margin: 0 0 .4rem; }
ul.cards { list-style: none; margin: 0; padding: 0; }
ul.cards > li { border: 1px solid var(--line); border-radius: 6px; padding: .45rem .6rem;
  margin: 0 0 .45rem; }
ul.cards > li:nth-child(even) { background: var(--zebra); }
.who { font-weight: 700; }
.sub { color: var(--muted); font-size: .92rem; }
.board-no { font-weight: 700; }
.vs { display: grid; grid-template-columns: 1fr; gap: .1rem; }
.why { font-size: .92rem; margin-top: .2rem; }
.why b { font-weight: 600; }
.result { font-weight: 600; }
.result.win { color: #1b6e2a; } .result.loss { color: #a3261b; }
.result.pending { font-weight: 400; font-style: italic; color: var(--muted); }
.scroll { overflow-x: auto; max-width: 100%; -webkit-overflow-scrolling: touch; }
table.grid { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: .92rem; }
table.grid th, table.grid td { border: 1px solid var(--line); padding: .25rem .4rem;
  vertical-align: top; }
table.grid thead th { background: var(--head); text-align: left; }
table.grid tbody tr:nth-child(even) { background: var(--zebra); }
table.grid td.num, table.grid th.num { text-align: right; white-space: nowrap; }
table.grid th, table.grid td { white-space: nowrap; overflow-wrap: normal; word-break: normal; }
table.grid td.name { min-width: 8rem; max-width: 16rem; white-space: normal;
  overflow-wrap: anywhere; position: sticky; left: 0; z-index: 1; background: var(--bg);
  box-shadow: 1px 0 0 var(--line); }
table.grid tbody tr:nth-child(even) td.name { background: var(--zebra); }
td.game { text-align: center; white-space: nowrap; }
td.win { background: var(--win); } td.loss { background: var(--loss); }
td.draw { background: var(--draw); } td.bye { background: var(--bye); }
td.pending { font-style: italic; color: var(--muted); } td.absent { color: var(--muted); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem .8rem; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
.notes { color: var(--muted); font-size: .85rem; margin-top: .6rem; }
.empty { color: var(--muted); font-style: italic; }
.sum { font-size: .9rem; color: var(--muted); }
[hidden] { display: none !important; }
form.report label { display: block; margin: .3rem 0; }
form.report .field { display: block; width: 100%; min-height: 44px; font: inherit;
  padding: .4rem .6rem; border: 1px solid var(--line); border-radius: 6px; }
form.report fieldset { border: 1px solid var(--line); border-radius: 6px; margin: .5rem 0; }
form.report label.choice { display: flex; align-items: center; gap: .5rem; min-height: 44px; }
form.report input[type=radio] { width: 1.3rem; height: 1.3rem; }
button.send { min-height: 44px; width: 100%; font: inherit; font-weight: 700; border: 0;
  border-radius: 6px; background: var(--accent); color: #fff; }
#report-status.ok { color: #1b6e2a; font-weight: 600; } #report-status.bad { color: #a3261b; }
@media (min-width: 40rem) { .vs { grid-template-columns: 1fr 1fr; } }
@media print { nav, .find, .jump { display: none; } .scroll { overflow: visible; } }
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
  function settled() {
    /* A reload a server answered from its cache (a 304 for a page published again within
       the same second: Last-Modified counts whole seconds) brings back the old page: go
       once more to an address no cache holds (?v=stamp), then show the plain address. */
    var wanted = null;
    try {
      wanted = sessionStorage.getItem(reloading);
      sessionStorage.removeItem(reloading);
    } catch (e) { /* storage off: the next publication reloads the page */ }
    if (/[?&]v=/.test(location.search)) {
      try {
        history.replaceState(history.state, "", location.pathname + location.hash);
        var y = Number(sessionStorage.getItem("aga-scroll:" + own));
        if (y > 0) { window.scrollTo(0, y); }
        sessionStorage.removeItem("aga-scroll:" + own);
      } catch (e) { /* an address or storage the browser keeps */ }
      return true;
    }
    if (!wanted || !mine || wanted === mine) { return true; }
    try {
      sessionStorage.setItem("aga-scroll:" + own, String(window.scrollY));
    } catch (e) { /* back at the top */ }
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
        try { sessionStorage.setItem(reloading, stamp); } catch (e) { /* off */ }
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
  function poll() {
    load(own, function () { load("stamp.js"); });
    if (Date.now() - heard > 2.5 * every || navigator.onLine === false) { stale(true); }
  }
  window.addEventListener("offline", function () { stale(true); });
  if (own) { timer = setInterval(poll, every); }

  var form = document.getElementById("report");
  if (form) {
    var said = document.getElementById("report-status");
    var given = new URLSearchParams(location.hash.slice(1));
    ["board", "side"].forEach(function (k) {
      var v = given.get(k);
      if (v && form.elements[k]) { form.elements[k].value = v; }
    });
    if (location.protocol === "file:") {
      said.textContent = "Reporting works on the served site only (the poster's address).";
    }
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var data = {};
      new FormData(form).forEach(function (v, k) { data[k] = String(v); });
      said.textContent = "Sending...";
      said.className = "";
      fetch("report", { method: "POST", headers: { "Content-Type": "application/json" },
                        body: JSON.stringify(data) })
        .then(function (r) { return r.json().then(function (j) { return [r.status, j]; }); })
        .then(function (x) {
          said.textContent = x[1].message;
          said.className = x[0] === 200 ? "ok" : "bad";
        })
        .catch(function () {
          said.textContent = "No answer from the server: are you on the hall's Wi-Fi?";
          said.className = "bad";
        });
    });
  }

  var box = document.getElementById("find");
  if (!box) { return; }
  var items = document.querySelectorAll("[data-find]");
  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/['\u2019\u02bc`\u2018]/g, "").replace(/[^0-9a-z\u00c0-\uffff]+/g, " ").trim();
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
    for (var i = 0; i < items.length; i++) {
      items[i].hidden = q !== "" && !shows(items[i].getAttribute("data-find"), words, number);
    }
    try { sessionStorage.setItem("aga-find", box.value); } catch (e) { /* storage off */ }
  }
  document.addEventListener("click", function (e) {
    var a = e.target.closest ? e.target.closest("a[href^='#']") : null;
    var to = a && document.getElementById(a.getAttribute("href").slice(1));
    if (to && to.hidden) { box.value = ""; filter(); }  /* a link to a row the find hid */
  });
  try { box.value = sessionStorage.getItem("aga-find") || ""; } catch (e) { /* storage off */ }
  box.addEventListener("input", filter);
  filter();
})();
""".replace("REFRESH", str(REFRESH_SECONDS))
    .replace("CALLBACK", STAMP_CALLBACK)
    .replace("PAGE", PAGE_CALLBACK)
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
    if not stamp.isalnum() or not all(c.isdigit() or c in "-: " for c in when):
        raise ValueError("a stamp is letters and digits only, a time digits, '-', ':' and ' '")
    return f'window.{PAGE_CALLBACK} && window.{PAGE_CALLBACK}("{stamp}", "{when}");\n'
