"""The site's pages as HTML text, built from :class:`SiteData` (pure: no file, no sheet).

Every page has the same frame: the event's name, the menu, "Updated ..." and the refresh
script. The stamp and the time are left as placeholders (:data:`STAMP`, :data:`TIME`) that
:mod:`addin.publish.site` fills in once the page's stamp (a digest of the page as built) is
known. Each page names its own stamp file (:func:`stamp_file`), the one its script polls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from addin.core import supergroup
from addin.core.codes import boards
from addin.core.handicap import scheme_text
from addin.core.model import ByeKind, Color, PlayerId, Status, Tournament
from addin.core.scoring import Outcome, RoundRecord
from addin.core.tiebreaks import Standing, TiebreakContext
from addin.publish.explain import explain_tiebreak, why_opponent
from addin.publish.text import esc, find_key, name_html
from addin.reports.builders import GAME_LEGEND, game_cell
from addin.reports.common import alpha_key, rank_label, rating_of
from addin.reports.model import handicap_text, show_score

GENERATOR = '<meta name="generator" content="AGA Swiss McMahon add-in">'
"""In every page's head: how ``publish`` knows a folder it wrote before its stamp was."""

STAMP = "\x00stamp\x00"
TIME = "\x00time\x00"
"""Placeholders no page text can hold (control characters are cleaned out of all text)."""

MENU = (
    ("index.html", "Pairings"),
    ("standings.html", "Standings"),
    ("crosstable.html", "Cross table"),
    ("event.html", "Event"),
    ("report.html", "Report"),
)


FIND = (
    '<input type="search" id="find" class="find" placeholder="Find your name or AGA #" '
    'aria-label="Find your name or AGA number" autocomplete="off">'
)


def stamp_file(page: str) -> str:
    """The file holding ``page``'s stamp: ``p12345.html`` -> ``p12345.stamp.js``."""
    return page.removesuffix(".html") + ".stamp.js"


def player_file(pid: PlayerId) -> str:
    """A player's page, named by AGA number (never by name): ``p12345.html``."""
    return f"p{int(pid)}.html"


@dataclass(frozen=True)
class SiteData:
    """What the pages are made of, computed once per publication."""

    tournament: Tournament
    round: int
    """The current round: the last one paired (0 before round 1)."""
    records: dict[PlayerId, list[RoundRecord]]
    standings: list[Standing]
    context: TiebreakContext
    bye_reasons: dict[int, str] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return self.tournament.settings.name or "Tournament"

    def name(self, pid: PlayerId) -> str:
        p = self.tournament.players.get(pid)
        return p.name if p is not None else f"AGA #{pid}"

    def link(self, pid: PlayerId) -> str:
        return f'<a href="{player_file(pid)}">{name_html(self.name(pid))}</a>'

    def rank(self, pid: PlayerId) -> str:
        return rank_label(self.tournament.players.get(pid))

    def rank_club(self, pid: PlayerId) -> str:
        """``5k, NYGC``: the rank, and the club (else the state, else the country)."""
        p = self.tournament.players.get(pid)
        where = (p.chapter or p.state or p.country) if p is not None else ""
        return ", ".join(x for x in (self.rank(pid), where) if x)

    def who(self, pid: PlayerId) -> str:
        """The player's link, marked when they have withdrawn."""
        if _active(self.tournament, pid):
            return self.link(pid)
        return f'{self.link(pid)} <span class="tag">withdrawn</span>'

    @property
    def places(self) -> dict[PlayerId, int]:
        return {s.player: s.place for s in self.standings}


