"""Selection first, on xlwings' real remote engine: the TD selects rows and clicks.

The remote engine's book JSON carries the TD's selection (``book.selection``), which
``XlwingsGateway.selection()`` reads. Each test selects rows as a TD would, clicks,
and compares the workbook with what the command line makes of the same request.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import xlwings as xw
from test_excel_remote import (  # noqa: F401  (remote_engine: the module's autouse fixture)
    ScriptedTD,
    actions,
    alerts,
    cli,
    contents,
    prepared_file,
    remote_engine,
    replay,
    sheet_of,
    writes,
)

from addin.door import selected
from addin.excel.entry import dispatch
from addin.excel.remote_json import book_json
from addin.workbook.gateway import selected_rows
from addin.workbook.layout import TDLISTA, games_table, players_table
from addin.workbook.openpyxl_gateway import OpenpyxlGateway


class WatchedTD(ScriptedTD):
    """A scripted TD that also notes the value each input box proposed."""

    def __init__(self, answers: list[object]) -> None:
        super().__init__(answers)
        self.proposed: list[str] = []

    def ask_text(self, prompt: str, default: str = "", *, title: str = "") -> str | None:
        self.proposed.append(default)
        return super().ask_text(prompt, default, title=title)


def open_selected(path: Path, sheet: str, rows: list[int]) -> Any:
    """The workbook in the remote engine with ``rows`` of ``sheet`` selected (two areas)."""
    areas = ",".join(f"A{r}:C{r}" for r in rows)
    return xw.Book(json=book_json(path, active=sheet, selection=areas))


def rows_by(path: Path, table: Any, key: str) -> dict[object, int]:
    """Sheet row number of each row, by the value in column ``key``."""
    data = OpenpyxlGateway.open(path, force=True).read_table(table)
    return {row.get(key): row.number for row in data.rows if row.number is not None}


def same_as_cli_runs(
    tmp_path: Path, source: Path, remote: Any, action: str, runs: list[dict[str, object]]
) -> None:
    """The remote workbook after the click equals the command line run once per row."""
    by_cli = Path(shutil.copy(source, tmp_path / "by-cli.xlsx"))
    for params in runs:
        assert cli(by_cli, action, params) == 0
    by_excel = replay(remote, source, tmp_path / "by-excel.xlsx")
    assert contents(by_excel) == contents(by_cli)


def test_selected_rows_reads_every_area_once() -> None:
    assert selected_rows("$A$3:$C$5,$B$8,A4") == (3, 4, 5, 8)
    assert selected_rows("4:6") == (4, 5, 6)
    assert selected_rows("A:C") == ()


def test_register_adds_the_members_whose_tdlista_rows_are_selected(tmp_path: Path) -> None:
    path = prepared_file(tmp_path, 20)
    at = rows_by(path, TDLISTA, "aga_id")
    remote = open_selected(path, "TDListA", [at[20003], at[20005]])
    td = WatchedTD([])
    outcome = dispatch("register", remote, dialogs=td, yes=True)
    assert outcome.status == "done", outcome
    assert td.asked == [], "a selection needs no question"
    assert "Registered Member3, Pat" in td.told[-1] and "Member5, Pat" in td.told[-1]
    same_as_cli_runs(tmp_path, path, remote, "register", [{"aga": 20003}, {"aga": 20005}])


def test_register_without_a_tdlista_selection_asks_one_box_for_a_new_player(
    tmp_path: Path,
) -> None:
    path = prepared_file(tmp_path, 20)
    remote = open_selected(path, "Players", [3])
    td = WatchedTD(["Doe, Jane, 2k"])
    assert dispatch("register", remote, dialogs=td, yes=True).status == "done"
    assert len(td.asked) == 1 and len(td.asked[0]) <= 255
    same_as_cli_runs(tmp_path, path, remote, "register", [{"name": "Doe, Jane", "rank": "2k"}])


def test_drop_drops_every_selected_player(tmp_path: Path) -> None:
    path = prepared_file(tmp_path, 20)
    at = rows_by(path, players_table(3), "aga_id")
    ids = sorted(at)[4:6]
    remote = open_selected(path, "Players", [at[i] for i in ids])
    td = WatchedTD([])
    assert dispatch("drop", remote, dialogs=td, yes=True).status == "done"
    assert td.asked == []
    same_as_cli_runs(tmp_path, path, remote, "drop", [{"player": i} for i in ids])
    dropped = contents(replay(remote, path, tmp_path / "after.xlsx"))["Players"]
    assert {v["aga_id"] for v, _ in dropped if v["status"] == "Dropped"} == set(ids)


def test_break_pair_breaks_the_selected_boards(tmp_path: Path) -> None:
    path = prepared_file(tmp_path, 20)
    gw = OpenpyxlGateway.open(path, force=True)
    games = {row.get("board"): row for row in gw.read_table(games_table(2)).rows}
    chosen = [games[2], games[3]]
    remote = open_selected(path, "Round 2", [int(row.number or 0) for row in chosen])
    td = WatchedTD([])
    assert dispatch("break-pair", remote, dialogs=td, yes=True).status == "done"
    assert td.asked == []
    runs = [{"round": 2, "player": row.get("white")} for row in chosen]
    same_as_cli_runs(tmp_path, path, remote, "break-pair", runs)


def test_result_asks_one_box_per_selected_board_proposing_the_current_result(
    tmp_path: Path,
) -> None:
    path = prepared_file(tmp_path, 20)
    gw = OpenpyxlGateway.open(path, force=True)
    games = {row.get("board"): row for row in gw.read_table(games_table(2)).rows}
    remote = open_selected(path, "Round 2", [int(games[1].number or 0), int(games[4].number or 0)])
    td = WatchedTD(["B", "jigo"])
    assert dispatch("result", remote, dialogs=td, yes=True).status == "done"
    assert len(td.asked) == 2 and all(len(q) <= 255 for q in td.asked)
    assert "board 1" in td.asked[0] and "board 4" in td.asked[1]
    current = [games[b].get("result") for b in (1, 4)]
    assert td.proposed == [getattr(r, "value", r) or "" for r in current]
    runs = [
        {"round": 2, "board": 1, "result": "B"},
        {"round": 2, "board": 4, "result": "jigo"},
    ]
    same_as_cli_runs(tmp_path, path, remote, "result", runs)


def test_force_pairs_the_two_selected_players(tmp_path: Path) -> None:
    path = prepared_file(tmp_path, 20)
    at = rows_by(path, players_table(3), "aga_id")
    first, second = sorted(at)[0], sorted(at)[7]
    remote = open_selected(path, "Players", [at[first], at[second]])
    assert dispatch("force", remote, dialogs=WatchedTD([]), yes=True).status == "done"
    same_as_cli_runs(tmp_path, path, remote, "force", [{"first": first, "second": second}])


def test_replace_id_asks_only_the_new_number_of_the_selected_player(tmp_path: Path) -> None:
    path = prepared_file(tmp_path, 20)
    at = rows_by(path, players_table(3), "aga_id")
    old = sorted(at)[3]
    new = max(at) + 1  # type: ignore[operator]
    remote = open_selected(path, "Players", [at[old]])
    td = WatchedTD([str(new)])
    assert dispatch("replace-id", remote, dialogs=td, yes=True).status == "done"
    assert len(td.asked) == 1 and str(old) in td.asked[0] and td.proposed == [""]
    same_as_cli_runs(tmp_path, path, remote, "replace-id", [{"old": old, "to": str(new)}])
    after = contents(replay(remote, path, tmp_path / "after.xlsx"))
    assert new in {v["aga_id"] for v, _ in after["Players"]}
    assert old not in {v["aga_id"] for v, _ in after["Players"]}


def test_a_selection_on_the_wrong_sheet_says_what_to_select_and_writes_nothing(
    tmp_path: Path,
) -> None:
    path = prepared_file(tmp_path, 20)
    remote = open_selected(path, "Tournament", [3])
    outcome = dispatch("drop", remote, yes=True)
    assert outcome.status == "error"
    prompt, _, _, mode, _ = alerts(remote)[-1]
    assert "Select the player rows on the Players sheet" in prompt and mode == "critical"
    assert not writes(remote)
    remote = open_selected(path, "Players", [3])
    assert dispatch("force", remote, yes=True).status == "error"
    assert "exactly two" in alerts(remote)[-1][0] and not writes(remote)


SELECTION_FOR = {
    "player": ("Players", [3]),
    "two": ("Players", [3, 4]),
    "board": ("Round 2", [3]),
    "none": ("Tournament", [1]),
}


@pytest.mark.parametrize("action", sorted(set(selected.PLANS) - selected.TYPED))
def test_only_typed_value_buttons_open_an_input_box(action: str, tmp_path: Path) -> None:
    plan = selected.PLANS[action]
    kind = {
        selected.each_player: "player",
        selected.two_players: "two",
        selected.two_players_colours: "two",
        selected.each_board_break: "board",
    }.get(plan, "none")
    path = prepared_file(tmp_path, 20)
    remote = open_selected(path, *SELECTION_FOR[kind])
    td = WatchedTD([])  # any question would find no answer and fail the click
    outcome = dispatch(action, remote, dialogs=td, yes=True)
    assert td.asked == [] and outcome.status in {"done", "error"}, outcome
    assert actions(remote) is not None


def test_a_reports_menu_item_writes_its_sheet_and_pdf_and_no_log(tmp_path: Path) -> None:
    import subprocess

    from addin.door.buttons import report_items
    from addin.door.report_menu import report_file
    from addin.excel.window import ExcelWindow

    path = prepared_file(tmp_path, 20)
    wall = report_items()[0]
    assert wall.preset == ("pairings", "alphabetical")
    remote = xw.Book(json=book_json(path))
    folder = ExcelWindow(remote, WatchedTD([])).report_folder()
    pdf = report_file(folder, str(remote.name), "pairings", "alphabetical")
    pdf.unlink(missing_ok=True)
    td = WatchedTD([])
    outcome = dispatch(wall.control_id, remote, dialogs=td)
    assert outcome.status == "done", outcome
    assert td.asked == []
    written = {a["args"][1] for a in actions(remote, "addSheet")}
    assert written == {"Report - Pairing list"}
    assert "Log" not in {sheet_of(remote, a) for a in actions(remote, "setValues")}
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    assert "Round 2" in text and "Page 1 of" in text
    pdf.unlink()


def test_a_question_is_not_shown_with_the_error_icon(tmp_path: Path) -> None:
    path = prepared_file(tmp_path, 20)
    at = rows_by(path, TDLISTA, "aga_id")
    remote = open_selected(path, "TDListA", [at[29999]])  # a lapsed member: a warning
    assert dispatch("register", remote).status == "cancelled"
    (ask, told) = alerts(remote)
    assert ask[2] == "ok_cancel" and ask[3] == "info" and "lapsed" in ask[0]
    assert told[3] == "info" and not writes(remote)


def test_a_look_up_selects_its_matches_and_register_takes_them(tmp_path: Path) -> None:
    path = prepared_file(tmp_path, 20)
    remote = xw.Book(json=book_json(path))
    assert dispatch("lookup", remote, {"query": "Member1"}).status == "done"
    assert not writes(remote)
    (select,) = actions(remote, "rangeSelect")
    assert sheet_of(remote, select) == "TDListA"
    at = rows_by(path, TDLISTA, "aga_id")
    matches = sorted(at[i] for i in at if str(i) == "20001" or str(i).startswith("2001"))
    address = "A{}:I{}".format(select["start_row"] + 1, select["start_row"] + select["row_count"])
    picked = selected_rows(address)
    assert picked and set(picked) <= set(matches)  # the remote engine selects one run of them
    assert "click Register player" in alerts(remote)[-1][0]
    chosen = xw.Book(json=book_json(path, active="TDListA", selection=str(address)))
    assert dispatch("register", chosen, dialogs=WatchedTD([]), yes=True).status == "done"
    ids = sorted(i for i in at if at[i] in picked)
    same_as_cli_runs(tmp_path, path, chosen, "register", [{"aga": i} for i in ids])


def test_a_look_ups_rows_become_one_address_of_runs_within_excels_limit() -> None:
    assert selected.rows_address([9, 5, 6, 7], "I") == "A5:I7,A9:I9"
    many = selected.rows_address(list(range(2, 400, 2)), "I")
    assert len(many) <= 255 and selected_rows(many)[:3] == (2, 4, 6)


def test_the_buttons_that_are_not_selection_driven_ask_only_files_or_typed_values() -> None:
    from addin.actions.registry import ParamKind
    from addin.door.buttons import buttons

    typed_kinds = {ParamKind.TEXT, ParamKind.INT, ParamKind.CHOICE}
    asks_text = {
        b.action
        for b in buttons()
        if b.action not in selected.PLANS
        and b.action != "report"  # a menu: its items ask nothing
        and any(p.kind in typed_kinds and p.asked for p in b.params)
    }
    # a name to search for; a new tournament's name; the Wi-Fi name on the poster, the event's
    # country and EGF class for the EGD (no cell has them)
    assert asks_text == {"lookup", "new", "serve", "check-egd", "export-egd"}
