"""The committed workbook_template.xlsx is exactly what the layout generates."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from addin.workbook import template
from addin.workbook.layout import SHEET_ORDER, fixed_tables
from addin.workbook.styling import is_wide

ROOT = Path(__file__).resolve().parents[1]


def test_the_committed_template_matches_the_generator(tmp_path: Path) -> None:
    generated = tmp_path / "generated.xlsx"
    template.write_template(generated)
    assert template.content(ROOT / "workbook_template.xlsx") == template.content(generated), (
        "workbook_template.xlsx is stale: run `python -m addin template`"
    )


def test_every_sheet_is_a_printable_excel_table(tmp_path: Path) -> None:
    path = tmp_path / "t.xlsx"
    template.write_template(path)
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == list(SHEET_ORDER)
    for table in fixed_tables(5, ("SOS", "SODOS", "Face to face", "Random")):
        ws = wb[table.sheet]
        assert table.name in ws.tables, table.name
        assert [c.value for c in ws[1]][: len(table.columns)] == list(table.headers)
        assert ws.freeze_panes is not None
        assert str(ws.print_title_rows) == "$1:$1"
        assert ws.page_setup.orientation == ("landscape" if is_wide(table) else "portrait")
        assert ws.page_setup.fitToWidth == 1
        for column in table.columns:
            if column.choices:
                listed = '"' + ",".join(column.choices) + '"'
                assert any(v.formula1 == listed for v in ws.data_validations.dataValidation), (
                    f"{table.sheet} {column.header} has no dropdown"
                )


def test_settings_hold_every_aga_tournament_field(tmp_path: Path) -> None:
    path = tmp_path / "t.xlsx"
    template.write_template(path)
    labels = [
        r[0]
        for r in openpyxl.load_workbook(path)["Tournament"].iter_rows(min_row=2, values_only=True)
    ]
    for needed in (
        "Tournament name",
        "Venue",
        "Venue address",
        "Start date",
        "End date",
        "Director name",
        "Director address",
        "Director phone",
        "Director email",
        "Sponsor name",
        "Sponsor address",
        "Sponsor email",
        "Sponsor phone",
        "Sponsor web page",
        "Convener name",
        "Convener address",
        "Convener email",
        "Convener phone",
        "Convener web page",
        "Pairing format",
        "Rules",
        "Basic time (minutes)",
        "Overtime format",
        "Overtime conditions",
        "Komi (even games)",
        "Number of rounds",
        "Tiebreak order",
        "Bar (rank or rating)",
        "Band parameter D",
        "Top band separation",
        "Initial scores",
        "Lowest band initial score",
        "Handicap",
        "Top band games even",
        "Colour assignment",
        "Avoid same family",
        "Avoid same club",
        "Avoid same city",
        "Avoid same state",
        "Avoid same country",
        "Avoid handicap games",
        "Random seed",
    ):
        assert needed in labels, needed


def test_architecture_doc_lists_the_layout_as_declared() -> None:
    from addin.workbook.docs import ownership_markdown

    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert ownership_markdown() in doc, (
        "docs/architecture.md is stale: regenerate its layout section with "
        "`python -m addin.workbook.docs`"
    )
