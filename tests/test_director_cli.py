"""The TD's manual operations through the command line on real workbooks.

One test per operation of the interface document's "Manual pairings" section and per active
warning it lists: each shows the sheet before and after and the line the Log gained. Bad
input is refused with a clear message and leaves the file byte for byte as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import openpyxl
import pytest
from openpyxl.worksheet.worksheet import Worksheet

from addin.core import consistency
from addin.core.model import Band, Bye, ByeKind, Game, Player, Result, Round, Settings, Tournament
from tests.helpers import digest, log_messages, run, sheet_rows
from tests.workbook_fixtures import write_workbook

JIGO, W, B = "Jigo", "White wins", "Black wins"
PLAYERS = range(101, 109)
"""Eight 3-dan players: every game is even, so colours count."""


def game(board: int, white: int, black: int, result: str | None = None) -> Game:
    return Game(white, black, 0, 7.5, Result(result) if result else None, board)


def workbook(tmp_path: Path, *rounds: Round, banded: bool = True) -> Path:
    """Every player a 3-dan: one McMahon band, everyone starting at 0 (``banded``)."""
    bands = [Band(1, "3d", 3.0, initial_score=0.0)] if banded else []
    t = Tournament(rounds=list(rounds), bands=bands)
    band, score = (1, 0.0) if banded else (None, None)
    for pid in PLAYERS:
        rating = 3.9 - (pid - 101) / 10
        t.players[pid] = Player(
            pid, f"Family{pid}", "Pat", rating=rating, band=band, initial_score=score
        )
    return write_workbook(tmp_path / "t.xlsx", t, rounds=4)


def all_jigo(tmp_path: Path) -> Path:
    """Two rounds of jigos (everyone on the same score), round 3 paired with one game so far.

    Colours: 101 White twice, 103 White then Black, 104 Black twice.
    """
    return workbook(
        tmp_path,
        Round(1, (game(1, 101, 102, JIGO), game(2, 103, 104, JIGO), game(3, 105, 106, JIGO),
                  game(4, 107, 108, JIGO))),
        Round(2, (game(1, 101, 104, JIGO), game(2, 102, 103, JIGO), game(3, 105, 108, JIGO),
                  game(4, 106, 107, JIGO))),
        Round(3, (game(1, 107, 102),)),
    )  # fmt: skip


def games(path: Path, number: int) -> list[dict[str, object]]:
    return [r for r in sheet_rows(path, f"Round {number}") if r.get("White AGA #")]


def byes(path: Path, number: int) -> list[tuple[object, object]]:
    rows = sheet_rows(path, f"Round {number}")
    return [(r["Bye AGA #"], r["Bye type"]) for r in rows if r.get("Bye AGA #")]


def pairs(path: Path, number: int) -> list[tuple[object, object, object]]:
    """(board, White AGA #, Black AGA #) of each game."""
    return [(g["Board"], g["White AGA #"], g["Black AGA #"]) for g in games(path, number)]


def player_row(path: Path, pid: int) -> dict[str, object]:
    return next(r for r in sheet_rows(path, "Players") if r["AGA #"] == pid)


def last_log(path: Path) -> tuple[str, str, str]:
    return log_messages(path)[-1]


def warned(path: Path) -> list[str]:
    return [m for level, _, m in log_messages(path) if level == "Warning"]


def edit_sheet(path: Path, sheet: str, change: Callable[[Worksheet, list[object]], None]) -> None:
    """Change cells by hand, as the TD does in Excel."""
    wb = openpyxl.load_workbook(path)
    ws = wb[sheet]
    change(ws, [c.value for c in ws[1]])
    wb.save(path)


def confirm(path: Path, *args: object) -> str:
    """Run an operation that must ask first: refused without --yes (file untouched), then done.

    Returns what the refusal printed, the warnings.
    """
    before = digest(path)
    refused = run(*args)
    assert refused.returncode == 3, refused.stderr
    assert digest(path) == before
    done = run(*args, "--yes")
    assert done.returncode == 0, done.stderr
    return refused.stderr


# --- after a round is paired ---------------------------------------------------------------


def test_undoing_a_round_with_results_is_an_active_warning_and_is_logged(tmp_path: Path) -> None:
    book = all_jigo(tmp_path)
    assert "round 3 is paired after round 2" in run("unpair", book, "--round", 2).stderr
    assert run("result", book, "--round", 3, "--board", 1, "--result", "W").returncode == 0
    stderr = confirm(book, "unpair", book, "--round", 3)
    assert "round 3 already has 1 result(s); they will be lost" in stderr
    assert "Round 3" not in openpyxl.load_workbook(book).sheetnames
    assert last_log(book) == ("Action", "unpair", "Removed the pairing of round 3 (1 games)")


def test_breaking_a_pair_unpairs_both_players_and_keeps_the_other_boards(tmp_path: Path) -> None:
    book = all_jigo(tmp_path)
    assert run("make-pair", book, "--white", 105, "--black", 106, "--yes").returncode == 0
    assert pairs(book, 3) == [(1, 107, 102), (2, 105, 106)]
    result = run("break-pair", book, "--round", 3, "--board", 1)
    assert result.returncode == 0, result.stderr
    assert pairs(book, 3) == [(2, 105, 106)]
    assert last_log(book) == (
        "Action",
        "break-pair",
        "Broke the pair on board 1 of round 3: Family107, Pat (107) (White) - "
        "Family102, Pat (102) (Black); both are unpaired",
    )


def test_a_pair_can_be_named_by_either_player(tmp_path: Path) -> None:
    book = all_jigo(tmp_path)
    assert run("break-pair", book, "--player", 102).returncode == 0
    assert pairs(book, 3) == []
    assert "board 1 of round 3" in last_log(book)[2]


def test_breaking_a_pair_with_a_result_is_an_active_warning(tmp_path: Path) -> None:
    book = all_jigo(tmp_path)
    stderr = confirm(book, "break-pair", book, "--round", 2, "--board", 3)
    assert "already have a result (Jigo); breaking the pair deletes it" in stderr
    assert pairs(book, 2) == [(1, 101, 104), (2, 102, 103), (4, 106, 107)]
    levels = [level for level, _, _ in log_messages(book)]
    assert levels[-4:] == ["Warning", "Confirmed", "Action", "Action"]
    assert last_log(book)[2].startswith("Broke the pair on board 3 of round 2")


def test_making_a_pair_gives_the_next_board_with_handicap_and_komi_from_the_ratings(
    tmp_path: Path,
) -> None:
    book = all_jigo(tmp_path)
    result = run("make-pair", book, "--round", 3, "--white", 108, "--black", 106)
    assert result.returncode == 0, result.stderr
    new = games(book, 3)[-1]
    assert (new["Board"], new["White AGA #"], new["Black AGA #"]) == (2, 108, 106)
    assert (new["Handicap"], new["Komi"], new["Result"]) == (0, 7.5, None)
    assert last_log(book)[2] == (
        "Paired Family108, Pat (108) (White) - Family106, Pat (106) (Black) on board 2 of "
        "round 3: handicap 0, komi 7.5"
    )


def test_the_td_may_set_handicap_and_komi_of_a_pair_made_by_hand(tmp_path: Path) -> None:
    book = all_jigo(tmp_path)
    args = ("--white", 108, "--black", 106, "--handicap", 2, "--komi", "0.5")
    assert run("make-pair", book, *args).returncode == 0
    assert (games(book, 3)[-1]["Handicap"], games(book, 3)[-1]["Komi"]) == (2, 0.5)


def test_pairing_a_player_who_has_a_bye_in_the_round_is_an_active_warning(
    tmp_path: Path,
) -> None:
    book = workbook(
        tmp_path,
        Round(
            1,
            (game(1, 101, 102), game(2, 103, 104), game(3, 105, 106)),
            (Bye(107, ByeKind.FORCED), Bye(108, ByeKind.VOLUNTARY)),
        ),
    )
    stderr = confirm(book, "make-pair", book, "--white", 107, "--black", 108)
    assert "Family107, Pat (107) has a forced bye recorded for the round" in stderr
    assert "Family108, Pat (108) has a voluntary bye recorded" in stderr
    assert byes(book, 1) == []
    assert pairs(book, 1)[-1] == (4, 107, 108)


def test_a_voluntary_bye_for_an_unpaired_player_of_a_paired_round(tmp_path: Path) -> None:
    book = all_jigo(tmp_path)
    assert byes(book, 3) == [] and player_row(book, 108)["R3"] is None
    result = run("bye", book, "--player", 108, "--round", 3)
    assert result.returncode == 0, result.stderr
    assert byes(book, 3) == [(108, "Voluntary")]
    assert player_row(book, 108)["R3"] == "Bye"
    assert last_log(book) == ("Action", "bye", "Voluntary bye for Family108, Pat (108) in round 3")


def test_dropping_an_unpaired_player(tmp_path: Path) -> None:
    book = all_jigo(tmp_path)
    assert player_row(book, 106)["Status"] == "Active"
    assert run("drop", book, "--player", 106).returncode == 0
    assert player_row(book, 106)["Status"] == "Dropped"
    assert last_log(book)[2] == (
        "Dropped Family106, Pat (106) after round 3: not paired from round 4 on"
    )
    refused = run("drop", book, "--player", 107)
    assert refused.returncode == 1
    assert "plays on board 1 of round 3, not played yet: break the pair first" in refused.stderr


def test_adjusting_a_games_handicap_and_komi(tmp_path: Path) -> None:
    book = all_jigo(tmp_path)
    assert (games(book, 3)[0]["Handicap"], games(book, 3)[0]["Komi"]) == (0, 7.5)
    assert run("set-game", book, "--board", 1, "--handicap", 2).returncode == 0
    assert (games(book, 3)[0]["Handicap"], games(book, 3)[0]["Komi"]) == (2, 0.5)
    assert last_log(book)[2] == "round 3, board 1: handicap 0 -> 2; komi 7.5 -> 0.5"
    assert run("set-game", book, "--board", 1, "--komi", "5.5").returncode == 0
    assert games(book, 3)[0]["Komi"] == 5.5
    assert last_log(book)[2] == "round 3, board 1: komi 0.5 -> 5.5"


def test_swapping_colours_of_a_played_game_keeps_the_winner_and_is_warned(
    tmp_path: Path,
) -> None:
    book = workbook(tmp_path, Round(1, (game(1, 101, 102, B), game(2, 103, 104, W))))
    stderr = confirm(book, "set-game", book, "--round", 1, "--board", 1, "--swap-colours")
    assert "already have a result (Black wins)" in stderr
    swapped = games(book, 1)[0]
    assert (swapped["White AGA #"], swapped["Black AGA #"], swapped["Result"]) == (102, 101, W)
    assert "result Black wins -> White wins (same winner)" in last_log(book)[2]


# --- before a round is paired --------------------------------------------------------------


def test_a_forced_pair_is_a_request_the_next_pairing_follows(tmp_path: Path) -> None:
    book = workbook(tmp_path, Round(1, tuple(game(i, 100 + 2 * i - 1, 100 + 2 * i, W)
                                             for i in range(1, 5))))  # fmt: skip
    assert sheet_rows(book, "Requests") == []
    assert run("force", book, "--first", 101, "--second", 108).returncode == 0
    (request,) = sheet_rows(book, "Requests")
    assert (request["Round"], request["Request"]) == (2, "Force")
    assert (request["Player 1 AGA #"], request["Player 2 AGA #"]) == (101, 108)
    assert last_log(book)[2] == (
        "Forced the pair Family101, Pat (101) - Family108, Pat (108) for round 2 (Requests)"
    )
    assert run("pair", book).returncode == 0
    assert {(w, b) for _, w, b in pairs(book, 2)} & {(101, 108), (108, 101)}


def test_a_prohibited_pair_applies_to_every_round_unless_a_round_is_given(
    tmp_path: Path,
) -> None:
    book = workbook(tmp_path)
    assert run("prohibit", book, "--first", 101, "--second", 102).returncode == 0
    assert run("prohibit", book, "--first", 103, "--second", 104, "--round", 2).returncode == 0
    rows = sheet_rows(book, "Requests")
    assert [(r["Round"], r["Request"], r["Player 1 AGA #"]) for r in rows] == [
        (None, "Prohibit", 101),
        (2, "Prohibit", 103),
    ]
    assert last_log(book)[2].endswith("for round 2 (Requests)")
    assert run("pair", book).returncode == 0
    assert not {(w, b) for _, w, b in pairs(book, 1)} & {(101, 102), (102, 101)}


def test_a_voluntary_bye_for_a_future_round_is_honoured_by_the_pairing(tmp_path: Path) -> None:
    book = workbook(tmp_path)
    assert run("bye", book, "--player", 103, "--round", 1).returncode == 0
    assert run("bye", book, "--player", 104, "--round", 1).returncode == 0
    assert player_row(book, 103)["R1"] == "Bye"
    assert last_log(book)[2] == (
        "Family104, Pat (104) is a voluntary bye for round 1: Players R1 = Bye"
    )
    assert run("pair", book).returncode == 0
    assert sorted(byes(book, 1)) == [(103, "Voluntary"), (104, "Voluntary")]


def test_a_bye_volunteer_for_a_future_round_takes_the_odd_fields_bye(tmp_path: Path) -> None:
    book = workbook(tmp_path)
    assert run("drop", book, "--player", 108).returncode == 0
    assert run("volunteer", book, "--player", 102, "--round", 1).returncode == 0
    assert player_row(book, 102)["R1"] == "Volunteer"
    assert last_log(book)[2] == (
        "Family102, Pat (102) is the bye volunteer for round 1: Players R1 = Volunteer"
    )
    assert run("pair", book).returncode == 0
    assert byes(book, 1) == [(102, "Forced")]


def test_a_dropped_player_can_be_readmitted(tmp_path: Path) -> None:
    book = workbook(tmp_path, Round(1, tuple(game(i, 100 + 2 * i - 1, 100 + 2 * i, W)
                                             for i in range(1, 5))))  # fmt: skip
    assert run("drop", book, "--player", 105).returncode == 0
    assert last_log(book)[2].startswith("Dropped Family105, Pat (105) after round 1")
    assert run("pair", book).returncode == 0
    assert 105 not in {p for _, w, b in pairs(book, 2) for p in (w, b)}
    assert run("readmit", book, "--player", 105).returncode == 0
    assert player_row(book, 105)["Status"] == "Active"
    assert last_log(book)[2] == (
        "Readmitted Family105, Pat (105): paired again from round 3; absent from round(s) 2 "
        "(0 points)"
    )


# --- entry rating and band ------------------------------------------------------------------


@pytest.fixture
def banded(tmp_path: Path) -> Path:
    """Four 5-dan, four 2-dan and eleven 3-kyu players, banded: bands of 4, 4 and 11."""
    t = Tournament(settings=Settings(bar=5.0))  # the 5-dan alone above the bar
    ratings = [5.5, 5.4, 5.3, 5.2, 2.5, 2.4, 2.3, 2.2] + [-3.1 - i / 20 for i in range(11)]
    for pid, rating in enumerate(ratings, start=201):
        t.players[pid] = Player(pid, f"Family{pid}", "Pat", rating=round(rating, 2))
    path = write_workbook(tmp_path / "banded.xlsx", t, rounds=4)
    assert run("bands", path).returncode == 0
    return path


def band_scores(path: Path) -> dict[object, object]:
    return {r["Band"]: r["Initial score"] for r in sheet_rows(path, "Bands")}


def test_revising_an_entry_rating_moves_band_and_initial_score(banded: Path) -> None:
    scores = band_scores(banded)
    before = player_row(banded, 201)
    assert (before["Entry rating"], before["Band"], before["Initial score"]) == (5.5, 1, 0)
    result = run("set-rating", banded, "--player", 201, "--rating", "2.6")
    assert result.returncode == 0, result.stderr
    after = player_row(banded, 201)
    assert (after["Entry rating"], after["Band"]) == (2.6, 2)
    assert after["Initial score"] == scores[2] == band_scores(banded)[2]
    assert last_log(banded)[2] == (
        f"Family201, Pat (201): entry rating 5.5 -> 2.6; band 1 -> 2, initial score 0 -> "
        f"{scores[2]:g}, McMahon score 0 -> {scores[2]:g}"
    )


def test_a_rating_that_changes_the_band_sizes_warns_about_the_scores_it_moves(
    banded: Path,
) -> None:
    old = band_scores(banded)
    stderr = confirm(banded, "set-rating", banded, "--player", 209, "--rating", "2d")
    assert "the initial McMahon score of 10 other player(s) changes" in stderr
    new = band_scores(banded)
    assert new[3] != old[3]
    assert {r["Initial score"] for r in sheet_rows(banded, "Players") if r["Band"] == 3} == {new[3]}


def test_placing_a_player_in_another_band_is_a_band_override(banded: Path) -> None:
    scores = band_scores(banded)
    assert run("set-band", banded, "--player", 205, "--band", 1).returncode == 0
    row = player_row(banded, 205)
    assert (row["Band"], row["Band override"], row["Initial score"]) == (2, 1, scores[1])
    assert last_log(banded)[2] == (
        f"Family205, Pat (205): band override blank -> 1; band 2 -> 1, initial score "
        f"{scores[2]:g} -> {scores[1]:g}, McMahon score {scores[2]:g} -> {scores[1]:g}"
    )


# --- results -------------------------------------------------------------------------------


def test_correcting_an_earlier_rounds_result_is_warned_once(tmp_path: Path) -> None:
    book = all_jigo(tmp_path)
    args = ("result", book, "--round", 1, "--board", 2, "--result", "b+")
    stderr = confirm(book, *args)
    assert "round 1 is not the latest round: round 3 is already paired" in stderr
    assert games(book, 1)[1]["Result"] == B
    assert last_log(book)[2] == (
        "round 1, board 2: Family103, Pat (103) (White) - Family104, Pat (104) (Black): "
        "Black wins (was Jigo)"
    )
    assert run("standings", book).returncode == 0, "the correction is not asked twice"


def test_a_result_of_the_latest_round_is_recorded_without_a_question(tmp_path: Path) -> None:
    book = all_jigo(tmp_path)
    assert run("result", book, "--board", 1, "--result", "White wins").returncode == 0
    assert games(book, 3)[0]["Result"] == W


# --- the interface document's warnings -----------------------------------------------------


def test_pairing_a_new_round_before_all_results_are_in(tmp_path: Path) -> None:
    book = all_jigo(tmp_path)
    assert "round 3 still has 1 game(s) without a result" in confirm(book, "pair", book)


def test_a_rematch(tmp_path: Path) -> None:
    book = all_jigo(tmp_path)
    stderr = confirm(book, "make-pair", book, "--white", 104, "--black", 101)
    assert stderr.count("warning:") == 1
    message = (
        "round 3, board 2: Family101, Pat (101) and Family104, Pat (104) already played "
        "each other in round 2 (a rematch)"
    )
    assert message in stderr and warned(book) == [message]


def test_the_same_colour_three_rounds_running(tmp_path: Path) -> None:
    book = all_jigo(tmp_path)
    stderr = confirm(book, "make-pair", book, "--white", 101, "--black", 103)
    assert stderr.count("warning:") == 1
    assert "round 3, board 2: Family101, Pat (101) takes white 3 rounds running" in stderr


def test_a_float_in_the_same_direction_twice_in_a_row(tmp_path: Path) -> None:
    # 101 wins round 1, then meets 106 who lost it (101 floats down) and wins again.
    book = workbook(
        tmp_path,
        Round(1, (game(1, 101, 102, W), game(2, 103, 104, W), game(3, 105, 106, W),
                  game(4, 107, 108, W))),
        Round(2, (game(1, 106, 101, B), game(2, 103, 105, JIGO), game(3, 102, 104, JIGO))),
        Round(3, (game(1, 107, 105),)),
    )  # fmt: skip
    stderr = confirm(book, "make-pair", book, "--white", 101, "--black", 103)
    assert stderr.count("warning:") == 1
    assert "Family101, Pat (101) floats down two rounds running (rounds 2 and 3)" in stderr


def test_pairing_a_player_who_forfeited_the_previous_round(tmp_path: Path) -> None:
    first = Round(1, (game(1, 101, 102, "White wins by forfeit"), game(2, 103, 104, W),
                      game(3, 105, 106, JIGO), game(4, 107, 108, JIGO)))  # fmt: skip
    book = workbook(tmp_path, first)
    stderr = confirm(book, "force", book, "--first", 102, "--second", 104)
    assert "Family102, Pat (102) lost round 1 by forfeit: check they are still here" in stderr
    assert "Family102, Pat forfeited in round 1" in confirm(book, "pair", book)

    again = workbook(tmp_path, first, Round(2, (game(1, 108, 105),)))
    stderr = confirm(again, "make-pair", again, "--white", 102, "--black", 104)
    assert stderr.count("warning:") == 1
    assert "Family102, Pat (102) lost round 1 by forfeit and is paired" in stderr


# --- hand edits --------------------------------------------------------------------------


def swap_cells(ws: Worksheet, header: list[object], a: tuple[int, str], b: tuple[int, str]):
    """Swap a player (AGA # and name) between two places: (sheet row, "White" or "Black")."""
    for suffix in (" AGA #", ""):
        ca = ws.cell(row=a[0], column=header.index(a[1] + suffix) + 1)
        cb = ws.cell(row=b[0], column=header.index(b[1] + suffix) + 1)
        ca.value, cb.value = cb.value, ca.value


def test_names_swapped_by_hand_are_noticed_checked_warned_and_respected(tmp_path: Path) -> None:
    book = all_jigo(tmp_path)
    assert run("result", book, "--board", 1, "--result", "W").returncode == 0
    # Round 2 board 1 was 101-104 and board 2 102-103; the TD swaps 104 and 102 by hand.
    edit_sheet(book, "Round 2", lambda ws, h: swap_cells(ws, h, (2, "Black"), (3, "White")))
    assert pairs(book, 2)[:2] == [(1, 101, 102), (2, 104, 103)]

    stderr = confirm(book, "result", book, "--board", 1, "--result", "B")
    assert "round 2, board 1: Family101, Pat (101) and Family102, Pat (102) already" in stderr
    assert "round 2, board 2: Family103, Pat (103) and Family104, Pat (104) already" in stderr
    assert "round 3, board 1: Family102, Pat (102) takes black 3 rounds running" in stderr
    assert "results of round 2 changed after a later round was paired" in stderr
    assert (
        "round 3, board 1: Family107, Pat (107) (White) - Family102, Pat (102) (Black) "
        "already has a result, White wins; it is replaced by Black wins" in stderr
    )
    assert len(warned(book)) == 5
    assert pairs(book, 2)[:2] == [(1, 101, 102), (2, 104, 103)], "the TD's edit stays"

    again = confirm(book, "result", book, "--board", 1, "--result", "W")
    assert again.count("warning:") == 1, "the hand edits are asked about once"
    assert "already has a result, Black wins; it is replaced by White wins" in again


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda ws, h: ws.cell(row=2, column=h.index("Bye AGA #") + 1, value=107),
         "AGA # 107 appears twice in round 3"),
        (lambda ws, h: [ws.cell(row=3, column=h.index(k) + 1, value=v)
                        for k, v in (("Board", 2), ("White AGA #", 108), ("Black AGA #", 107))],
         "AGA # 107 appears twice in round 3"),
    ],
    ids=["paired-and-on-a-bye", "paired-twice"],
)  # fmt: skip
def test_a_player_twice_in_a_round_is_named_and_nothing_is_written(
    tmp_path: Path, edit: Callable[[Worksheet, list[object]], object], message: str
) -> None:
    book = all_jigo(tmp_path)
    edit_sheet(book, "Round 3", edit)
    before = digest(book)
    result = run("drop", book, "--player", 106)
    assert result.returncode == 1
    assert message in result.stderr and "Round 3!" in result.stderr
    assert digest(book) == before


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("break-pair", "--round", 3, "--board", 9), "round 3 has no board 9 (boards: 1)"),
        (("break-pair", "--round", 3, "--player", 101), "(101) is not paired in round 3"),
        (("break-pair", "--round", 3), "give either --board or --player"),
        (("force", "--first", 101, "--second", 101), "cannot be paired with themself"),
        (("drop", "--player", 77777), "--player: AGA # 77777 is not in the Players sheet"),
        (("make-pair", "--white", 101, "--black", 101), "a player cannot play themself"),
        (("make-pair", "--white", 101, "--black", 102), "already plays on board 1 of round 3"),
        (("make-pair", "--white", 101, "--black", 103, "--handicap", 12), "not between 0 and 9"),
        (("make-pair", "--white", 101, "--black", 103, "--komi", "lots"), "is not a number"),
        (("result", "--board", 1, "--result", "maybe"), "'maybe' is not a result"),
        (
            ("result", "--round", 5, "--board", 1, "--result", "W"),
            "round 5 is not a round of this 4-round tournament",
        ),
        (("set-game", "--board", 1), "nothing to change"),
        (("bye", "--player", 107, "--round", 3), "plays on board 1 of round 3"),
        (("bye", "--player", 101, "--round", 9), "not a round of this 4-round tournament"),
        (("volunteer", "--player", 101, "--round", 2), "round 2 is already paired"),
        (("readmit", "--player", 101), "(101) is not dropped"),
        (("force", "--first", 101, "--second", 103, "--round", 3), "round 3 is already paired"),
        (("set-band", "--player", 101, "--band", 7), "there is no band 7 (bands: 1)"),
        (("set-rating", "--player", 101, "--rating", "strong"), "--rating:"),
    ],
)
def test_bad_input_gets_a_clear_message_and_changes_nothing(
    tmp_path: Path, args: tuple[object, ...], message: str
) -> None:
    book = all_jigo(tmp_path)
    before = digest(book)
    result = run(args[0], book, *args[1:])
    assert result.returncode == 1
    assert message in result.stderr
    assert "t.xlsx is unchanged" in result.stderr
    assert digest(book) == before


