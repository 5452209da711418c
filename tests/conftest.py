"""Every test keeps what it keeps (``read_cache``: the TDListA's index) in a folder of its
own: never the user's, never another test's (two tests' lists may be the same bytes). And
an interpreter without the project's packages is told so in one line, instead of a hundred
collection errors."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def missing_packages() -> list[str]:
    """The packages pyproject.toml names (the project's and its test extra) that this
    interpreter has not installed."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    missing = []
    for requirement in wanted:
        name = re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0]
        try:
            metadata.version(name)
        except metadata.PackageNotFoundError:
            missing.append(name)
    return missing


def pytest_configure(config: pytest.Config) -> None:
    missing = missing_packages()
    if missing:
        pytest.exit(
            f"{len(missing)} of the project's packages are not installed for this Python "
            f'({", ".join(missing)}): run pip install -e ".[test]" (README)',
            returncode=4,
        )


SLOW_FILES = frozenset(
    {
        # a real LibreOffice (UNO, or converting to PDF)
        "test_libreoffice.py",
        "test_calc_door.py",
        "test_calc_extension.py",
        "test_calc_journal.py",
        "test_calc_toolbar_screenshot.py",
        "test_station_calc.py",
        "test_hostile_desk_inputs.py",
        "test_printing.py",
        "test_readme_pictures.py",
        "test_bulk_sheet.py",
        # a real browser
        "test_accessibility.py",
        "test_publish_browser.py",
        "test_report_browser.py",
        "test_station_browser.py",
        # load tests, benchmarks, the wheel in a fresh venv
        "test_phones_load.py",
        "test_benchmarks_run.py",
        "test_bench_quality_opengotha.py",
        "test_packaging.py",
    }
)
"""Test files marked ``slow`` as a whole: ``python -m pytest -m "not slow"`` is the core (the
pairing, the rules, the formats, the command line and the store) in a few minutes."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in SLOW_FILES:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
