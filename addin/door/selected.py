"""Selection first: what a button acts on comes from the rows the TD selected.

The TD selects player rows (Players or Standings sheet), members' rows (TDListA or EGD list
sheet, filtered with Excel's own filter), or board rows (a Round sheet), then clicks. Only a
value nothing in the workbook can give (a result, a new rating) is typed, in one dialog
that proposes the current value. Each function here turns the selection into the
parameter sets the action runs with, one per selected row; the action itself is the
same one the command line runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from addin.core.model import Game, Player, Round, Tournament
from addin.door.dialogs import CannotAsk, Dialogs
from addin.workbook import selected_rows
from addin.workbook.book import Book, read_book
from addin.workbook.gateway import Selection, TableSource

Params = dict[str, object]


class SelectionError(Exception):
    """The selection does not say what the button should act on; the message says how."""


@dataclass(frozen=True)
class Context:
    tables: TableSource
    dialogs: Dialogs
    label: str
    selection: Selection | None
    book: Book


Plan = Callable[[Context], list[Params] | None]
"""The parameter sets to run the action with (one per selected row); None: the TD cancelled."""


# --- reading the selection ----------------------------------------------------------------


def _players_on_rows(ctx: Context) -> list[Player]:
    """The players whose rows are selected on the Players or Standings sheet."""
    sel = ctx.selection
    t = ctx.book.tournament
    if sel is None or not selected_rows.on_player_sheet(sel):
        raise SelectionError(
            f"Select the player rows on the Players sheet, then click {ctx.label} again."
        )
    ids = selected_rows.player_ids(ctx.tables, ctx.book, sel)
    players = list(dict.fromkeys(t.players[i] for i in ids if i in t.players))
    if not players:
        raise SelectionError(
            f"No player is on the selected rows of {sel.sheet}: select the rows of the "
            f"players, then click {ctx.label} again."
        )
    return players


def _boards_on_rows(ctx: Context) -> tuple[Round, list[Game]]:
    """The games whose rows are selected on a Round sheet."""
    sel = ctx.selection
    number = selected_rows.round_of(sel)
    rnd = ctx.book.tournament.round(number) if number else None
    if sel is None or rnd is None:
        raise SelectionError(
            f"Select the board rows on a Round sheet, then click {ctx.label} again."
        )
    boards = selected_rows.boards(ctx.book, rnd.number, sel)
    games = [g for g in rnd.games if g.board is not None and g.board in boards]
    if not games:
        raise SelectionError(
            f"No game is on the selected rows of {sel.sheet}: select the board rows, "
            f"then click {ctx.label} again."
        )
    return rnd, sorted(games, key=lambda g: g.board or 0)


def _members_on_rows(ctx: Context) -> list[int]:
    sel = ctx.selection
    assert sel is not None
    ids = selected_rows.member_ids(ctx.tables, sel)
    return list(dict.fromkeys(ids))


def _next_round(t: Tournament) -> int:
    paired = [r.number for r in t.rounds if r.games or r.byes]
    return min(max(paired, default=0) + 1, t.settings.rounds)


def _ask(ctx: Context, prompt: str, default: object) -> str | None:
    shown = "" if default is None else str(default)
    try:
        return ctx.dialogs.ask_text(prompt, shown, title=ctx.label)
    except CannotAsk as err:
        raise SelectionError(f"{prompt}\n\n(This cannot be asked here.)") from err


# --- the plans ----------------------------------------------------------------------------


def nothing(ctx: Context) -> list[Params]:
    """Pair, update standings, build bands, check: the workbook says everything."""
    return [{}]


def register(ctx: Context) -> list[Params] | None:
    sel = ctx.selection
    if sel is not None and selected_rows.on_member_list(sel):
        ids = _members_on_rows(ctx)
        if not ids:
            raise SelectionError("No member is on the selected rows of the TDListA sheet.")
        return [{"aga": i} for i in ids]
    if sel is not None and selected_rows.on_egd_list(sel):
        pins = list(dict.fromkeys(selected_rows.egd_pins(ctx.tables, sel)))
        if not pins:
            raise SelectionError("No player is on the selected rows of the EGD list sheet.")
        return [{"pin": pin} for pin in pins]
    answer = _ask(
        ctx,
        "Select members' rows in the TDListA sheet (its filter finds them) and click "
        "Register again.\n\nOr type a player who is not in the list:\n"
        "Family, Given, rank (for example: Doe, Jane, 2k)",
        "",
    )
    if answer is None or not answer.strip():
        return None
    parts = [p.strip() for p in answer.split(",")]
    if len(parts) < 3 or not all(parts[:3]):
        raise SelectionError(f"{answer!r}: expected Family, Given, rank (Doe, Jane, 2k)")
    return [{"name": f"{parts[0]}, {parts[1]}", "rank": ", ".join(parts[2:])}]


def each_player(ctx: Context) -> list[Params]:
    return [{"player": p.aga_id} for p in _players_on_rows(ctx)]


def each_player_for_a_round(ctx: Context) -> list[Params] | None:
    players = _players_on_rows(ctx)
    names = players[0].name if len(players) == 1 else f"{len(players)} players"
    answer = _ask(ctx, f"Which round, for {names}?", _next_round(ctx.book.tournament))
    if answer is None:
        return None
    return [{"player": p.aga_id, "round": answer} for p in players]


def _each_player(
    ctx: Context,
    question: Callable[[Player], tuple[str, object]],
    params: Callable[[Player, str], Params],
) -> list[Params] | None:
    """One box per selected player (the question and its proposed answer); None if cancelled."""
    plans: list[Params] = []
    for p in _players_on_rows(ctx):
        answer = _ask(ctx, *question(p))
        if answer is None:
            return None
        plans.append(params(p, answer))
    return plans


def each_player_rating(ctx: Context) -> list[Params] | None:
    return _each_player(
        ctx,
        lambda p: (
            f"New entry rating for {p.name} (a rank such as 3k, or -2.5)",
            p.rank or (f"{p.rating:.2f}" if p.rating is not None else ""),
        ),
        lambda p, answer: {"player": p.aga_id, "rating": answer},
    )


def each_player_band(ctx: Context) -> list[Params] | None:
    return _each_player(
        ctx,
        lambda p: (f"Band for {p.name} (1 is the top band)", p.band_override or p.band),
        lambda p, answer: {"player": p.aga_id, "band": answer},
    )


def each_player_new_number(ctx: Context) -> list[Params] | None:
    return _each_player(
        ctx,
        lambda p: (f"The real AGA number of {p.name} (now {p.aga_id})", ""),
        lambda p, answer: {"old": p.aga_id, "to": answer},
    )


def two_players(ctx: Context) -> list[Params]:
    players = _players_on_rows(ctx)
    if len(players) != 2:
        raise SelectionError(
            f"Select exactly two players' rows (Ctrl+click the second), then click "
            f"{ctx.label} again; {len(players)} selected."
        )
    return [{"first": players[0].aga_id, "second": players[1].aga_id}]


def two_players_colours(ctx: Context) -> list[Params]:
    (pair,) = two_players(ctx)
    return [{"white": pair["first"], "black": pair["second"]}]


def each_board_break(ctx: Context) -> list[Params]:
    rnd, games = _boards_on_rows(ctx)
    return [{"round": rnd.number, "player": g.white} for g in games]


def _who(ctx: Context, g: Game) -> str:
    players = ctx.book.tournament.players
    white, black = (players[i].name if i in players else str(i) for i in (g.white, g.black))
    return f"White {white}, Black {black}"


def _board_answers(
    ctx: Context, question: str, default: Callable[[Game], str]
) -> tuple[Round, list[tuple[Game, str]]] | None:
    """One box per selected board: the round and each board's answer; None on Cancel."""
    rnd, games = _boards_on_rows(ctx)
    answers: list[tuple[Game, str]] = []
    for g in games:
        header = f"Round {rnd.number}, board {g.board}: {_who(ctx, g)}"
        answer = _ask(ctx, f"{header}\n\n{question}", default(g))
        if answer is None:
            return None
        answers.append((g, answer))
    return rnd, answers


