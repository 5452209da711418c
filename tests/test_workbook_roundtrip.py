"""The workbook is the database: what goes in through the gateway comes back out, by column."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from addin.workbook import book
from addin.workbook.layout import players_table
from addin.workbook.openpyxl_gateway import OpenpyxlGateway
from tests.workbook_fixtures import simple_tournament, write_workbook


def test_200_players_and_5_rounds_read_back_equal(tmp_path: Path) -> None:
    original = simple_tournament(players=200, rounds=5)
    path = write_workbook(tmp_path / "t.xlsx", original, rounds=5)

    back = book.read_book(OpenpyxlGateway.open(path))

    assert back.problems == []
    assert list(back.tournament.players) == list(original.players)
    for pid, player in original.players.items():
        assert back.tournament.players[pid] == player
    assert [r.number for r in back.tournament.rounds] == [1, 2, 3, 4, 5]
    for mine, theirs in zip(original.rounds, back.tournament.rounds, strict=True):
        assert theirs.games == mine.games
        assert theirs.byes == mine.byes


def test_columns_and_formatting_the_td_added_survive_a_write(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "t.xlsx", simple_tournament(players=12, rounds=1), rounds=1)
    wb = openpyxl.load_workbook(path)
    ws = wb["Players"]
    extra_col = ws.max_column + 1
    ws.cell(row=1, column=extra_col, value="T-shirt size")
    for r in range(2, 14):
        ws.cell(row=r, column=extra_col, value=f"M{r}")
    ws["B3"].font = openpyxl.styles.Font(bold=True, color="FF0000")
    wb.save(path)

    gw = OpenpyxlGateway.open(path)
    data = gw.read_table(players_table(1))
    rows = book.merge_rows(data, "aga_id", {10003: {"notes": "paid at the door"}})
    rows.reverse()  # rows may move: their extra columns move with them
    gw.write_table(players_table(1), rows)
    gw.save()

    ws = openpyxl.load_workbook(path)["Players"]
    header = [c.value for c in ws[1]]
    shirt, aga, notes = (header.index(h) + 1 for h in ("T-shirt size", "AGA #", "Notes"))
    by_id = {ws.cell(row=r, column=aga).value: r for r in range(2, 14)}
    for pid, r in by_id.items():
        original_row = pid - 10000 + 2
        assert ws.cell(row=r, column=shirt).value == f"M{original_row}"
    assert ws.cell(row=by_id[10003], column=notes).value == "paid at the door"
    assert ws["B3"].font.bold and ws["B3"].font.color.rgb == "00FF0000"
