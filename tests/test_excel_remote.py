"""The Excel entry points on xlwings' real remote engine, on realistic tournament workbooks.

``xw.Book(json=...)`` runs xlwings' own Range/Sheet/Table code without Excel: it reads
from a snapshot of the workbook (``addin.excel.remote_json``) and records each change
in ``book.json()["actions"]``. The engine is licensed for noncommercial use with
``XLWINGS_LICENSE_KEY=noncommercial`` (PolyForm Noncommercial terms), which these
tests set; with the variable set to an empty value they are skipped.

The strongest check here replays the recorded actions onto the .xlsx file and
compares it, table by table, with what the command line makes of the same file.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator, Mapping
from datetime import date
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from workbook_fixtures import ready_for_aga, simple_tournament, write_workbook

from addin.actions.change import Snapshot
from addin.actions.registration import RegisterParams
from addin.actions.registry import ParamKind, load_all
from addin.actions.sections import PLAYERS, SETTLED
from addin.cli import run_file
from addin.core.model import Tournament
from addin.door.dialogs import TITLE
from addin.excel.entry import SAVE_AS, Outcome, dispatch
from addin.excel.remote_json import book_json
from addin.store import apply
from addin.workbook import book, round_sheets
from addin.workbook.layout import LOG, TDLISTA, games_table
from addin.workbook.openpyxl_gateway import OpenpyxlGateway
from addin.workbook.xlwings_gateway import XlwingsGateway
from tests.helpers import DATA, licensed_remote_engine
from tests.list_server import closed_port, serving


@pytest.fixture(scope="module", autouse=True)
def remote_engine() -> Iterator[None]:
    """xlwings' remote engine, licensed for noncommercial use; skip when it can't be had."""
    with licensed_remote_engine():
        yield


# --- realistic workbooks ------------------------------------------------------------------


def tournament_file(
    directory: Path, players: int, *, played: int = 2, rounds: int = 3, ready: bool = False
) -> Path:
    """A tournament with ``players`` players and ``played`` rounds of results, of ``rounds``
    (``ready``: with what the AGA submission check asks for)."""
    t = simple_tournament(players, played, seed=players)
    t = ready_for_aga(t) if ready else t
    return write_workbook(directory / f"open-{players}.xlsx", t, rounds)


def tdlista_file(directory: Path, t: Tournament | None = None, extra: int = 30) -> Path:
    """A TDListA as the AGA publishes it: the field, other members, and one lapsed member."""
    lines = []
    for p in t.players.values() if t else []:
        expires = p.membership_expiry or date(2027, 1, 1)
        lines.append(
            f"{p.family_name}, {p.given_name}\t{p.aga_id}\t{p.membership_type}\t{p.rating:.5f}"
            f"\t{expires.month}/{expires.day}/{expires.year}\t{p.chapter}\t{p.state}"
            "\t0.41\t3/1/2025"
        )
    for i in range(extra):
        rating = -25 + i * 0.7
        rating += 2 if -1 < rating < 1 else 0
        lines.append(
            f"Member{i}, Pat\t{20000 + i}\tFull\t{rating:.5f}\t12/31/2027\tSEAG\tWA\t0.5\t1/1/2025"
        )
    lines.append("Lapsed, Lou\t29999\tFull\t-5.5\t1/31/2019\tNYGC\tNY\t0.6\t1/1/2018")
    path = directory / "TDListA.txt"
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    return path


def prepared_file(directory: Path, players: int, ready: bool = False) -> Path:
    """A tournament whose TDListA sheet is already filled, through the command line."""
    path = tournament_file(directory, players, ready=ready)
    listing = tdlista_file(directory, simple_tournament(players, 2, seed=players))
    assert cli(path, "import-tdlista", {"tdlista": listing}) == 0
    return path


def cli(path: Path, action: str, params: Mapping[str, object]) -> int:
    """The command line's front door, as ``python -m addin ACTION --yes`` runs it."""
    return run_file(path, action, params, yes=True, force=True)


def open_remote(path: Path) -> Any:
    import xlwings as xw

    return xw.Book(json=book_json(path))


