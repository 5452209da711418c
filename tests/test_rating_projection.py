"""The projected AGA rating: the method's rules, the AGA program's own figures, the command.

The AGA program's figures (BayRate's CSV front end, run by benchmarks/bench_ratings.py on each
event) are kept in tests/data/ratings; the projection must come within 0.01 of each rating and
0.005 of each sigma.
"""

from __future__ import annotations

import csv
import io
import json
import math
import shutil
from datetime import date
from pathlib import Path

import openpyxl
import pytest

from addin.core.model import Game, Result, Rules
from addin.core.rating_projection import (
    _INITIAL_SIGMA,
    _INITIAL_SIGMA_RATINGS,
    SIGMA_GROWTH_PER_DAY,
    Entrant,
    RatedGame,
    Seeding,
    _game_terms,
    _Model,
    handicap_difference,
    initial_sigma,
    prior,
    project,
    rated_game,
    seed_of_rank,
)
from addin.core.ratings import rating_gap
from tests.helpers import DATA, run, set_cell, sheet_rows

KEPT = sorted((DATA / "ratings").glob("*.json"))


def _event(
    path: Path,
) -> tuple[list[Entrant], list[RatedGame], date | None, dict[int, tuple[float, float]]]:
    data = json.loads(path.read_text())
    entrants = [
        Entrant(int(p), s, r, sg, date.fromisoformat(d) if d else None)
        for p, s, r, sg, d in data["entrants"]
    ]
    games = [RatedGame(w, b, h, k, bool(ww)) for w, b, h, k, ww in data["games"]]
    on = date.fromisoformat(data["date"]) if data["date"] else None
    return entrants, games, on, {int(p): (v[0], v[1]) for p, v in data["aga"].items()}


def test_seven_events_are_kept_with_the_aga_programs_figures() -> None:
    assert len(KEPT) >= 7
    assert any(_event(path)[2] for path in KEPT)  # one whose rating dates count


@pytest.mark.parametrize("path", KEPT, ids=[p.stem for p in KEPT])
def test_every_projection_is_within_a_hundredth_of_the_aga_programs_rating(path: Path) -> None:
    entrants, games, on, aga = _event(path)
    ours = project(entrants, games, on)
    assert set(ours) == set(aga)
    for player, (rating, sigma) in aga.items():
        assert abs(ours[player].rating - rating) <= 0.01, player
        assert abs(ours[player].sigma - sigma) <= 0.005, player
        assert not -1.0 < ours[player].rating < 1.0


def test_the_fallback_reaches_the_same_ratings_as_newtons_method() -> None:
    entrants, games, _, _ = _event(DATA / "ratings" / "handicap-komi.json")
    playing = sorted({p for g in games for p in (g.white, g.black)})
    index = {p: i for i, p in enumerate(playing)}
    by_id = {e.player: e for e in entrants}
    priors = [prior(by_id[p], 0, None) for p in playing]
    model = _Model(
        [p.seed - 1 if p.seed > 0 else p.seed + 1 for p in priors],
        [p.sigma for p in priors],
        [_game_terms(g, index) for g in games],
    )
    newton, fallback = model.maximise(), model._coordinate_ascent()
    assert max(abs(a - b) for a, b in zip(newton, fallback, strict=True)) < 1e-8


def test_a_new_members_sigma_follows_the_methods_table_through_the_gap() -> None:
    for closed, sigma in zip(_INITIAL_SIGMA_RATINGS, _INITIAL_SIGMA, strict=True):
        opened = closed + 1 if closed > 0 else closed - 1
        assert initial_sigma(opened) == pytest.approx(sigma, abs=1e-12)
    assert initial_sigma(9.5) == 1.0
    assert initial_sigma(-51.0) == 6.0
    assert 2.7 < initial_sigma(-20.5) < 2.9 and 1.0 < initial_sigma(5.5) < 1.05


