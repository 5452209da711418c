"""Hostile inputs at the desk, each tried first as a TD would (issue 40, points 8, 14-17, 19).

A demo tournament (``python -m addin demo``) is edited with openpyxl as a TD edits it in a
spreadsheet (a cell typed, a sheet row deleted, a newer membership list), then the commands
run on it. Each rule is tried through every door that reaches it: the command line, Excel's
entry points on xlwings' remote engine, and Calc's on a live LibreOffice.

* 8: a result replaced (or cleared) on any round is an active warning naming the board, the
  players, the result there and the new one.
* 14: every number setting carries its bounds; a setting typed as ``1E+300`` is named by its
  cell, never converted, never spelt out to 301 digits.
* 15: an AGA XML initial score out of range names the file, line and attribute.
* 16: a game or bye row deleted from a paired round names the players who lost it, journal
  or not (the Log's pairing digest tells them), and stops pairing and standings.
* 17: a Players row whose AGA # cannot be read: every bad cell of the row is named with it.
* 19: a newer TDListA after round 1: every difference listed is made by ``--update-players``,
  or said by name to be kept because the desk typed it.
"""

from __future__ import annotations

import random
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.utils.cell import get_column_letter, range_boundaries
from openpyxl.workbook.workbook import Workbook
from openpyxl.worksheet.worksheet import Worksheet

from addin.calc.dialogs import AcceptAll
from addin.calc.entry import dispatch as calc_dispatch
from addin.calc.office import Office
from addin.calc.uno_gateway import UnoGateway
from addin.core.consistency import pairing_digest
from addin.core.handicap import MAX_HANDICAP
from addin.core.limits import MAX_SCORE, number_said
from addin.core.lost_rows import absent_from, lost_since_stamp
from addin.core.model import Bye, ByeKind, Game, Player, Round, Tournament
from addin.excel.entry import dispatch as excel_dispatch
from addin.workbook import cells
from addin.workbook.layout import SETTINGS, Kind, Setting, players_table
from tests.calc_support import live_cells, office_or_skip
from tests.helpers import DATA, digest, licensed_remote_engine, log_messages, run
from tests.test_excel_remote import alerts, open_remote, writes

ROUNDS = 4


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo tournament: 30 players, 4 rounds paired and played, copied without its
    journal (the .history folder beside it): no journal copy of any round to compare with."""
    book = demo_book(tmp_path_factory, "event", 30, ROUNDS)
    shutil.rmtree(book.with_suffix(".history"))
    return book


@pytest.fixture
def book(played: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(played, tmp_path / "event.xlsx"))


@pytest.fixture
def fresh(tmp_path: Path) -> Path:
    path = tmp_path / "fresh.xlsx"
    assert run("new", path).returncode == 0
    return path


@pytest.fixture
def excel() -> Iterator[None]:
    """xlwings' remote engine, licensed for noncommercial use (skipped without it)."""
    with licensed_remote_engine():
        yield


@pytest.fixture(scope="module")
def office() -> Iterator[Office]:
    yield from office_or_skip()


def edit(path: Path, change: Callable[[Workbook], object]) -> None:
    """The TD changes the workbook in a spreadsheet and saves it."""
    wb = openpyxl.load_workbook(path)
    change(wb)
    wb.save(path)


def column(ws: Worksheet, header: str) -> str:
    return get_column_letter([c.value for c in ws[1]].index(header) + 1)


def rows_of(path: Path, sheet: str) -> list[dict[str, Any]]:
    """The first table of ``sheet`` as header -> value rows (sheet row 2 first)."""
    ws = openpyxl.load_workbook(path)[sheet]
    header = [c.value for c in ws[1]]
    return [dict(zip(header, r, strict=False)) for r in ws.iter_rows(min_row=2, values_only=True)]


def output(done: Any) -> str:
    return str(done.stdout) + str(done.stderr)


def refused_in_excel(path: Path, action: str, params: dict[str, object]) -> str:
    """``action`` through Excel's entry point (``--yes``): it stops, writes nothing, and its
    error dialog says this."""
    remote = open_remote(path)
    outcome = excel_dispatch(action, remote, params, yes=True)
    assert outcome.status == "error", outcome
    assert not writes(remote)
    prompt, _, _, mode, _ = alerts(remote)[-1]
    assert mode == "critical"
    return str(prompt)


