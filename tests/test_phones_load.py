"""The load test of the served site (``benchmarks/bench_phones.py``), at a size a test can
afford: phones polling and reporting on loopback while the TD publishes and records a result.
Its full run (300 phones, 150 reports, a minute) is quoted in the README."""

from __future__ import annotations

import contextlib
import io
import re
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
SMALL = ["--players", "60", "--phones", "60", "--reports", "30", "--seconds", "12", "--poll", "3"]
"""A fifth of the hall for twelve seconds; the p95 bound is the benchmark's own (200 ms)."""


@pytest.mark.parametrize(
    "how",
    [[], ["--form", "--one-address"]],
    ids=["json-from-many-addresses", "form-posts-from-one-nat-address"],
)
def test_phones_polling_and_reporting_keep_every_report_once_and_the_workbook_sound(
    how: list[str],
) -> None:
    """As the site's script reports (JSON), and as phones without JavaScript do (a plain
    form POST, answered with a page) all behind one address, as a hall behind NAT."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import bench_phones
    finally:
        sys.path.remove(str(BENCHMARKS))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = bench_phones.main(SMALL + how)
    printed = out.getvalue()
    assert code == 0, printed
    assert "reports kept: 30 of 30, each exactly once: True" in printed
    assert "every report answered 200: True" in printed
    assert re.search(r"^states +\d+", printed, re.M), "the pages' report-state polls"
    assert "failed requests: 0" in printed
    assert "check afterwards: exit 0" in printed
    assert re.search(r"TD: result +exit 0", printed)
    assert len(re.findall(r"TD: publish +exit 0", printed)) == 2, "publish while phones read"
