"""One builder per in-tournament report (AGA interface document, "In-tournament reports").

Each takes a :class:`~addin.core.model.Tournament` and a checked :class:`Query` and
returns a :class:`Report`; the registry (:mod:`addin.reports.kinds`) has already checked
the sort order and that the round is paired. Builders are pure: no file, no sheet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from addin.core.codes import boards
from addin.core.model import ByeKind, Color, PlayerId, Round, Status, Tournament
from addin.core.participants import no_show_text
from addin.core.scoring import Outcome, RoundRecord, initial_score, player_records, wins
from addin.core.tiebreaks import Standing
from addin.reports.common import (
    alpha_key,
    name_of,
    player_numbers,
    rank_label,
    rating_of,
    standings_after,
)
from addin.reports.model import (
    Card,
    CardBox,
    Cell,
    Column,
    Format,
    GameCell,
    Layout,
    Query,
    Report,
    Slip,
    SlipPlayer,
    handicap_text,
    show_score,
)

SORT_LABELS = {
    "alphabetical": "alphabetical",
    "board": "by board",
    "standing": "by standing",
    "rating": "by entry rating",
    "wins": "by number of wins",
    "number": "by player number",
    "change": "by change",
}


def _report(
    t: Tournament,
    q: Query,
    title: str,
    round_label: str,
    columns: Sequence[Column],
    rows: Sequence[Sequence[Cell]],
    *,
    layout: Layout = Layout.TABLE,
    cards: tuple[Card, ...] = (),
    slips: tuple[Slip, ...] = (),
    notes: tuple[str, ...] = (),
) -> Report:
    subtitle = ", ".join(x for x in (round_label, SORT_LABELS.get(q.sort, q.sort)) if x)
    return Report(
        kind=q.kind,
        sort=q.sort,
        title=title,
        subtitle=subtitle,
        tournament=t.settings.name or "Tournament",
        round_label=round_label,
        printed=q.printed,
        columns=tuple(columns),
        rows=tuple(tuple(r) for r in rows),
        layout=layout,
        cards=cards,
        slips=slips,
        notes=notes,
    )


def _round(t: Tournament, number: int) -> Round:
    rnd = t.round(number)
    assert rnd is not None, "the registry checks that the round is paired"
    return rnd


_COLOR = {Color.WHITE: "White", Color.BLACK: "Black"}
_BYE = {ByeKind.FORCED: "Forced bye", ByeKind.VOLUNTARY: "Requested bye"}


# --- i. Registration ----------------------------------------------------------------------


def registration(t: Tournament, q: Query) -> Report:
    """The sign-up sheet players check their data on: AGA #, name, entry rating."""
    columns = (
        Column("aga_id", "AGA #", Format.INT, 7),
        Column("name", "Name", Format.TEXT, 28),
        Column("rank", "Rank", Format.TEXT, 5),
        Column("rating", "Entry rating", Format.RATING, 7),
        Column("chapter", "Chapter", Format.TEXT, 7),
        Column("state", "State", Format.TEXT, 5),
        Column("expires", "Expires", Format.TEXT, 10),
    )
    rows = [
        (
            p.aga_id,
            p.name,
            rank_label(p),
            rating_of(p),
            p.chapter,
            p.state,
            p.membership_expiry.isoformat() if p.membership_expiry else "",
        )
        for p in sorted(t.players.values(), key=lambda p: alpha_key(t, p.aga_id))
    ]
    return _report(t, q, "Registration", "", columns, rows)


# --- ii. Pairing list ---------------------------------------------------------------------


def _unpaired(t: Tournament, rnd: Round) -> list[PlayerId]:
    """Active players with neither a game nor a bye this round (registered late, say)."""
    seen = rnd.paired_players() | {b.player for b in rnd.byes}
    return [pid for pid, p in t.players.items() if p.status is Status.ACTIVE and pid not in seen]


