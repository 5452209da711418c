"""Saving a workbook (or any output file) so that nothing is ever lost.

The new content goes to a temporary file beside the target, is flushed to disk,
and only then replaces the target in one rename. The previous version becomes
the newest rolling backup (``NAME.bak1.xlsx``) through a hard link (a copy where
links are not possible) made *before* anything is renamed, and the backups roll
only *after* the new file is in place. So a save that fails at any step (a full
disk, no permission, a rename refused) leaves the target and every existing
backup as they were, byte for byte.

A symbolic link is followed: the file it points to is written and the link stays
a link. A read-only file is refused, never silently replaced. New files get the
user's usual permissions (umask), not the 0600 of a temporary file.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import stat
import tempfile
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path

from filelock import FileLock, Timeout
from lxml import etree

from addin.workbook.package import sheet_part

BACKUPS_KEPT = 3


class SaveRefused(RuntimeError):
    """The file must not be written: read-only, or another tournament would be clobbered."""


def target_of(path: Path) -> Path:
    """The file a write to ``path`` lands in: symbolic links followed."""
    path = Path(path)
    return path.resolve() if path.is_symlink() else path


def file_identity(path: Path) -> tuple[int, int, int] | None:
    """The file's identity and time (inode, modified, size): a save, atomic or not, changes
    it, so a reader knows the file was written since it looked. None when it cannot be read."""
    try:
        st = Path(path).stat()
    except (OSError, ValueError):  # ValueError: a name the system cannot hold (a NUL)
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def is_read_only(path: Path) -> bool:
    """No write permission bit for the owner (root ignores permissions; a TD's intent does not)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not mode & stat.S_IWUSR or not os.access(path, os.W_OK)


def check_writable(path: Path, what: str = "") -> None:
    path = target_of(path)
    if path.exists() and is_read_only(path):
        raise SaveRefused(
            f"{what or path.name} is read-only; make it writable (file properties) "
            "or save under another name"
        )
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise SaveRefused(f"cannot write {path}: the folder {folder} does not exist")


_ROW = re.compile(rb"<row\b[^>]*?\br=\"(\d+)\"[^>]*?(?:/>|>(.*?)</row>)", re.S)
_FILLED = re.compile(rb"<v>|<v\s|<is>")


def is_tournament_workbook(path: Path) -> bool:
    """An .xlsx package whose Players or Log sheet holds data below its header: a
    tournament, not the blank template."""
    try:
        if not path.is_file() or not zipfile.is_zipfile(path):
            return False
        with zipfile.ZipFile(path) as package:
            parts = [sheet_part(package, name) for name in ("Players", "Log")]
            sheets = [package.read(p) for p in parts if p and p in package.namelist()]
    except (OSError, KeyError, ValueError, zipfile.BadZipFile, etree.LxmlError):
        return False
    return any(
        int(row.group(1)) > 1 and _FILLED.search(row.group(2) or b"")
        for xml in sheets
        for row in _ROW.finditer(xml)
    )


def same_file(a: Path, b: Path) -> bool:
    try:
        return Path(a).exists() and Path(b).exists() and os.path.samefile(a, b)
    except OSError:
        return False


def guard_output(path: Path, *, workbook: Path | None = None, force: bool = False) -> bool:
    """Refuse to write an output over the workbook itself or over any tournament workbook.

    The workbook an action runs on is never overwritten by one of its own outputs,
    not even with ``force``: the action saves the workbook afterwards, so the output
    would be lost and the tournament with it. Another tournament workbook is refused
    unless ``force``; then the caller keeps a backup first (returns True).
    """
    target = target_of(Path(path))
    if workbook is not None and same_file(target, workbook):
        raise SaveRefused(
            f"{Path(path).name} is the tournament workbook itself; write the output to another file"
        )
    check_writable(target)
    if is_tournament_workbook(target):
        if not force:
            raise SaveRefused(
                f"{Path(path).name} is an existing tournament workbook; choose another name, "
                "or pass --force to replace it (a backup is kept)"
            )
        return True
    return False


def backup_path(path: Path, n: int) -> Path:
    return path.with_name(f"{path.stem}.bak{n}{path.suffix}")


def _snapshot(path: Path) -> Path:
    """A new name for the current ``path`` (a hard link, or a complete copy)."""
    fd, name = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".bak", dir=path.parent)
    os.close(fd)
    snap = Path(name)
    try:
        snap.unlink()
        try:
            os.link(path, snap)
        except OSError:  # a file system without hard links: copy, flushed to disk
            shutil.copy2(path, snap)
            _fsync(snap)
    except BaseException:
        snap.unlink(missing_ok=True)
        raise
    return snap


