"""The workbook open in Excel or LibreOffice: reading goes on, writing refuses and says who.

The lock files are the ones those programs leave beside a workbook they hold:
Excel's owner file ``~$NAME.xlsx`` (a length byte, the user name padded to 54
bytes, then the name again in UTF-16) and LibreOffice's ``.~lock.NAME.xlsx#``
(``name,system user,host,date,profile;``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from addin.workbook.saving import held_by
from tests.helpers import digest, log_messages, run
from tests.workbook_fixtures import ready_for_aga, simple_tournament, write_workbook

EXCEL = "Excel (lock file ~$t.xlsx, user Jane Doe)"
LIBREOFFICE = "LibreOffice (lock file .~lock.t.xlsx#, user Jane Doe on gohall)"


def excel_owner_file(book: Path, user: str) -> None:
    name = user.encode("latin-1")
    data = bytes([len(name)]) + name.ljust(54, b" ") + b"\x00\x00" + user.encode("utf-16-le")
    book.with_name("~$" + book.name).write_bytes(data.ljust(165, b"\x00"))


def libreoffice_lock_file(book: Path, user: str) -> None:
    book.with_name(f".~lock.{book.name}#").write_text(
        f"{user},jdoe,gohall,23.11.2026 18:00,file:///home/jdoe/.config/libreoffice/4;",
        encoding="utf-8",
    )


@pytest.fixture(params=["excel", "libreoffice"])
def held(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path, str]:
    t = ready_for_aga(simple_tournament(players=8, rounds=1))
    book = write_workbook(tmp_path / "t.xlsx", t, rounds=1)
    if request.param == "excel":
        excel_owner_file(book, "Jane Doe")
        return book, EXCEL
    libreoffice_lock_file(book, "Jane Doe")
    return book, LIBREOFFICE


def test_the_holder_is_named_with_the_user(held: tuple[Path, str]) -> None:
    book, holder = held
    assert held_by(book) == holder


def test_read_only_commands_work_and_leave_the_workbook_as_it_was(
    held: tuple[Path, str],
) -> None:
    book, _ = held
    before = digest(book)
    check = run("check", book)
    assert check.returncode == 0, check.stderr
    assert check.stdout.endswith("t.xlsx: 0 problem(s), 0 warning(s) to confirm, 0 note(s)\n")

    page = book.parent / "registration.html"
    report = run("report", book, "registration", "--out", page)
    assert report.returncode == 0, report.stderr
    assert page.exists()
    assert report.stdout.splitlines()[-1].endswith("registration.html")  # reading never logs

    text = book.parent / "aga.txt"
    export = run("export-aga", book, "--text", text, "--yes")
    assert export.returncode == 0, export.stderr
    assert text.read_text(encoding="utf-8").startswith("TOURNEY")
    assert digest(book) == before


@pytest.mark.parametrize(
    "args",
    [
        ("register", "--name", "Late, Pat", "--rank", "5k", "--yes"),
        ("report", "registration", "--sheet"),
        ("bands", "--yes"),
    ],
)
def test_commands_that_write_refuse_and_say_which_program_holds_it(
    held: tuple[Path, str], args: tuple[str, ...]
) -> None:
    book, holder = held
    before = digest(book)
    done = run(args[0], book, *args[1:])
    assert done.returncode == 1
    assert done.stderr == (
        f"error: t.xlsx is open in {holder}: close it there first, or pass --force "
        "if the lock file is left over from a crash; nothing was written\n"
    )
    assert done.stdout == "", "no success line for what was not written"
    assert digest(book) == before


def test_force_writes_anyway(held: tuple[Path, str]) -> None:
    book, _ = held
    done = run("register", book, "--name", "Late, Pat", "--rank", "5k", "--yes", "--force")
    assert done.returncode == 0, done.stderr
    assert log_messages(book)[-1][2].startswith("Registered Late, Pat")


def test_a_lock_file_without_a_readable_user_still_names_the_program(tmp_path: Path) -> None:
    book = write_workbook(tmp_path / "t.xlsx", simple_tournament(players=4, rounds=1), rounds=1)
    book.with_name("~$t.xlsx").write_bytes(b"")
    assert held_by(book) == "Excel (lock file ~$t.xlsx)"
    long = write_workbook(
        tmp_path / "Springfield Open.xlsx", simple_tournament(players=4, rounds=1), rounds=1
    )
    long.with_name("~$ringfield Open.xlsx").write_bytes(b"")
    assert held_by(long) == "Excel (lock file ~$ringfield Open.xlsx)"