def pairings(t: Tournament, q: Query) -> Report:
    """Board and opponent of every player: alphabetical (one line each) or by board."""
    rnd = _round(t, q.round)
    label = f"Round {q.round}"
    if q.sort == "board":
        return _pairings_by_board(t, q, rnd, label)
    columns = (
        Column("name", "Name", Format.TEXT, 26),
        Column("aga_id", "AGA #", Format.INT, 7),
        Column("board", "Board", Format.INT, 5),
        Column("color", "Colour", Format.TEXT, 6),
        Column("opponent", "Opponent", Format.TEXT, 26),
        Column("opponent_id", "Opp. AGA #", Format.INT, 7),
        Column("opponent_color", "Opp. colour", Format.TEXT, 6),
        Column("handicap", "Handicap", Format.TEXT, 8),
    )
    rows: list[tuple[PlayerId, tuple[Cell, ...]]] = []
    for board, g in boards(rnd):
        for pid in g.players:
            opp = g.opponent_of(pid)
            color = g.color_of(pid)
            rows.append(
                (
                    pid,
                    (
                        name_of(t, pid),
                        pid,
                        board,
                        _COLOR[color],
                        name_of(t, opp),
                        opp,
                        _COLOR[color.other],
                        handicap_text(g.handicap),
                    ),
                )
            )
    for bye in rnd.byes:
        rows.append((bye.player, (name_of(t, bye.player), bye.player, None, "", _BYE[bye.kind])))
    for pid in _unpaired(t, rnd):
        rows.append((pid, (name_of(t, pid), pid, None, "", "Not paired")))
    rows.sort(key=lambda r: alpha_key(t, r[0]))
    width = len(columns)
    return _report(
        t, q, "Pairing list", label, columns, [r + (None,) * (width - len(r)) for _, r in rows]
    )


def _pairings_by_board(t: Tournament, q: Query, rnd: Round, label: str) -> Report:
    columns = (
        Column("board", "Board", Format.INT, 5),
        Column("white", "White", Format.TEXT, 26),
        Column("white_id", "White AGA #", Format.INT, 7),
        Column("white_rank", "W rank", Format.TEXT, 5),
        Column("black", "Black", Format.TEXT, 26),
        Column("black_id", "Black AGA #", Format.INT, 7),
        Column("black_rank", "B rank", Format.TEXT, 5),
        Column("handicap", "Handicap", Format.TEXT, 8),
        Column("komi", "Komi", Format.SCORE, 5),
    )
    rows: list[tuple[Cell, ...]] = []
    for board, g in boards(rnd):
        white, black = t.players.get(g.white), t.players.get(g.black)
        rows.append(
            (
                board,
                name_of(t, g.white),
                g.white,
                rank_label(white),
                name_of(t, g.black),
                g.black,
                rank_label(black),
                handicap_text(g.handicap),
                g.komi,
            )
        )
    byes = sorted(rnd.byes, key=lambda b: alpha_key(t, b.player))
    for bye in byes:
        p = t.players.get(bye.player)
        rows.append(
            ("Bye", name_of(t, bye.player), bye.player, rank_label(p), _BYE[bye.kind]) + (None,) * 4
        )
    return _report(t, q, "Pairing list", label, columns, rows)


# --- iii. Win/loss ------------------------------------------------------------------------


def winloss(t: Tournament, q: Query) -> Report:
    """Each player's result in the round, for players to check before the next round."""
    rnd = _round(t, q.round)
    board_of = {g.players: board for board, g in boards(rnd)}
    records = player_records(t, q.round)
    columns = (
        Column("name", "Name", Format.TEXT, 26),
        Column("aga_id", "AGA #", Format.INT, 7),
        Column("result", "Result", Format.TEXT, 13),
        Column("opponent", "Opponent", Format.TEXT, 26),
        Column("opponent_id", "Opp. AGA #", Format.INT, 7),
        Column("board", "Board", Format.INT, 5),
    )
    rows: list[tuple[Cell, ...]] = []
    for pid in sorted(records, key=lambda p: alpha_key(t, p)):
        rec = records[pid][q.round - 1]
        if rec.outcome is Outcome.ABSENT:
            continue
        if rec.game is None or rec.opponent is None:
            rows.append((name_of(t, pid), pid, rec.outcome.value, "", None, None))
            continue
        board = board_of.get(rec.game.players)
        rows.append(
            (name_of(t, pid), pid, rec.outcome.value, name_of(t, rec.opponent), rec.opponent, board)
        )
    return _report(t, q, "Win/loss", f"Round {q.round}", columns, rows)


# --- iv. Cross table ----------------------------------------------------------------------

_MARK: dict[Outcome, tuple[str, str]] = {
    Outcome.WIN: ("+", "win"),
    Outcome.LOSS: ("-", "loss"),
    Outcome.FORFEIT_WIN: ("+F", "win"),
    Outcome.FORFEIT_LOSS: ("-F", "loss"),
    Outcome.DOUBLE_FORFEIT: ("-F", "loss"),
    Outcome.JIGO: ("=", "draw"),
    Outcome.NO_RESULT: ("~", "draw"),
    Outcome.PENDING: ("?", "pending"),
    Outcome.FORCED_BYE: ("Bye+", "bye"),
    Outcome.VOLUNTARY_BYE: ("Bye", "bye"),
    Outcome.ABSENT: ("--", "absent"),
}