def refused_in_calc(office: Office, path: Path, action: str, params: dict[str, object]) -> str:
    """``action`` through Calc's entry point on the live document (``--yes``): it stops,
    the document stays as it was, and its error says this."""
    doc = office.open(path)
    before = live_cells(doc)
    outcome = calc_dispatch(action, doc, office.ctx, params, dialogs=AcceptAll(), yes=True)
    assert outcome.status == "error", outcome
    assert live_cells(doc) == before
    doc.close(True)
    return str(outcome.messages[0])


def demo_book(factory: pytest.TempPathFactory, name: str, players: int, rounds: int) -> Path:
    """``python -m addin demo``: a tournament played by the program, as a TD starts one."""
    book = factory.mktemp(name) / f"{name}.xlsx"
    done = run("demo", book, "--players", players, "--rounds", rounds)
    assert done.returncode == 0, done.stderr
    return book


# --- 8: a result already there -------------------------------------------------------------


def last_round_board(path: Path, row: int = 2) -> tuple[int, str, str, str, str]:
    """Board, White, Black, result of a row of the last Round sheet, and the other result."""
    game = rows_of(path, f"Round {ROUNDS}")[row - 2]
    other = "Black wins" if game["Result"] == "White wins" else "White wins"
    white = f"{game['White']} ({game['White AGA #']})"
    black = f"{game['Black']} ({game['Black AGA #']})"
    return game["Board"], white, black, game["Result"], other


def replaced(number: int, board: int, white: str, black: str, old: str, new: str) -> str:
    return (
        f"round {number}, board {board}: {white} (White) - {black} (Black) already has a "
        f"result, {old}; it is replaced by {new}"
    )


def test_a_result_of_the_last_round_replaced_is_asked_first_naming_the_board_and_both_results(
    book: Path,
) -> None:
    board, white, black, old, new = last_round_board(book)
    before = digest(book)
    asked = run("result", book, "--board", board, "--result", new)
    assert asked.returncode == 3, output(asked)
    warning = replaced(ROUNDS, board, white, black, old, new)
    assert warning in asked.stderr
    assert digest(book) == before
    done = run("result", book, "--board", board, "--result", new, "--yes")
    assert done.returncode == 0, output(done)
    assert rows_of(book, f"Round {ROUNDS}")[0]["Result"] == new
    assert ("Warning", "result", warning) in log_messages(book)


def test_a_result_cleared_is_asked_first_and_a_first_result_is_not(book: Path) -> None:
    board, white, black, old, new = last_round_board(book)
    cleared = run("result", book, "--board", board, "--result", "")
    assert cleared.returncode == 3
    assert replaced(ROUNDS, board, white, black, old, "no result (blank)") in cleared.stderr
    assert run("result", book, "--board", board, "--result", "", "--yes").returncode == 0
    first = run("result", book, "--board", board, "--result", new)
    assert first.returncode == 0, output(first)
    assert "warning" not in output(first)


def test_a_result_of_an_earlier_round_replaced_is_asked_naming_it_too(book: Path) -> None:
    game = rows_of(book, "Round 2")[0]
    new = "Jigo" if game["Result"] != "Jigo" else "White wins"
    asked = run("result", book, "--round", 2, "--board", game["Board"], "--result", new)
    assert asked.returncode == 3
    white = f"{game['White']} ({game['White AGA #']})"
    black = f"{game['Black']} ({game['Black AGA #']})"
    assert replaced(2, game["Board"], white, black, game["Result"], new) in asked.stderr
    assert "round 2 is not the latest round" in asked.stderr


def test_the_excel_button_asks_before_replacing_a_result_and_writes_nothing_unless_told(
    book: Path, excel: None
) -> None:
    board, white, black, old, new = last_round_board(book)
    remote = open_remote(book)
    params = {"round": ROUNDS, "board": board, "result": new}
    outcome = excel_dispatch("result", remote, params)
    assert outcome.status == "cancelled", outcome
    ask = alerts(remote)[0]
    assert ask[2] == "ok_cancel" and replaced(ROUNDS, board, white, black, old, new) in ask[0]
    assert not writes(remote)
    assert excel_dispatch("result", open_remote(book), params, yes=True).status == "done"


