"""The stations' pages: plain HTML forms for a registration or results desk (a tablet or a
laptop, 768 px and up, or a keyboard: type, Enter, next).

Every form that sends is a plain POST that works without JavaScript (a look-up, and a drop's
question, which names the player before anything is sent, are GETs); the page's small
script only refreshes the entries' states in place. A desk is a registration or a results
desk, and its page leads with that desk's forms, under the questions waiting for its answer.
Each form that sends an entry carries a fresh entry id (so a form sent twice is kept once)
and the station's same-origin token.
What the pages show is given to them (``StationScreen``): they read nothing themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from urllib.parse import quote

from addin.reports.text import esc

RESULTS = (
    ("W", "White wins"),
    ("B", "Black wins"),
    ("Jigo", "Jigo"),
    ("WF", "White wins by forfeit"),
    ("BF", "Black wins by forfeit"),
    ("Double forfeit", "Double forfeit"),
)
"""What a results desk enters from a slip: the ``result`` action's own words."""

STATE_WORDS = {
    "waiting": "Kept, waiting to be written",
    "written": "Written",
    "refused": "Not written",
    "asks": "Needs your answer",
    "declined": "Not written (you said no)",
    "answered": "Answered (sent again with your answer)",
}


@dataclass(frozen=True)
class Found:
    """One member or registered player a look-up found."""

    aga_id: int
    name: str
    rating: str
    expiry: str
    place: str
    status: str
    """Blank: not registered; else the Players sheet's Status (Active, Not arrived, Dropped)."""


@dataclass(frozen=True)
class Board:
    board: int
    white: str
    black: str
    result: str


@dataclass(frozen=True)
class Dropping:
    """A drop asked for by AGA #, to confirm with the player's name before it is sent."""

    aga: str
    name: str = ""
    """Blank: no player at this event has that AGA #."""
    status: str = ""


REGISTRATION, RESULTS_DESK = "registration", "results"
ROLES = {REGISTRATION: "Registration desk", RESULTS_DESK: "Results desk"}
"""What a desk does: its page leads with that desk's forms."""


@dataclass(frozen=True)
class Sent:
    """One of this station's entries, as it stands."""

    id: str
    what: str
    state: str
    message: str = ""
    question: str = ""
    time: str = ""


@dataclass
class StationScreen:
    """Everything a station's page shows."""

    event: str
    station: str
    csrf: str
    new_id: Callable[[], str]
    query: str = ""
    found: Sequence[Found] = ()
    more: str = ""
    """How many more the look-up found than it shows ("and 355 more: narrow the search")."""
    searched: bool = False
    round: int | None = None
    boards: Sequence[Board] = ()
    sent: Sequence[Sent] = ()
    shown: Sent | None = None
    """The entry just sent (the banner)."""
    focus: str = "search"
    note: str = ""
    """A line about the workbook itself (not yet readable, held open elsewhere)."""
    problems: list[str] = field(default_factory=list)
    role: str = REGISTRATION
    questions: Sequence[Sent] = ()
    """Every entry of this station waiting for its answer, oldest first (top of the page)."""
    dropping: Dropping | None = None