def test_a_ratings_sigma_grows_with_the_days_since_it_was_rated() -> None:
    e = Entrant(1, -3.5, -3.2, 0.5, date(2020, 1, 1))
    got = prior(e, 0, date(2021, 1, 1))
    assert got.seed == -3.2 and got.seeding is Seeding.RATED
    assert got.sigma == pytest.approx(math.sqrt(0.25 + (SIGMA_GROWTH_PER_DAY * 366) ** 2))
    assert prior(Entrant(1, -3.5, -3.2, 0.5), 0, date(2021, 1, 1)).sigma == 0.5  # date unknown


def test_a_self_promotion_moves_the_seed_a_third_of_the_way_only_for_a_winner() -> None:
    e = Entrant(1, seed_of_rank(2.0), -1.5, 0.4)  # 1k entered as 2d: 2 stones across the gap
    promoted = prior(e, 1, None)
    assert promoted.seeding is Seeding.PROMOTED
    assert promoted.seed == pytest.approx(-1.5 + 0.024746 + 0.32127 * 2.0)
    assert promoted.sigma == pytest.approx(math.sqrt(0.16 + 0.256 * 2.0**1.9475))
    assert prior(e, 0, None) == prior(Entrant(1, -1.5, -1.5, 0.4), 0, None)  # no win: rating


def test_a_promotion_by_three_stones_or_more_reseeds_and_nobody_demotes() -> None:
    leap = prior(Entrant(1, 2.5, -3.2, 0.4), 1, None)  # 3k entered as 2d: 3.7 stones
    assert (leap.seed, leap.sigma, leap.seeding) == (2.5, initial_sigma(2.5), Seeding.RESEEDED)
    lower = prior(Entrant(1, -5.5, -3.2, 0.4), 1, None)  # entered below the rating
    assert (lower.seed, lower.sigma) == (-3.2, 0.4)


def test_a_player_without_rating_or_sigma_is_new_at_the_rank_entered() -> None:
    for e in (Entrant(1, -12.5), Entrant(1, -12.5, -11.0, None), Entrant(1, -12.5, 0.0, 0.3)):
        assert prior(e, 0, None) == prior(Entrant(1, -12.5, None, None), 0, None)
        assert prior(e, 0, None).sigma == initial_sigma(-12.5)


def test_handicap_and_komi_are_worth_a_rating_difference() -> None:
    assert handicap_difference(0, 7) == pytest.approx(
        (0.580 - 0.0757 * 7, 1.0649 - 0.0021976 * 7 + 0.00014984 * 49)
    )
    assert handicap_difference(1, 0) == handicap_difference(0, 0)
    assert handicap_difference(4, 0) == pytest.approx((4.0, 1.22841))
    assert handicap_difference(4, 5) == pytest.approx((4 - 0.0757 * 5, 1.22841 - 0.0035169 * 5))


def test_forfeits_jigo_no_result_and_games_not_played_are_not_rated() -> None:
    for result in (
        Result.WHITE_WINS_BY_FORFEIT, Result.BLACK_WINS_BY_FORFEIT, Result.DOUBLE_FORFEIT,
        Result.JIGO, Result.NO_RESULT, None,
    ):  # fmt: skip
        assert rated_game(Game(1, 2, 0, 7.5, result), Rules.AGA) is None
    assert rated_game(Game(1, 2, 0, 7.5, Result.BLACK_WINS), Rules.AGA) == RatedGame(
        1, 2, 0, 7, False
    )  # the report's whole-point komi
    assert rated_game(Game(1, 2, 3, 10.5, Result.WHITE_WINS), Rules.AGA) is None  # AGA excludes


def test_a_kyu_who_beats_dans_is_never_rated_inside_the_gap() -> None:
    players = [Entrant(1, -1.5, -1.2, 1.0)] + [Entrant(p, 1.5, 1.3, 0.3) for p in range(2, 8)]
    games = [RatedGame(1, p, 0, 7, True) for p in range(2, 8)]
    got = project(players, games, None)
    assert got[1].rating >= 1.0 and all(not -1 < g.rating < 1 for g in got.values())