def frame(data: SiteData, file: str, heading: str, body: str, longest: int = 120) -> str:
    """A whole page around ``body``; ``longest``: characters of the heading shown."""
    current = ' aria-current="page"'
    menu = "".join(
        f'<a href="{href}"{current if href == file else ""}>{label}</a>' for href, label in MENU
    )
    return f"""<!DOCTYPE html>
<html lang="en" data-stamp="{STAMP}" data-stamp-file="{stamp_file(file)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{GENERATOR}
<title>{esc(heading)} - {esc(data.title)}</title>
<link rel="stylesheet" href="site.css">
</head>
<body>
<header class="site"><div class="event">{esc(data.title)}</div>
<nav>{menu}</nav>
<div class="updated">Updated <time>{TIME}</time></div></header>
<main>
<h1>{esc(heading, longest)}</h1>
{body}
</main>
<script src="site.js"></script>
</body>
</html>
"""


# --- pairings -----------------------------------------------------------------------------


def round_state(data: SiteData, number: int) -> tuple[str, str]:
    """(text, css class): how complete round ``number``'s results are."""
    t = data.tournament
    rnd = t.round(number)
    games = len(rnd.games) if rnd is not None else 0
    done = sum(g.result is not None for g in rnd.games) if rnd is not None else 0
    if done < games:
        return f"Provisional: {done} of {games} results in.", "state provisional"
    if number >= t.settings.rounds:
        return "Final: every result is in, and this was the last round.", "state final"
    return f"Round {number} is complete: every result is in.", "state complete"


def _state_html(data: SiteData, number: int) -> str:
    text, css = round_state(data, number)
    return f'<p class="{css}">{esc(text)}</p>'


def pairings_file(data: SiteData, number: int) -> str:
    """The round in play is ``index.html``; earlier rounds ``round1.html`` and so on."""
    return "index.html" if number == data.round else f"round{number}.html"


def _round_selector(data: SiteData, number: int) -> str:
    links = "".join(
        f'<a href="{pairings_file(data, n)}"'
        + (' aria-current="page"' if n == number else "")
        + f">{n}</a>"
        for n in range(1, data.round + 1)
    )
    return f'<nav class="rounds" aria-label="Round">Round {links}</nav>'


def _result_text(rec: RoundRecord) -> tuple[str, str]:
    """(text, css class) of one player's round."""
    texts = {
        Outcome.WIN: ("Won", "win"),
        Outcome.FORFEIT_WIN: ("Won by forfeit", "win"),
        Outcome.LOSS: ("Lost", "loss"),
        Outcome.FORFEIT_LOSS: ("Lost by forfeit", "loss"),
        Outcome.DOUBLE_FORFEIT: ("Double forfeit", "loss"),
        Outcome.JIGO: ("Jigo", "draw"),
        Outcome.NO_RESULT: ("No result", "draw"),
        Outcome.PENDING: ("Not played yet", "pending"),
        Outcome.FORCED_BYE: ("Bye (1 point)", "bye"),
        Outcome.VOLUNTARY_BYE: ("Bye asked for (0 points)", "bye"),
        Outcome.ABSENT: ("Not in this round", "pending"),
    }
    return texts[rec.outcome]


def _board(data: SiteData, rec: RoundRecord) -> str:
    """The game's board, as the Round sheet numbers it (its position when left blank)."""
    if rec.board is not None:
        return str(rec.board)
    rnd = data.tournament.round(rec.round)
    found = [b for b, g in boards(rnd) if g is rec.game] if rnd is not None else []
    return str(found[0]) if found else "?"


def _active(t: Tournament, pid: PlayerId) -> bool:
    p = t.players.get(pid)
    return p is not None and p.status is Status.ACTIVE


def _conditions(handicap: int, komi: float) -> str:
    return f"{handicap_text(handicap)}, komi {show_score(komi) or '0'}"


def _game_line(data: SiteData, rec: RoundRecord, board_class: str = "") -> str:
    """Board, colour, opponent and conditions of a game ("" for a round without one)."""
    if rec.opponent is None or rec.color is None:
        return ""
    colour = "White" if rec.color is Color.WHITE else "Black"
    board = f"Board {_board(data, rec)}"
    if board_class:
        board = f'<span class="{board_class}">{board}</span>'
    return (
        f"{board} &middot; {colour} &middot; "
        f"vs {data.link(rec.opponent)} ({esc(data.rank(rec.opponent))}) &middot; "
        f"{esc(_conditions(rec.handicap, rec.komi))}"
    )


