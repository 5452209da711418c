"""The site's pages as HTML text, built from :class:`SiteData` (pure: no file, no sheet).

Every page has the same frame (:mod:`addin.publish.shell`): the event's name, the menu,
"Updated ..." and the refresh script. The stamp and the time are left as placeholders
(:data:`STAMP`, :data:`TIME`) that :mod:`addin.publish.site` fills in once the page's stamp
(a digest of the page as built) is known. Each page names its own stamp file
(:func:`stamp_file`), the one its script polls.

Every page reads and every form works without JavaScript (progressive enhancement): the
script adds the find box, the live report states and sending a report without leaving the
page, and nothing a page says depends on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from addin.core import supergroup
from addin.core.codes import boards
from addin.core.european import McMahonRules, OddPlayer, Supergroup
from addin.core.handicap import scheme_text
from addin.core.model import ByeKind, Color, PlayerId, Status, Tournament
from addin.core.participants import ABSENT_STATUSES
from addin.core.scoring import Outcome, RoundRecord
from addin.core.tiebreaks import Standing, TiebreakContext
from addin.publish import projection, shell
from addin.publish.assets import HALL_HOLD_SECONDS, HALL_SLIDE_SECONDS
from addin.publish.board_reports import Board, state_text
from addin.publish.explain import explain_tiebreak, why_opponent
from addin.publish.i18n import DEFAULT, format_number, translate
from addin.publish.localized import RESULT_KEYS, conditions, find_box, number
from addin.publish.report_form import personal_form, report_form, status_line
from addin.publish.shell import GENERATOR, MENU, STAMP, TIME, stamp_file
from addin.reports.builders import GAME_LEGEND, game_cell
from addin.reports.common import alpha_key, rank_label, rating_of
from addin.reports.model import show_score
from addin.reports.projected import ProjectedRating
from addin.reports.text import esc, find_key, name_html

__all__ = ["GENERATOR", "MENU", "STAMP", "TIME", "stamp_file"]

FIND = (
    '<input type="search" id="find" class="find" placeholder="Find your name or AGA #" '
    'aria-label="Find your name or AGA number" autocomplete="off" hidden>'
    '<p id="no-match" class="empty" role="status" hidden><span></span>'
    '<button type="button" class="clear">Show everyone</button></p>'
)
"""Shown by the script (without it, the browser's own find is the way to a name); a find
that leaves nothing on the page says so, with a way back to everyone."""
HALL_FILE = "hall.html"
HALL_BOARDS_FILE = "hall-boards.html"
"""The hall screen: by name (what a player looks for); by board, for a TD who wants it."""
HALL_ROWS = 18
"""Rows a column of the hall screen is made for at the type's largest size (a short list
leaves the rest of the screen empty; a longer one takes more rows, in smaller type)."""
HALL_MOST_ROWS = 30
"""Rows a column takes before the list goes on to another screen (the rows then smaller:
21 px type on a 1080 px screen): 151 players by name in two screens, not three."""


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
    states: dict[int, str] = field(default_factory=dict)
    """The round in play's report states by board (``board_reports.desk_states``), as the
    reports stood when it was published; the served site's script keeps them current."""
    projection: Mapping[PlayerId, ProjectedRating] | None = None
    """Each player's projected AGA rating (unofficial), for their page and the standings
    page; ``None``: not shown (the setting is off, or the TDListA cannot be used)."""
    lang: str = DEFAULT
    """The language of the pages' own words (``addin.publish.i18n``); never of names."""

    def t(self, key: str, count: int | None = None, **values: object) -> str:
        """The message ``key`` in the pages' language (text: escape it as any other)."""
        return translate(key, self.lang, count, **values)

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
        """The player's link, marked when they have withdrawn or are the ghost player."""
        withdrawn = f' <span class="tag">{esc(self.t("tag.withdrawn"))}</span>'
        tags = "" if _active(self.tournament, pid) else withdrawn
        if self.is_ghost(pid):
            tags += f' <span class="tag">{esc(self.t("tag.ghost"))}</span>'
        return self.link(pid) + tags

    def is_ghost(self, pid: PlayerId) -> bool:
        """The ghost player (BGA 7.1) the settings name, who plays only when the field is odd."""
        s = self.tournament.settings
        return s.options.odd_player is OddPlayer.GHOST and s.ghost_player == int(pid)

    @property
    def places(self) -> dict[PlayerId, int]:
        return {s.player: s.place for s in self.standings}