def _roll(path: Path, snapshot: Path, keep: int) -> None:
    """Make ``snapshot`` backup 1, shifting the others down; renames only, no new data."""
    for n in range(keep, 1, -1):
        older = backup_path(path, n - 1)
        if older.exists():
            os.replace(older, backup_path(path, n))
    os.replace(snapshot, backup_path(path, 1))


def rotate_backups(path: Path, keep: int = BACKUPS_KEPT) -> None:
    """Keep the current version of ``path`` as backup 1 (before it is replaced by hand)."""
    path = target_of(path)
    if path.exists():
        _roll(path, _snapshot(path), keep)


def default_mode() -> int:
    """The permissions a new file gets from the user's umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _fsync(path: Path) -> None:
    with open(path, "rb") as f:
        os.fsync(f.fileno())


def _fsync_folder(folder: Path) -> None:
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError:  # some file systems cannot sync a directory; the rename is still atomic
        pass
    finally:
        os.close(fd)


def save_atomically(
    write: Callable[[Path], None],
    path: Path,
    *,
    keep: int = BACKUPS_KEPT,
    replace: Callable[[Path, Path], None] = os.replace,
    ready: Callable[[Path], None] | None = None,
) -> None:
    """Call ``write(tmp)`` to produce the new file, then swap it in for ``path``.

    ``ready(tmp)``, when given, runs once the new file is complete and before anything
    else is touched (the journal keeps it there): when it fails, the target and its
    backups are as they were. ``replace`` is the rename step; tests pass one that fails
    to prove the original and its backups survive.
    """
    path = target_of(Path(path))
    check_writable(path)
    existed = path.exists()
    mode = stat.S_IMODE(path.stat().st_mode) if existed else default_mode()
    fd, name = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=path.suffix, dir=path.parent)
    os.close(fd)
    tmp = Path(name)
    snapshot: Path | None = None
    try:
        write(tmp)
        _fsync(tmp)
        os.chmod(tmp, mode)
        if ready is not None:
            ready(tmp)
        if keep and existed:
            snapshot = _snapshot(path)
        replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        if snapshot is not None:
            snapshot.unlink(missing_ok=True)
        raise
    _fsync_folder(path.parent)
    if snapshot is not None:
        _roll(path, snapshot, keep)


def write_bytes_safely(
    path: Path, data: bytes, *, workbook: Path | None = None, force: bool = False
) -> None:
    """Write an output file (report, export, template) with every guard of a save.

    A tournament workbook it replaces (``force`` given) keeps its backups.
    """
    clobbers = guard_output(path, workbook=workbook, force=force)

    def write(tmp: Path) -> None:
        tmp.write_bytes(data)

    save_atomically(write, path, keep=BACKUPS_KEPT if clobbers else 0)


# --- one writer at a time, and other programs that hold the file --------------------------
# Who else holds the workbook: Excel, LibreOffice, or another command of ours.
#
# Excel leaves ``~$NAME.xlsx`` beside a workbook it has open, LibreOffice
# ``.~lock.NAME.xlsx#``. Reading is safe while they hold it (the file on disk is
# complete); writing is not, since their next save would silently undo ours. So
# commands that only read go ahead and commands that write refuse, naming the
# program and, where its lock file says, the user.
#
# Two of our own commands on one workbook take turns: each holds an OS lock (released
# even if the process dies) from reading to saving, so the second reads what the first
# saved. The lock file lives in the temporary folder, named by the workbook's real path,
# so nothing appears beside the workbook.


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