def pairings_page(data: SiteData, number: int | None = None) -> str:
    """The pairings of round ``number`` (default: the round in play)."""
    t = data.tournament
    number = data.round if number is None else number
    rnd = t.round(number) if number else None
    if rnd is None:
        body = (
            '<p class="empty">Round 1 has not been paired yet.</p>'
            '<p><a href="standings.html">Who is registered</a></p>'
        )
        return frame(data, "index.html", "Pairings", body)
    by_name: list[str] = []
    for pid in sorted(data.records, key=lambda p: alpha_key(t, p)):
        rec = data.records[pid][number - 1]
        if rec.outcome is Outcome.ABSENT and not _active(t, pid):
            continue
        text, css = _result_text(rec)
        if rec.outcome is Outcome.ABSENT:
            text = "Not paired in this round: please see the tournament director"
        detail = _game_line(data, rec, board_class="board-no")
        on = _board(data, rec) if rec.opponent is not None else ""
        key = find_key(data.name(pid), pid, *([int(on)] if on.isdigit() else []))
        by_name.append(
            f'<li data-find="{key}"><span class="who">'
            f"{data.link(pid)}</span> ({esc(data.rank_club(pid))})"
            + (f'<div class="sub">{detail}</div>' if detail else "")
            + f'<div class="result {css}">{esc(text)}</div></li>'
        )
    by_board: list[str] = []
    for board, g in boards(rnd):
        text = g.result.value if g.result is not None else "Not played yet"
        css = "pending" if g.result is None else ""
        key = find_key(data.name(g.white), g.white, data.name(g.black), g.black, board)
        by_board.append(
            f'<li id="board-{board}" data-find="{key}">'
            f'<div class="board-no">Board {board}</div><div class="vs">'
            f"<div>White: {data.link(g.white)} ({esc(data.rank_club(g.white))})</div>"
            f"<div>Black: {data.link(g.black)} ({esc(data.rank_club(g.black))})</div></div>"
            f'<div class="sub">{esc(_conditions(g.handicap, g.komi))}</div>'
            f'<div class="result {css}">{esc(text)}</div></li>'
        )
    for bye in sorted(rnd.byes, key=lambda b: alpha_key(t, b.player)):
        kind = "Bye (1 point)" if bye.kind is ByeKind.FORCED else "Bye asked for (0 points)"
        by_board.append(
            f'<li data-find="{find_key(data.name(bye.player), bye.player)}">'
            f"{data.link(bye.player)}: {kind}</li>"
        )
    body = (
        _round_selector(data, number)
        + f"<p>Round {number} of {t.settings.rounds}. Find your name, AGA number or board.</p>"
        + _state_html(data, number)
        + FIND
        + '<p class="jump"><a href="#by-name">By name</a> &middot; '
        '<a href="#by-board">By board</a></p>'
        f'<h2 id="by-name">By name</h2><ul class="cards names">{"".join(by_name)}</ul>'
        f'<h2 id="by-board">By board</h2><ul class="cards boards">{"".join(by_board)}</ul>'
    )
    return frame(data, pairings_file(data, number), f"Pairings, round {number}", body)


# --- standings and cross table ------------------------------------------------------------


def _criteria(data: SiteData) -> tuple[str, ...]:
    if data.standings:
        return data.standings[0].criteria
    return tuple(data.tournament.settings.tiebreaks)