def test_the_calc_button_asks_before_replacing_a_result_and_writes_nothing_unless_told(
    book: Path, office: Office
) -> None:
    board, white, black, old, new = last_round_board(book)
    doc = office.open(book)
    before = live_cells(doc)
    declined = AcceptAll(answer=False)
    params = {"round": ROUNDS, "board": board, "result": new}
    outcome = calc_dispatch("result", doc, office.ctx, params, dialogs=declined)
    assert outcome.status == "cancelled", outcome
    assert any(replaced(ROUNDS, board, white, black, old, new) in m for _, m, _ in declined.shown)
    assert live_cells(doc) == before
    done = calc_dispatch("result", doc, office.ctx, params, dialogs=AcceptAll(), yes=True)
    assert done.status == "done", done
    doc.close(True)


# --- 14: every setting, 1E+300 -------------------------------------------------------------

NUMBER_KINDS = (*cells.NUMERIC, Kind.RATING, Kind.RATING_FLOOR)
"""Kinds whose Value cell holds a number (a rank or rating keeps to the AGA scale)."""
BOUNDED = [s for s in SETTINGS if s.kind in cells.NUMERIC]
LONG_NUMBER = re.compile(r"\d{16}")
"""More digits than a spreadsheet keeps: a number spelt out, not as typed."""


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small event for the settings: 10 players, 2 rounds played."""
    return demo_book(tmp_path_factory, "club", 10, 2)


def value_cell(wb: Workbook, setting: Setting) -> str:
    """The Value cell of ``setting`` on the Tournament sheet, by its label."""
    ws = wb["Tournament"]
    row = next(r[0].row for r in ws.iter_rows(max_col=1) if r[0].value == setting.label)
    return f"{column(ws, 'Value')}{row}"


def type_settings(path: Path, values: dict[str, object]) -> dict[str, str]:
    """Type each value (by setting key) into its Value cell; the cells as messages name them."""
    named: dict[str, str] = {}

    def change(wb: Workbook) -> None:
        for setting in SETTINGS:
            if setting.key in values:
                cell = value_cell(wb, setting)
                wb["Tournament"][cell] = values[setting.key]
                named[setting.key] = f"Tournament!{cell} ({setting.label})"

    edit(path, change)
    return named


@pytest.mark.parametrize("setting", BOUNDED, ids=lambda s: s.key)
def test_every_number_setting_declares_its_bounds(setting: Setting) -> None:
    assert setting.bounds is not None
    low, high = setting.bounds
    assert low < high


TEXT_KINDS = (Kind.TEXT, Kind.ANY)


@pytest.fixture(scope="module")
def all_huge(club: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], str]:
    """Every setting but the texts typed as 1E+300 in one workbook: each Value cell as
    messages name it, and what ``check`` says."""
    book = Path(shutil.copy(club, tmp_path_factory.mktemp("huge") / "club.xlsx"))
    named = type_settings(book, {s.key: 1e300 for s in SETTINGS if s.kind not in TEXT_KINDS})
    listed = run("check", book)
    assert listed.returncode == 1
    return named, output(listed)


@pytest.fixture(scope="module")
def texts_huge(club: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    """Every text setting typed as 1E+300: what ``check``, the pairing list and the AGA text
    report then say."""
    folder = tmp_path_factory.mktemp("huge-texts")
    book = Path(shutil.copy(club, folder / "club.xlsx"))
    type_settings(book, {s.key: 1e300 for s in SETTINGS if s.kind in TEXT_KINDS})
    said = [output(run("check", book))]
    pairings, report = folder / "pairings.txt", folder / "report.txt"
    printed = run("report", book, "pairings", "--out", pairings, "--yes")
    exported = run("export-aga", book, "--text", report, "--force", "--yes")
    assert (printed.returncode, exported.returncode) == (0, 0), output(printed) + output(exported)
    said += [pairings.read_text(encoding="utf-8"), report.read_text(encoding="utf-8")]
    return "\n".join(said)


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: s.key)
def test_any_setting_typed_as_1e300_is_named_never_converted_nor_spelt_out(
    all_huge: tuple[dict[str, str], str], texts_huge: str, setting: Setting
) -> None:
    """A number setting names its cell and its range; a text keeps "1e+300" as typed; no
    setting is ever spelt out to 301 digits (in a message, a printout or a report)."""
    named, listed = all_huge
    if setting.kind in TEXT_KINDS:
        assert "1e+300" in texts_huge
        assert not LONG_NUMBER.search(texts_huge)
        return
    problem = next(line for line in listed.splitlines() if named[setting.key] in line)
    assert f"{named[setting.key]}: 1e+300 is not" in problem, problem
    assert not LONG_NUMBER.search(problem), problem
    if setting.bounds is not None and setting.kind is not Kind.AGA_ID:
        low, high = setting.bounds
        assert f"a number from {number_said(low)} to {number_said(high)}" in problem


def beyond(setting: Setting, side: str) -> float:
    assert setting.bounds is not None
    low, high = setting.bounds
    return {"low": low, "high": high, "below": low - 1, "above": high + 1}[side]


@pytest.mark.parametrize("side", ["low", "high", "below", "above"])
def test_every_bounded_setting_takes_its_bounds_and_names_a_number_past_them(
    club: Path, tmp_path: Path, side: str
) -> None:
    book = Path(shutil.copy(club, tmp_path / "club.xlsx"))
    named = type_settings(book, {s.key: beyond(s, side) for s in BOUNDED})
    listed = output(run("check", book))
    for setting in BOUNDED:
        lines = [line for line in listed.splitlines() if named[setting.key] in line]
        if side in ("low", "high"):
            assert not lines, lines
        else:
            assert len(lines) == 1, (setting.key, listed)
            said = cells.described(beyond(setting, side))
            assert f"{named[setting.key]}: {said} is not " in lines[0]


def test_a_setting_an_imported_report_gives_out_of_bounds_is_named_and_nothing_written(
    fresh: Path, tmp_path: Path
) -> None:
    """The import door to the same rule: a BasicTime of 400 digits in a real AGA XML report."""
    huge = "9" * 400
    text = (DATA / "aga-xml" / "2013-12.xml").read_text(encoding="utf-8")
    report = tmp_path / "report.xml"
    report.write_text(text.replace("<BasicTime>45<", f"<BasicTime>{huge}<"), encoding="utf-8")
    before = digest(fresh)
    refused = run("import-aga-xml", fresh, report, "--yes")
    assert refused.returncode == 1, output(refused)
    assert "Basic time (minutes): " in refused.stderr
    assert "is not a number from 0 to 1,440" in refused.stderr
    assert huge not in refused.stderr, "quoted at most 200 characters"
    assert digest(fresh) == before


def test_a_basic_time_in_superscript_digits_is_named_not_a_traceback(
    fresh: Path, tmp_path: Path
) -> None:
    """ "²" is a digit to Python's str.isdigit, and no number to int()."""
    text = (DATA / "aga-xml" / "2013-12.xml").read_text(encoding="utf-8")
    report = tmp_path / "report.xml"
    report.write_text(text.replace("<BasicTime>45<", "<BasicTime>²<"), encoding="utf-8")
    refused = run("import-aga-xml", fresh, report, "--yes")
    assert refused.returncode == 1
    line = text[: text.index("<BasicTime>")].count("\n") + 1
    assert f"report.xml, line {line}: <BasicTime> '²' is not a whole number of minutes" in (
        refused.stderr
    )


