"""Self-contained HTML reports: one file, inline CSS, no external resource, printable.

Made to be posted as a live tournament page (the interface document suggests it for the
cross table): a sticky table header, opponent numbers that link to the opponent's row,
results coloured by outcome, a "find a player" box (added by a few lines of inline script,
so the page still reads without it) and print rules for Letter paper that repeat the
table header and never split a row, a card or a slip.
"""

from __future__ import annotations

from html import escape

from addin.core.text_input import formula_like
from addin.reports.model import (
    RESULT_CODE,
    Card,
    Cell,
    Column,
    Format,
    GameCell,
    Layout,
    Report,
    Slip,
    SlipPlayer,
    show,
)

CSS = """
:root { --ink: #1d2430; --muted: #5b6576; --line: #d5dbe3; --head: #e8eef6; --zebra: #f7f9fc;
  --win: #e3f4e1; --loss: #fbe5e3; --draw: #fff3cf; --bye: #eceff3; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1400px; padding: 1rem 1.25rem 2rem; color: var(--ink);
  font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", Arial, sans-serif; }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: .25rem 1.5rem;
  border-bottom: 2px solid var(--ink); padding-bottom: .4rem; margin-bottom: .8rem; }
h1 { font-size: 1.5rem; margin: 0; }
h2 { font-size: 1.15rem; margin: 0; font-weight: 600; }
.printed { margin-left: auto; color: var(--muted); font-size: .9rem; }
.find { margin: 0 0 .6rem; padding: .35rem .6rem; font: inherit; width: min(22rem, 100%);
  border: 1px solid var(--line); border-radius: 4px; }
.scroll { overflow-x: auto; }
table.report { border-collapse: collapse; font-variant-numeric: tabular-nums; }
table.report th, table.report td { border: 1px solid var(--line); padding: .2rem .45rem;
  white-space: nowrap; }
table.report thead th { position: sticky; top: 0; background: var(--head); text-align: left;
  vertical-align: bottom; z-index: 1; }
table.report tbody tr:nth-child(even) { background: var(--zebra); }
table.report tbody tr:hover, table.report tbody tr:target { background: #dcecff; }
.num, table.report thead th.num { text-align: right; }
table.report thead th.game { text-align: center; }
td.game { text-align: center; padding: 0; }
td.game a, td.game span { display: block; padding: .2rem .45rem; color: inherit;
  text-decoration: none; }
td.game a:hover { text-decoration: underline; }
td.win { background: var(--win); } td.loss { background: var(--loss); }
td.draw { background: var(--draw); } td.bye { background: var(--bye); }
td.pending { font-style: italic; color: var(--muted); } td.absent { color: var(--muted); }
td.name { font-weight: 600; }
.notes { color: var(--muted); font-size: .85rem; margin-top: .6rem; }
.notes p { margin: .2rem 0; }
.empty { color: var(--muted); font-style: italic; }
.cards, .slips { display: grid; gap: .8rem; grid-template-columns: repeat(auto-fill,
  minmax(21rem, 1fr)); }
.card, .slip { border: 1.5px solid var(--ink); border-radius: 3px; padding: .4rem .5rem;
  break-inside: avoid; page-break-inside: avoid; }
.card .top { display: flex; gap: .6rem; align-items: baseline; margin-bottom: .3rem; }
.card .no { font-size: 1.35rem; font-weight: 700; min-width: 2.2rem; }
.card .who { font-weight: 600; flex: 1; }
.card .rating { color: var(--muted); }
.card .note { color: #a33; font-weight: 600; }
.card .code { font-weight: 700; font-size: 1.1rem; margin: 0 0 .3rem; }
table.boxes { border-collapse: collapse; width: 100%; table-layout: fixed; }
table.boxes th { font-size: .75rem; color: var(--muted); font-weight: 500; }
table.boxes td { border: 1px solid var(--ink); text-align: center; height: 1.6rem; }
.slip { border-style: dashed; }
.slip .top { display: flex; justify-content: space-between; font-weight: 700;
  margin-bottom: .3rem; }
.slip table { width: 100%; border-collapse: collapse; }
.slip td { padding: .25rem .2rem; }
.slip .box { display: inline-block; width: 1.05rem; height: 1.05rem; border: 1.5px solid
  var(--ink); vertical-align: middle; }
.slip .terms { color: var(--muted); }
.slip .sign { margin-top: .5rem; color: var(--muted); display: flex; gap: 1rem; }
.slip .sign span { flex: 1; border-bottom: 1px solid var(--muted); padding-top: 1rem; }
@page { size: letter; margin: .5in; }
@media print {
  body { max-width: none; padding: 0; font-size: 10px; }
  .find { display: none; }
  .scroll { overflow: visible; }
  table.report thead { display: table-header-group; }
  table.report thead th { position: static; }
  table.report tr { break-inside: avoid; page-break-inside: avoid; }
  .cards, .slips { display: block; }
  .card, .slip { display: inline-block; width: 49%; margin: 0 0 .6rem; vertical-align: top; }
}
"""

SCRIPT = """
(function () {
  var items = document.querySelectorAll("[data-find]");
  if (!items.length) return;
  var box = document.createElement("input");
  box.type = "search"; box.className = "find"; box.placeholder = "Find a player";
  box.setAttribute("aria-label", "Find a player");
  var main = document.querySelector("main");
  main.insertBefore(box, main.firstChild);
  box.addEventListener("input", function () {
    var q = box.value.trim().toLowerCase();
    items.forEach(function (el) { el.hidden = q !== "" && el.dataset.find.indexOf(q) < 0; });
  });
})();
"""