def registered_page(data: SiteData) -> str:
    """Before round 1: who is registered ("am I in?"), by name; no order of merit yet."""
    t = data.tournament
    active = sorted((p for p in t.players if _active(t, p)), key=lambda p: alpha_key(t, p))
    rows = "".join(
        f'<tr data-find="{find_key(data.name(pid), pid)}"><td class="name">{data.link(pid)}</td>'
        f"<td>{esc(data.rank(pid))}</td><td>{esc(data.rank_club(pid).partition(', ')[2])}</td>"
        f'<td class="num">{int(pid)}</td></tr>'
        for pid in active
    )
    body = (
        f"<p>{len(active)} players registered; round 1 has not been paired yet. "
        "Find your name to check you are in.</p>"
        + FIND
        + '<div class="scroll"><table class="grid standings"><thead><tr><th>Name</th>'
        '<th>Rank</th><th>Club / state</th><th class="num">AGA #</th></tr></thead><tbody>'
        + rows
        + "</tbody></table></div>"
    )
    return frame(data, "standings.html", "Registered players", body)


def standings_page(data: SiteData) -> str:
    if not data.round:
        return registered_page(data)
    criteria = _criteria(data)
    head = "".join(f'<th class="num">{esc(c)}</th>' for c in criteria)
    rows = []
    for s in data.standings:
        values = "".join(
            f'<td class="num">{esc(show_score(v) if v is not None else "")}</td>'
            for v in s.tiebreaks
        )
        rows.append(
            f'<tr data-find="{find_key(data.name(s.player), s.player)}">'
            f'<td class="num">{s.place}</td><td class="name">{data.who(s.player)}</td>'
            f"<td>{esc(data.rank_club(s.player))}</td>"
            f'<td class="num">{esc(show_score(s.score) or "0")}</td>'
            f'<td class="num">{esc(show_score(s.wins) or "0")}</td>{values}</tr>'
        )
    text, _ = round_state(data, data.round)
    final = text.startswith("Final")
    body = (
        _state_html(data, data.round)
        + f"<p>Standings after round {data.round}"
        + ("" if final else " (places change as results come in)")
        + f": McMahon score, then the tiebreaks in order ({esc(', '.join(criteria))}). "
        "Games not played yet count nothing. Wins are shown for information and break no "
        "tie. Tap a name to see how each tiebreak was made.</p>"
        + FIND
        + '<div class="scroll"><table class="grid standings"><thead><tr>'
        '<th class="num">Place</th><th>Name</th><th>Rank, club</th><th class="num">MMS</th>'
        f'<th class="num">Wins</th>{head}</tr></thead><tbody>'
        + "".join(rows)
        + "</tbody></table></div>"
    )
    return frame(data, "standings.html", "Final standings" if final else "Standings", body)


def _place(number: int, place: int) -> str:
    """The row's number, which the game cells name; a shared place said beside it."""
    return str(number) if number == place else f"{number} (tied {place})"


def crosstable_page(data: SiteData) -> str:
    numbers = {s.player: i for i, s in enumerate(data.standings, start=1)}
    criteria = _criteria(data)
    rounds = "".join(f'<th class="num">R{n}</th>' for n in range(1, data.round + 1))
    head = "".join(f'<th class="num">{esc(c)}</th>' for c in criteria)
    rows = []
    for s in data.standings:
        cells = []
        for rec in data.records[s.player][: data.round]:
            cell = game_cell(rec, numbers)
            inner = (
                f'<a href="#n{cell.opponent}">{esc(str(cell))}</a>'
                if cell.opponent is not None
                else esc(str(cell))
            )
            cells.append(f'<td class="game {cell.css}">{inner}</td>')
        values = "".join(
            f'<td class="num">{esc(show_score(v) if v is not None else "")}</td>'
            for v in s.tiebreaks
        )
        rows.append(
            f'<tr id="n{numbers[s.player]}" data-find="{find_key(data.name(s.player), s.player)}">'
            f'<td class="num">{_place(numbers[s.player], s.place)}</td>'
            f'<td class="name">{data.who(s.player)}</td><td>{esc(data.rank(s.player))}</td>'
            f'{"".join(cells)}<td class="num">{esc(show_score(s.score) or "0")}</td>{values}</tr>'
        )
    body = (
        (_state_html(data, data.round) if data.round else "")
        + FIND
        + '<div class="scroll"><table class="grid crosstable"><thead><tr>'
        '<th class="num">Place</th><th>Name</th><th>Rank</th>'
        f'{rounds}<th class="num">MMS</th>{head}</tr></thead><tbody>'
        + "".join(rows)
        + "</tbody></table></div>"
        f'<div class="notes"><p>{esc(GAME_LEGEND, 400)}</p><p>MMS: McMahon score.</p></div>'
    )
    return frame(data, "crosstable.html", "Cross table", body)