def ghost_typed_huge(path: Path) -> str:
    return type_settings(path, {"ghost_player": 1e300})["ghost_player"]


def test_a_ghost_typed_as_1e300_stops_the_excel_button_naming_the_cell(
    book: Path, excel: None
) -> None:
    cell = ghost_typed_huge(book)
    said = refused_in_excel(book, "standings", {})
    assert f"{cell}: 1e+300 is not an AGA number" in said and not LONG_NUMBER.search(said)


def test_a_ghost_typed_as_1e300_stops_the_calc_button_naming_the_cell(
    book: Path, office: Office
) -> None:
    cell = ghost_typed_huge(book)
    said = refused_in_calc(office, book, "standings", {})
    assert f"{cell}: 1e+300 is not an AGA number" in said


# --- 15: an AGA XML initial score out of range ---------------------------------------------


def report_with_score(tmp_path: Path, score: str, nth: int = 3) -> tuple[Path, int]:
    """A real AGA XML report with the ``nth`` player's InitialTournamentScore replaced; the
    file and the line of that player."""
    lines = (DATA / "aga-xml" / "2013-12.xml").read_text(encoding="utf-8").splitlines(True)
    at = [i for i, line in enumerate(lines) if "InitialTournamentScore=" in line][nth]
    lines[at] = re.sub(r'InitialTournamentScore="[^"]*"', f'InitialTournamentScore="{score}"',
                       lines[at])  # fmt: skip
    path = tmp_path / "report.xml"
    path.write_text("".join(lines), encoding="utf-8")
    return path, at + 1


