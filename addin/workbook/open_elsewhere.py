"""Who else holds the workbook: Excel, LibreOffice, or another command of ours.

Excel leaves ``~$NAME.xlsx`` beside a workbook it has open, LibreOffice
``.~lock.NAME.xlsx#``. Reading is safe while they hold it (the file on disk is
complete); writing is not, since their next save would silently undo ours. So
commands that only read go ahead and commands that write refuse, naming the
program and, where its lock file says, the user.

Two of our own commands on one workbook take turns: each holds an OS lock (released
even if the process dies) from reading to saving, so the second reads what the first
saved. The lock file lives in the temporary folder, named by the workbook's real path,
so nothing appears beside the workbook.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from filelock import FileLock, Timeout

LOCK_TIMEOUT = float(os.environ.get("AGA_MCMAHON_LOCK_TIMEOUT", "120"))
"""Seconds a command waits for another one working on the same workbook."""


class WorkbookLocked(RuntimeError):
    """Another program has the workbook open; writing would be lost at its next save."""


class WorkbookBusy(RuntimeError):
    """Another command of ours kept the workbook for longer than ``LOCK_TIMEOUT``."""


def excel_lock_files(path: Path) -> list[Path]:
    """Excel's owner file: ``~$`` before the name, or over its first two characters
    when the name is long."""
    names = {"~$" + path.name, "~$" + path.name[2:]} if len(path.stem) > 2 else {"~$" + path.name}
    return [path.with_name(n) for n in sorted(names)]


def libreoffice_lock_file(path: Path) -> Path:
    return path.with_name(f".~lock.{path.name}#")


def _excel_user(lock: Path) -> str:
    """The user name Excel writes at the start of its owner file (a length byte, then
    the name), when it can be read."""
    try:
        data = lock.read_bytes()[:56]
    except OSError:
        return ""
    if not data or not 0 < data[0] <= 54:
        return ""
    name = data[1 : 1 + data[0]].decode("latin-1", errors="replace")
    return name if name.isprintable() else ""


def _libreoffice_user(lock: Path) -> str:
    """``Name,system user,host,date,profile;``: the name (or system user) and the host."""
    try:
        text = lock.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    fields = [f.strip() for f in text.split(";", 1)[0].split(",")]
    user = next((f for f in fields[:2] if f), "")
    host = fields[2] if len(fields) > 2 else ""
    return f"{user} on {host}" if user and host else user


def held_by(path: Path) -> str | None:
    """'Excel (lock file ~$X.xlsx, user Jane)' or None when no other program holds it."""
    for lock in excel_lock_files(path):
        if lock.exists():
            user = _excel_user(lock)
            return f"Excel (lock file {lock.name}" + (f", user {user})" if user else ")")
    lock = libreoffice_lock_file(path)
    if lock.exists():
        user = _libreoffice_user(lock)
        return f"LibreOffice (lock file {lock.name}" + (f", user {user})" if user else ")")
    return None


def check_not_open(path: Path) -> None:
    """Raise ``WorkbookLocked`` when Excel or LibreOffice holds ``path``."""
    holder = held_by(path)
    if holder:
        raise WorkbookLocked(
            f"{path.name} is open in {holder}: close it there first, or pass --force "
            "if the lock file is left over from a crash; nothing was written"
        )


def turn_lock(path: Path) -> Path:
    """The lock file for ``path``: in the temporary folder, named by the workbook's real
    path, so that nothing is added beside the workbook (reading never writes there)."""
    real = os.path.normcase(str(Path(path).resolve()))
    name = hashlib.sha256(real.encode("utf-8", errors="surrogatepass")).hexdigest()[:32]
    return Path(tempfile.gettempdir()) / "aga-mcmahon-locks" / f"{name}.lock"


def _shared_folder(folder: Path) -> None:
    """The locks' folder, open to every user of the machine like the temporary folder."""
    if not folder.is_dir():
        folder.mkdir(exist_ok=True)
        with contextlib.suppress(OSError):
            os.chmod(folder, 0o1777)


@contextlib.contextmanager
def one_at_a_time(path: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold the workbook's turn lock; wait up to ``timeout`` seconds for it.

    Where no lock file can be made (the temporary folder not writable) the command
    goes ahead without taking turns, as before there were turns.
    """
    where = turn_lock(path)
    lock = FileLock(where, timeout=LOCK_TIMEOUT if timeout is None else timeout, mode=0o666)
    try:
        _shared_folder(where.parent)
        lock.acquire()
    except Timeout as err:
        raise WorkbookBusy(
            f"{path.name} is busy: another command has been working on it for more than "
            f"{lock.timeout:.0f} s; nothing was done, try again when it has finished"
        ) from err
    except OSError:
        yield
        return
    try:
        yield
    finally:
        lock.release()


@contextlib.contextmanager
def try_turn(name: str) -> Iterator[bool]:
    """Take the turn of the workbook ``name`` (its full name, as a window knows it) without
    waiting: True while held; False when another action has it (a second click on a Mac,
    where each click starts its own Python). The same lock as :func:`one_at_a_time` for a
    workbook saved to a file, so a button and a command line take turns too."""
    where = turn_lock(Path(name))
    lock = FileLock(where, timeout=0, mode=0o666)
    try:
        _shared_folder(where.parent)
        lock.acquire()
    except Timeout:
        yield False
        return
    except OSError:  # no lock can be made here: go ahead, as without turns
        yield True
        return
    try:
        yield True
    finally:
        lock.release()