def test_moving_a_player_to_a_band_before_the_bands_exist_is_refused(tmp_path: Path) -> None:
    book = workbook(tmp_path, banded=False)
    before = digest(book)
    result = run("set-band", book, "--player", 101, "--band", 1)
    assert result.returncode == 1 and "there are no bands yet" in result.stderr
    assert digest(book) == before


def test_a_request_that_repeats_or_contradicts_another_is_refused(tmp_path: Path) -> None:
    book = workbook(tmp_path)
    assert run("prohibit", book, "--first", 101, "--second", 102).returncode == 0
    before = digest(book)
    repeated = run("prohibit", book, "--first", 102, "--second", 101)
    assert "already has Prohibit" in repeated.stderr
    contradicting = run("force", book, "--first", 101, "--second", 102)
    assert "already a Prohibit request for every round" in contradicting.stderr
    assert digest(book) == before


def test_a_forced_player_can_be_neither_dropped_nor_given_a_bye_for_that_round(
    tmp_path: Path,
) -> None:
    book = workbook(tmp_path)
    assert run("force", book, "--first", 101, "--second", 102).returncode == 0
    before = digest(book)
    dropped = run("drop", book, "--player", 102)
    assert "is forced to play Family101, Pat (101) in round 1" in dropped.stderr
    bye = run("bye", book, "--player", 101, "--round", 1)
    assert "remove that request first" in bye.stderr
    assert (dropped.returncode, bye.returncode, digest(book)) == (1, 1, before)