def score_refused(path: Path, line: int, score: str) -> str:
    return (
        f"{path.name}, line {line}: <Player> InitialTournamentScore={score!r} is not a McMahon "
        f"score from {number_said(-MAX_SCORE)} to {number_said(MAX_SCORE)}"
    )


@pytest.mark.parametrize("score", ["-1000000000", "1e300", "1000000.5"])
def test_an_initial_score_out_of_range_names_the_file_line_and_attribute(
    fresh: Path, tmp_path: Path, score: str
) -> None:
    report, line = report_with_score(tmp_path, score)
    before = digest(fresh)
    refused = run("import-aga-xml", fresh, report, "--yes")
    assert refused.returncode == 1
    assert score_refused(report, line, score) in refused.stderr, refused.stderr
    assert "BandError" not in refused.stderr and "override" not in refused.stderr
    assert digest(fresh) == before


def test_initial_scores_a_million_apart_either_way_are_kept_without_bands(
    fresh: Path, tmp_path: Path
) -> None:
    text = (DATA / "aga-xml" / "2013-12.xml").read_text(encoding="utf-8")
    scores = iter([number_said(MAX_SCORE), number_said(-MAX_SCORE)] * 50)
    report = tmp_path / "report.xml"
    report.write_text(re.sub(r'InitialTournamentScore="[^"]*"',
                             lambda _: f'InitialTournamentScore="{next(scores)}"'.replace(",", ""),
                             text), encoding="utf-8")  # fmt: skip
    done = run("import-aga-xml", fresh, report, "--yes")
    assert done.returncode == 0, output(done)
    assert "make no Bands rows (two of them are more than 1,000,000 points apart)" in done.stdout
    scored = {r["Initial score"] for r in rows_of(fresh, "Players") if r["AGA #"]}
    assert scored == {MAX_SCORE, -MAX_SCORE}
    assert run("check", fresh).returncode in (0, 3)


def test_an_initial_score_out_of_range_stops_the_excel_button_naming_the_line(
    fresh: Path, tmp_path: Path, excel: None
) -> None:
    report, line = report_with_score(tmp_path, "-1000000000")
    said = refused_in_excel(fresh, "import-aga-xml", {"report": report})
    assert score_refused(report, line, "-1000000000") in said


def test_an_initial_score_out_of_range_stops_the_calc_button_naming_the_line(
    fresh: Path, tmp_path: Path, office: Office
) -> None:
    report, line = report_with_score(tmp_path, "1e300")
    said = refused_in_calc(office, fresh, "import-aga-xml", {"report": report})
    assert score_refused(report, line, "1e300") in said


# --- 16: a row deleted from a paired round -------------------------------------------------


def delete_sheet_row(path: Path, sheet: str, row: int) -> None:
    """The TD selects a whole row of the sheet and deletes it: the rows below move up and
    every table across it loses that row, as Excel and Calc do."""

    def change(wb: Workbook) -> None:
        ws = wb[sheet]
        ws.delete_rows(row)
        for table in ws.tables.values():
            c1, r1, c2, r2 = range_boundaries(table.ref)
            r2 -= 1 if r1 < row <= r2 else 0
            table.ref = f"{get_column_letter(c1)}{r1}:{get_column_letter(c2)}{r2}"
            if table.autoFilter is not None:
                table.autoFilter.ref = table.ref

    edit(path, change)