def actions(remote: Any, func: str | None = None) -> list[dict[str, Any]]:
    return [a for a in remote.json()["actions"] if func is None or a["func"] == func]


def alerts(remote: Any) -> list[list[Any]]:
    """Each alert's [prompt, title, buttons, mode, callback]."""
    return [a["args"] for a in actions(remote, "alert")]


def sheet_of(remote: Any, action: dict[str, Any]) -> str:
    return remote.sheets[action["sheet_position"]].name


def writes(remote: Any) -> list[dict[str, Any]]:
    """Every action that changes cells or sheets (alerts and formats aside)."""
    return [a for a in actions(remote) if a["func"] in {"setValues", "addSheet", "sheetDelete"}]


# --- replaying the recorded actions onto the file ------------------------------------------


def replay(remote: Any, source: Path, target: Path) -> Path:
    """``source`` with the remote engine's recorded sheet and value changes applied."""
    wb = openpyxl.load_workbook(source)
    for action in actions(remote):
        func = action["func"]
        if func == "addSheet":
            index, name = action["args"]
            wb.create_sheet(name, index)
        elif func == "sheetDelete":
            del wb[wb.sheetnames[action["sheet_position"]]]
        elif func == "setValues":
            ws = wb.worksheets[action["sheet_position"]]
            for i, line in enumerate(action["values"]):
                for j, value in enumerate(line):
                    cell = ws.cell(action["start_row"] + 1 + i, action["start_column"] + 1 + j)
                    cell.value = None if value == "" else value
    wb.save(target)
    return target


def contents(path: Path) -> dict[str, Any]:
    """Every table as the file gateway reads it; the Log without its clock times."""
    gw = OpenpyxlGateway.open(path, force=True)
    b = book.read_book(gw)
    out: dict[str, Any] = {
        name: [(r.values, r.extra) for r in data.rows] for name, data in b.tables.items()
    }
    out["settings"] = b.tournament.settings
    out["problems"] = [str(p) for p in b.problems]
    out["TDListA"] = [r.values for r in gw.read_table(TDLISTA).rows]
    out["Log"] = [(r["level"], r["action"], r["message"]) for r in gw.read_table(LOG).rows]
    out["sheets"] = gw.sheet_names()
    return out


def same_as_command_line(
    tmp_path: Path, source: Path, action: str, params: Mapping[str, object]
) -> tuple[Any, Outcome]:
    """Run ``action`` through Excel's entry point and through the command line; compare."""
    by_cli = shutil.copy(source, tmp_path / "by-cli.xlsx")
    assert cli(Path(by_cli), action, params) == 0
    remote = open_remote(source)
    outcome = dispatch(action, remote, params, yes=True)
    assert outcome.status == "done", outcome
    by_excel = replay(remote, source, tmp_path / "by-excel.xlsx")
    assert contents(by_excel) == contents(Path(by_cli))
    return remote, outcome


# --- the generic loop: every registered action, and the add-in's own ----------------------


SAMPLE_INPUTS = {
    "import-aga-xml": DATA / "aga-xml" / "2013-12.xml",
    "import-aga-text": DATA / "aga-text" / "eggplant-sample-report.txt",
    "import-opengotha": DATA / "opengotha" / "simplemm.xml",
    "import-egd-list": DATA / "egd" / "allworld_lp-2018-12-27-excerpt.html",
}