STYLE = """
*{box-sizing:border-box}
body{font:16px/1.4 system-ui,sans-serif;margin:0;color:#111;background:#f4f5f7}
header{background:#1d3557;color:#fff;padding:.6rem 1rem;display:flex;gap:1rem;
 align-items:center;flex-wrap:wrap}
header h1{font-size:1.15rem;margin:0;flex:1}
header a{color:#fff}
main{max-width:1000px;margin:0 auto;padding:.8rem}
section{background:#fff;border:1px solid #d0d4da;border-radius:6px;padding:.7rem .9rem;
 margin-bottom:.8rem}
h2{font-size:1.05rem;margin:.1rem 0 .6rem}
form.row{display:flex;gap:.5rem;flex-wrap:wrap;align-items:flex-end;margin:0}
label{display:flex;flex-direction:column;font-size:.85rem;color:#333}
input,select,button{font:inherit;padding:.45rem .55rem;border:1px solid #8a94a3;
 border-radius:4px;min-height:2.6rem}
input[type=search],input[type=text]:not([size]){min-width:12rem}
button{background:#1d3557;color:#fff;border-color:#1d3557;cursor:pointer}
button.quiet{background:#fff;color:#1d3557}
button:focus,input:focus,select:focus{outline:3px solid #f4a261;outline-offset:1px}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.35rem .4rem;border-bottom:1px solid #e3e6ea;vertical-align:top}
th{font-size:.8rem;color:#555}
td form{display:flex;gap:.3rem;flex-wrap:nowrap}
input.rank{min-width:0;width:4.6rem}
td.nowrap{white-space:nowrap}
.banner{padding:.7rem .9rem;border-radius:6px;margin-bottom:.8rem;border:2px solid}
.written{border-color:#2a9d8f;background:#e6f5f3}
.waiting{border-color:#e9c46a;background:#fdf6e3}
.refused,.declined{border-color:#c0392b;background:#fdecea}
.asks{border-color:#6a4c93;background:#f1ecf8}
.answered{border-color:#8a94a3;background:#f4f5f7}
.state{font-weight:600}
.small{font-size:.85rem;color:#444}
.note{color:#7a4b00}
section#questions{border:2px solid #6a4c93;background:#f1ecf8}
#questions li{margin-bottom:.6rem}
.confirm{border:2px solid #c0392b}
fieldset.roles{border:1px solid #8a94a3;border-radius:4px;display:flex;gap:1rem;margin:0}
label.role{flex-direction:row;align-items:center;gap:.3rem;font-size:1rem}
pre{white-space:pre-wrap;font:inherit;margin:.3rem 0}
"""

SCRIPT = """
(function(){
  var box=document.getElementById('sent');
  if(!box||!window.fetch)return;
  function waiting(){return document.querySelector('[data-state=waiting]')!==null;}
  function poll(){
    fetch('/station/api/sent'+location.search,{credentials:'same-origin'})
      .then(function(r){return r.ok?r.text():null;})
      .then(function(html){if(html!==null){
        var d=document.createElement('div');d.innerHTML=html;
        ['questions','banner','sent','round'].forEach(function(id){
          var mine=document.getElementById(id),fresh=d.querySelector('#'+id);
          if(mine&&fresh&&mine.contains(document.activeElement)===false)
            mine.replaceWith(fresh);});}
        setTimeout(poll,waiting()?1000:5000);})
      .catch(function(){setTimeout(poll,5000);});
  }
  setTimeout(poll,waiting()?700:5000);
})();
"""


def _page(title: str, body: str, *, refresh: bool = False) -> str:
    meta = '<noscript><meta http-equiv="refresh" content="3"></noscript>' if refresh else ""
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f'<meta name="robots" content="noindex">{meta}<title>{esc(title)}</title>'
        f"<style>{STYLE}</style></head><body>{body}</body></html>"
    )


def login_page(event: str, key: str = "", station: str = "", error: str = "") -> str:
    """The stations' door: the password (from the TD's console or the poster's staff page)
    and the station's name, which the Log will show."""
    problem = f'<p class="banner refused" role="alert">{esc(error)}</p>' if error else ""
    body = (
        f"<header><h1>{esc(event)}: station</h1></header><main>{problem}<section>"
        "<h2>Sign in a station</h2>"
        '<form class="row" method="post" action="/station/login">'
        '<label>Station password<input type="text" name="key" autocomplete="off" '
        f'autocapitalize="characters" required value="{esc(key)}"'
        f"{'' if key else ' autofocus'}></label>"
        '<label>This station\'s name<input type="text" name="station" maxlength="30" '
        f'required placeholder="Desk 1" value="{esc(station)}"{" autofocus" if key else ""}>'
        "</label>"
        '<fieldset class="roles"><legend>This desk</legend>'
        + "".join(
            f'<label class="role"><input type="radio" name="role" value="{r}"'
            f"{' checked' if r == REGISTRATION else ''}> {esc(words)}</label>"
            for r, words in ROLES.items()
        )
        + "</fieldset><button>Sign in</button></form>"
        '<p class="small">The name stands in the Log beside every entry made here.</p>'
        "</section></main>"
    )
    return _page(f"{event}: station", body)


