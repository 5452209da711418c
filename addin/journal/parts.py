"""The states the journal keeps, as parts: a workbook is a zip package, and each of its
members' stored (compressed) bytes is kept once, by its SHA-256, however many states hold it.

A state is named by the SHA-256 of the whole package (as an entry's ``before`` and
``after`` name it) and kept as a small manifest, ``states/<digest>.json``: the package
cut into pieces, in order. A member's compressed bytes are a part, kept in
``parts/ab/cdef...`` (the first two hex digits a folder); everything between them (each
member's local header, a data descriptor, the central directory, the end record: names,
methods, CRCs, sizes, dates, attributes, exactly as stored) is kept in the manifest
itself. Put together again, the pieces are the package byte for byte, and that is
checked against the state's digest before anything is written.

A file that is not a zip package (or one whose members overlap) is kept whole as one part.
Format 1's whole copies (``snapshots/<digest>.xlsx``) are still read.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import json
import os
import struct
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from addin.journal.errors import JournalError
from addin.workbook.saving import default_mode

STATES = "states"
PARTS = "parts"
SNAPSHOTS = "snapshots"
"""Format 1: each state a whole copy of the workbook."""
MANIFEST_FORMAT = 2
_LOCAL_HEADER = b"PK\x03\x04"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Member:
    """One member's stored bytes, where they sit in the package."""

    name: str
    start: int
    end: int
    method: int
    crc: int
    size: int
    """Uncompressed."""


def members(data: bytes) -> list[Member] | None:
    """The package's members in the order their bytes lie; None: not a zip package whose
    members can be cut apart (then it is kept whole)."""
    try:
        infos = zipfile.ZipFile(io.BytesIO(data)).infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, struct.error):
        return None
    found: list[Member] = []
    for info in infos:
        at = info.header_offset
        header = data[at : at + 30]
        if len(header) < 30 or header[:4] != _LOCAL_HEADER:
            return None
        name_length, extra_length = struct.unpack("<HH", header[26:30])
        start = at + 30 + name_length + extra_length
        end = start + info.compress_size
        found.append(
            Member(info.filename, start, end, info.compress_type, info.CRC, info.file_size)
        )
    found.sort(key=lambda m: m.start)
    position = 0
    for m in found:
        if m.start < position or m.end > len(data):
            return None
        position = m.end
    return found