def frame(data: SiteData, file: str, heading: str, body: str, longest: int = 120) -> str:
    """A whole page around ``body``; ``longest``: characters of the heading shown."""
    return shell.page(data.title, file, heading, body, longest=longest, lang=data.lang)


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
    if data.lang != DEFAULT:
        rnd = data.tournament.round(number)
        games = len(rnd.games) if rnd is not None else 0
        done = sum(g.result is not None for g in rnd.games) if rnd is not None else 0
        key = "state." + css.removeprefix("state ")
        text = data.t(key, done=done, games=games, number=number)
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
    label = esc(data.t("pairings.round"))
    return f'<nav class="rounds" aria-label="{label}">{label} {links}</nav>'


def _result_text(rec: RoundRecord, lang: str = DEFAULT) -> tuple[str, str]:
    """(text, css class) of one player's round, in ``lang``."""
    css = {
        Outcome.WIN: "win",
        Outcome.FORFEIT_WIN: "win",
        Outcome.LOSS: "loss",
        Outcome.FORFEIT_LOSS: "loss",
        Outcome.DOUBLE_FORFEIT: "loss",
        Outcome.JIGO: "draw",
        Outcome.NO_RESULT: "draw",
        Outcome.PENDING: "pending",
        Outcome.FORCED_BYE: "bye",
        Outcome.VOLUNTARY_BYE: "bye",
        Outcome.ABSENT: "pending",
    }
    return translate(RESULT_KEYS[rec.outcome], lang), css[rec.outcome]


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


def _conditions(handicap: int, komi: float, lang: str = DEFAULT) -> str:
    return conditions(handicap, komi, lang)


def _opponent_line(data: SiteData, rec: RoundRecord) -> str:
    """``vs Ann Lee (3k, NYGC) · 2 stones, komi 0.5`` ("" for a round without a game)."""
    if rec.opponent is None:
        return ""
    return (
        f"{esc(data.t('opponent.vs'))} {data.who(rec.opponent)} "
        f"({esc(data.rank_club(rec.opponent))}) &middot; "
        f"{esc(_conditions(rec.handicap, rec.komi, data.lang))}"
    )


def _seat(data: SiteData, rec: RoundRecord) -> str:
    """``Board 5 · White``: where the player sits, the first thing they look for."""
    if rec.opponent is None or rec.color is None:
        return ""
    colour = data.t("colour.white" if rec.color is Color.WHITE else "colour.black")
    board = esc(data.t("seat.board", board=_board(data, rec)))
    return f'<span class="board-no">{board}</span> &middot; {esc(colour)}'


def _state_mark(data: SiteData, number: int, board: str, side: str = "") -> str:
    """A board's report state in the round in play ("White has reported: waiting for
    Black"), as published; the served site's script keeps it current. ``side``: the colour
    of the player whose own page it is."""
    if number != data.round or not board.isdecimal():
        return ""
    state = data.states.get(int(board), "")
    said = state_text(state, side) if state else ""
    css = f"report-state rs-{state}" if state else "report-state"
    return (
        f'<div class="{css}" data-report-round="{number}" data-report-board="{board}"'
        + (f' data-side="{side}"' if side else "")
        + ("" if said else " hidden")
        + f">{esc(said)}</div>"
    )