def game_row(path: Path, number: int, row: int) -> tuple[str, str, str]:
    """Who played on a Round sheet row (as messages name them), and the row to restore."""
    game = rows_of(path, f"Round {number}")[row - 2]
    white = f"{game['White']} ({game['White AGA #']})"
    black = f"{game['Black']} ({game['Black AGA #']})"
    return white, black, f"White {white}, Black {black}, handicap {game['Handicap']}"


def raise_rounds(path: Path, rounds: int) -> None:
    """The TD raises Number of rounds, so that another round can be paired."""
    type_settings(path, {"rounds": rounds})


@pytest.mark.parametrize("number", [2, ROUNDS], ids=["an-earlier-round", "the-last-round"])
def test_a_game_row_deleted_names_both_players_and_stops_check_standings_and_pair(
    book: Path, number: int
) -> None:
    raise_rounds(book, ROUNDS + 1)
    white, black, restore = game_row(book, number, 4)
    delete_sheet_row(book, f"Round {number}", 4)
    before = digest(book)
    listed = run("check", book)
    assert listed.returncode == 1
    for command in (("check",), ("standings", "--yes"), ("pair", "--yes")):
        done = run(command[0], book, *command[1:])
        assert done.returncode == 1, (command, output(done))
        said = output(done)
        assert f"round {number} has lost games or byes since it was paired" in said, command
        assert f"{white}, {black} now have neither" in said
        assert restore in said
    assert digest(book) == before


def test_a_bye_cleared_from_a_paired_round_names_the_player(book: Path) -> None:
    byes = [r for r in rows_of(book, "Round 2") if r.get("Bye AGA #")]
    assert byes, "the demo's odd field has a bye every round"
    bye = byes[0]

    def clear(wb: Workbook) -> None:
        ws = wb["Round 2"]
        for header in ("Bye AGA #", "Bye player", "Bye type"):
            ws[f"{column(ws, header)}2"] = None

    edit(book, clear)
    listed = run("check", book)
    assert listed.returncode == 1
    player = f"{bye['Bye player']} ({bye['Bye AGA #']})"
    assert f"{player} now have neither" in listed.stdout
    assert f"a {bye['Bye type'].lower()} bye for {player}" in listed.stdout


def test_colours_swapped_by_hand_lose_nobody(book: Path) -> None:
    """A hand edit the TD may make: the search finds no lost game where there is none."""

    def swap(wb: Workbook) -> None:
        ws = wb["Round 2"]
        for suffix in ("", " AGA #"):
            w, b = (f"{column(ws, side + suffix)}3" for side in ("White", "Black"))
            ws[w].value, ws[b].value = ws[b].value, ws[w].value

    edit(book, swap)
    assert "lost games" not in output(run("check", book))


def test_a_deleted_game_row_stops_the_excel_button_naming_both_players(
    book: Path, excel: None
) -> None:
    """The remote engine's workbook has no file and so no journal: the Log tells them."""
    white, black, _ = game_row(book, 2, 4)
    delete_sheet_row(book, "Round 2", 4)
    assert f"{white}, {black} now have neither" in refused_in_excel(book, "standings", {})


def test_a_deleted_game_row_stops_the_calc_button_naming_both_players(
    book: Path, office: Office
) -> None:
    white, black, _ = game_row(book, 2, 4)
    delete_sheet_row(book, "Round 2", 4)
    said = refused_in_calc(office, book, "standings", {})
    assert f"{white}, {black} now have neither" in said