def main_page(s: StationScreen) -> str:
    """A desk's page: the questions waiting for its answer first, then its own forms (a
    registration desk's or a results desk's) with the entry just sent, then the rest."""
    waiting = any(e.state == "waiting" for e in s.sent) or (
        s.shown is not None and s.shown.state == "waiting"
    )
    if s.role == RESULTS_DESK:  # the next slip's form first; the one just sent beneath it
        forms = _result(s) + banner(s) + boards_table(s) + sent_list(s)
    else:
        forms = banner(s) + _confirm_drop(s) + _search(s) + _new_member(s) + _attendance(s)
        forms += sent_list(s)
    body = (
        f"<header><h1>{esc(s.event)}</h1><span>Station <b>{esc(s.station)}</b></span>"
        f"{_round_title(s)}{_role_switch(s)}"
        f'<form method="post" action="/station/logout">{_csrf(s)}'
        '<button class="quiet">Sign out</button></form></header><main>'
        + (f'<p class="note">{esc(s.note)}</p>' if s.note else "")
        + questions(s)
        + forms
        + f"</main><script>{SCRIPT}</script>"
    )
    return _page(f"{s.event}: {s.station}", body, refresh=waiting)


def _role_switch(s: StationScreen) -> str:
    other = RESULTS_DESK if s.role == REGISTRATION else REGISTRATION
    return (
        f"<span><b>{esc(ROLES.get(s.role, s.role))}</b></span>"
        f'<form method="post" action="/station/desk">{_csrf(s)}'
        f'<button class="quiet" name="role" value="{other}">Switch to {esc(ROLES[other])}'
        "</button></form>"
    )


def questions(s: StationScreen) -> str:
    """Every entry of this station waiting for its answer: nothing is written until the
    desk answers, so they stand at the top of the page (updated in place)."""
    if not s.questions:
        return '<div id="questions"></div>'
    items = "".join(
        f'<li><b>{esc(e.what)}</b> <span class="small">({esc(e.time[11:])})</span>'
        f"{_said(e)}{_answer(s, e)}</li>"
        for e in s.questions
    )
    count = len(s.questions)
    title = "1 entry waits" if count == 1 else f"{count} entries wait"
    return (
        f'<section id="questions" role="alert"><h2>{title} for your answer: nothing is '
        f"written until you answer (ask the TD if unsure)</h2><ul>{items}</ul></section>"
    )


def _round_title(s: StationScreen) -> str:
    return f"<span>Round {s.round} in play</span>" if s.round else "<span>No round paired</span>"


def _csrf(s: StationScreen) -> str:
    return f'<input type="hidden" name="csrf" value="{esc(s.csrf)}">'


def _entry(s: StationScreen, action: str, after: str = "") -> str:
    """The hidden fields of a form that sends an entry."""
    back = f'<input type="hidden" name="next" value="{esc(after)}">' if after else ""
    return (
        f'{_csrf(s)}<input type="hidden" name="id" value="{esc(s.new_id())}">'
        f'<input type="hidden" name="action" value="{esc(action)}">{back}'
    )


def _autofocus(s: StationScreen, where: str) -> str:
    return " autofocus" if s.focus == where else ""


def banner(s: StationScreen) -> str:
    """The entry just sent: where it stands (updated in place by the script)."""
    e = s.shown
    if e is None:
        return '<div id="banner"></div>'
    said = " (the question is above)" if e.state == "asks" else _said(e)
    return (
        f'<div id="banner" class="banner {esc(e.state)}" role="status" data-state="'
        f'{esc(e.state)}"><span class="state">{esc(STATE_WORDS.get(e.state, e.state))}'
        f"</span>: {esc(e.what)}{said}</div>"
    )


def _said(e: Sent) -> str:
    text = e.question or e.message
    return f"<pre>{esc(text, 4000)}</pre>" if text else ""


def _answer(s: StationScreen, e: Sent) -> str:
    if e.state != "asks":
        return ""
    fields = (
        f'{_csrf(s)}<input type="hidden" name="entry" value="{esc(e.id)}">'
        f'<input type="hidden" name="id" value="{esc(s.new_id())}">'
    )
    return (
        f'<form class="row" method="post" action="/station/answer">{fields}'
        '<button name="answer" value="yes">Yes, write it</button>'
        '<button class="quiet" name="answer" value="no">No, leave it out</button></form>'
    )