# --- the command ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workbook of the real February 2014 Seattle report, with the real TDListA."""
    path = tmp_path_factory.mktemp("ratings") / "report.xlsx"
    assert run("new", path, "--yes").returncode == 0
    assert run(
        "import-tdlista", path, DATA / "ratings" / "tdlista-2014-02.txt", "--yes"
    ).returncode in (0, 3)
    assert run("import-aga-xml", path, DATA / "aga-xml" / "2014-02.xml", "--yes").returncode in (
        0,
        3,
    )
    return path


@pytest.fixture
def book(reported: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(reported, tmp_path / "book.xlsx"))


def _tdlista_row(path: Path, aga_id: int) -> int:
    ws = openpyxl.load_workbook(path, read_only=True)["TDListA"]
    header = [c.value for c in next(ws.iter_rows(max_row=1))]
    column = header.index("AGA #")
    for number, row in enumerate(ws.iter_rows(min_row=2, values_only=True), start=2):
        if row[column] == aga_id:
            return number
    raise AssertionError(aga_id)


def test_the_csv_lists_every_player_with_the_exact_header(book: Path, tmp_path: Path) -> None:
    out = tmp_path / "ratings.csv"
    done = run("ratings", book, "--out", out, "--yes")
    assert done.returncode == 0, done.stderr
    rows = list(csv.reader(io.StringIO(out.read_text())))
    assert rows[0] == ["AGA #", "Name", "Rating", "Sigma", "Projected rating", "Projected sigma"]
    registered = {str(r["AGA #"]) for r in sheet_rows(book, "Players")}
    assert [r[0] for r in rows[1:]] and {r[0] for r in rows[1:]} == registered
    assert len(rows) - 1 == len(registered)
    with_games = [r for r in rows[1:] if r[4]]
    without = [r for r in rows[1:] if not r[4]]
    assert with_games and all(r[5] for r in with_games)
    assert all(not r[5] for r in without)
    for r in with_games:
        assert not -1 < float(r[4]) < 1


@pytest.mark.parametrize(
    ("value", "said"),
    [("about one", "'about one' is not a sigma"), ("#REF!", "is not a sigma"),
     (1e300, "is not above 0"), (0, "is not above 0"), (-0.3, "is not above 0")],
)  # fmt: skip
def test_a_bad_sigma_stops_it_naming_the_cell(
    book: Path, tmp_path: Path, value: object, said: str
) -> None:
    cell = set_cell(book, "TDListA", "Sigma", _tdlista_row(book, 7303), value)
    done = run("ratings", book, "--out", tmp_path / "r.csv", "--yes")
    assert done.returncode != 0
    assert f"TDListA!{cell} (Sigma)" in done.stderr and said in done.stderr
    assert not (tmp_path / "r.csv").exists()


def test_a_bad_rating_stops_it_naming_the_cell(book: Path, tmp_path: Path) -> None:
    cell = set_cell(book, "TDListA", "Rating", _tdlista_row(book, 7303), 1e300)
    done = run("ratings", book, "--out", tmp_path / "r.csv", "--yes")
    assert done.returncode != 0 and f"TDListA!{cell}" in done.stderr


def test_a_missing_sigma_is_seeded_from_the_rank_and_named_in_a_warning(
    book: Path, tmp_path: Path
) -> None:
    wb = openpyxl.load_workbook(book)
    ws = wb["TDListA"]
    column = [c.value for c in ws[1]].index("Sigma") + 1
    target = ws.cell(row=_tdlista_row(book, 7303), column=column)
    target.value = None  # the TD cleared it
    cell = target.coordinate
    wb.save(book)
    done = run("ratings", book, "--out", tmp_path / "r.csv")
    assert done.returncode == 3
    assert f"TDListA!{cell} (Sigma)" in done.stdout + done.stderr
    assert run("ratings", book, "--out", tmp_path / "r.csv", "--yes").returncode == 0