def pairings_page(data: SiteData, number: int | None = None) -> str:
    """The pairings of round ``number`` (default: the round in play)."""
    t = data.tournament
    number = data.round if number is None else number
    rnd = t.round(number) if number else None
    if rnd is None:
        body = (
            f'<p class="empty">{esc(data.t("pairings.unpaired"))}</p>'
            f'<p><a href="standings.html">{esc(data.t("pairings.registered"))}</a></p>'
        )
        return frame(data, "index.html", data.t("pairings.title"), body)
    by_name: list[str] = []
    for pid in sorted(data.records, key=lambda p: alpha_key(t, p)):
        rec = data.records[pid][number - 1]
        if rec.outcome is Outcome.ABSENT and not _active(t, pid):
            continue
        text, css = _result_text(rec, data.lang)
        if rec.outcome is Outcome.ABSENT:
            text = data.t("result.not_paired")
        on = _board(data, rec) if rec.opponent is not None else ""
        key = find_key(data.name(pid), pid, *([int(on)] if on.isdecimal() else []))
        seat, opponent = _seat(data, rec), _opponent_line(data, rec)
        by_name.append(
            f'<li data-find="{key}"><div class="who">'
            f"{data.who(pid)} ({esc(data.rank_club(pid))})</div>"
            + (f'<div class="seat">{seat}</div>' if seat else "")
            + (f'<div class="opp">{opponent}</div>' if opponent else "")
            + f'<div class="result {css}">{esc(text)}</div>'
            + (_state_mark(data, number, on) if on else "")
            + "</li>"
        )
    by_board: list[str] = []
    for board, g in boards(rnd):
        text = g.result.value if g.result is not None else data.t("result.pending")
        css = "pending" if g.result is None else ""
        key = find_key(data.name(g.white), g.white, data.name(g.black), g.black, board)
        by_board.append(
            f'<li id="board-{board}" data-find="{key}">'
            f'<div class="board-no">{esc(data.t("seat.board", board=board))}</div>'
            f'<div class="vs"><div>{esc(data.t("pairings.white"))}{data.who(g.white)} '
            f"({esc(data.rank_club(g.white))})</div>"
            f"<div>{esc(data.t('pairings.black'))}{data.who(g.black)} "
            f"({esc(data.rank_club(g.black))})</div></div>"
            f'<div class="sub">{esc(_conditions(g.handicap, g.komi, data.lang))}</div>'
            f'<div class="result {css}">{esc(text)}</div>'
            + _state_mark(data, number, str(board))
            + "</li>"
        )
    for bye in sorted(rnd.byes, key=lambda b: alpha_key(t, b.player)):
        kind = esc(
            data.t("result.forced_bye" if bye.kind is ByeKind.FORCED else "result.voluntary_bye")
        )
        by_board.append(
            f'<li data-find="{find_key(data.name(bye.player), bye.player)}">'
            f"{data.who(bye.player)}: {kind}</li>"
        )
    by_name_label, by_board_label = (
        esc(data.t("pairings.by_name")),
        esc(data.t("pairings.by_board")),
    )
    body = (
        _round_selector(data, number)
        + f"<p>{esc(data.t('pairings.intro', number=number, rounds=t.settings.rounds))}</p>"
        + _state_html(data, number)
        + find_box(data.lang)
        + f'<p class="jump"><a href="#by-name">{by_name_label}</a> &middot; '
        f'<a href="#by-board">{by_board_label}</a></p>'
        f'<h2 id="by-name">{by_name_label}</h2><ul class="cards names">{"".join(by_name)}</ul>'
        f'<h2 id="by-board">{by_board_label}</h2><ul class="cards boards">{"".join(by_board)}</ul>'
    )
    heading = data.t("pairings.title_round", number=number)
    return frame(data, pairings_file(data, number), heading, body)


# --- standings and cross table ------------------------------------------------------------


def _criteria(data: SiteData) -> tuple[str, ...]:
    if data.standings:
        return data.standings[0].criteria
    return tuple(data.tournament.settings.tiebreaks)


NOT_CHECKED_IN = "not checked in yet"
"""The mark of a pre-registered player who has not checked in at the desk (Not arrived)."""


def registered(t: Tournament) -> list[PlayerId]:
    """Who is registered, by name: every player but those withdrawn, the pre-registered who
    have not checked in yet among them (they look for themselves before they arrive)."""
    listed = (pid for pid, p in t.players.items() if p.status is not Status.DROPPED)
    return sorted(listed, key=lambda p: alpha_key(t, p))


def _waiting(t: Tournament, pid: PlayerId) -> bool:
    p = t.players.get(pid)
    return p is not None and p.status is Status.NOT_ARRIVED