AS_TEXT = " style=\"mso-number-format:'\\@'\""
"""Excel's own style for a cell of text, honoured when it opens an HTML page."""


def _cell(value: Cell, column: Column) -> str:
    if isinstance(value, GameCell):
        text = escape(str(value))
        inner = (
            f'<a href="#p{value.opponent}">{text}</a>'
            if value.opponent is not None
            else f"<span>{text}</span>"
        )
        return f'<td class="game {value.css}">{inner}</td>'
    shown = show(value, column.format)
    text = escape(shown)
    css = "num" if column.format.numeric and not isinstance(value, str) else ""
    if column.key == "name":
        css = "name"
    attributes = f' class="{css}"' if css else ""
    if formula_like(shown):  # a page opened in Excel: text, never a formula
        attributes += AS_TEXT
    return f"<td{attributes}>{text}</td>"


def _th(column: Column) -> str:
    css = "num" if column.format.numeric else "game" if column.format is Format.GAME else ""
    return (
        f'<th class="{css}">{escape(column.header)}</th>'
        if css
        else f"<th>{escape(column.header)}</th>"
    )


def _table(report: Report) -> str:
    if not report.rows:
        return '<p class="empty">None so far.</p>'
    head = "".join(_th(c) for c in report.columns)
    keys = [c.key for c in report.columns]
    body = []
    for row in report.rows:
        number = row[keys.index("number")] if "number" in keys else None
        anchor = f' id="p{number}"' if number is not None else ""
        find = " ".join(str(v) for v in row if isinstance(v, str | int) and not isinstance(v, bool))
        cells = "".join(_cell(v, c) for v, c in zip(row, report.columns, strict=True))
        body.append(f'<tr{anchor} data-find="{escape(find.lower())}">{cells}</tr>')
    return (
        f'<div class="scroll"><table class="report {report.kind}"><thead><tr>{head}</tr></thead>'
        f"<tbody>\n" + "\n".join(body) + "\n</tbody></table></div>"
    )


def _card(card: Card) -> str:
    labels = "".join(
        f'<th colspan="2">{escape(b.label(n))}</th>' for n, b in enumerate(card.boxes, start=1)
    )
    tops = "".join(
        f"<td>{escape(b.opponent)}</td><td>{escape(b.condition)}</td>" for b in card.boxes
    )
    scores = "".join(f'<td colspan="2">{escape(b.score)}</td>' for b in card.boxes)
    note = f'<span class="note">{escape(card.note)}</span>' if card.note else ""
    find = escape(f"{card.number} {card.name} {card.aga_id}".lower())
    return (
        f'<div class="card" id="p{card.number}" data-find="{find}"><div class="top">'
        f'<span class="no">{card.number}</span>'
        f'<span class="who">{escape(card.name)} ({escape(card.initial)})</span>{note}'
        f'<span class="rating">{escape(card.rating)}</span></div>'
        + (f'<div class="code">{escape(card.code_line)}</div>' if card.code_line else "")
        + f'<table class="boxes"><tr>{labels}</tr><tr>{tops}</tr><tr>{scores}</tr></table></div>'
    )


def _slip(slip: Slip, tournament: str) -> str:
    def who(color: str, p: SlipPlayer) -> str:
        return (
            f'<tr><td><span class="box"></span></td><td>{color}</td>'
            f"<td><strong>{escape(p.name)}</strong></td><td>AGA {p.aga_id}</td>"
            f"<td>{escape(p.rank)}</td></tr>"
        )

    find = escape(f"{slip.board} {slip.white.name} {slip.black.name}".lower())
    return (
        f'<div class="slip" data-find="{find}"><div class="top"><span>{escape(tournament)}</span>'
        f"<span>Round {slip.round} &middot; Board {slip.board}</span></div>"
        f"<table>{who('White', slip.white)}{who('Black', slip.black)}</table>"
        f'<div class="terms">Handicap: {escape(slip.handicap_text)} &middot; Komi: {slip.komi:g}'
        " &middot; Mark the winner&rsquo;s box</div>"
        + (
            f'<div class="terms">{RESULT_CODE}: <strong>{escape(slip.code)}</strong> '
            "(to report the result on the tournament&rsquo;s site)</div>"
            if slip.code
            else ""
        )
        + '<div class="sign"><span>White</span><span>Black</span></div></div>'
    )


def render(report: Report) -> str:
    if report.layout is Layout.CARDS:
        body = '<div class="cards">' + "\n".join(_card(c) for c in report.cards) + "</div>"
    elif report.layout is Layout.SLIPS:
        slips = "\n".join(_slip(s, report.tournament) for s in report.slips)
        body = f'<div class="slips">{slips}</div>' if slips else '<p class="empty">No games.</p>'
    else:
        body = _table(report)
    notes = "".join(f"<p>{escape(n)}</p>" for n in report.notes)
    title = escape(f"{report.tournament} - {report.heading}")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="AGA Swiss McMahon add-in">
<title>{title}</title>
<style>{CSS}</style>
</head>
<body class="report-{report.kind}">
<header><h1>{escape(report.tournament)}</h1><h2>{escape(report.heading)}</h2>
<span class="printed">Updated {report.printed.isoformat()}</span></header>
<main>
{body}
<div class="notes">{notes}</div>
</main>
<script>{SCRIPT}</script>
</body>
</html>
"""
