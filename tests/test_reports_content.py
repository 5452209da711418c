"""Every report and sort order on the 60-player, 5-round tournament: rows, order, figures.

Expected values are derived here from the model (games, byes, results), by code that does
not share the builders' helpers; only the standing order and the SOS-family values come
from ``addin.core.tiebreaks``, which defines them (SOS is also recomputed by hand for the
players whose SOS involves no bye rule).
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from datetime import date

import pytest

from addin.core.model import ByeKind, Color, Game, PlayerId, Result, Status, Tournament
from addin.core.tiebreaks import standings
from addin.reports import KINDS, ReportError, build_report
from addin.reports.model import Layout, Report
from tests.test_reports_data import DROPPED, sixty

PRINTED = date(2025, 10, 5)


def build(t: Tournament, kind: str, sort: str | None = None, rnd: int | None = None) -> Report:
    return build_report(t, kind, sort, rnd, printed=PRINTED)


def fold(text: str) -> str:
    return "".join(
        c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn"
    ).lower()


def alpha(t: Tournament, pid: PlayerId) -> tuple[str, str, int]:
    p = t.players[pid]
    return (fold(p.family_name), fold(p.given_name), pid)


def points(result: Result | None, color: Color) -> float:
    if result is None or result is Result.DOUBLE_FORFEIT:
        return 0.0
    if result in (Result.JIGO, Result.NO_RESULT):
        return 0.5
    white_won = result in (Result.WHITE_WINS, Result.WHITE_WINS_BY_FORFEIT)
    return 1.0 if white_won == (color is Color.WHITE) else 0.0


def history(t: Tournament, upto: int) -> dict[PlayerId, list[float]]:
    """McMahon score after each round, computed from the games and byes directly."""
    score = {pid: [p.initial_score or 0.0] for pid, p in t.players.items()}
    for number in range(1, upto + 1):
        rnd = t.round(number)
        earned = dict.fromkeys(t.players, 0.0)
        assert rnd is not None
        for g in rnd.games:
            earned[g.white] = points(g.result, Color.WHITE)
            earned[g.black] = points(g.result, Color.BLACK)
        for b in rnd.byes:
            earned[b.player] = 1.0 if b.kind is ByeKind.FORCED else 0.0
        for pid in score:
            score[pid].append(score[pid][-1] + earned[pid])
    return score


def game_of(t: Tournament, number: int, pid: PlayerId) -> Game | None:
    rnd = t.round(number)
    assert rnd is not None
    return next((g for g in rnd.games if pid in g.players), None)


def result_text(g: Game, pid: PlayerId) -> str:
    r = g.result
    if r is None:
        return "Not played yet"
    named = {
        Result.JIGO: "Jigo",
        Result.NO_RESULT: "No result",
        Result.DOUBLE_FORFEIT: "Double forfeit",
    }
    if r in named:
        return named[r]
    forfeit = r in (Result.WHITE_WINS_BY_FORFEIT, Result.BLACK_WINS_BY_FORFEIT)
    won = points(r, Color.WHITE if pid == g.white else Color.BLACK) == 1.0
    return ("Win" if won else "Loss") + (" by forfeit" if forfeit else "")


def stones(n: int) -> str:
    return {0: "Even", 1: "1 stone"}.get(n, f"{n} stones")


@pytest.fixture(scope="module")
def t() -> Tournament:
    return sixty()


def test_every_kind_and_sort_order_of_the_document_is_offered() -> None:
    offered = {k: v.sorts for k, v in KINDS.items()}
    assert offered == {
        "registration": ("alphabetical",),
        "pairings": ("alphabetical", "board"),
        "winloss": ("alphabetical",),
        "crosstable": ("alphabetical", "standing"),
        "tiebreaks": ("alphabetical", "rating", "wins"),
        "byes": ("alphabetical",),
        "cards": ("number", "alphabetical"),
        "slips": ("board",),
        "ratings": ("alphabetical", "change"),  # issue 52: by name and by change
    }


# --- i. Registration ----------------------------------------------------------------------


def test_registration_alphabetical_by_family_name(t: Tournament) -> None:
    rep = build(t, "registration")
    rows = rep.records()
    assert len(rows) == 60
    assert [r["aga_id"] for r in rows] == sorted(t.players, key=lambda p: alpha(t, p))
    for r in rows:
        p = t.players[r["aga_id"]]  # type: ignore[index]
        assert (r["name"], r["rating"], r["chapter"]) == (p.name, p.rating, p.chapter)
    families = [t.players[r["aga_id"]].family_name for r in rows]  # type: ignore[index]
    assert families[:2] == ["Abe", "Abe"]
    assert families.index("Chen") < families.index("de Vries") < families.index("Dubois")
    assert families.index("O'Brien") < families.index("Ōta") < families.index("Park")


# --- ii. Pairing list ---------------------------------------------------------------------


@pytest.mark.parametrize("rnd", [1, 2, 5])
def test_pairing_list_alphabetical(t: Tournament, rnd: int) -> None:
    rep = build(t, "pairings", "alphabetical", rnd)
    rows = rep.records()
    model = t.round(rnd)
    assert model is not None
    boards = {g.board: g for g in model.games}
    expected_ids = {p for g in model.games for p in g.players} | {b.player for b in model.byes}
    assert {r["aga_id"] for r in rows} == expected_ids
    assert [r["aga_id"] for r in rows] == sorted(expected_ids, key=lambda p: alpha(t, p))
    for r in rows:
        pid = r["aga_id"]
        bye = next((b for b in model.byes if b.player == pid), None)
        if bye is not None:
            want = "Forced bye" if bye.kind is ByeKind.FORCED else "Requested bye"
            assert (r["board"], r["opponent"]) == (None, want)
            continue
        g = boards[r["board"]]  # type: ignore[index]
        white = pid == g.white
        opp = g.black if white else g.white
        assert r["color"] == ("White" if white else "Black")
        assert r["opponent_color"] == ("Black" if white else "White")
        assert (r["opponent_id"], r["opponent"]) == (opp, t.players[opp].name)
        assert r["handicap"] == stones(g.handicap)
    dropped = list(t.players)[DROPPED]
    assert (dropped in {r["aga_id"] for r in rows}) == (rnd <= 3)


def test_pairing_list_round_2_shows_both_kinds_of_bye(t: Tournament) -> None:
    rows = build(t, "pairings", "alphabetical", 2).records()
    assert sorted(r["opponent"] for r in rows if r["board"] is None) == [  # type: ignore[type-var]
        "Forced bye",
        "Requested bye",
    ]


@pytest.mark.parametrize("rnd", [1, 4])
def test_pairing_list_by_board(t: Tournament, rnd: int) -> None:
    rep = build(t, "pairings", "board", rnd)
    model = t.round(rnd)
    assert model is not None
    rows = rep.records()
    games = [r for r in rows if r["board"] != "Bye"]
    assert [r["board"] for r in games] == list(range(1, len(model.games) + 1))
    for r in games:
        g = next(g for g in model.games if g.board == r["board"])
        assert (r["white_id"], r["black_id"], r["komi"]) == (g.white, g.black, g.komi)
        assert (r["white"], r["black"]) == (t.players[g.white].name, t.players[g.black].name)
        assert r["handicap"] == stones(g.handicap)
    byes = rows[len(games) :]
    assert [r["white_id"] for r in byes] == [b.player for b in model.byes]
    assert all(r["board"] == "Bye" for r in byes)


# --- iii. Win/loss ------------------------------------------------------------------------


@pytest.mark.parametrize("rnd", [1, 3, 4, 5])
def test_win_loss_alphabetical(t: Tournament, rnd: int) -> None:
    rows = build(t, "winloss", "alphabetical", rnd).records()
    model = t.round(rnd)
    assert model is not None
    playing = {p for g in model.games for p in g.players} | {b.player for b in model.byes}
    assert [r["aga_id"] for r in rows] == sorted(playing, key=lambda p: alpha(t, p))
    for r in rows:
        pid: PlayerId = r["aga_id"]  # type: ignore[assignment]
        g = game_of(t, rnd, pid)
        if g is None:
            bye = next(b for b in model.byes if b.player == pid)
            assert r["result"] == ("Forced bye" if bye.kind is ByeKind.FORCED else "Voluntary bye")
            continue
        assert r["result"] == result_text(g, pid)
        assert r["opponent_id"] == g.opponent_of(pid)
        assert r["opponent"] == t.players[g.opponent_of(pid)].name
        assert r["board"] == g.board
    results = {r["result"] for r in rows}
    if rnd == 5:
        assert "Not played yet" in results
    if rnd == 4:
        assert {"Win by forfeit", "Loss by forfeit", "Double forfeit"} <= results


# --- iv. Cross table ----------------------------------------------------------------------

MARKS = {
    Result.JIGO: ("=", "="),
    Result.NO_RESULT: ("~", "~"),
    Result.DOUBLE_FORFEIT: ("-F", "-F"),
    None: ("?", "?"),
}


def expected_cell(t: Tournament, number: int, pid: PlayerId, numbers: dict[PlayerId, int]) -> str:
    g = game_of(t, number, pid)
    if g is None:
        rnd = t.round(number)
        assert rnd is not None
        bye = next((b for b in rnd.byes if b.player == pid), None)
        if bye is None:
            return "--"
        return "Bye+" if bye.kind is ByeKind.FORCED else "Bye"
    if g.result in MARKS:
        mark = MARKS[g.result][0]
    else:
        won = points(g.result, Color.WHITE if pid == g.white else Color.BLACK) == 1.0
        forfeit = g.result in (Result.WHITE_WINS_BY_FORFEIT, Result.BLACK_WINS_BY_FORFEIT)
        mark = ("+" if won else "-") + ("F" if forfeit else "")
    return f"{numbers[g.opponent_of(pid)]}{mark}"


@pytest.mark.parametrize("sort", ["standing", "alphabetical"])
@pytest.mark.parametrize("rnd", [3, 5])
def test_cross_table(t: Tournament, sort: str, rnd: int) -> None:
    rep = build(t, "crosstable", sort, rnd)
    lines = standings(t, None, rnd)
    numbers = {s.player: i for i, s in enumerate(lines, start=1)}
    by_id = {s.player: s for s in lines}
    mms = history(t, rnd)
    names = {p.name: pid for pid, p in t.players.items()}
    rows = rep.records()
    ids = [names[r["name"]] for r in rows]  # type: ignore[index]
    if sort == "standing":
        assert ids == [s.player for s in lines]
        assert [r["number"] for r in rows] == list(range(1, 61))
    else:
        assert ids == sorted(t.players, key=lambda p: alpha(t, p))
    assert [c.header for c in rep.columns][4 : 4 + rnd + 1] == [
        f"R{n}" for n in range(1, rnd + 1)
    ] + ["MMS"]
    for pid, r in zip(ids, rows, strict=True):
        assert r["number"] == numbers[pid]
        assert r["place"] == by_id[pid].place
        assert r["mms"] == mms[pid][rnd]
        for n in range(1, rnd + 1):
            assert str(r[f"r{n}"]) == expected_cell(t, n, pid, numbers), (pid, n)
        assert [r["tb1"], r["tb2"], r["tb3"], r["tb4"]] == list(by_id[pid].tiebreaks)


def test_cross_table_sos_by_hand_where_no_bye_rule_applies(t: Tournament) -> None:
    """SOS = sum of the opponents' McMahon scores, for players whose rounds were all played
    against opponents who missed nothing (no phantom, no half-point credit)."""
    rows = build(t, "crosstable", "standing").records()
    sos_column = next(c.key for c in build(t, "crosstable").columns if c.header == "SOS")
    final = {pid: h[-1] for pid, h in history(t, 5).items()}
    names = {p.name: pid for pid, p in t.players.items()}
    missed = {
        pid
        for pid in t.players
        for n in range(1, 6)
        if (g := game_of(t, n, pid)) is None or g.result is Result.DOUBLE_FORFEIT
        if not any(b.player == pid and b.kind is ByeKind.FORCED for b in t.rounds[n - 1].byes)
    }
    checked = 0
    for r in rows:
        pid = names[r["name"]]  # type: ignore[index]
        games = [game_of(t, n, pid) for n in range(1, 6)]
        if any(g is None or g.result is None for g in games):
            continue
        opponents = [g.opponent_of(pid) for g in games if g is not None]
        if pid in missed or any(o in missed for o in opponents):
            continue
        assert r[sos_column] == sum(final[o] for o in opponents)
        checked += 1
    assert checked >= 30


# --- v. Tiebreak list ---------------------------------------------------------------------


def raw_wins(t: Tournament, pid: PlayerId, upto: int) -> float:
    total = 0.0
    for n in range(1, upto + 1):
        g = game_of(t, n, pid)
        if g is not None and g.result is not None and g.result is not Result.DOUBLE_FORFEIT:
            total += points(g.result, Color.WHITE if pid == g.white else Color.BLACK)
    return total


@pytest.mark.parametrize("sort", ["alphabetical", "rating", "wins"])
def test_tiebreak_list(t: Tournament, sort: str) -> None:
    rep = build(t, "tiebreaks", sort)
    lines = standings(t)
    numbers = {s.player: i for i, s in enumerate(lines, start=1)}
    by_number = {n: pid for pid, n in numbers.items()}
    rows = rep.records()
    ids = [by_number[r["number"]] for r in rows]  # type: ignore[index]
    assert sorted(ids) == sorted(t.players)
    mms = history(t, 5)
    for pid, r in zip(ids, rows, strict=True):
        assert r["name"] == t.players[pid].name
        assert r["rating"] == t.players[pid].rating
        assert r["wins"] == raw_wins(t, pid, 5)
        assert r["mms"] == mms[pid][5]
        beat, lost, other = [], [], []
        for n in range(1, 6):
            g = game_of(t, n, pid)
            if g is None or g.result in (None, Result.JIGO, Result.NO_RESULT):
                cell = expected_cell(t, n, pid, numbers)
                other += [] if cell == "--" else [cell]
                continue
            score = points(g.result, Color.WHITE if pid == g.white else Color.BLACK)
            forfeit = "F" if g.result.is_forfeit else ""
            (beat if score == 1.0 else lost).append(f"{numbers[g.opponent_of(pid)]}{forfeit}")
        assert (r["beat"], r["lost"], r["other"]) == tuple(map(" ".join, (beat, lost, other)))
    if sort == "alphabetical":
        assert ids == sorted(ids, key=lambda p: alpha(t, p))
    elif sort == "rating":
        ratings = [t.players[p].rating for p in ids]
        assert ratings == sorted(ratings, reverse=True)  # type: ignore[type-var]
    else:
        keys = [(-raw_wins(t, p, 5), numbers[p]) for p in ids]
        assert keys == sorted(keys)
        assert rows[0]["wins"] == max(raw_wins(t, p, 5) for p in t.players)


# --- vi. Byes and drops -------------------------------------------------------------------


def test_bye_report_after_the_last_round(t: Tournament) -> None:
    rows = [(r["aga_id"], r["rounds"], r["reason"]) for r in build(t, "byes").records()]
    expected = set()
    for reason, kind in (("Request", ByeKind.VOLUNTARY), ("Forced", ByeKind.FORCED)):
        rounds: dict[PlayerId, list[int]] = {}
        for rnd in t.rounds:
            for b in rnd.byes:
                if b.kind is kind:
                    rounds.setdefault(b.player, []).append(rnd.number)
        expected |= {(p, ", ".join(map(str, rs)), reason) for p, rs in rounds.items()}
    dropped = [p for p in t.players.values() if p.status is Status.DROPPED]
    expected |= {(p.aga_id, "4, 5", "Drop") for p in dropped}
    assert set(rows) == expected
    assert [r[0] for r in rows] == sorted((r[0] for r in rows), key=lambda p: alpha(t, p))


def test_bye_report_through_round_3_lists_later_requests_and_the_drop(t: Tournament) -> None:
    rows = {(r["name"], r["rounds"], r["reason"]) for r in build(t, "byes", None, 3).records()}
    assert ("Zhang, Lena", "5", "Request") in rows  # asked for round 5, not paired yet
    assert ("Quinn, Eli", "4, 5", "Drop") in rows
    assert ("Jensen, José", "4", "Forced") not in rows  # round 4 is after the report


# --- vii. Pairing cards -------------------------------------------------------------------


def expected_condition(g: Game, pid: PlayerId) -> str:
    if g.handicap:
        return f"+{g.handicap}" if pid == g.black else f"-{g.handicap}"
    return "W" if pid == g.white else "B"


@pytest.mark.parametrize("sort", ["number", "alphabetical"])
def test_pairing_cards(t: Tournament, sort: str) -> None:
    rep = build(t, "cards", sort)
    assert rep.layout is Layout.CARDS and len(rep.cards) == 60
    numbers = {s.player: i for i, s in enumerate(standings(t), start=1)}
    mms = history(t, 5)
    if sort == "number":
        assert [c.number for c in rep.cards] == list(range(1, 61))
    else:
        assert [c.aga_id for c in rep.cards] == sorted(t.players, key=lambda p: alpha(t, p))
    for card in rep.cards:
        pid = card.aga_id
        assert card.number == numbers[pid]
        assert card.name == t.players[pid].name
        assert float(card.initial) == t.players[pid].initial_score
        assert f"{t.players[pid].rating:.2f}" in card.rating
        assert len(card.boxes) == 5
        for n, box in enumerate(card.boxes, start=1):
            g = game_of(t, n, pid)
            if g is None:
                assert box.opponent in ("Bye", "--")
            else:
                assert box.opponent == str(numbers[g.opponent_of(pid)])
                assert box.condition == expected_condition(g, pid)
            if g is not None and g.result is None:
                assert box.score == ""
            else:
                assert float(box.score) == mms[pid][n]
    assert rep.rows[0][:3] == (rep.cards[0].number, rep.cards[0].name, rep.cards[0].aga_id)


def test_pairing_cards_before_round_1_have_empty_boxes() -> None:
    t = sixty(0)
    rep = build(t, "cards")
    dropped = [p for p in t.players.values() if p.status is Status.DROPPED]
    assert len(dropped) == 1, "dropped before round 1: never came, so no card (issue 50)"
    assert len(rep.cards) == 60 - 1 and rep.subtitle.startswith("Before round 1")
    assert dropped[0].aga_id not in {c.aga_id for c in rep.cards}
    assert all(box.opponent == box.score == "" for c in rep.cards for box in c.boxes)
    scores = [float(c.initial) for c in rep.cards]
    assert scores == sorted(scores, reverse=True)


def test_pairing_cards_after_round_2_leave_later_rounds_blank(t: Tournament) -> None:
    rep = build(t, "cards", "number", 2)
    assert all(b.opponent for c in rep.cards for b in c.boxes[:2])
    assert all(b == type(b)() for c in rep.cards for b in c.boxes[2:])


# --- Result slips -------------------------------------------------------------------------


@pytest.mark.parametrize("rnd", [1, 5])
def test_result_slips_one_per_board(t: Tournament, rnd: int) -> None:
    rep = build(t, "slips", None, rnd)
    model = t.round(rnd)
    assert model is not None and rep.layout is Layout.SLIPS
    assert [s.board for s in rep.slips] == sorted(g.board for g in model.games)  # type: ignore[type-var]
    for slip in rep.slips:
        g = next(g for g in model.games if g.board == slip.board)
        assert (slip.white.aga_id, slip.black.aga_id) == (g.white, g.black)
        assert slip.white.name == t.players[g.white].name
        assert (slip.handicap, slip.komi, slip.round) == (g.handicap, g.komi, rnd)
    assert all(r[-1] == "" for r in rep.rows)  # the Winner column is left to fill


# --- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "sort", "rnd", "message"),
    [
        ("standings", None, None, "unknown report 'standings'; the reports are: registration"),
        ("pairings", "wins", None, "cannot be sorted 'wins'; choose name or board"),
        ("crosstable", "rating", None, "choose name or standing"),
        ("pairings", None, 4, "round 4 has not been paired yet (rounds paired so far: 1-3)"),
        ("crosstable", None, 4, "round 4 has not been paired yet"),
        ("slips", None, 0, "round 0 does not exist"),
        ("winloss", None, 9, "round 9 does not exist: the tournament has 5 rounds"),
    ],
)
def test_bad_requests_say_what_is_wrong(
    kind: str, sort: str | None, rnd: int | None, message: str
) -> None:
    with pytest.raises(ReportError) as err:
        build(sixty(3), kind, sort, rnd)
    assert message in str(err.value)


def test_sorting_by_name_is_the_alphabetical_order_the_menu_calls_by_name(t: Tournament) -> None:
    """The Reports menu says "by name"; the command line takes the same word."""
    by_name = build(t, "pairings", "name", 3)
    assert by_name.rows == build(t, "pairings", "alphabetical", 3).rows
    assert by_name.rows != build(t, "pairings", "board", 3).rows


def test_a_report_of_a_round_needs_a_paired_round() -> None:
    with pytest.raises(ReportError, match="none is paired yet"):
        build(sixty(0), "pairings")
    assert build(sixty(0), "registration").rows  # needs no round


def test_a_bad_tiebreak_order_is_a_report_error() -> None:
    t = sixty()
    t.settings = replace(t.settings, tiebreaks=("SOS", "Bogus"))
    with pytest.raises(ReportError, match=r"tiebreak order.*Bogus"):
        build(t, "crosstable")


def test_sort_and_kind_are_read_leniently(t: Tournament) -> None:
    assert build(t, " Pairings ", "BOARD", 1).sort == "board"


def test_builders_are_pure() -> None:
    """Report building imports no spreadsheet, PDF or workbook code: only renderers do."""
    import ast
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "addin" / "reports"
    forbidden = ("openpyxl", "xlwings", "reportlab", "addin.workbook", "addin.actions")
    for name in ("__init__", "model", "common", "builders", "kinds"):
        tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
        modules = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        modules |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not {m for m in modules if m.startswith(forbidden)}, name