def registered_page(data: SiteData) -> str:
    """Before round 1: who is registered ("am I in?"), by name; no order of merit yet."""
    t = data.tournament
    listed = registered(t)
    mark = f' <span class="tag">{NOT_CHECKED_IN}</span>'
    rows = "".join(
        f'<tr data-find="{find_key(data.name(pid), pid)}"><td class="name">{data.link(pid)}'
        f"{mark if _waiting(t, pid) else ''}</td>"
        f"<td>{esc(data.rank(pid))}</td><td>{esc(data.rank_club(pid).partition(', ')[2])}</td>"
        f'<td class="num">{int(pid)}</td></tr>'
        for pid in listed
    )
    waiting = sum(_waiting(t, pid) for pid in listed)
    waiting_text = f" ({waiting} {NOT_CHECKED_IN})" if waiting else ""
    body = (
        f"<p>{len(listed)} players registered{waiting_text}; round 1 has not been paired yet. "
        "Find your name to check you are in"
        + (": if you are marked not checked in yet, check in at the desk" if waiting else "")
        + ".</p>"
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
        + (projection.standings_jump() if data.projection is not None else "")
        + FIND
        + '<div class="scroll"><table class="grid standings"><thead><tr>'
        '<th class="num">Place</th><th>Name</th><th>Rank, club</th><th class="num">MMS</th>'
        f'<th class="num">Wins</th>{head}</tr></thead><tbody>'
        + "".join(rows)
        + "</tbody></table></div>"
        + _projection_table(data)
    )
    return frame(data, "standings.html", "Final standings" if final else "Standings", body)


def _projection_table(data: SiteData) -> str:
    """Every ranked player's projected AGA rating (unofficial), in the standings' order."""
    if data.projection is None:
        return ""
    rows = [
        projection.Row(
            data.who(s.player),
            find_key(data.name(s.player), s.player),
            data.projection.get(s.player),
        )
        for s in data.standings
    ]
    return projection.standings_section(rows)


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


def _initial_text(t: Tournament, pid: PlayerId, initial: float, lang: str = DEFAULT) -> str:
    """The initial score, and why a European option moved it (a supergroup promotion)."""
    note = supergroup.initial_note(t, pid)
    return f"{number(initial, lang)} ({note})" if note else number(initial, lang)


def _now(data: SiteData, pid: PlayerId) -> str:
    """The round in play, at the top of a player's page: board and colour large, the
    opponent, the report state and the form to report the result."""
    records = data.records.get(pid, [])
    if not data.round or len(records) < data.round:
        return ""
    rec = records[data.round - 1]
    text, css = _result_text(rec, data.lang)
    if rec.outcome is Outcome.ABSENT:
        if not _active(data.tournament, pid):
            return ""
        text = data.t("result.not_paired")
    pending = rec.outcome is Outcome.PENDING
    heading = esc(
        data.t("player.round", number=data.round) + (data.t("player.now") if pending else "")
    )
    seat, opponent = _seat(data, rec), _opponent_line(data, rec)
    board = _board(data, rec) if rec.opponent is not None else ""
    side = "" if rec.color is None else ("white" if rec.color is Color.WHITE else "black")
    form = ""
    if pending and rec.opponent is not None and board.isdecimal() and side:
        form = f'<h3 id="report-h">{esc(data.t("player.report"))}</h3>{status_line()}'
        form += personal_form(data.round, int(board), side, data.name(rec.opponent), data.lang)
    return (
        '<section class="now" aria-labelledby="now-h">'
        f'<h2 id="now-h">{heading}</h2>'
        + (f'<p class="seat">{seat}</p>' if seat else "")
        + (f'<p class="opp">{opponent}</p>' if opponent else "")
        + f'<p class="result {css}">{esc(text)}</p>'
        + (_state_mark(data, data.round, board, side) if board else "")
        + form
        + "</section>"
    )