def test_a_forfeit_recorded_after_the_next_round_was_paired_is_warned(tmp_path: Path) -> None:
    book = all_jigo(tmp_path)
    args = ("result", book, "--round", 2, "--board", 2, "--result", "BF")
    stderr = confirm(book, *args)
    assert stderr.count("warning:") == 3
    assert (
        "round 2, board 2: Family102, Pat (102) (White) - Family103, Pat (103) (Black) "
        "already has a result, Jigo; it is replaced by Black wins by forfeit" in stderr
    )
    assert "round 2 is not the latest round" in stderr
    assert "round 3, board 1: Family102, Pat (102) lost round 2 by forfeit and is paired" in stderr


# --- the check itself (addin.core.consistency, pure) ---------------------------------------


def test_a_handicap_game_interrupts_a_run_of_colours() -> None:
    t = Tournament(
        rounds=[
            Round(1, (game(1, 101, 102),)),
            Round(2, (Game(101, 103, 2, 0.5, None, 1),)),
            Round(3, (game(1, 101, 104),)),
            Round(4, (game(1, 101, 105),)),
        ]
    )
    assert consistency.findings(t) == []
    t.rounds[1] = Round(2, (game(1, 101, 103),))
    assert [(f.rule, f.round, f.players) for f in consistency.findings(t)] == [
        (consistency.Rule.COLOUR, 3, frozenset({101})),
        (consistency.Rule.COLOUR, 4, frozenset({101})),
    ]


