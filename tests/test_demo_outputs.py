"""A long demo that fails at its end keeps what it finished (issue 30).

The demo saves its workbook before it writes the reports; a report that cannot be written
is named, the others are written, and the command exits 1 with everything else in place.
The 2,000-player field the README offers runs to the end with both AGA reports.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from addin.formats.aga_xml import validate_aga_xml
from tests.helpers import log_messages, run, sheet_rows


def test_a_report_that_fails_is_named_and_the_workbook_and_other_reports_stay(
    tmp_path: Path,
) -> None:
    out = tmp_path / "demo.xlsx"
    (tmp_path / "demo-aga.xml").mkdir()  # the XML report cannot be written over a folder
    result = run("demo", out, "--players", 16, "--rounds", 2)
    assert result.returncode == 1
    error = result.stderr.strip().splitlines()[-1]
    assert error.startswith("error: ") and "the AGA XML report" in error and "demo-aga.xml" in error
    assert "Traceback" not in result.stderr
    assert sheet_rows(out, "Round 2"), "the rounds played are in the workbook"
    for suffix in ("-pairings.pdf", "-crosstable.html", "-cards.pdf", "-aga.txt"):
        assert (tmp_path / f"demo{suffix}").stat().st_size > 0
    assert any(
        level == "Error" and "AGA XML report not written" in message
        for level, _, message in log_messages(out)
    )


@pytest.mark.slow
def test_the_largest_demo_runs_to_its_aga_reports(tmp_path: Path) -> None:
    out = tmp_path / "big.xlsx"
    result = run("demo", out, "--players", 2000, "--rounds", 3)
    assert result.returncode == 0, result.stderr
    assert sheet_rows(out, "Round 3")
    assert (tmp_path / "big-aga.txt").stat().st_size > 0
    assert validate_aga_xml((tmp_path / "big-aga.xml").read_bytes()) == []