def player_page(data: SiteData, pid: PlayerId) -> str:
    t = data.tournament
    p = t.players.get(pid)
    records = data.records.get(pid, [])
    standing = (  # before round 1 is paired, nobody has a place yet
        next((s for s in data.standings if s.player == pid), None) if data.round else None
    )
    rating = rating_of(p)
    initial = data.context.initial.get(pid, 0.0)
    facts = _facts(
        [
            (data.t("fact.aga"), str(pid)),
            (data.t("fact.rank"), esc(data.rank(pid))),
            (data.t("fact.rating"), _rating(rating, data.lang) if rating is not None else ""),
            (data.t("fact.band"), str(p.effective_band) if p and p.effective_band else ""),
            (data.t("fact.initial"), esc(_initial_text(t, pid, initial, data.lang))),
            (data.t("fact.score"), esc(number(standing.score, data.lang)) if standing else ""),
            (data.t("fact.place"), str(standing.place) if standing else ""),
            (data.t("fact.club"), esc(data.rank_club(pid).partition(", ")[2])),
            (
                data.t("fact.status"),
                esc(data.t(_status(p, standing is not None or not data.round))) if p else "",
            ),
            (data.t("fact.plays"), esc(data.t("fact.plays_ghost")) if data.is_ghost(pid) else ""),
        ]
    )
    games = []
    for rec in reversed(records):  # the round in play first
        text, css = _result_text(rec, data.lang)
        opponent_rec = (
            data.records[rec.opponent][rec.round - 1]
            if rec.opponent is not None and rec.opponent in data.records
            else None
        )
        why = why_opponent(t, rec, opponent_rec, data.bye_reasons.get(rec.round, ""))
        seat, opponent = _seat(data, rec), _opponent_line(data, rec)
        score = (
            f'<div class="sub">{esc(data.t("player.score"))}'
            f"{esc(number(rec.score_before, data.lang))} "
            f"&rarr; {esc(number(rec.score_after, data.lang))}</div>"
            if rec.outcome not in (Outcome.PENDING, Outcome.ABSENT)
            else ""
        )
        why_text = " ".join(esc(w, 600) for w in why)
        now = rec.round == data.round and rec.outcome is Outcome.PENDING
        said = data.t("player.round", number=rec.round) + (data.t("player.now") if now else "")
        games.append(
            f'<li id="r{rec.round}"><div><strong>{esc(said)}</strong></div>'
            + (f'<div class="seat">{seat}</div>' if seat else "")
            + (f'<div class="opp">{opponent}</div>' if opponent else "")
            + f'<div class="result {css}">{esc(text)}</div>'
            + score
            + (
                f'<div class="why"><b>{esc(data.t("player.why"))}</b> {why_text}</div>'
                if why_text and rec.outcome not in (Outcome.ABSENT, Outcome.VOLUNTARY_BYE)
                else ""
            )
            + "</li>"
        )
    games_html = (
        f'<ul class="cards games">{"".join(games)}</ul>'
        if games
        else f'<p class="empty">{esc(data.t("player.no_games"))}</p>'
    )
    tiebreaks = ""
    if standing is not None:
        items = "".join(
            f"<li><strong>{esc(name)}: {esc(show_score(v) if v is not None else '-')}</strong>"
            f'<div class="sum">{esc(explain_tiebreak(data.context, name, pid, v, data.name), 4000)}'
            "</div></li>"
            for name, v in zip(standing.criteria, standing.tiebreaks, strict=True)
        )
        tiebreaks = f"<h2>{esc(data.t('player.tiebreaks'))}</h2>"
        tiebreaks += f'<ul class="cards tiebreaks">{items}</ul>'
    projected = (
        projection.player_section(data.projection.get(pid)) if data.projection is not None else ""
    )
    body = (
        f"{_now(data, pid)}<h2>{esc(data.t('player.player'))}</h2>{facts}{projected}"
        f"<h2>{esc(data.t('player.games'))}</h2>{games_html}{tiebreaks}"
    )
    return frame(data, player_file(pid), data.name(pid), body, longest=2000)


def _status(p: object, ranked: bool) -> str:
    """The player's status, as a message key; one who never came has no place
    (``participants``)."""
    status = getattr(p, "status", None)
    if not ranked and status in ABSENT_STATUSES:
        return "status.absent"
    if status is Status.DROPPED:
        return "status.withdrawn"
    return "status.not_arrived" if status is Status.NOT_ARRIVED else "status.active"


def _rating(rating: float, lang: str) -> str:
    """An entry rating, two decimals as the language writes them (``5.50``, ``5,50``)."""
    return f"{rating:.2f}" if lang == DEFAULT else format_number(rating, lang, places=2)


# --- the event ----------------------------------------------------------------------------