# --- a player's page ----------------------------------------------------------------------


def _facts(pairs: Sequence[tuple[str, str]]) -> str:
    return (
        '<dl class="facts">'
        + "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in pairs if v)
        + "</dl>"
    )


def _initial_text(t: Tournament, pid: PlayerId, initial: float) -> str:
    """The initial score, and why a European option moved it (a supergroup promotion)."""
    note = supergroup.initial_note(t, pid)
    return f"{show_score(initial) or '0'} ({note})" if note else show_score(initial) or "0"


def player_page(data: SiteData, pid: PlayerId) -> str:
    t = data.tournament
    p = t.players.get(pid)
    records = data.records.get(pid, [])
    standing = next((s for s in data.standings if s.player == pid), None)
    rating = rating_of(p)
    initial = data.context.initial.get(pid, 0.0)
    facts = _facts(
        [
            ("AGA #", str(pid)),
            ("Rank", esc(data.rank(pid))),
            ("Entry rating", f"{rating:.2f}" if rating is not None else ""),
            ("Band", str(p.effective_band) if p is not None and p.effective_band else ""),
            ("Initial McMahon score", esc(_initial_text(t, pid, initial))),
            ("McMahon score now", esc(show_score(standing.score) or "0") if standing else ""),
            ("Place", str(standing.place) if standing else ""),
            ("Club / state", esc(data.rank_club(pid).partition(", ")[2])),
            ("Status", esc(_status(p)) if p is not None else ""),
        ]
    )
    games = []
    for rec in reversed(records):  # the round in play first
        text, css = _result_text(rec)
        opponent_rec = (
            data.records[rec.opponent][rec.round - 1]
            if rec.opponent is not None and rec.opponent in data.records
            else None
        )
        why = why_opponent(t, rec, opponent_rec, data.bye_reasons.get(rec.round, ""))
        line = _game_line(data, rec)
        score = (
            f'<div class="sub">McMahon score: {esc(show_score(rec.score_before) or "0")} '
            f"&rarr; {esc(show_score(rec.score_after) or '0')}</div>"
            if rec.outcome not in (Outcome.PENDING, Outcome.ABSENT)
            else ""
        )
        why_text = " ".join(esc(w, 600) for w in why)
        report = ""
        if rec.outcome is Outcome.PENDING and rec.round == data.round and rec.color is not None:
            side = "white" if rec.color is Color.WHITE else "black"
            report = (
                f'<div><a class="action" href="report.html#board={_board(data, rec)}'
                f'&amp;side={side}">Report this result</a></div>'
            )
        now = " (now)" if rec.round == data.round and rec.outcome is Outcome.PENDING else ""
        games.append(
            f'<li id="r{rec.round}"><div><strong>Round {rec.round}{now}</strong></div>'
            + (f'<div class="sub">{line}</div>' if line else "")
            + f'<div class="result {css}">{esc(text)}</div>'
            + score
            + report
            + (
                f'<div class="why"><b>Why:</b> {why_text}</div>'
                if why_text and rec.outcome not in (Outcome.ABSENT, Outcome.VOLUNTARY_BYE)
                else ""
            )
            + "</li>"
        )
    games_html = (
        f'<ul class="cards games">{"".join(games)}</ul>'
        if games
        else '<p class="empty">No round paired yet.</p>'
    )
    tiebreaks = ""
    if standing is not None:
        items = "".join(
            f"<li><strong>{esc(name)}: {esc(show_score(v) if v is not None else '-')}</strong>"
            f'<div class="sum">{esc(explain_tiebreak(data.context, name, pid, v, data.name), 4000)}'
            "</div></li>"
            for name, v in zip(standing.criteria, standing.tiebreaks, strict=True)
        )
        tiebreaks = f'<h2>Tiebreaks</h2><ul class="cards tiebreaks">{items}</ul>'
    body = f"{facts}<h2>Games</h2>{games_html}{tiebreaks}"
    return frame(data, player_file(pid), data.name(pid), body, longest=2000)