def test_a_double_forfeit_counts_against_both_players() -> None:
    first = Round(1, (game(1, 101, 102, "Double forfeit"),))
    assert consistency.forfeit_losers(first) == {101, 102}


def test_only_rounds_changed_since_the_stamp_count_as_edited() -> None:
    one, two = Round(1, (game(1, 101, 102),)), Round(2, (game(1, 103, 104),))
    stamped = consistency.last_stamp(
        ["Paired round 2", f"Checked the {consistency.stamp([one, two])}"]
    )
    swapped = Round(2, (game(1, 104, 103),))
    assert consistency.edited_rounds([one, two], stamped) == set()
    assert consistency.edited_rounds([one, swapped], stamped) == {2}
    assert consistency.edited_rounds([one, two, Round(3)], stamped) == {3}


def test_a_player_readmitted_after_the_bands_were_rebuilt_without_them_gets_a_band(
    banded: Path,
) -> None:
    assert run("drop", banded, "--player", 206).returncode == 0
    assert run("bands", banded).returncode == 0
    assert player_row(banded, 206)["Initial score"] is None
    assert run("readmit", banded, "--player", 206).returncode == 0
    row, scores = player_row(banded, 206), band_scores(banded)
    assert (row["Status"], row["Band"], row["Initial score"]) == ("Active", 2, scores[2])
    assert last_log(banded)[2] == (
        f"Readmitted Family206, Pat (206): paired again from round 1; band 2, initial score "
        f"{scores[2]:g}"
    )