def _mcmahon_facts(data: SiteData) -> list[tuple[str, str]]:
    """The McMahon rules preset, and what a player of a European event should know: the
    supergroup, the ghost player instead of byes, what a missed round counts."""
    t = data.tournament
    s = t.settings
    o = s.options
    preset = s.mcmahon_rules
    facts = [
        (
            "McMahon rules",
            esc(
                "AGA (the AGA Swiss McMahon protocol)"
                if preset is McMahonRules.AGA
                else f"{preset.value} preset (BGA McMahon functional specification)"
            ),
        )
    ]
    if o.grade_scale.value != "AGA bands":
        facts.append(("Initial scores", esc(o.grade_scale.value)))
    if o.supergroup is not Supergroup.NONE:
        promoted = sum(
            supergroup.initial_note(t, pid).startswith("supergroup") for pid in t.players
        )
        said = (
            f"{promoted} players start one point above the bar"
            if promoted
            else "none this event (not enough players at the bar)"
        )
        facts.append(("Supergroup", esc(f"{o.supergroup.value}: {said}")))
    if o.odd_player is OddPlayer.GHOST:
        ghost = s.ghost_player
        named = f"{data.who(PlayerId(ghost))} (AGA #{ghost})" if ghost in t.players else ""
        ghost_text = f"the ghost player {named}" if named else "a ghost player (none named yet)"
        facts.append(
            ("Byes", f"none: {ghost_text} plays whoever a bye would have gone to (BGA 7.1)")
        )
    else:
        facts.append(("Byes", "an odd player out has a bye (1 point), by the protocol's rules"))
    if o.sleeping.value != "No points (AGA)":
        facts.append(("Rounds missed", esc(o.sleeping.value)))
    return facts


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
            ("Rules of play", esc(s.rules.value)),
            *_mcmahon_facts(data),
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
        f'<p><a href="{HALL_FILE}">Hall screen</a> (for a projector or TV in the hall: the '
        "pairings by name, and the standings between rounds, large, in columns, a screen at "
        f'a time; or the pairings <a href="{HALL_BOARDS_FILE}">by board</a>)</p>'
    )
    return frame(data, "event.html", "Event", body)


# --- reporting a result from the board ----------------------------------------------------


def report_page(data: SiteData) -> str:
    """The form a player reports a result with (kept only by the served site, checked with
    the board's result code; ``addin.publish.board_reports``)."""
    rnd = data.tournament.round(data.round) if data.round else None
    if rnd is None:
        body = '<p class="empty">Round 1 has not been paired yet.</p>'
        return frame(data, "report.html", "Report a result", body)
    seats = [  # every board, with a result or not: a result never reloads a form being filled
        Board(board, g.white, g.black, data.name(g.white), data.name(g.black), "")
        for board, g in boards(rnd)
    ]
    body = (
        f"<p>Round {data.round}: both players of a board report its result with the board's "
        "result code (on the result slip and on your pairing card); the TD takes the result "
        "in when both reports agree. Your own page (find your name in the "
        '<a href="index.html">pairings</a>) has the form for your game.</p>'
        + status_line()
        + report_form(data.round, seats)
    )
    return frame(data, "report.html", "Report a result", body)


# --- the hall screen ------------------------------------------------------------------------


@dataclass(frozen=True)
class HallView:
    """What the hall screen shows: a heading and a list, laid out in ``columns`` columns a
    screen (each column with its own head), as a wall list is printed."""

    heading: str
    css: str
    """The class that sets a row's cells' widths."""
    head: str
    rows: list[str]
    columns: int


def _cell(html: str, number: bool = False) -> str:
    return f'<span class="num">{html}</span>' if number else f"<span>{html}</span>"


def _short_conditions(handicap: int, komi: float) -> str:
    """``2 st. / 0.5``, ``even / 7.5``: the handicap and komi in the hall's narrow column."""
    stones = f"{handicap} st." if handicap else "even"
    return f"{stones} / {show_score(komi) or '0'}"


def _named(data: SiteData, pid: PlayerId) -> str:
    return name_html(data.name(pid)) + (" (ghost)" if data.is_ghost(pid) else "")