def sample_params(action: str, tmp_path: Path, t: Tournament) -> dict[str, object] | None:
    """Realistic parameters for an action; None when there is no sample input for it."""
    ids = sorted(t.players)
    csv = tmp_path / "prereg.csv"
    csv.write_text('Name,AGA #,Rank\r\n"Doe, John",,5k\r\n', encoding="utf-8")
    known: dict[str, dict[str, object]] = {
        "import-tdlista": {"tdlista": tdlista_file(tmp_path, t)},
        "preregister": {"csv": csv},
        "register": {"name": "Doe, Jane", "rank": "3k"},
        "lookup": {"query": t.players[ids[0]].family_name[:4]},
        "select-matches": {"query": t.players[ids[0]].family_name[:4]},
        "new": {"book": tmp_path / "fresh.xlsx", "name": "Fresh Open", "rounds": 4},
        "check": {},
        "history": {},
        "undo": {},
        "redo": {},
        "serve": {"poster_only": True, "wifi": "Club Wi-Fi"},
        # nobody listens there: no network (the download itself: test_the_download_button...)
        "download-list": {"url": f"http://127.0.0.1:{closed_port()}/tdlista.txt"},
    }
    if action in known:
        return known[action]
    by_name: dict[str, object] = {
        "player": ids[1],
        "first": ids[2],
        "white": ids[3],
        "second": ids[4],
        "black": ids[5],
        "board": 1,
        "band": 1,
        "rating": "2k",
        "result": "W",
    }
    params: dict[str, object] = {}
    for param in load_all()[action].params:
        if param.kind is ParamKind.FILE_IN:
            sample = SAMPLE_INPUTS.get(action)
            if sample is None or not sample.exists():
                return None
            params[param.name] = sample
        elif param.kind is ParamKind.FILE_OUT:
            params[param.name] = tmp_path / SAVE_AS.get(param.name, f"{action}-{param.name}.txt")
        elif param.choices:
            params[param.name] = param.choices[0]
        elif param.name in by_name:
            params[param.name] = by_name[param.name]
        elif param.required and param.kind is ParamKind.INT:
            params[param.name] = 1
        elif param.required:
            params[param.name] = "1"
    return params


ALL_IDS = sorted(load_all())


@pytest.mark.parametrize("action", ALL_IDS)
def test_every_entry_point_runs_on_a_realistic_workbook(action: str, tmp_path: Path) -> None:
    t = simple_tournament(40, 2, seed=40)
    path = prepared_file(tmp_path, 40)
    params = sample_params(action, tmp_path, t)
    if params is None:
        pytest.skip(f"no sample input file for {action}")
    remote = open_remote(path)
    outcome = dispatch(action, remote, params, yes=True)
    assert outcome.status in {"done", "error"}, outcome  # never an unexpected exception
    shown = alerts(remote)
    assert shown, "the TD always hears how it ended"
    for prompt, title, buttons_, mode, _ in shown:
        assert "Traceback" not in prompt and title and buttons_ in {"ok", "ok_cancel"}
        assert mode in {"info", "critical"}
    if outcome.status == "error":
        assert not writes(remote), "an action that refuses writes nothing"
        assert shown[-1][3] == "critical"
    for write in actions(remote, "setValues"):
        widths = {len(line) for line in write["values"]}
        assert widths == {write["column_count"]} and len(write["values"]) == write["row_count"]


# --- what each entry point writes -----------------------------------------------------------


def test_import_tdlista_writes_the_list_as_one_block(tmp_path: Path) -> None:
    path = tournament_file(tmp_path, 40)
    listing = tdlista_file(tmp_path, simple_tournament(40, 2, seed=40))
    remote, outcome = same_as_command_line(tmp_path, path, "import-tdlista", {"tdlista": listing})
    blocks = [a for a in actions(remote, "setValues") if sheet_of(remote, a) == "TDListA"]
    assert len(blocks) == 1
    members = 40 + 30 + 1
    assert blocks[0]["row_count"] == members + 1 and blocks[0]["column_count"] == 9
    assert blocks[0]["values"][0] == list(TDLISTA.headers)
    assert [sheet_of(remote, a) for a in actions(remote, "setValues")] == ["TDListA", "Log"]
    ((prompt, title, buttons_, mode, _),) = alerts(remote)
    assert f"Imported {members} members" in prompt and (title, buttons_, mode) == (
        "Import TDListA",
        "ok",
        "info",
    )
    assert outcome.messages[0].startswith(f"Imported {members} members")


