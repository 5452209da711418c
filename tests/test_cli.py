"""The command line as a TD meets it: `python -m addin`, the console script, exit codes."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

from tests.helpers import run, run_process


def test_python_dash_m_addin_creates_a_workbook_and_checks_it(tmp_path: Path) -> None:
    book = tmp_path / "club.xlsx"
    created = run_process("new", book, "--name", "Club Night", "--rounds", "3")
    assert created.returncode == 0, created.stderr
    checked = run_process("check", book)
    assert checked.returncode == 0
    assert "0 problem(s)" in checked.stdout


def test_the_console_script_is_installed() -> None:
    assert shutil.which("aga-mcmahon"), "pip install . installs the aga-mcmahon script"


def test_usage_errors_exit_2() -> None:
    assert run("no-such-command").returncode == 2
    assert run("new").returncode == 2
    assert run("new", "x.xlsx", "--start", "28/11/2026").returncode == 2


def test_new_refuses_to_overwrite_a_workbook(tmp_path: Path) -> None:
    book = tmp_path / "t.xlsx"
    assert run("new", book).returncode == 0
    again = run("new", book)
    assert again.returncode == 1
    assert "already exists" in again.stderr


def test_new_says_the_next_step_a_command_the_td_can_run_as_printed(tmp_path: Path) -> None:
    book = tmp_path / "my open.xlsx"
    created = run("new", book, "--name", "My Open")
    assert created.returncode == 0, created.stderr
    step = created.stdout.splitlines()[-1]
    assert step.startswith("Next: fill the Tournament sheet"), created.stdout
    command = shlex.split(step.split(": ", 2)[-1])
    assert command[:3] == ["python", "-m", "addin"] and command[3] == "import-tdlista"
    assert command[4] == str(book) and "--download" in command, command
    assert run(*command[3:5], "--help").returncode == 0


def test_a_file_that_is_not_a_workbook_is_a_clear_error(tmp_path: Path) -> None:
    bogus = tmp_path / "notes.xlsx"
    bogus.write_text("just text")
    result = run("check", bogus)
    assert result.returncode == 1
    assert "not an Excel .xlsx workbook" in result.stderr
    assert run("check", tmp_path / "missing.xlsx").returncode == 1