def _search(s: StationScreen) -> str:
    found = ""
    if s.searched:
        rows = "".join(_found_row(s, f) for f in s.found)
        if rows:
            found = (
                "<table><tr><th>Name</th><th>AGA #</th><th>Rating</th><th>Expires</th>"
                f"<th>Chapter, state</th><th>At this event</th></tr>{rows}</table>"
            )
            if s.more:
                found += f'<p class="more">{esc(s.more)}</p>'
        else:
            found = f'<p>No member or player found for "{esc(s.query)}".</p>'
    return (
        '<section id="find"><h2>Find a player</h2>'
        '<form class="row" method="get" action="/station/">'
        '<label>Name ("Family, Given", "Given Family" or the family name\'s beginning) or AGA #'
        f'<input type="search" name="q" value="{esc(s.query)}" autocomplete="off"'
        f"{_autofocus(s, 'search')}></label><button>Find</button></form>{found}</section>"
    )


def _found_row(s: StationScreen, f: Found) -> str:
    if not f.status:
        act = (
            f'<form method="post" action="/station/entry">{_entry(s, "register")}'
            f'<input type="hidden" name="aga" value="{f.aga_id}">'
            f'<input type="hidden" name="q" value="{esc(s.query)}">'
            '<input type="text" class="rank" name="rank" size="5" placeholder="rank" '
            'aria-label="requested rank (blank: the AGA rating)">'
            "<button>Register</button></form>"
        )
    elif f.status == "Not arrived":
        act = (
            f'<form method="post" action="/station/entry">{_entry(s, "checkin")}'
            f'<input type="hidden" name="player" value="{f.aga_id}">'
            f'<input type="hidden" name="q" value="{esc(s.query)}">'
            "<button>Check in</button></form>"
        )
    else:
        act = esc(f.status)
    return (
        f"<tr><td>{esc(f.name)}</td><td>{f.aga_id}</td><td>{esc(f.rating)}</td>"
        f'<td class="nowrap">{esc(f.expiry)}</td><td>{esc(f.place)}</td><td>{act}</td></tr>'
    )


def _new_member(s: StationScreen) -> str:
    return (
        '<section id="new"><h2>Register a new member (not in the list)</h2>'
        f'<form class="row" method="post" action="/station/entry">{_entry(s, "register", "new")}'
        '<label>Name ("Family, Given")<input type="text" name="name" required maxlength="80"'
        f"{_autofocus(s, 'new')}></label>"
        '<label>Rank (3k, 2d)<input type="text" name="rank" required size="6"></label>'
        "<button>Register</button></form>"
        '<p class="small">Gets a temporary number (9xxxx) until the AGA gives one.</p>'
        "</section>"
    )


def _attendance(s: StationScreen) -> str:
    next_round = (s.round or 0) + 1
    return (
        '<section id="attendance"><h2>Bye request or drop</h2>'
        f'<form class="row" method="post" action="/station/entry">{_entry(s, "bye", "bye")}'
        '<label>AGA #<input type="text" inputmode="numeric" name="player" required size="7"'
        f"{_autofocus(s, 'bye')}></label>"
        f'<label>Round<input type="text" inputmode="numeric" name="round" required size="3" '
        f'value="{next_round}"></label><button>Bye request</button></form>'
        '<form class="row" method="get" action="/station/">'
        '<label>AGA #<input type="text" inputmode="numeric" name="drop" required size="7"'
        f"{_autofocus(s, 'drop')}></label><button>Drop from the event…</button></form>"
        '<p class="small">A drop shows the player\'s name and asks first.</p></section>'
    )