def a_round(seed: int, players: int = 40) -> tuple[Tournament, Round]:
    """A round of ``players`` with random colours, handicaps and one bye of each kind."""
    rng = random.Random(seed)
    ids = rng.sample(range(1000, 99999), players)
    games = tuple(
        Game(ids[i], ids[i + 1], rng.randrange(MAX_HANDICAP + 1), board=i // 2 + 1)
        for i in range(0, players - 2, 2)
    )
    byes = (Bye(ids[-2], ByeKind.FORCED), Bye(ids[-1], ByeKind.VOLUNTARY))
    rnd = Round(2, games, byes)
    t = Tournament(
        players={pid: Player(pid, f"Family{pid}", "Pat") for pid in ids},
        rounds=[Round(1, games, byes), rnd, Round(3, games, byes)],
    )
    return t, rnd


@pytest.mark.parametrize("seed", range(8))
def test_the_games_and_byes_a_round_lost_are_found_from_its_digest_alone(seed: int) -> None:
    t, rnd = a_round(seed)
    rng = random.Random(seed)
    gone_games = rng.sample(rnd.games, 1 + seed % 2)
    gone_byes = rnd.byes[:1] if seed % 3 == 0 else ()
    now = Round(
        2,
        tuple(g for g in rnd.games if g not in gone_games),
        tuple(b for b in rnd.byes if b not in gone_byes),
    )
    t.rounds[1] = now
    lost = lost_since_stamp(now, pairing_digest(rnd), absent_from(t, 2))
    assert lost is not None
    assert {(g.white, g.black, g.handicap) for g in lost.games} == {
        (g.white, g.black, g.handicap) for g in gone_games
    }
    assert set(lost.byes) == set(gone_byes)


def test_a_round_edited_otherwise_too_is_not_made_up_within_the_budget() -> None:
    t, rnd = a_round(99)
    first, *rest = rnd.games
    now = Round(2, (Game(first.black, first.white, first.handicap), *rest[1:]), rnd.byes)
    t.rounds[1] = now
    assert lost_since_stamp(now, pairing_digest(rnd), absent_from(t, 2), budget=5_000) is None


# --- 17: the Players row of an AGA # that cannot be read ------------------------------------


def spoil_row(path: Path, row: int = 5) -> tuple[str, str]:
    """#N/A in the AGA # and #REF! in the Entry rating of a Players row, as Excel leaves
    them after a lookup gone wrong; the two cells as messages name them."""
    named: list[str] = []

    def change(wb: Workbook) -> None:
        ws = wb["Players"]
        for header, error in (("AGA #", "#N/A"), ("Entry rating", "#REF!")):
            cell = ws[f"{column(ws, header)}{row}"]
            cell.value = error
            cell.data_type = "e"
            named.append(f"Players!{cell.coordinate} ({header})")

    edit(path, change)
    return named[0], named[1]


@pytest.mark.parametrize(
    "command",
    [("standings",), ("export-aga", "--text", "{tmp}/report.txt"), ("bands",), ("check",)],
    ids=lambda c: c[0],
)
def test_a_players_row_without_a_readable_aga_number_is_named_whole(
    book: Path, tmp_path: Path, command: tuple[str, ...]
) -> None:
    aga, rating = spoil_row(book)
    before = digest(book)
    args = [a.format(tmp=tmp_path) for a in command[1:]]
    refused = run(command[0], book, *args, "--yes")
    assert refused.returncode == 1, output(refused)
    said = output(refused)
    assert f"{aga}: the error value #N/A" in said and f"{rating}: the error value #REF!" in said
    assert digest(book) == before


def test_a_players_row_without_a_readable_aga_number_is_named_whole_in_excel(
    book: Path, excel: None
) -> None:
    aga, rating = spoil_row(book)
    said = refused_in_excel(book, "standings", {})
    assert f"{aga}: the error value #N/A" in said and f"{rating}: the error value #REF!" in said


def test_a_players_row_without_a_readable_aga_number_is_named_whole_in_calc(
    book: Path, office: Office
) -> None:
    aga, rating = spoil_row(book)
    said = refused_in_calc(office, book, "standings", {})
    assert f"{aga}: the error value #N/A" in said and f"{rating}: the error value #REF!" in said


# --- 19: a newer TDListA after round 1 -----------------------------------------------------

SAMPLE_LIST = Path(__file__).resolve().parents[1] / "addin" / "data" / "tdlista-sample.txt"
"""The real TDListA excerpt the demo imports."""


def newer_list(book: Path, tmp_path: Path) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    """The demo's list with a new rating for one registered player and a new chapter for
    another (players whose row holds what the list gave them)."""
    players = [r for r in rows_of(book, "Players") if isinstance(r["AGA #"], int)]
    rated = next(p for p in players if p["Entry rating"] == p["AGA rating"] and p["Chapter"])
    moved = next(p for p in players if p["Chapter"] and p is not rated)
    lines = SAMPLE_LIST.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        fields = line.split("\t")
        if fields[1] == str(rated["AGA #"]):
            fields[3] = f"{float(fields[3]) + (1.5 if float(fields[3]) > 0 else -1.5):.5f}"
        if fields[1] == str(moved["AGA #"]):
            fields[5] = "NYGC" if moved["Chapter"] != "NYGC" else "SEAG"
        lines[i] = "\t".join(fields)
    path = tmp_path / "TDListA-newer.txt"
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    return path, rated, moved


def listed(path: Path, aga: int) -> list[str]:
    fields = next(f for f in (line.split("\t") for line in path.read_text().splitlines())
                  if f[1] == str(aga))  # fmt: skip
    return fields


def row_of(book: Path, aga: int) -> dict[str, Any]:
    return next(r for r in rows_of(book, "Players") if r["AGA #"] == aga)


def test_every_difference_a_newer_list_names_after_round_1_is_made_when_asked(
    book: Path, tmp_path: Path
) -> None:
    newer, rated, moved = newer_list(book, tmp_path)
    first = run("import-tdlista", book, newer)
    assert first.returncode == 0, output(first)
    assert "2 registered player(s) have different AGA data" in first.stdout
    chapter = listed(newer, moved["AGA #"])[5]
    assert f"(AGA # {moved['AGA #']}): Chapter {moved['Chapter']} -> {chapter}" in first.stdout
    assert row_of(book, moved["AGA #"])["Chapter"] == moved["Chapter"], "unchanged until asked"

    second = run("import-tdlista", book, newer, "--update-players", "--yes")
    assert second.returncode == 0, output(second)
    assert "Updated the AGA data of 2 registered player(s)" in second.stdout
    assert row_of(book, moved["AGA #"])["Chapter"] == chapter
    assert row_of(book, rated["AGA #"])["AGA rating"] == float(listed(newer, rated["AGA #"])[3])


def test_a_chapter_typed_at_the_desk_between_the_imports_is_kept_and_said_so(
    book: Path, tmp_path: Path
) -> None:
    newer, _, moved = newer_list(book, tmp_path)
    assert run("import-tdlista", book, newer).returncode == 0

    def type_chapter(wb: Workbook) -> None:
        ws = wb["Players"]
        row = next(r[0].row for r in ws.iter_rows(max_col=1) if r[0].value == moved["AGA #"])
        ws[f"{column(ws, 'Chapter')}{row}"] = "PGC"

    edit(book, type_chapter)
    second = run("import-tdlista", book, newer, "--update-players", "--yes")
    chapter = listed(newer, moved["AGA #"])[5]
    assert (
        f"(AGA # {moved['AGA #']}): Chapter PGC kept, typed at the desk (the new list says "
        f"{chapter})"
    ) in second.stdout
    assert row_of(book, moved["AGA #"])["Chapter"] == "PGC"


def test_the_excel_button_makes_every_difference_the_list_named(
    book: Path, tmp_path: Path, excel: None
) -> None:
    newer, _, moved = newer_list(book, tmp_path)
    assert run("import-tdlista", book, newer).returncode == 0
    remote = open_remote(book)
    params = {"tdlista": newer, "update_players": True}
    outcome = excel_dispatch("import-tdlista", remote, params, yes=True)
    assert outcome.status == "done", outcome
    chapter = listed(newer, moved["AGA #"])[5]
    assert (
        f"(AGA # {moved['AGA #']}): Chapter {moved['Chapter']} -> {chapter}"
        in (alerts(remote)[-1][0])
    )


def test_the_calc_button_makes_every_difference_the_list_named(
    book: Path, tmp_path: Path, office: Office
) -> None:
    newer, _, moved = newer_list(book, tmp_path)
    doc = office.open(book)
    for update in (False, True):
        params = {"tdlista": newer, "update_players": update}
        done = calc_dispatch(
            "import-tdlista", doc, office.ctx, params, dialogs=AcceptAll(), yes=True
        )
        assert done.status == "done", done
    rows = UnoGateway(doc).read_table(players_table(ROUNDS)).rows
    row = next(r for r in rows if r["aga_id"] == moved["AGA #"])
    assert row["chapter"] == listed(newer, moved["AGA #"])[5]
    doc.close(True)
