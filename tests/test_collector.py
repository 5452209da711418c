"""The command line sets Python's collector for a process that holds a whole workbook."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from addin import cli
from addin.cli import main


@pytest.fixture
def default_thresholds() -> Iterator[None]:
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*saved)


def test_a_command_collects_young_objects_less_often(
    default_thresholds: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--version"]) == 0
    assert gc.get_threshold() == (cli.YOUNG_THRESHOLD, 10, 10)
    assert capsys.readouterr().out.strip()


def test_a_higher_threshold_set_by_the_host_is_kept(default_thresholds: None) -> None:
    gc.set_threshold(10 * cli.YOUNG_THRESHOLD, 5, 5)
    cli.relax_collector()
    assert gc.get_threshold() == (10 * cli.YOUNG_THRESHOLD, 5, 5)
