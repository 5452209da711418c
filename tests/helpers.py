"""Running the real command line on real files, as a TD would."""

from __future__ import annotations

import contextlib
import hashlib
import io
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import openpyxl

from addin import store
from addin.cli import main

DATA = Path(__file__).resolve().parent / "data"
"""Real files in the real formats, kept with the tests (tests/data/README.md says where from)."""
TDLISTA_SNAPSHOT = DATA / "tdlista" / "tdlista-snapshot.txt"


@dataclass(frozen=True)
class Finished:
    returncode: int
    stdout: str
    stderr: str


def run(*args: object) -> Finished:
    """The command line ``python -m addin ARGS``, run in this process (same code, no start-up)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return Finished(code, out.getvalue(), err.getvalue())


def run_process(*args: object) -> subprocess.CompletedProcess[str]:
    """``python -m addin ARGS`` in a fresh interpreter, exactly as a TD types it."""
    return subprocess.run(
        [sys.executable, "-m", "addin", *map(str, args)], capture_output=True, text=True
    )


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def log_messages(path: Path) -> list[tuple[str, str, str]]:
    """(level, action, message) of every Log row."""
    ws = openpyxl.load_workbook(path)["Log"]
    return [(r[1], r[2], r[3]) for r in ws.iter_rows(min_row=2, values_only=True) if r[0]]


def sheet_rows(path: Path, sheet: str) -> list[dict[str, object]]:
    """A sheet's rows as header -> value dicts (the first table on the sheet)."""
    ws = openpyxl.load_workbook(path)[sheet]
    rows = ws.iter_rows(values_only=True)
    header = next(rows)
    return [dict(zip(header, r, strict=False)) for r in rows if any(v is not None for v in r)]


def set_cell(path: Path, sheet: str, header: str, row: int, value: object) -> str:
    """Type ``value`` into the cell of column ``header``, row ``row``, as a TD would; its
    reference (``B7``)."""
    wb = openpyxl.load_workbook(path)
    ws = wb[sheet]
    column = [c.value for c in ws[1]].index(header) + 1
    cell = ws.cell(row=row, column=column, value=value)
    wb.save(path)
    return str(cell.coordinate)


SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
"""LibreOffice, the real spreadsheet application the workbooks must open in."""


def libreoffice_convert(source: Path, target: str, outdir: Path) -> Path:
    """``soffice --headless --convert-to TARGET``, with a profile of its own; the new file."""
    assert SOFFICE is not None, "LibreOffice is not installed"
    done = subprocess.run(
        [
            SOFFICE,
            f"-env:UserInstallation=file://{outdir / 'profile'}",
            "--headless",
            "--convert-to",
            target,
            "--outdir",
            str(outdir),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    return outdir / f"{source.stem}.{target.split(':')[0]}"


@contextlib.contextmanager
def licensed_remote_engine() -> Iterator[None]:
    """xlwings' remote engine, licensed for noncommercial use (the variable set empty turns
    it off); skips the test when it can't be had, and restores the environment after."""
    import os

    import pytest

    from addin.excel.remote_json import LICENSE_VARIABLE, enable_remote_engine

    license_key = os.environ.get(LICENSE_VARIABLE, "noncommercial")
    if not license_key:
        pytest.skip(f"{LICENSE_VARIABLE} is set empty: remote-engine tests are off")
    before = os.environ.get(LICENSE_VARIABLE)
    os.environ[LICENSE_VARIABLE] = license_key
    try:
        if not enable_remote_engine():
            pytest.skip("xlwings' remote engine is not available with this xlwings/license")
        yield
    finally:
        if before is None:
            os.environ.pop(LICENSE_VARIABLE, None)
        else:
            os.environ[LICENSE_VARIABLE] = before


def run_held(
    storage: object, action: str, params: dict[str, object], *, yes: bool = True
) -> store.Outcome:
    """``action`` run through the store on a storage the test holds open (its writes are
    committed to it, not saved); warnings accepted when ``yes``."""
    held = store.HeldBook(storage)  # type: ignore[arg-type]
    outcome = store.run(action, [params], held, store.Answering(yes), warnings_accepted=yes)
    if outcome.status == "failed" and outcome.error is not None:
        raise outcome.error
    return outcome