GAME_LEGEND = (
    "35+ beat player 35; 35- lost to 35; = jigo; ~ no result; F by forfeit; ? not played yet; "
    "Bye+ forced bye (1 point); Bye requested bye (0); -- did not play."
)


def game_cell(rec: RoundRecord, numbers: dict[PlayerId, int]) -> GameCell:
    mark, css = _MARK[rec.outcome]
    if rec.opponent is None:
        return GameCell(None, mark, css)
    return GameCell(numbers[rec.opponent], mark, css)


def _apart(t: Tournament) -> tuple[str, ...]:
    """The players who never came, listed apart from the ranked (``participants``)."""
    text = no_show_text(t)
    return (text + ".",) if text else ()


def _tiebreak_columns(names: Sequence[str]) -> list[Column]:
    return [Column(f"tb{i}", name, Format.SCORE, 7) for i, name in enumerate(names, start=1)]


def crosstable(t: Tournament, q: Query) -> Report:
    """Player histories and standings: opponent numbers with results, McMahon score, tiebreaks."""
    lines = standings_after(t, q.round)
    numbers = {s.player: i for i, s in enumerate(lines, start=1)}
    records = player_records(t, q.round)
    criteria = lines[0].criteria if lines else tuple(t.settings.tiebreaks)
    columns = [
        Column("place", "Place", Format.INT, 5),
        Column("number", "No.", Format.INT, 4),
        Column("name", "Name", Format.TEXT, 24),
        Column("rank", "Rank", Format.TEXT, 4),
        *(Column(f"r{n}", f"R{n}", Format.GAME, 5) for n in range(1, q.round + 1)),
        Column("mms", "MMS", Format.SCORE, 5),
        *_tiebreak_columns(criteria),
    ]
    order = lines
    if q.sort == "alphabetical":
        order = sorted(lines, key=lambda s: alpha_key(t, s.player))
    rows = [
        (
            s.place,
            numbers[s.player],
            name_of(t, s.player),
            rank_label(t.players.get(s.player)),
            *(game_cell(rec, numbers) for rec in records[s.player]),
            s.score,
            *s.tiebreaks,
        )
        for s in order
    ]
    notes = (
        GAME_LEGEND,
        "MMS: McMahon score. Tiebreaks in order: " + ", ".join(criteria) + ".",
        *_apart(t),
    )
    return _report(t, q, "Cross table", f"After round {q.round}", columns, rows, notes=notes)


# --- v. Tiebreak list ---------------------------------------------------------------------


def _split_opponents(recs: Sequence[RoundRecord], numbers: dict[PlayerId, int]) -> tuple[str, ...]:
    """(beaten, lost to, other): opponent numbers, F after a forfeit; jigos, byes in other."""
    beat: list[str] = []
    lost: list[str] = []
    other: list[str] = []
    won = (Outcome.WIN, Outcome.FORFEIT_WIN)
    for rec in recs:
        forfeit = "F" if rec.outcome in _FORFEITS else ""
        if rec.outcome in won and rec.opponent is not None:
            beat.append(f"{numbers[rec.opponent]}{forfeit}")
        elif rec.outcome in _LOSSES and rec.opponent is not None:
            lost.append(f"{numbers[rec.opponent]}{forfeit}")
        elif rec.outcome is not Outcome.ABSENT:
            other.append(str(game_cell(rec, numbers)))
    return (" ".join(beat), " ".join(lost), " ".join(other))


_FORFEITS = (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS, Outcome.DOUBLE_FORFEIT)
_LOSSES = (Outcome.LOSS, Outcome.FORFEIT_LOSS, Outcome.DOUBLE_FORFEIT)


