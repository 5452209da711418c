"""What a reading action made of a sheet, kept for the next time the sheet is the same.

The registration desk looks members up again and again in a TDListA that changes once a
season: indexing its 22,410 members costs more than everything else a look-up does. The
index is kept in the user's own cache folder (never beside the workbook: reading never
writes there), under a key that is a SHA-256 of every stored byte the reading depends on
(the sheet, its Excel Table, the shared strings, the styles that make a number a date, the
workbook's list of sheets), of what was read (the table's declaration) and of this
program's and python-calamine's versions. Same key, same bytes: the kept index is exactly
what reading again would make. Anything odd (no folder, a damaged entry, a folder another
user could write to) is a miss, never an error.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import re
import stat
import struct
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TypeVar

if TYPE_CHECKING:
    from addin.workbook.gateway import Problem, TableSource
    from addin.workbook.layout import Table

Index = TypeVar("Index")

KEPT = 8
"""Entries kept (the newest); a desk needs one or two."""

_PARTS_ALWAYS = ("xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/sharedStrings.xml")
_DEFINED_NAMES = re.compile(rb"<definedNames>.*?</definedNames>", re.S)
"""The workbook's names (print areas: they follow a table's rows) are no part of a reading."""


def folder() -> Path:
    """The user's own cache folder for this program."""
    if sys.platform.startswith("win"):
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "aga-mcmahon"


def _versions() -> str | None:
    """This program's version and code (every module's size and time: a kept object made
    by other code is never read), and python-calamine's version."""
    from importlib.metadata import PackageNotFoundError, version

    import addin

    try:
        calamine = version("python-calamine")
    except PackageNotFoundError:
        return None
    code = hashlib.sha256()
    for module in sorted(Path(addin.__file__).parent.rglob("*.py")):
        info = module.stat()
        code.update(f"{module.name}:{info.st_size}:{info.st_mtime_ns}\0".encode())
    return f"{addin.__version__}\0{code.hexdigest()}\0{calamine}\0"


def digest(content: bytes) -> str | None:
    """The key of ``content`` (everything a reading depended on), with the versions."""
    versions = _versions()
    if versions is None:
        return None
    return hashlib.sha256(versions.encode() + content).hexdigest()


def sheet_key(path: Path, sheet_part: str, what: str) -> str | None:
    """The key of ``what`` read from the package's ``sheet_part``; None when it cannot be made."""
    from addin.workbook.package import table_parts

    versions = _versions()
    if versions is None:
        return None
    hashed = hashlib.sha256(f"{versions}{what}\0".encode())
    folder_name, name = sheet_part.rsplit("/", 1)
    rels = f"{folder_name}/_rels/{name}.rels"
    try:
        with zipfile.ZipFile(path) as package, path.open("rb") as raw:
            names = set(package.namelist())
            parts = [sheet_part, rels, *_PARTS_ALWAYS, "xl/styles.xml"]
            parts += sorted(table_parts(package, sheet_part))  # its own: the Log's grows
            for part in parts:
                hashed.update(part.encode() + b"\0")
                if part == "xl/workbook.xml" and part in names:
                    hashed.update(_DEFINED_NAMES.sub(b"", package.read(part)))
                elif part in names:
                    item = package.getinfo(part)
                    hashed.update(f"{item.CRC}:{item.file_size}:".encode())
                    hashed.update(_stored_bytes(raw, item))
    except (OSError, zipfile.BadZipFile, ValueError):
        return None
    return hashed.hexdigest()


def _stored_bytes(raw: BinaryIO, item: zipfile.ZipInfo) -> bytes:
    """The part's bytes as stored (compressed: hashing them costs no inflating)."""
    raw.seek(item.header_offset)
    header = raw.read(30)
    if len(header) != 30 or header[:4] != b"PK\x03\x04":
        raise ValueError(item.filename)
    name_length, extra_length = struct.unpack("<HH", header[26:30])
    raw.seek(item.header_offset + 30 + name_length + extra_length)
    return raw.read(item.compress_size)