def test_the_download_button_imports_a_served_list_as_one_block(tmp_path: Path) -> None:
    """**Download rating list** in Excel, from a real web server on 127.0.0.1."""
    path = tournament_file(tmp_path, 40)
    listing = tdlista_file(tmp_path, simple_tournament(40, 2, seed=40)).read_bytes()
    with serving() as server:
        server.files = {"tdlista.txt": listing}
        remote = open_remote(path)
        outcome = dispatch("download-list", remote, {"url": server.url("tdlista.txt")})
    assert outcome.status == "done", outcome
    blocks = [a for a in actions(remote, "setValues") if sheet_of(remote, a) == "TDListA"]
    members = listing.count(b"\n")
    assert len(blocks) == 1 and blocks[0]["row_count"] == members + 1
    assert f"Imported {members} members" in alerts(remote)[-1][0]


def test_no_network_is_one_message_and_nothing_written(tmp_path: Path) -> None:
    path = prepared_file(tmp_path, 20)
    remote = open_remote(path)
    url = f"http://127.0.0.1:{closed_port()}/tdlista.txt"
    outcome = dispatch("download-list", remote, {"url": url})
    assert outcome.status == "error" and not writes(remote)
    ((prompt, _, buttons_, mode, _),) = alerts(remote)
    assert prompt.startswith("no network: cannot reach 127.0.0.1") and "is unchanged" in prompt
    assert (buttons_, mode) == ("ok", "critical")


def test_register_adds_the_player_in_one_players_block_and_logs_it(tmp_path: Path) -> None:
    path = prepared_file(tmp_path, 40)
    remote, _ = same_as_command_line(tmp_path, path, "register", {"aga": 20003})
    blocks = actions(remote, "setValues")
    assert [sheet_of(remote, a) for a in blocks] == ["Players", "Log"]
    players = blocks[0]
    assert players["row_count"] == 1 + 41 and players["start_row"] == 0
    assert players["values"][-1][:3] == [20003, "Member3", "Pat"]
    (log,) = [a for a in blocks if sheet_of(remote, a) == "Log"]
    assert log["values"][0][1:3] == ["Action", "register"]
    assert "Registered Member3, Pat" in alerts(remote)[-1][0]


def test_a_warning_asks_ok_cancel_and_without_an_ok_writes_nothing(tmp_path: Path) -> None:
    path = prepared_file(tmp_path, 20)
    remote = open_remote(path)
    outcome = dispatch("register", remote, {"aga": 29999})
    assert outcome.status == "cancelled"
    (ask, told) = alerts(remote)
    assert ask[2] == "ok_cancel" and "Lapsed, Lou lapsed on 2019-01-31" in ask[0]
    assert told[2] == "ok" and "Nothing was written" in told[0]
    assert not writes(remote)


def test_an_accepted_warning_is_written_to_the_log(tmp_path: Path) -> None:
    path = prepared_file(tmp_path, 20)
    remote, _ = same_as_command_line(tmp_path, path, "register", {"aga": 29999})
    (log,) = [a for a in actions(remote, "setValues") if sheet_of(remote, a) == "Log"]
    levels = [line[1] for line in log["values"]]
    assert levels[:2] == ["Warning", "Confirmed"] and levels[-1] == "Action"


def bad_result_file(tmp_path: Path, ready: bool = False) -> tuple[Path, str]:
    path = prepared_file(tmp_path, 20, ready)
    wb = openpyxl.load_workbook(path)
    ws = wb["Round 1"]
    column = 1 + [c.key for c in games_table(1).columns].index("result")
    cell = ws.cell(row=3, column=column)
    cell.value = "xyz"
    wb.save(path)
    return path, f"Round 1!{cell.coordinate}"


def test_check_names_the_cell_of_a_bad_result(tmp_path: Path) -> None:
    path, where = bad_result_file(tmp_path)
    remote = open_remote(path)
    dispatch("check", remote)
    prompt, title, _, _, _ = alerts(remote)[-1]
    assert f"{where} (Result): 'xyz' is not one of" in prompt and title == "Check workbook"
    assert not writes(remote)


def test_the_aga_check_is_a_dialog_naming_the_cells_and_writes_nothing(tmp_path: Path) -> None:
    path = prepared_file(tmp_path, 20)
    before = path.read_bytes()
    remote = open_remote(path)
    outcome = dispatch("check-aga", remote)
    prompt = alerts(remote)[-1][0]
    assert outcome.status == "error"
    assert "(Start date): Start date is blank" in prompt and "(Director name)" in prompt
    assert not writes(remote) and path.read_bytes() == before