def tiebreaks(t: Tournament, q: Query) -> Report:
    """Wins, McMahon score, opponents beaten and lost to, tiebreaks: for manual pairings."""
    lines = standings_after(t, q.round)
    numbers = {s.player: i for i, s in enumerate(lines, start=1)}
    records = player_records(t, q.round)
    raw = wins(t, q.round)
    criteria = lines[0].criteria if lines else tuple(t.settings.tiebreaks)
    columns = [
        Column("number", "No.", Format.INT, 4),
        Column("name", "Name", Format.TEXT, 24),
        Column("rating", "Rating", Format.RATING, 6),
        Column("wins", "Wins", Format.SCORE, 4),
        Column("mms", "MMS", Format.SCORE, 5),
        Column("beat", "Beat", Format.TEXT, 14),
        Column("lost", "Lost to", Format.TEXT, 14),
        Column("other", "Other", Format.TEXT, 8),
        *_tiebreak_columns(criteria),
    ]
    order = list(lines)
    if q.sort == "alphabetical":
        order.sort(key=lambda s: alpha_key(t, s.player))
    elif q.sort == "rating":

        def by_rating(s: Standing) -> tuple[float, tuple[str, str, PlayerId]]:
            rating = rating_of(t.players.get(s.player))
            return (-(rating if rating is not None else -99.0), alpha_key(t, s.player))

        order.sort(key=by_rating)
    elif q.sort == "wins":
        order.sort(key=lambda s: (-raw[s.player], numbers[s.player]))
    rows = [
        (
            numbers[s.player],
            name_of(t, s.player),
            rating_of(t.players.get(s.player)),
            raw[s.player],
            s.score,
            *_split_opponents(records[s.player], numbers),
            *s.tiebreaks,
        )
        for s in order
    ]
    notes = (
        "Wins: raw score (a jigo or no result counts 1/2). Beat and Lost to: player numbers; "
        "F by forfeit. Other: = jigo, ~ no result, ? not played yet, Bye+ forced bye, Bye "
        "requested bye.",
        "MMS: McMahon score. Tiebreaks in order: " + ", ".join(criteria) + ".",
        *_apart(t),
    )
    return _report(t, q, "Tiebreak list", f"After round {q.round}", columns, rows, notes=notes)


# --- vi. Byes and drops -------------------------------------------------------------------


def _rounds_text(rounds: Sequence[int]) -> str:
    return ", ".join(str(r) for r in sorted(set(rounds)))


def byes(t: Tournament, q: Query) -> Report:
    """Byes given (Request or Forced) in rounds 1..N, byes requested for later rounds, drops."""
    found: dict[tuple[PlayerId, str], list[int]] = {}
    reason = {ByeKind.VOLUNTARY: "Request", ByeKind.FORCED: "Forced"}
    for rnd in t.rounds:
        if rnd.number <= q.round:
            for bye in rnd.byes:
                found.setdefault((bye.player, reason[bye.kind]), []).append(rnd.number)
    total = max(t.settings.rounds, q.round)
    records = player_records(t, q.round)
    for pid, p in t.players.items():
        later = [r for r in p.bye_requests if r > q.round]
        if later and p.status is Status.ACTIVE:
            found.setdefault((pid, "Request"), []).extend(later)
        if p.status is Status.DROPPED:
            missed = [r.round for r in records.get(pid, []) if r.outcome is Outcome.ABSENT]
            found[(pid, "Drop")] = missed + list(range(q.round + 1, total + 1))
    order = {"Request": 0, "Forced": 1, "Drop": 2}
    keys = sorted(found, key=lambda k: (alpha_key(t, k[0]), order[k[1]]))
    columns = (
        Column("aga_id", "AGA #", Format.INT, 7),
        Column("name", "Name", Format.TEXT, 28),
        Column("rounds", "Round(s)", Format.TEXT, 10),
        Column("reason", "Reason", Format.TEXT, 8),
    )
    rows = [(pid, name_of(t, pid), _rounds_text(found[(pid, why)]), why) for pid, why in keys]
    label = f"Through round {q.round}" if q.round else "Before round 1"
    notes = (
        "Request: a bye the player asked for. Forced: the bye of an odd field (1 point). "
        "Drop: the player left the tournament; rounds listed are those not played.",
    )
    return _report(t, q, "Byes and drops", label, columns, rows, notes=notes)


# --- vii. Pairing cards -------------------------------------------------------------------


def _box(rec: RoundRecord, numbers: dict[PlayerId, int]) -> CardBox:
    score = "" if rec.outcome is Outcome.PENDING else show_score(rec.score_after)
    if rec.outcome.is_bye:
        return CardBox("Bye", "F" if rec.outcome is Outcome.FORCED_BYE else "R", score)
    if rec.opponent is None:
        return CardBox("--", "", score)
    if rec.handicap > 0:
        sign = "+" if rec.color is Color.BLACK else "-"
        condition = f"{sign}{rec.handicap}"
    else:
        condition = "W" if rec.color is Color.WHITE else "B"
    return CardBox(str(numbers[rec.opponent]), condition, score)