def each_board_result(ctx: Context) -> list[Params] | None:
    found = _board_answers(
        ctx,
        "Result: W or B (who won), WF or BF (by forfeit), jigo; blank clears it",
        lambda g: g.result.value if g.result else "",
    )
    if found is None:
        return None
    rnd, answers = found
    return [{"round": rnd.number, "board": g.board, "result": a} for g, a in answers]


def each_board_game(ctx: Context) -> list[Params] | None:
    found = _board_answers(
        ctx,
        "Handicap and komi (for example: 2 0.5); add the word swap to swap colours",
        lambda g: f"{g.handicap} {g.komi:g}",
    )
    if found is None:
        return None
    rnd, answers = found
    plans: list[Params] = []
    for g, answer in answers:
        words = answer.replace(",", " ").split()
        swap = any(w.casefold() == "swap" for w in words)
        numbers = [w for w in words if w.casefold() != "swap"]
        if len(numbers) > 2:
            raise SelectionError(f"{answer!r}: expected a handicap and a komi, such as 2 0.5")
        plan: Params = {"round": rnd.number, "board": g.board, "swap_colours": swap}
        plan.update(zip(("handicap", "komi"), numbers, strict=False))
        plans.append(plan)
    return plans


PLANS: dict[str, Plan] = {
    "register": register,
    "checkin": each_player,
    "drop": each_player,
    "readmit": each_player,
    "bye": each_player_for_a_round,
    "volunteer": each_player_for_a_round,
    "set-rating": each_player_rating,
    "set-band": each_player_band,
    "replace-id": each_player_new_number,
    "force": two_players,
    "prohibit": two_players,
    "make-pair": two_players_colours,
    "break-pair": each_board_break,
    "result": each_board_result,
    "set-game": each_board_game,
    "pair": nothing,
    "take-entries": nothing,
    "unpair": nothing,
    "standings": nothing,
    "bands": nothing,
    "check": nothing,
    "check-aga": nothing,
}
"""Every button that acts on the selection or on nothing; the others ask for files or text."""