READS_THE_ROUNDS = ("pair", "standings")
"""Actions whose input is every Round sheet, so refuse a workbook with a bad result."""

GOES_ON = ("register", "bands", "export-aga")
"""Actions that do not read the results: a bad one is a warning naming the cell."""


@pytest.mark.parametrize("action", [a for a in READS_THE_ROUNDS if a in load_all()])
def test_a_bad_result_is_a_dialog_naming_the_cell_and_nothing_changes(
    action: str, tmp_path: Path
) -> None:
    path, where = bad_result_file(tmp_path)
    before = path.read_bytes()
    remote = open_remote(path)
    params = sample_params(action, tmp_path, simple_tournament(20, 2, seed=20))
    outcome = dispatch(action, remote, params, yes=True)
    (prompt, _, buttons_, mode, _) = alerts(remote)[-1]
    assert outcome.status == "error" and (buttons_, mode) == ("ok", "critical")
    assert f"{where} (Result): 'xyz'" in prompt and "is unchanged" in prompt
    assert not writes(remote)
    assert path.read_bytes() == before


@pytest.mark.parametrize("action", [a for a in GOES_ON if a in load_all()])
def test_a_bad_result_is_a_warning_naming_the_cell_where_it_is_no_input(
    action: str, tmp_path: Path
) -> None:
    path, where = bad_result_file(tmp_path, ready=action == "export-aga")
    remote = open_remote(path)
    params = sample_params(action, tmp_path, simple_tournament(20, 2, seed=20))
    outcome = dispatch(action, remote, params, yes=True)
    assert outcome.status == "done"
    logged = [a for a in writes(remote) if sheet_of(remote, a) == "Log"]
    assert any(f"{where} (Result): 'xyz'" in str(a) for a in logged)


def test_lookup_answers_in_a_dialog_and_writes_nothing(tmp_path: Path) -> None:
    path = prepared_file(tmp_path, 20)
    remote = open_remote(path)
    outcome = dispatch("lookup", remote, {"query": "Member1"})
    assert outcome.status == "done"
    assert "Member1, Pat" in alerts(remote)[-1][0]
    assert not writes(remote)


def test_new_tournament_makes_the_file_the_command_line_would(tmp_path: Path) -> None:
    remote = open_remote(tournament_file(tmp_path, 8))
    target = tmp_path / "club-night"
    outcome = dispatch("new", remote, {"book": target, "name": "Club Night", "rounds": "4"})
    assert outcome.status == "done"
    made = contents(target.with_suffix(".xlsx"))
    assert made["settings"].name == "Club Night" and made["settings"].rounds == 4
    assert "File > Open" in alerts(remote)[-1][0]  # the remote engine cannot open files
    assert not writes(remote)


def test_an_unknown_button_is_a_readable_error(tmp_path: Path) -> None:
    remote = open_remote(tournament_file(tmp_path, 8))
    outcome = dispatch("aga_no-such-thing", remote)
    assert outcome.status == "error"
    prompt, title, _, mode, _ = alerts(remote)[-1]
    assert "install-excel" in prompt and mode == "critical" and title == "aga_no-such-thing"


def test_parameters_that_cannot_be_asked_here_are_named(tmp_path: Path) -> None:
    remote = open_remote(tournament_file(tmp_path, 8))
    outcome = dispatch("import-tdlista", remote)
    assert outcome.status == "error"
    assert "the TDListA file" in alerts(remote)[-1][0]


def test_a_bad_parameter_is_refused_before_anything_runs(tmp_path: Path) -> None:
    remote = open_remote(tournament_file(tmp_path, 8))
    outcome = dispatch("register", remote, {"aga": "12x"})
    assert outcome.status == "error" and "'12x' is not a whole number" in alerts(remote)[-1][0]


