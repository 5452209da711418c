"""The benchmarks the README quotes still run, at a size a test can afford.

Their figures are measured by hand (README, Performance); what a test can keep is that the
commands work: ``bench_pair_cli`` stopped at ``pair`` once ``pair`` began to require bands,
and nothing noticed until its figures were next wanted.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.mark.parametrize(
    ("script", "arguments", "printed"),
    [
        (
            "bench_pair_cli.py",
            ["--players", "40", "--runs", "1"],
            "`python -m addin pair` end to end",
        ),
        (
            "bench_rounds.py",
            ["--players", "60", "--rounds", "3", "--runs", "1"],
            "round 3 / round 2",
        ),
        (
            "bench_demo_rounds.py",
            ["--players", "30", "--rounds", "3"],
            "round 3 / round 2",
        ),
        (
            "bench_desk.py",
            ["--players", "30", "--members", "500", "--runs", "1"],
            "x floor (cpu)",
        ),
        (
            "bench_journal.py",
            ["--sizes", "30", "--entries", "24"],
            "20 gave back the state before their entry, part for part",
        ),
        (
            "bench_stations.py",
            ["--players", "16", "--field", "10", "--phones", "10", "--kill", "--seconds", "400"],
            "lost: 0, doubled: 0, in the Log but not written: 0",
        ),
        (
            "bench_congress.py",
            ["--players", "12", "--rounds", "2", "--seconds", "400"],
            "lost: 0, doubled: 0",
        ),
    ],
)
def test_a_benchmark_prints_its_table(script: str, arguments: list[str], printed: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *arguments],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert printed in done.stdout