def _box_cells(boxes: Sequence[CardBox]) -> list[str]:
    return [v for b in boxes for v in (b.opponent, b.condition, b.score)]


def cards(t: Tournament, q: Query) -> Report:
    """A card per player: number, name, initial score, rating; three boxes per round."""
    numbers = player_numbers(t, q.round)
    records = player_records(t, q.round)
    total = max(t.settings.rounds, q.round)
    codes = dict(q.codes)
    rnd = t.round(q.round) if q.round else None
    board_of = {p: b for b, g in boards(rnd) for p in g.players} if rnd is not None else {}
    deck: list[Card] = []
    for pid in numbers:
        p = t.players.get(pid)
        rating = rating_of(p)
        boxes = [_box(rec, numbers) for rec in records[pid]]
        if boxes and records[pid][-1].outcome is Outcome.PENDING:
            board = board_of.get(pid)
            if board is not None and board in codes:
                boxes[-1] = replace(boxes[-1], code=codes[board])
        boxes += [CardBox()] * (total - len(boxes))
        deck.append(
            Card(
                number=numbers[pid],
                name=name_of(t, pid),
                aga_id=pid,
                initial=show_score(initial_score(t, pid)),
                rating=f"{rank_label(p)} ({rating:.2f})" if rating is not None else rank_label(p),
                boxes=tuple(boxes),
                note="Dropped" if p is not None and p.status is Status.DROPPED else "",
            )
        )
    if q.sort == "alphabetical":
        deck.sort(key=lambda c: alpha_key(t, c.aga_id))
    columns = [
        Column("number", "No.", Format.INT, 4),
        Column("name", "Name", Format.TEXT, 24),
        Column("aga_id", "AGA #", Format.INT, 7),
        Column("initial", "Initial score", Format.TEXT, 5),
        Column("rating", "Rating", Format.TEXT, 11),
    ]
    for n in range(1, total + 1):
        columns += [
            Column(f"r{n}_opp", f"R{n} opp.", Format.TEXT, 4),
            Column(f"r{n}_hc", f"R{n} h/c", Format.TEXT, 3),
            Column(f"r{n}_mms", f"R{n} MMS", Format.TEXT, 4),
        ]
    rows: list[tuple[Cell, ...]] = [
        (c.number, c.name, c.aga_id, c.initial, c.rating, *_box_cells(c.boxes)) for c in deck
    ]
    label = f"After round {q.round}" if q.round else "Before round 1"
    notes = (
        "Each round: opponent's number (top left); handicap received (+2) or given (-2), or "
        "colour W/B in an even game (top right); McMahon score after the round (bottom). "
        "Bye F forced, R requested; -- did not play.",
    )
    return _report(
        t,
        q,
        "Pairing cards",
        label,
        columns,
        rows,
        layout=Layout.CARDS,
        cards=tuple(deck),
        notes=notes,
    )


# --- Result slips -------------------------------------------------------------------------


def slips(t: Tournament, q: Query) -> Report:
    """One slip per board for players to mark the winner and hand to the TD."""
    rnd = _round(t, q.round)

    def player(pid: PlayerId) -> SlipPlayer:
        return SlipPlayer(name_of(t, pid), pid, rank_label(t.players.get(pid)))

    codes = dict(q.codes)
    deck = tuple(
        Slip(
            q.round,
            board,
            player(g.white),
            player(g.black),
            g.handicap,
            g.komi,
            codes.get(board, ""),
        )
        for board, g in boards(rnd)
    )
    columns = (
        Column("board", "Board", Format.INT, 5),
        Column("white", "White", Format.TEXT, 24),
        Column("white_id", "White AGA #", Format.INT, 7),
        Column("black", "Black", Format.TEXT, 24),
        Column("black_id", "Black AGA #", Format.INT, 7),
        Column("handicap", "Handicap", Format.TEXT, 8),
        Column("komi", "Komi", Format.SCORE, 5),
        Column("winner", "Winner", Format.TEXT, 12),
    )
    rows = [
        (
            s.board,
            s.white.name,
            s.white.aga_id,
            s.black.name,
            s.black.aga_id,
            s.handicap_text,
            s.komi,
            "",
        )
        for s in deck
    ]
    return _report(
        t, q, "Result slips", f"Round {q.round}", columns, rows, layout=Layout.SLIPS, slips=deck
    )