class ScriptedTD:
    """A TD at the keyboard, answering the add-in's questions from a script."""

    def __init__(self, answers: list[object]) -> None:
        self.answers = answers
        self.asked: list[str] = []
        self.told: list[str] = []

    def alert(self, message: str, *, title: str = TITLE, error: bool = False) -> None:
        self.told.append(message)

    def confirm(self, message: str, *, title: str = TITLE) -> bool:
        self.asked.append(message)
        return bool(self.answers.pop(0))

    def ask_text(self, prompt: str, default: str = "", *, title: str = TITLE) -> str | None:
        self.asked.append(prompt)
        return self.answers.pop(0)  # type: ignore[return-value]

    def ask_open_file(self, prompt: str, *, title: str = TITLE) -> str | None:
        return self.ask_text(prompt)

    def ask_save_file(self, prompt: str, default: str, *, title: str = TITLE) -> str | None:
        return self.ask_text(prompt)


def test_the_td_is_asked_for_each_parameter_in_turn(tmp_path: Path) -> None:
    """A button that takes typed values and no selection (here Look up) asks for each."""
    path = prepared_file(tmp_path, 20)
    remote = open_remote(path)
    td = ScriptedTD(["Member1"])
    outcome = dispatch("lookup", remote, dialogs=td)
    assert outcome.status == "done"
    assert [q.splitlines()[0] for q in td.asked] == [
        p.help[:1].upper() + p.help[1:] for p in load_all()["lookup"].params if p.asked
    ]  # not --limit nor --all: a window selects every match on the TDListA sheet
    assert "Member1, Pat" in td.told[-1]
    assert not writes(remote)


def test_cancelling_a_question_does_nothing(tmp_path: Path) -> None:
    remote = open_remote(prepared_file(tmp_path, 20))
    td = ScriptedTD([None])
    assert dispatch("register", remote, dialogs=td).status == "cancelled"
    assert td.told == [] and not actions(remote)


# --- the gateway itself ------------------------------------------------------------------


def td_edited_file(tmp_path: Path) -> Path:
    """A workbook as a TD leaves it: an extra column, a blank row, a number typed as text."""
    path = tournament_file(tmp_path, 30)
    wb = openpyxl.load_workbook(path)
    ws = wb["Players"]
    extra = ws.max_column + 1
    ws.cell(row=1, column=extra, value="Paid")
    for r in range(2, ws.max_row + 1):
        ws.cell(row=r, column=extra, value="yes" if r % 2 else None)
    ws.insert_rows(10)
    ws.cell(row=5, column=5, value="12")
    wb.save(path)
    return path


def test_the_xlwings_gateway_reads_every_table_as_the_file_gateway_does(tmp_path: Path) -> None:
    path = td_edited_file(tmp_path)
    by_file = book.read_book(OpenpyxlGateway.open(path, force=True))
    by_excel = book.read_book(XlwingsGateway(open_remote(path)))
    assert by_excel.tournament == by_file.tournament
    assert by_excel.problems == by_file.problems
    assert by_excel.tables.keys() == by_file.tables.keys()
    for name, data in by_file.tables.items():
        other = by_excel.tables[name]
        assert [(r.values, r.extra, r.cells, r.number) for r in other.rows] == [
            (r.values, r.extra, r.cells, r.number) for r in data.rows
        ], name
        assert (other.problems, other.notices, other.present) == (
            data.problems,
            data.notices,
            data.present,
        ), name
    players = by_excel.tables["Players"]
    assert any(r.extra.get("Paid") == "yes" for r in players.rows)
    assert {n.message for n in players.notices} >= {
        "blank row skipped",
        "number stored as text: '12'",
    }


def test_the_tds_own_columns_travel_with_their_rows(tmp_path: Path) -> None:
    path = td_edited_file(tmp_path)
    source = shutil.copy(path, tmp_path / "source.xlsx")
    remote = open_remote(Path(source))
    gw = XlwingsGateway(remote)
    b = book.read_book(gw)
    rows = list(reversed(b.players_data.rows))
    gw.write_table(b.players_data.table, rows)
    gw.commit()
    replayed = replay(remote, Path(source), tmp_path / "replayed.xlsx")
    again = book.read_book(OpenpyxlGateway.open(replayed, force=True))
    assert [(r.values, r.extra) for r in again.players_data.rows] == [
        (r.values, r.extra) for r in rows
    ]


