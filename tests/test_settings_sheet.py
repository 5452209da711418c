"""The Tournament sheet as a TD meets it: a dropdown for every fixed choice, help on every line."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from openpyxl.worksheet.worksheet import Worksheet

from addin.core.tiebreaks import TIEBREAKS
from addin.workbook import template
from addin.workbook.layout import SETTINGS, Kind
from addin.workbook.settings_sheet import TIEBREAK_ORDERS, choices_of
from tests.helpers import run

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("demo") / "demo.xlsx"
    assert run("demo", path, "--players", 12, "--rounds", 3).returncode == 0
    return path


def settings_sheet(path: Path) -> Worksheet:
    return openpyxl.load_workbook(path)["Tournament"]


def rows_by_label(ws: Worksheet) -> dict[str, int]:
    return {str(ws.cell(row=r, column=1).value): r for r in range(2, ws.max_row + 1)}


def validation_of(ws: Worksheet, cell: str) -> list[object]:
    return [v for v in ws.data_validations.dataValidation if cell in v.sqref]


@pytest.mark.parametrize("which", ["template", "demo"])
def test_every_fixed_choice_has_a_dropdown_and_every_setting_a_message(
    which: str, demo: Path
) -> None:
    ws = settings_sheet(ROOT / "workbook_template.xlsx" if which == "template" else demo)
    rows = rows_by_label(ws)
    for setting in SETTINGS:
        cell = f"B{rows[setting.label]}"
        (validation,) = validation_of(ws, cell)
        assert validation.showInputMessage and validation.prompt, cell
        assert len(validation.prompt) <= 255 and validation.promptTitle
        choices = choices_of(setting)
        if choices or setting.key == "tiebreaks":
            assert validation.type == "list" and validation.errorStyle == "warning", setting.key
        if choices:
            assert validation.formula1 == '"' + ",".join(choices) + '"'
        if setting.kind in (Kind.CHOICE, Kind.BOOL):
            assert choices, f"{setting.label} is a fixed choice without choices"


def test_the_tiebreak_dropdown_lists_orders_the_program_accepts() -> None:
    ws = settings_sheet(ROOT / "workbook_template.xlsx")
    (validation,) = validation_of(ws, f"B{rows_by_label(ws)['Tiebreak order']}")
    listed = [c.value for row in ws[validation.formula1.replace("$", "")] for c in row]
    assert listed == list(TIEBREAK_ORDERS)
    for order in listed:
        assert all(name.strip() in TIEBREAKS for name in str(order).split(","))
    default = next(s.default for s in SETTINGS if s.key == "tiebreaks")
    assert listed[0] == default


def test_the_help_column_has_one_plain_line_per_setting() -> None:
    ws = settings_sheet(ROOT / "workbook_template.xlsx")
    rows = rows_by_label(ws)
    lines = [ws.cell(row=rows[s.label], column=3).value for s in SETTINGS]
    assert all(isinstance(line, str) and line.strip() for line in lines)
    assert all("\n" not in line and "--" not in line for line in lines)  # type: ignore[operator]
    assert len(set(lines)) == len(lines)


def test_a_choice_picked_from_the_dropdown_is_read_back(tmp_path: Path) -> None:
    path = tmp_path / "t.xlsx"
    template.write_template(path)
    wb = openpyxl.load_workbook(path)
    ws = wb["Tournament"]
    rows = rows_by_label(ws)
    ws[f"B{rows['Handicap']}"] = "Minus 2"
    ws[f"B{rows['Tiebreak order']}"] = TIEBREAK_ORDERS[1]
    ws[f"B{rows['Avoid same club']}"] = "Yes"
    wb.save(path)
    result = run("check", path)
    assert result.returncode == 0, result.stderr
