"""The forms a player reports a result with, and the page the server answers one with.

Progressive enhancement: each form is a plain ``<form method="post" action="report">`` that
works with JavaScript off (the server answers it with a page, :func:`answer_page`); the
site's script only sends it without leaving the page and puts the players' names on the
choices. Two forms:

* on the **Report a result** page, for any board: the board is chosen from a list that names
  both players ("Board 4: White Ann Lee, Black Bo Kim"), so a player sees which colour is
  theirs before choosing it;
* on a player's own page, for their game in play: board and colour are fixed (hidden), and
  the choices are "I won", "Bo Kim won", "Jigo": no colour to get wrong.

The same words everywhere (pairing card, result slip, poster, these pages): a **result
code**, **Report a result**. Standard library only, as the server is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from addin.publish import shell
from addin.publish.board_reports import Board, names_of
from addin.publish.i18n import DEFAULT, translate
from addin.reports.text import esc, name_html

RESULT_CODE = "Result code"
CODE_WHERE = "on your result slip and your pairing card"
SEND = "Send the result"
REPORT_PAGE = "report.html"

OK_STATES = ("kept", "ready", "again")
"""Answers that are good news; ``disagree`` asks for the TD, any refusal is an error."""


def status_class(state: str) -> str:
    """The status line's look: ``ok`` (kept), ``warn`` (kept, but see the TD), ``bad``."""
    if state in OK_STATES:
        return "status ok"
    return "status warn" if state == "disagree" else "status bad"


def status_line(message: str = "", state: str = "") -> str:
    """Where an answer is said: above the form, so it is on the first screen."""
    css = status_class(state) if message else "status"
    data = f' data-state="{esc(state)}"' if state else ""
    return (
        f'<p id="report-status" class="{css}" role="status" tabindex="-1"{data}>'
        f"{esc(message, 600)}</p>"
    )


def _choice(name: str, value: str, label: str, chosen: str) -> str:
    checked = " checked" if value == chosen else ""
    return (
        f'<label class="choice"><input type="radio" name="{name}" value="{value}" required'
        f"{checked}> <span>{label}</span></label>"
    )


def _code_field(typed: str, lang: str = DEFAULT) -> str:
    code, where = RESULT_CODE, CODE_WHERE
    if lang != DEFAULT:
        code, where = esc(translate("form.code", lang)), esc(translate("form.code_where", lang))
    return (
        f'<label for="report-code">{code} <span class="hint">({where})</span>'
        "</label>"
        f'<input id="report-code" name="code" class="field" maxlength="8" required '
        f'autocapitalize="characters" spellcheck="false" autocomplete="off" '
        f'value="{esc(typed, 8)}">'
    )


def report_form(
    number: int, boards: Sequence[Board], chosen: Mapping[str, str] | None = None
) -> str:
    """The form for any board of round ``number``; ``chosen``: what was sent before (an
    answer page gives the form back as the player filled it in, the board's players named
    on the choices, as the script names them once a board is chosen)."""
    chosen = chosen or {}
    board = chosen.get("board", "")
    options = "".join(
        f'<option value="{b.board}"'
        + (" selected" if str(b.board) == board else "")
        + f' data-white="{esc(b.white_name)}" data-black="{esc(b.black_name)}">'
        + esc(f"Board {b.board}: {names_of(b)}")
        + "</option>"
        for b in boards
    )
    side, result = chosen.get("side", ""), chosen.get("result", "")
    named = next((b for b in boards if str(b.board) == board), None)
    who = {"white": named.white_name, "black": named.black_name} if named else {}
    sides = "".join(
        _choice("side", s, esc(f"{s.capitalize()}: {who[s]}" if who else s.capitalize()), side)
        for s in ("white", "black")
    )
    results = "".join(
        _choice("result", value, esc(label), result)
        for value, label in (
            *(
                (s, f"{who[s]} ({s.capitalize()}) won" if who else f"{s.capitalize()} won")
                for s in ("white", "black")
            ),
            ("jigo", "Jigo"),
        )
    )
    return (
        f'<form id="report" class="report" method="post" action="report" autocomplete="off">'
        f'<input type="hidden" name="round" value="{int(number)}">'
        '<label for="report-board">Board</label>'
        f'<select id="report-board" name="board" class="field" required>'
        f'<option value="">Choose your board</option>{options}</select>'
        + _code_field(chosen.get("code", ""))
        + f"<fieldset><legend>Your colour</legend>{sides}</fieldset>"
        f"<fieldset><legend>Result</legend>{results}</fieldset>"
        f'<button type="submit" class="send">{SEND}</button></form>'
    )


def personal_form(number: int, board: int, side: str, opponent: str, lang: str = DEFAULT) -> str:
    """The form on a player's own page: their board and colour fixed, "I won" / "OPPONENT
    won" / "Jigo" to choose; in ``lang`` (the opponent's name as typed)."""
    other = "black" if side == "white" else "white"
    mark = "\ue000"  # where the name goes: the message is escaped, the name is name_html
    won = name_html(opponent).join(
        esc(part) for part in translate("form.won", lang, name=mark).split(mark)
    )
    results = "".join(
        _choice("result", value, label, "")
        for value, label in (
            (side, esc(translate("form.i_won", lang))),
            (other, won),
            ("jigo", esc(translate("form.jigo", lang))),
        )
    )
    return (
        f'<form id="report" class="report" method="post" action="report" autocomplete="off">'
        f'<input type="hidden" name="round" value="{int(number)}">'
        f'<input type="hidden" name="board" value="{int(board)}">'
        f'<input type="hidden" name="side" value="{esc(side)}">'
        + _code_field("", lang)
        + f"<fieldset><legend>{esc(translate('form.result', lang))}</legend>{results}</fieldset>"
        f'<button type="submit" class="send">{esc(translate("form.send", lang))}</button></form>'
    )


def answer_page(
    event: str,
    state: str,
    message: str,
    *,
    form: str = "",
    player: int | None = None,
    lang: str = DEFAULT,
) -> str:
    """The page a report sent without JavaScript is answered with: the answer at the top,
    then the form again as it was sent (when it was refused), or the way on. ``lang``: the
    language of the page it was sent from (its links stay in that language's folder)."""
    links = []
    if player is not None:
        links.append(
            f'<a href="p{int(player)}.html">{esc(translate("answer.your_page", lang))}</a>'
        )
    links += [
        f'<a href="index.html">{esc(translate("menu.pairings", lang))}</a>',
        f'<a href="{REPORT_PAGE}">{esc(translate("answer.another", lang))}</a>',
    ]
    onward = f'<p class="jump">{" &middot; ".join(links)}</p>'
    body = status_line(message, state) + (form if form else onward)
    return shell.page(
        event or "Tournament",
        REPORT_PAGE,
        translate("menu.report", lang),
        body,
        stamped=False,
        lang=lang,
    )