def test_a_new_round_sheet_is_added_and_written_as_blocks_with_its_table(tmp_path: Path) -> None:
    path = tournament_file(tmp_path, 24, played=2, rounds=3)
    t = simple_tournament(24, 3, seed=24)
    remote = open_remote(path)
    gw = XlwingsGateway(remote)
    round_sheets.write_round(gw, t.rounds[2], t.players)
    assert [type(c).__name__ for c in gw.changes][:2] == ["AddSheet", "WriteBlock"]
    gw.commit()
    (added,) = actions(remote, "addSheet")
    names = [s.name for s in remote.sheets]
    assert added["args"] == [names.index("Round 3"), "Round 3"]
    assert names.index("Round 3") == names.index("Round 2") + 1
    games, byes = (a for a in actions(remote, "setValues") if sheet_of(remote, a) == "Round 3")
    assert games["values"][0] == list(games_table(3).headers)
    assert games["row_count"] == 1 + len(t.rounds[2].games)
    assert byes["start_column"] == len(games_table(3).columns) + 1
    tables = [a["args"][3] for a in actions(remote, "addTable")]
    assert tables == ["Round3Games", "Round3Byes"]
    result_col = [c.key for c in games_table(3).columns].index("result")
    lists = [a for a in actions(remote, "setDataValidationList")]
    assert any(a["start_column"] == result_col for a in lists)
    replayed = replay(remote, path, tmp_path / "replayed.xlsx")
    rounds = book.read_book(OpenpyxlGateway.open(replayed, force=True)).tournament.rounds
    assert rounds[2] == t.rounds[2]


def test_nothing_reaches_excel_before_commit(tmp_path: Path) -> None:
    remote = open_remote(prepared_file(tmp_path, 20))
    gw = XlwingsGateway(remote)
    snapshot = Snapshot(gw, "register", SETTLED, PLAYERS)
    change = load_all()["register"].run(snapshot, RegisterParams(name="Doe, Jane", rank="3k"))
    apply(gw, change)
    assert gw.changes and not actions(remote)
    gw.commit()
    assert actions(remote, "setValues")


def test_an_unexpected_failure_is_a_short_dialog_and_the_details_go_to_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from addin.door import dispatch as entry

    def excel_refuses(self: XlwingsGateway) -> None:
        raise RuntimeError("Excel refused the write")

    monkeypatch.setattr(XlwingsGateway, "commit", excel_refuses)
    monkeypatch.setattr(entry, "ERROR_LOG", tmp_path / "error.log")
    remote = open_remote(prepared_file(tmp_path, 20))
    outcome = dispatch("register", remote, {"name": "Doe, Jane", "rank": "3k"})
    assert outcome.status == "failed"
    prompt, _, _, mode, _ = alerts(remote)[-1]
    assert "RuntimeError: Excel refused the write" in prompt and mode == "critical"
    assert "Traceback" not in prompt and str(tmp_path / "error.log") in prompt
    assert "Traceback" in (tmp_path / "error.log").read_text()


def test_a_second_lookup_in_the_same_list_is_answered_from_the_kept_index(
    tmp_path: Path,
) -> None:
    """The Excel door keeps the member index under a key of the values Excel gave: the next
    look-up in the same list reads the kept index; a list changed since makes a new one."""
    from addin.workbook import read_cache

    path = prepared_file(tmp_path, 20)
    first = dispatch("lookup", open_remote(path), {"query": "Member1"})
    kept = {p.name: p.stat().st_ino for p in read_cache.folder().iterdir()}
    assert first.status == "done" and kept
    again = dispatch("lookup", open_remote(path), {"query": "Member1"})
    assert again.messages == first.messages
    assert {p.name: p.stat().st_ino for p in read_cache.folder().iterdir()} == kept
    wb = openpyxl.load_workbook(path)
    wb[TDLISTA.sheet]["A2"] = "Member1, Renamed"
    wb.save(path)
    changed = dispatch("lookup", open_remote(path), {"query": "Member1"})
    assert "Member1, Renamed" in "\n".join(changed.messages)
    assert len(list(read_cache.folder().iterdir())) == len(kept) + 1