def test_a_player_in_more_games_than_an_event_has_rounds_is_refused() -> None:
    from addin.actions.change import ActionError
    from addin.actions.ratings import rated_games
    from addin.core.model import Player, Round, Settings, Tournament

    players = {p: Player(p, f"P{p}", rank="3k", rating=-3.5) for p in (1, 2)}
    rounds = [Round(n, (Game(1, 2, 0, 7.5, Result.WHITE_WINS),)) for n in range(1, 51)]
    t = Tournament(settings=Settings(), players=players, rounds=rounds)
    with pytest.raises(ActionError, match="player 1 has 50 rated games; an event rates at most"):
        rated_games(t)
    twice = Round(1, (Game(1, 2, 0, 7.5, Result.WHITE_WINS), Game(1, 3, 0, 7.5, None)))
    with pytest.raises(ActionError, match="round 1: player 1 plays two games"):
        rated_games(Tournament(settings=Settings(), players=players, rounds=[twice]))


def _set_setting(path: Path, label: str, value: object) -> None:
    wb = openpyxl.load_workbook(path)
    ws = wb["Tournament"]
    for row in ws.iter_rows():
        if row[0].value == label:
            row[1].value = value
            wb.save(path)
            return
    raise AssertionError(label)


def test_the_standings_show_each_players_projection_marked_unofficial(
    book: Path, tmp_path: Path
) -> None:
    out = tmp_path / "ratings.csv"
    assert run("ratings", book, "--out", out, "--yes").returncode == 0
    projected = {int(r["AGA #"]): r for r in csv.DictReader(io.StringIO(out.read_text()))}
    assert run("standings", book, "--yes").returncode == 0
    rows = {int(r["AGA #"]): r for r in sheet_rows(book, "Standings")}  # type: ignore[arg-type]
    shown = 0
    for pid, row in rows.items():
        want = projected[pid]
        if not want["Projected rating"]:
            assert row["Projected rating (unofficial)"] is None
            continue
        shown += 1
        got = row["Projected rating (unofficial)"]
        assert got == pytest.approx(float(want["Projected rating"]), abs=1e-4)
        assert row["Projected sigma (unofficial)"] == pytest.approx(
            float(want["Projected sigma"]), abs=1e-4
        )
        if want["Rating"]:
            before = float(want["Rating"])
            assert row["AGA rating"] == pytest.approx(before)
            assert row["Change (unofficial)"] == pytest.approx(rating_gap(got, before), abs=1e-4)
    assert shown == len([r for r in projected.values() if r["Projected rating"]]) > 0


def test_the_projected_ratings_setting_turns_the_columns_off(book: Path) -> None:
    _set_setting(book, "Projected ratings", False)
    assert run("standings", book, "--yes").returncode == 0
    header = list(sheet_rows(book, "Standings")[0])
    assert not any("unofficial" in str(h) for h in header) and "AGA rating" not in header


def test_a_bad_tdlista_cell_leaves_the_projection_out_of_the_standings_not_the_standings(
    book: Path,
) -> None:
    cell = set_cell(book, "TDListA", "Sigma", _tdlista_row(book, 7303), 0)
    done = run("standings", book, "--yes")
    assert done.returncode == 0
    assert f"Projected ratings left out of the standings: TDListA!{cell}" in done.stdout
    assert sheet_rows(book, "Standings")


def test_without_out_the_table_is_printed_and_the_workbook_keeps_its_sheets(book: Path) -> None:
    before = sheet_rows(book, "Players")
    done = run("ratings", book, "--yes")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "AGA #,Name,Rating,Sigma,Projected rating,Projected sigma"
    assert "Projected ratings (unofficial)" in lines[-1]
    assert sheet_rows(book, "Players") == before