def indexed(
    tables: TableSource,
    table: Table,
    kind: type[Index],
    read: Callable[[], tuple[Index, list[Problem], bool]],
) -> tuple[Index, list[Problem]]:
    """What ``read`` makes of ``table`` (an index, its problems, whether it may be kept), or
    what it made before from the same bytes: a storage that can name its content (a file
    read for a look-up) keeps it for the next time."""
    keys_of = getattr(tables, "content_keys", None)
    tried: list[str] = []
    for key in keys_of(table) if keys_of is not None else ():
        kept = load(key)
        if isinstance(kept, kind):
            if tried:  # kept again under the cheaper key, for the next look-up
                copy(key, tried[0])
            return kept, []
        tried.append(key)
    index, problems, keep = read()
    if keep:
        store(index, *tried)
    return index, problems


_LOADED: dict[tuple[str, int, int], object] = {}
"""The objects this process loaded, by their entry (its path, inode and size: an entry
written again is a new file, one damaged in place another size): the stations' writer
looks members up for every registration it writes, and unpickles the index once."""
LOADED_KEPT = 4


def load(key: str) -> object | None:
    """The object kept under ``key``, or None. The folder's and the entry's checks are made
    at every call (``_own_folder``, ``_kept_bytes``); only the unpickling is remembered."""
    where = _own_folder(create=False)
    if where is None:
        return None
    try:
        info = (where / f"{key}.pickle").lstat()
    except OSError:
        return None
    seen = (str(where / key), info.st_ino, info.st_size)
    found = _LOADED.get(seen)
    if found is not None:
        return found
    kept = _kept_bytes(key)
    if kept is None:
        return None
    try:
        loaded: object = pickle.loads(kept)  # our own folder, our own files: see _own_folder
    except Exception:  # damaged: read the sheet again
        return None
    if len(_LOADED) >= LOADED_KEPT:
        _LOADED.clear()
    _LOADED[seen] = loaded
    return loaded


def store(value: object, *keys: str) -> None:
    """Keep ``value`` under each of ``keys`` (pickled once; quietly nothing when it cannot
    be kept)."""
    with contextlib.suppress(Exception):
        _write(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), keys)


def copy(kept: str, *keys: str) -> None:
    """Keep what is kept under ``kept`` under ``keys`` too (its bytes, not pickled again)."""
    value = _kept_bytes(kept)
    if value is not None:
        with contextlib.suppress(Exception):
            _write(value, keys)


def _kept_bytes(key: str) -> bytes | None:
    """The pickled object kept under ``key``, or None. An entry is its key on a line, then
    the object: one renamed or copied over another's is a miss."""
    where = _own_folder(create=False)
    if where is None:
        return None
    entry = where / f"{key}.pickle"
    name = f"{key}\n".encode()
    try:
        info = entry.lstat()
        if not stat.S_ISREG(info.st_mode):  # a link, a folder, a pipe (a read would wait)
            return None
        if hasattr(os, "getuid") and info.st_uid != os.getuid():
            return None
        with entry.open("rb") as f:
            if f.read(len(name)) != name:
                return None
            kept = f.read()
        os.utime(entry)  # the newest are kept
        return kept
    except OSError:  # missing, unreadable: read the sheet again
        return None


def _write(value: bytes, keys: tuple[str, ...]) -> None:
    """Each entry written whole or not at all; then only the newest ``KEPT`` stay."""
    where = _own_folder(create=True)
    if where is None or not keys:
        return
    for key in keys:
        fd, temporary = tempfile.mkstemp(dir=where, suffix=".part")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(f"{key}\n".encode())
                f.write(value)
            os.replace(temporary, where / f"{key}.pickle")
        except BaseException:  # a full disk: no half-written part left behind
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    entries = sorted(where.glob("*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[KEPT:]:
        old.unlink(missing_ok=True)


def _own_folder(*, create: bool) -> Path | None:
    """The cache folder, only when this user owns it and no one else may write to it (a
    kept entry is loaded with pickle, which must never read another user's file)."""
    where = folder()
    try:
        if create:
            where.mkdir(parents=True, exist_ok=True, mode=0o700)
        info = where.stat()
    except OSError:
        return None
    if hasattr(os, "getuid") and (
        info.st_uid != os.getuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    ):
        return None
    return where