def _registered_view(data: SiteData) -> HallView:
    t = data.tournament
    mark = f' <span class="tag">{NOT_CHECKED_IN}</span>'
    rows = [
        _cell(_named(data, pid) + (mark if _waiting(t, pid) else ""))
        + _cell(esc(data.rank(pid)))
        + _cell(esc(data.rank_club(pid).partition(", ")[2]))
        for pid in registered(t)
    ]
    head = _cell("Name") + _cell("Rank") + _cell("Club / state")
    return HallView("Registered players", "cols-registered", head, rows, 3)


def _by_name_view(data: SiteData) -> HallView:
    """The round in play by name (chess-results' and pairgoth's wall list): every player once,
    alphabetical, with board, colour and opponent."""
    t = data.tournament
    rows = []
    for pid in sorted(data.records, key=lambda p: alpha_key(t, p)):
        rec = data.records[pid][data.round - 1]
        if rec.outcome is Outcome.ABSENT and not _active(t, pid):
            continue
        if rec.opponent is not None and rec.color is not None:
            board, colour = _board(data, rec), "W" if rec.color is Color.WHITE else "B"
            opponent = _named(data, rec.opponent)
        elif rec.outcome in (Outcome.FORCED_BYE, Outcome.VOLUNTARY_BYE):
            board, colour, opponent = "", "", "bye"
        else:
            board, colour, opponent = "", "", "not paired: see the TD"
        rows.append(
            _cell(_named(data, pid))
            + _cell(esc(board), number=True)
            + _cell(colour)
            + _cell(opponent)
        )
    head = _cell("Name") + _cell("Board", number=True) + _cell("") + _cell("Opponent")
    return HallView(f"Pairings, round {data.round}, by name", "cols-names", head, rows, 3)


def _by_board_view(data: SiteData) -> HallView:
    t = data.tournament
    rnd = t.round(data.round)

    def plain(pid: PlayerId) -> str:
        return f"{_named(data, pid)} {esc(data.rank(pid))}"

    rows = []
    if rnd is not None:
        rows = [
            _cell(str(board), number=True)
            + _cell(plain(g.white))
            + _cell(plain(g.black))
            + _cell(esc(_short_conditions(g.handicap, g.komi)))
            + _cell(esc(g.result.value if g.result is not None else ""))
            for board, g in boards(rnd)
        ]
        rows += [
            _cell("") + _cell(plain(b.player)) + _cell("bye") + _cell("") + _cell("")
            for b in sorted(rnd.byes, key=lambda b: alpha_key(t, b.player))
        ]
    head = (
        _cell("Board", number=True)
        + _cell("White")
        + _cell("Black")
        + _cell("Handicap")
        + _cell("Result")
    )
    return HallView(f"Pairings, round {data.round}, by board", "cols-pairings", head, rows, 2)


def _standings_view(data: SiteData, final: bool) -> HallView:
    criteria = _criteria(data)
    rows = []
    for s in data.standings:
        first = s.tiebreaks[0] if s.tiebreaks else None
        rows.append(
            _cell(str(s.place), number=True)
            + _cell(_named(data, s.player))
            + _cell(esc(data.rank(s.player)))
            + _cell(esc(show_score(s.score) or "0"), number=True)
            + _cell(esc(show_score(first) if first is not None else ""), number=True)
        )
    head = (  # no wins: they break no tie, and the names need the width
        _cell("Place", number=True)
        + _cell("Name")
        + _cell("Rank")
        + _cell("MMS", number=True)
        + _cell(esc(criteria[0] if criteria else ""), number=True)
    )
    heading = "Final standings" if final else f"Standings after round {data.round}"
    return HallView(heading, "cols-standings", head, rows, 3)


def _hall_view(data: SiteData, by_board: bool = False) -> HallView:
    """What the hall shows now: the round's pairings (by name, or by board) while it is
    played, the standings once its every result is in, who is registered before round 1."""
    if not data.round:
        return _registered_view(data)
    text, _ = round_state(data, data.round)
    if text.startswith("Provisional") and data.tournament.round(data.round) is not None:
        return _by_board_view(data) if by_board else _by_name_view(data)
    return _standings_view(data, final=text.startswith("Final"))