def _confirm_drop(s: StationScreen) -> str:
    """A drop by AGA #: the player's name, and the question, before anything is sent."""
    d = s.dropping
    if d is None:
        return ""
    if not d.name:
        return (
            '<section id="drop" class="confirm" role="alert"><h2>Drop from the event</h2>'
            f"<p>No player at this event has AGA # {esc(d.aga)}: nothing was sent.</p>"
            '<p><a href="/station/?next=drop">Back</a></p></section>'
        )
    if d.status == "Dropped":
        return (
            '<section id="drop" class="confirm" role="alert"><h2>Drop from the event</h2>'
            f"<p>{esc(d.name)} (AGA # {esc(d.aga)}) is dropped already: nothing was sent.</p>"
            '<p><a href="/station/?next=drop">Back</a></p></section>'
        )
    return (
        '<section id="drop" class="confirm" role="alert"><h2>Drop from the event?</h2>'
        f"<p><b>{esc(d.name)}</b> (AGA # {esc(d.aga)}, {esc(d.status)}) is not paired in "
        "the rounds to come.</p>"
        f'<form class="row" method="post" action="/station/entry">{_entry(s, "drop", "drop")}'
        f'<input type="hidden" name="player" value="{esc(d.aga)}">'
        f"<button autofocus>Yes, drop {esc(d.name)}</button>"
        '<a href="/station/?next=drop">No, keep them</a></form></section>'
    )


def _result(s: StationScreen) -> str:
    if s.round is None:
        return (
            '<section id="result"><h2>Result from a slip</h2>'
            "<p>No round is paired yet.</p></section>"
        )
    options = "".join(f'<option value="{esc(v)}">{esc(t)}</option>' for v, t in RESULTS)
    return (
        f'<section id="result"><h2>Result from a slip (round {s.round})</h2>'
        f'<form class="row" method="post" action="/station/entry">{_entry(s, "result", "result")}'
        f'<input type="hidden" name="round" value="{s.round}">'
        '<input type="hidden" name="if_blank" value="yes">'
        '<label>Board<input type="text" inputmode="numeric" name="board" required size="4"'
        f"{_autofocus(s, 'result')}></label>"
        '<label>Result (W, B, jigo ...)<input type="text" name="result" required size="10" '
        f'list="results" autocomplete="off"></label><datalist id="results">{options}</datalist>'
        "<button>Enter result</button></form>"
        '<p class="small">W or B: White or Black wins; jigo; WF or BF: a win by forfeit. A '
        "board that has its result keeps it: a correction is the TD's.</p></section>"
    )


def sent_list(s: StationScreen) -> str:
    """This station's latest entries, each with where it stands (updated in place); each
    once: not the one the banner shows, nor one whose answer was sent as a new entry."""
    rows = "".join(
        f'<tr data-state="{esc(e.state)}"><td class="small">{esc(e.time[11:])}</td>'
        f'<td>{esc(e.what)}</td><td class="state">{esc(STATE_WORDS.get(e.state, e.state))}'
        f"</td><td>{'(above)' if e.state == 'asks' else _said(e)}</td></tr>"
        for e in s.sent
        if e.state != "answered"  # its answer, sent as a new entry, stands for it
        and (s.shown is None or e.id != s.shown.id)  # the banner shows it
    )
    table = (
        f"<table><tr><th>Time</th><th>Entry</th><th>State</th><th></th></tr>{rows}</table>"
        if rows
        else "<p>Nothing sent from this station yet.</p>"
        if not s.sent
        else "<p>Nothing else sent from this station.</p>"
    )
    return f'<section id="sent"><h2>Sent from this station</h2>{table}</section>'


def boards_table(s: StationScreen) -> str:
    """The round in play, board by board, with the results in so far (updated in place)."""
    if s.round is None:
        return '<div id="round"></div>'
    rows = "".join(
        f"<tr><td>{b.board}</td><td>{esc(b.white)}</td><td>{esc(b.black)}</td>"
        f"<td>{esc(b.result) or '&ndash;'}</td></tr>"
        for b in s.boards
    )
    played = sum(1 for b in s.boards if b.result)
    return (
        f'<section id="round"><h2>Round {s.round} in play: {played} of {len(s.boards)} '
        "results in</h2><table><tr><th>Board</th><th>White</th><th>Black</th><th>Result</th>"
        f"</tr>{rows}</table></section>"
    )


def page_address(entry_id: str, after: str = "", query: str = "") -> str:
    """Where a station goes after sending an entry: its page, with the entry's banner."""
    address = f"/station/?entry={quote(entry_id)}"
    if after:
        address += f"&next={quote(after)}"
    if query:
        address += f"&q={quote(query)}"
    return address