class States:
    """The states kept in one journal's folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def manifest_path(self, digest: str) -> Path:
        return self.folder / STATES / f"{digest}.json"

    def snapshot_path(self, digest: str) -> Path:
        return self.folder / SNAPSHOTS / f"{digest}.xlsx"

    def part_path(self, digest: str) -> Path:
        return self.folder / PARTS / digest[:2] / digest[2:]

    def has(self, digest: str) -> bool:
        if self.manifest_path(digest).is_file():
            return True
        return self.snapshot_path(digest).is_file()

    # --- keeping ----------------------------------------------------------------------

    def keep(self, data: bytes) -> tuple[str, list[Path]]:
        """Keep ``data`` as a state (its new parts, then its manifest); its digest, and the
        files this call wrote (to be taken back when the action they were for fails)."""
        digest = sha256(data)
        if self.has(digest):
            return digest, []
        pieces: list[object] = []
        parts: list[tuple[str, bytes]] = []
        found = members(data)
        if found is None:
            pieces.append(self._part_piece(data, None, parts))
        else:
            position = 0
            for m in found:
                if m.start > position:
                    pieces.append(_raw(data[position : m.start]))
                pieces.append(self._part_piece(data[m.start : m.end], m, parts))
                position = m.end
            if position < len(data):
                pieces.append(_raw(data[position:]))
        manifest = {
            "format": MANIFEST_FORMAT,
            "sha256": digest,
            "size": len(data),
            "pieces": pieces,
        }
        written: list[Path] = []
        try:
            for part, stored in parts:
                path = self.part_path(part)
                if not path.is_file():
                    _write_new(path, stored)
                    written.append(path)
            text = json.dumps(manifest, separators=(",", ":"), ensure_ascii=False)
            path = self.manifest_path(digest)
            _write_new(path, text.encode("utf-8"))
            written.append(path)
            for folder in {p.parent for p in written}:
                _fsync_folder(folder)
        except BaseException:
            self.drop(written)
            raise
        return digest, written

    @staticmethod
    def _part_piece(stored: bytes, m: Member | None, parts: list[tuple[str, bytes]]) -> object:
        digest = sha256(stored)
        parts.append((digest, stored))
        piece: dict[str, object] = {"part": digest, "bytes": len(stored)}
        if m is not None:
            piece |= {"name": m.name, "method": m.method, "crc": m.crc, "size": m.size}
        return piece

    def drop(self, written: list[Path]) -> None:
        """Remove files a failed action's ``keep`` wrote (no state kept before used them:
        one writer at a time)."""
        for path in reversed(written):
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)

    # --- reading ----------------------------------------------------------------------

    def manifest(self, digest: str, what: str) -> dict[str, object] | None:
        """The manifest of a state, checked for shape; None when the state has none (a
        format 1 snapshot, or nothing at all)."""
        path = self.manifest_path(digest)
        try:
            text = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as err:
            raise JournalError(f"{path}: cannot be read: {err.strerror or err}") from err
        try:
            raw = json.loads(text)
        except (ValueError, RecursionError):
            raw = None
        pieces = raw.get("pieces") if isinstance(raw, dict) else None
        if (
            not isinstance(raw, dict)
            or raw.get("sha256") != digest
            or not isinstance(pieces, list)
            or not all(_is_piece(p) for p in pieces)
        ):
            raise JournalError(f"{path}, the manifest of {what}, is damaged")
        return raw

    def parts_of(self, digest: str, what: str) -> set[str]:
        """The digests of the parts a state is made of (none for a format 1 snapshot)."""
        manifest = self.manifest(digest, what)
        if manifest is None:
            return set()
        pieces = manifest["pieces"]
        assert isinstance(pieces, list)
        return {p["part"] for p in pieces if isinstance(p, dict)}

    def read(self, digest: str, what: str) -> bytes:
        """The package of a state, rebuilt from its parts and checked against its digest."""
        manifest = self.manifest(digest, what)
        if manifest is None:
            return self._read_snapshot(digest, what)
        pieces = manifest["pieces"]
        assert isinstance(pieces, list)
        out = bytearray()
        for piece in pieces:
            if isinstance(piece, str):
                out += base64.b64decode(piece)
                continue
            part = piece["part"]
            path = self.part_path(part)
            member = f" ({piece['name']})" if "name" in piece else ""
            try:
                stored = path.read_bytes()
            except FileNotFoundError:
                raise JournalError(f"{path}, a part of {what}{member}, is missing") from None
            except OSError as err:
                raise JournalError(f"{path}: cannot be read: {err.strerror or err}") from err
            if sha256(stored) != part:
                raise JournalError(f"{path}, a part of {what}{member}, is damaged (digest differs)")
            out += stored
        data = bytes(out)
        if sha256(data) != digest:
            path = self.manifest_path(digest)
            raise JournalError(f"{path}, the manifest of {what}, is damaged (digest differs)")
        return data

    def _read_snapshot(self, digest: str, what: str) -> bytes:
        path = self.snapshot_path(digest)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            missing = self.manifest_path(digest)
            raise JournalError(f"{missing}, the state of {what}, is missing") from None
        except OSError as err:
            raise JournalError(f"{path}: cannot be read: {err.strerror or err}") from err
        if sha256(data) != digest:
            raise JournalError(f"{path}, the snapshot of {what}, is damaged (digest differs)")
        return data

    # --- pruning ----------------------------------------------------------------------

    def prune(self, kept: set[str]) -> tuple[int, int]:
        """Remove every state not in ``kept`` and every part no kept state is made of; the
        number of states and of parts removed. A kept state's manifest that cannot be read
        refuses the pruning before anything is removed."""
        needed: set[str] = set()
        for digest in sorted(kept):
            needed |= self.parts_of(digest, f"state {digest[:12]}")
        states = 0
        for folder, suffix in ((STATES, ".json"), (SNAPSHOTS, ".xlsx")):
            for path in sorted((self.folder / folder).glob(f"*{suffix}")):
                if path.stem not in kept:
                    os.unlink(path)
                    states += 1
        parts = 0
        for path in sorted((self.folder / PARTS).glob("*/*")):
            if path.is_file() and path.parent.name + path.name not in needed:
                os.unlink(path)
                parts += 1
        self.tidy()
        return states, parts

    def tidy(self) -> None:
        """Remove the folders left empty (by a pruning, or a failed first action)."""
        folders = sorted((self.folder / PARTS).glob("*"), reverse=True)
        folders += [self.folder / n for n in (PARTS, STATES, SNAPSHOTS)]
        for folder in folders:
            with contextlib.suppress(OSError):
                folder.rmdir()  # only when empty


def _raw(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _is_piece(piece: object) -> bool:
    if isinstance(piece, str):
        return True
    if not isinstance(piece, dict):
        return False
    part = piece.get("part")
    return isinstance(part, str) and len(part) == 64 and all(c in "0123456789abcdef" for c in part)


def _write_new(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all: a temporary file, flushed, renamed into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            os.chmod(name, default_mode())
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


def _fsync_folder(folder: Path) -> None:
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