def _column_rows(view: HallView) -> int:
    """Rows a column holds: as few screens as the list needs at :data:`HALL_MOST_ROWS` a
    column, the rows spread evenly over them; never under :data:`HALL_ROWS` (the type's
    largest size), so a short list keeps its size and leaves the rest of the screen empty."""
    rows = max(len(view.rows), 1)
    screens = -(-rows // (HALL_MOST_ROWS * view.columns))
    return max(HALL_ROWS, -(-rows // (screens * view.columns)))


def _screens(view: HallView) -> list[list[list[str]]]:
    """The rows cut into screens of columns, down each column first (as a printed list); a
    list that fits on one screen is spread evenly over its columns."""
    rows = view.rows
    per_column = _column_rows(view)
    if len(rows) <= per_column * view.columns:
        per_column = max(1, -(-len(rows) // view.columns))
    columns = [rows[i : i + per_column] for i in range(0, len(rows), per_column)] or [[]]
    return [columns[i : i + view.columns] for i in range(0, len(columns), view.columns)]


def _hold(view: HallView, screen: list[list[str]]) -> float:
    """Seconds a screen is held: :data:`HALL_HOLD_SECONDS` for a full one, less for a part
    (time to find a name among the rows there), never under a third of it."""
    rows = sum(len(column) for column in screen)
    share = rows / (_column_rows(view) * view.columns)
    return round(HALL_HOLD_SECONDS * max(share, 1 / 3), 1)


def _screen_html(view: HallView, columns: list[list[str]]) -> str:
    head = f'<div class="hall-head {view.css}">{view.head}</div>'
    cols = "".join(
        f'<div class="hall-col">{head}'
        + "".join(f'<div class="hall-row {view.css}">{r}</div>' for r in column)
        + "</div>"
        for column in columns
    )
    return f'<div class="hall-screen" style="--columns: {view.columns}">{cols}</div>'


def _keyframes(name: str, holds: Sequence[float]) -> tuple[str, float]:
    """A CSS animation that holds each screen (``holds``: seconds each), then slides to the
    next (the first again at the end, seamlessly); (its rules, its length in seconds)."""
    total = sum(holds) + len(holds) * HALL_SLIDE_SECONDS
    frames, at = [], 0.0
    for n, hold in enumerate(holds):
        where = f"transform: translateY(calc(-{n} * var(--screen)))"
        frames.append(f"{at / total * 100:.3f}%, {(at + hold) / total * 100:.3f}% {{ {where}; }}")
        at += hold + HALL_SLIDE_SECONDS
    frames.append(f"100% {{ transform: translateY(calc(-{len(holds)} * var(--screen))); }}")
    return f"@keyframes {name} {{ {' '.join(frames)} }}", total


def hall_page(data: SiteData, by_board: bool = False) -> str:
    """For a projector or a TV in the hall: what players look for now, large, in columns
    that fill the width. A list longer than a screen goes by a screen at a time: each held
    (the first too), then slid away by a CSS animation, which runs with JavaScript off too;
    the page then reloads itself once a pass to show what was published since."""
    view = _hall_view(data, by_board)
    screens = _screens(view)
    listed = "".join(_screen_html(view, s) for s in screens)
    file = HALL_BOARDS_FILE if by_board else HALL_FILE
    head = ""
    moving = len(screens) > 1
    copy = ""
    seconds = 60.0
    if moving:
        holds = [_hold(view, screen) for screen in screens]
        name = "hall-screens-" + "-".join(f"{h:g}".replace(".", "_") for h in holds)
        rules, seconds = _keyframes(name, holds)
        head = f"<style>{rules} .hall-roll.moving {{ animation-name: {name}; }}</style>\n"
        copy = f'<div class="hall-list copy" aria-hidden="true">{_screen_html(view, screens[0])}'
        copy += "</div>"
    passes = max(1, -(-60 // round(seconds)))
    refresh = f'<noscript><meta http-equiv="refresh" content="{passes * round(seconds)}">'
    refresh += "</noscript>\n"
    state = _state_html(data, data.round) if data.round else ""
    body = (
        state
        + f'<div class="hall-window" style="--rows: {_column_rows(view)}">'
        + f'<div class="hall-roll{" moving" if moving else ""}" style="--pass: {seconds:g}s">'
        + f'<div class="hall-list">{listed}</div>{copy}</div></div>'
    )
    return shell.page(
        data.title, file, view.heading, body, head=head + refresh, html_class="hall", menu=False
    )