ASKS: dict[Plan, str] = {
    register: "the selected TDListA (or EGD list) rows; else one box: a new player's name and rank",
    each_player: "the selected player rows",
    each_player_for_a_round: "the selected player rows; one box: the round (next round proposed)",
    each_player_rating: "the selected player rows; one box each: the rating (current proposed)",
    each_player_band: "the selected player rows; one box each: the band (current proposed)",
    each_player_new_number: "the selected player rows; one box each: the real AGA number",
    two_players: "two selected player rows",
    two_players_colours: "two selected player rows (White first)",
    each_board_break: "the selected board rows of a Round sheet",
    each_board_result: "the selected board rows; one box each: the result",
    each_board_game: "the selected board rows; one box each: handicap and komi, or swap",
    nothing: "nothing",
}
"""What each plan takes, for the buttons table of the install guide."""

TYPED: frozenset[str] = frozenset(
    {"register", "bye", "volunteer", "set-rating", "set-band", "result", "set-game", "replace-id"}
)
"""Buttons that may ask for a typed value (an input box) after reading the selection."""


def plan(
    action: str,
    tables: TableSource,
    selection: Selection | None,
    dialogs: Dialogs,
    label: str,
) -> list[Params] | None:
    """The parameter sets for ``action`` from the TD's selection; None: the TD cancelled."""
    ctx = Context(tables, dialogs, label, selection, read_book(tables))
    return PLANS[action](ctx)


# --- a look-up's matches, selected for Register ---------------------------------------------

MAX_SELECTED_ADDRESS = 255
"""Excel's limit on a range address given as text."""


def rows_address(rows: list[int], last_column: str) -> str:
    """``A5:I7,A9:I9`` for rows 5, 6, 7 and 9: runs of rows merged, cut to Excel's limit."""
    areas: list[str] = []
    start = prev = None
    for r in [*sorted(set(rows)), None]:
        if r is not None and prev is not None and r == prev + 1:
            prev = r
            continue
        if start is not None:
            area = f"A{start}:{last_column}{prev}"
            if len(",".join([*areas, area])) > MAX_SELECTED_ADDRESS:
                break
            areas.append(area)
        start = prev = r
    return ",".join(areas)