def _status(p: object) -> str:
    status = getattr(p, "status", None)
    return "Withdrawn" if status is Status.DROPPED else str(getattr(status, "value", "Active"))


# --- the event ----------------------------------------------------------------------------


def event_page(data: SiteData) -> str:
    t = data.tournament
    s = t.settings
    dates = " to ".join(d.isoformat() for d in (s.start_date, s.end_date) if d is not None)
    time_control = ", ".join(
        x
        for x in (
            f"{s.basic_time_minutes} minutes main time" if s.basic_time_minutes else "",
            s.overtime_format,
            s.overtime_conditions,
        )
        if x
    )
    facts = _facts(
        [
            ("Venue", esc(s.venue)),
            ("Address", esc(s.venue_address, 300)),
            ("Dates", esc(dates)),
            ("Director", esc(s.director.name)),
            ("Rules", esc(s.rules.value)),
            ("Komi (even games)", esc(show_score(s.komi) or "0")),
            ("Time", esc(time_control, 300)),
            ("Pairing", esc(f"{s.pairing_format}, {s.rounds} rounds")),
            ("Handicaps", esc(scheme_text(s))),
            ("Tiebreaks", esc(", ".join(_criteria(data)), 300)),
        ]
    )
    rounds = []
    for n in range(1, max(s.rounds, data.round) + 1):
        rnd = t.round(n)
        if rnd is None or not (rnd.games or rnd.byes):
            state = "not paired yet"
        else:
            done = sum(g.result is not None for g in rnd.games)
            state = f"{len(rnd.games)} games, {done} results in"
        rounds.append(f"<li><strong>Round {n}</strong>: {esc(state)}</li>")
    players = sum(1 for pid in t.players if _active(t, pid))
    body = (
        f'{facts}<h2>Rounds</h2><ul class="cards rounds">{"".join(rounds)}</ul>'
        f"<p>{players} players active.</p>"
    )
    return frame(data, "event.html", "Event", body)


# --- reporting a result from the board ----------------------------------------------------


def report_page(data: SiteData) -> str:
    """The form a player reports a result with (kept only by the served site, checked with
    the board's code; ``addin.publish.board_reports``)."""
    if not data.round:
        body = '<p class="empty">Round 1 has not been paired yet.</p>'
        return frame(data, "report.html", "Report a result", body)
    radios = "".join(
        f'<label class="choice"><input type="radio" name="{name}" value="{value}" required> '
        f"{label}</label>"
        for name, value, label in (
            ("side", "white", "White"),
            ("side", "black", "Black"),
        )
    )
    results = "".join(
        f'<label class="choice"><input type="radio" name="result" value="{value}" required> '
        f"{label}</label>"
        for value, label in (("white", "White won"), ("black", "Black won"), ("jigo", "Jigo"))
    )
    body = (
        f"<p>Round {data.round}: both players of a board report the result, with the code "
        "on their pairing slip; the TD takes it in when both reports agree.</p>"
        '<form id="report" class="report" autocomplete="off">'
        f'<input type="hidden" name="round" value="{data.round}">'
        '<label>Board <input name="board" inputmode="numeric" pattern="[0-9]*" maxlength="4" '
        'required class="field"></label>'
        '<label>Code <input name="code" maxlength="8" autocapitalize="characters" '
        'spellcheck="false" required class="field"></label>'
        f"<fieldset><legend>I played</legend>{radios}</fieldset>"
        f"<fieldset><legend>Result</legend>{results}</fieldset>"
        '<button type="submit" class="send">Report</button></form>'
        '<p id="report-status" role="status"></p>'
    )
    return frame(data, "report.html", "Report a result", body)
