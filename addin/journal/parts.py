"""The states the journal keeps, as parts: a workbook is a zip package, and each of its
members' stored (compressed) bytes is kept once, by its SHA-256, however many states hold it.

A state is named by the SHA-256 of the whole package (as an entry's ``before`` and
``after`` name it) and kept as a small manifest, ``states/<digest>.json.gz``: the package
cut into pieces, in order. A member's compressed bytes are a part, kept in
``parts/ab/cdef...`` (the first two hex digits a folder); everything between them (each
member's local header, a data descriptor, the central directory, the end record: names,
methods, CRCs, sizes, dates, attributes, exactly as stored) is kept in the manifest
itself. Put together again, the pieces are the package byte for byte, and that is
checked against the state's digest before anything is written.

When a state brings more than ``PACK_FROM`` new parts (a journal's first state, a sheet's
first chunks), they are written one after another into one pack, ``packs/<digest>.pack``,
and the manifest says where each lies: one file to write and flush, not one per part.

A member that changes from state to state (the Players sheet at check-in, the Log, the
round's sheet) would cost its whole compressed self at every entry, and it grows with the
field. So a member that differs from the one of the same name in the state before, for the
second time or more, and that this Python's zlib compresses again to exactly its stored
bytes, is kept as chunks of its content instead: runs of rows (``<row``), cut where a
row's CRC says so (content defined, as restic and rsync cut files), each chunk kept once
as a part, compressed and named by the SHA-256 of its content (as git keeps a blob). A
check-in then costs the chunk holding its row. Zlib must give the member's bytes again:
that is checked when a member is first kept as chunks, and then its writer (the store) is
taken to compress as it did. Restoring decompresses the chunks and compresses them again;
the package is checked against the state's digest. Should another zlib compress
differently, the package is written again member by member (each member's content checked
against its CRC): the same workbook part for part, not byte for byte.

A file that is not a zip package (or one whose members overlap) is kept whole as one part.
Format 1's whole copies (``snapshots/<digest>.xlsx``) are still read.
"""

from __future__ import annotations

import base64
import contextlib
import gzip
import hashlib
import io
import itertools
import json
import os
import re
import struct
import tempfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from addin.journal.errors import JournalError
from addin.workbook.saving import default_mode

STATES = "states"
PARTS = "parts"
PACKS = "packs"
PACK_FROM = 2
"""A state with more new parts than this keeps them in one pack file (one file to write and
flush: the first state, an entry's changed sheets and chunks), fewer each in a file of its
own."""
SNAPSHOTS = "snapshots"
"""Format 1: each state a whole copy of the workbook."""
MANIFEST_FORMAT = 2
_LOCAL_HEADER = b"PK\x03\x04"
CHUNKED_FROM = 16 * 1024
"""A changed member at least this long (uncompressed) is kept as chunks."""
CHUNK_ROWS = 31
"""A chunk ends after a row whose CRC has these bits clear: 32 rows on average."""
CHUNK_LONGEST = 256 * 1024
_ROW = re.compile(rb"<row[ >]|<si>")
LEVEL = zlib.Z_DEFAULT_COMPRESSION
"""The compression level ``zipfile`` writes with, and the store with it."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class _Chunk:
    """A run of a member's rows, kept zlib-compressed under the SHA-256 of its content
    (as git keeps a blob), so a chunk already kept is known without compressing it."""

    content: bytes


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
        return self.folder / STATES / f"{digest}.json.gz"

    def snapshot_path(self, digest: str) -> Path:
        return self.folder / SNAPSHOTS / f"{digest}.xlsx"

    def part_path(self, digest: str) -> Path:
        return self.folder / PARTS / digest[:2] / digest[2:]

    def pack_path(self, digest: str) -> Path:
        return self.folder / PACKS / f"{digest}.pack"

    def has(self, digest: str) -> bool:
        if self.manifest_path(digest).is_file():
            return True
        return self.snapshot_path(digest).is_file()

    # --- keeping ----------------------------------------------------------------------

    def keep(self, data: bytes, base: str | None = None) -> tuple[str, list[Path]]:
        """Keep ``data`` as a state (its new parts, then its manifest); its digest, and the
        files this call wrote (to be taken back when the action they were for fails).
        ``base``: the state before it (usually the last one kept), whose changed members
        are kept as chunks."""
        digest = sha256(data)
        if self.has(digest):
            return digest, []
        before, located_before = self._pieces_by_name(base)
        pieces: list[object] = []
        parts: dict[str, bytes | _Chunk] = {}
        found = members(data)
        if found is None:
            pieces.append(self._whole(data, None, parts))
        else:
            position = 0
            for m in found:
                if m.start > position:
                    pieces.append(_raw(data[position : m.start]))
                pieces.append(self._member(data[m.start : m.end], m, before.get(m.name), parts))
                position = m.end
            if position < len(data):
                pieces.append(_raw(data[position:]))
        needed = set().union(*(_parts_in(p) for p in pieces))
        located = {h: where for h, where in located_before.items() if h in needed}
        new: dict[str, bytes] = {}
        mended: dict[str, bytes] = {}
        for part, stored in parts.items():
            if part in located:
                continue
            kept = _size(self.part_path(part))
            if isinstance(stored, _Chunk):
                if kept is None:  # a chunk is compressed only when it is new
                    new[part] = zlib.compress(stored.content, 6)
            elif kept is None:
                new[part] = stored
            elif kept != len(stored):
                mended[part] = stored  # a part cut short, written again (kept on failure)
        written: list[Path] = []
        try:
            if len(new) > PACK_FROM:
                pack = b"".join(new.values())
                name = sha256("".join(new).encode("ascii"))  # its parts name its content
                path = self.pack_path(name)
                if not path.is_file():
                    _write_new(path, pack)
                    written.append(path)
                at = 0
                for part, stored in new.items():
                    located[part] = [name, at, len(stored)]
                    at += len(stored)
            else:
                for part, stored in new.items():
                    path = self.part_path(part)
                    _write_new(path, stored)
                    written.append(path)
            for part, stored in mended.items():
                _write_new(self.part_path(part), stored)
            manifest = {
                "format": MANIFEST_FORMAT,
                "sha256": digest,
                "size": len(data),
                "pieces": pieces,
                "packed": located,
            }
            text = json.dumps(manifest, separators=(",", ":"), ensure_ascii=False)
            path = self.manifest_path(digest)
            _write_new(path, gzip.compress(text.encode("utf-8"), mtime=0))
            written.append(path)
            for folder in {p.parent for p in written}:
                _fsync_folder(folder)
        except BaseException:
            self.drop(written)
            raise
        return digest, written

    def _pieces_by_name(
        self, base: str | None
    ) -> tuple[dict[str, dict[str, object]], dict[str, list[object]]]:
        """The member pieces of state ``base``, by member name, and where its packed parts
        lie (none when it cannot be read: then nothing is chunked, and nothing is lost)."""
        if base is None:
            return {}, {}
        try:
            manifest = self.manifest(base, "the state before")
        except JournalError:
            return {}, {}
        if manifest is None:
            return {}, {}
        pieces = manifest["pieces"]
        assert isinstance(pieces, list)
        packed = manifest.get("packed") or {}
        assert isinstance(packed, dict)
        named = {str(p["name"]): p for p in pieces if isinstance(p, dict) and "name" in p}
        return named, packed

    def _member(
        self,
        stored: bytes,
        m: Member,
        before: dict[str, object] | None,
        parts: dict[str, bytes | _Chunk],
    ) -> object:
        digest = sha256(stored)
        if before is not None and before.get("part") == digest:
            if "chunks" not in before:
                parts.setdefault(digest, stored)  # kept already (mended if cut short)
            return before  # unchanged: as the state before keeps it
        changes = int(str(before.get("changes", 0))) + 1 if before is not None else 0
        """How many times the member changed from state to state: kept whole at its first
        change (an event's first entry costs no decompression), as chunks from its second."""
        if (
            before is not None
            and changes >= 2
            and m.method == zipfile.ZIP_DEFLATED
            and m.size >= CHUNKED_FROM
            and not self.part_path(digest).is_file()
        ):
            content = _inflate(stored)
            # Compressing it again must give its bytes; once a member is kept as chunks,
            # its writer (the store, through zipfile) is taken to compress as it did.
            same_writer = "chunks" in before and before.get("level") == LEVEL
            if content is not None and (same_writer or _deflate(content) == stored):
                known = before.get("chunks") or []
                assert isinstance(known, list)
                seen = set(known)
                chunks = []
                for chunk in chunks_of(content):
                    name = sha256(chunk)
                    if name not in seen:
                        parts.setdefault(name, _Chunk(chunk))
                    chunks.append(name)
                piece = self._piece(digest, stored, m)
                return {**piece, "chunks": chunks, "level": LEVEL, "changes": changes}
        whole = self._whole(stored, m, parts)
        if changes:
            assert isinstance(whole, dict)
            whole["changes"] = changes
        return whole

    def _whole(self, stored: bytes, m: Member | None, parts: dict[str, bytes | _Chunk]) -> object:
        digest = sha256(stored)
        parts.setdefault(digest, stored)
        return self._piece(digest, stored, m)

    @staticmethod
    def _piece(digest: str, stored: bytes, m: Member | None) -> dict[str, object]:
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
            packed = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as err:
            raise JournalError(f"{path}: cannot be read: {err.strerror or err}") from err
        try:
            raw = json.loads(gzip.decompress(packed))
        except (ValueError, RecursionError, OSError, EOFError, zlib.error):
            raw = None
        pieces = raw.get("pieces") if isinstance(raw, dict) else None
        if (
            not isinstance(raw, dict)
            or raw.get("sha256") != digest
            or not isinstance(pieces, list)
            or not all(_is_piece(p) for p in pieces)
            or not isinstance(raw.get("packed", {}), dict)
            or not all(_is_location(w) for w in raw.get("packed", {}).values())
        ):
            raise JournalError(f"{path}, the manifest of {what}, is damaged")
        return raw

    def files_of(self, digest: str, what: str) -> set[Path]:
        """The files under ``parts/`` and ``packs/`` a state is made of (none for a format 1
        snapshot)."""
        manifest = self.manifest(digest, what)
        if manifest is None:
            return set()
        pieces = manifest["pieces"]
        packed = manifest.get("packed") or {}
        assert isinstance(pieces, list) and isinstance(packed, dict)
        found: set[Path] = set()
        for part in set().union(*(_parts_in(p) for p in pieces)):
            where = packed.get(part)
            found.add(self.pack_path(where[0]) if where else self.part_path(part))
        return found

    def read(self, digest: str, what: str) -> bytes:
        """The package of a state, rebuilt from its parts and checked against its digest
        (or, when a chunked member compresses otherwise here, against its members' CRCs)."""
        manifest = self.manifest(digest, what)
        if manifest is None:
            return self._read_snapshot(digest, what)
        pieces = manifest["pieces"]
        packed = manifest.get("packed") or {}
        assert isinstance(pieces, list) and isinstance(packed, dict)
        out: list[bytes] = []
        exact = True
        for piece in pieces:
            if isinstance(piece, str):
                out.append(base64.b64decode(piece))
                continue
            member = f" ({piece['name']})" if "name" in piece else ""
            if "chunks" not in piece:
                out.append(self._part(piece["part"], packed, f"{what}{member}"))
                continue
            content = b"".join(self._chunk(c, packed, f"{what}{member}") for c in piece["chunks"])
            if zlib.crc32(content) != piece["crc"] or len(content) != piece["size"]:
                path = self.manifest_path(digest)
                raise JournalError(f"{path}, the manifest of {what}{member}, is damaged")
            stored = _deflate(content, int(piece.get("level", LEVEL)))
            exact = exact and sha256(stored) == piece["part"]
            out.append(stored)
        if not exact:
            return _rezipped(pieces, out, self.manifest_path(digest), what)
        data = b"".join(out)
        if sha256(data) != digest:
            path = self.manifest_path(digest)
            raise JournalError(f"{path}, the manifest of {what}, is damaged (digest differs)")
        return data

    def _stored(self, part: str, packed: dict[str, object], what: str) -> tuple[Path, bytes]:
        """Where a part is kept (its own file, or a range of a pack) and its bytes."""
        where = packed.get(part)
        path = self.pack_path(str(where[0])) if isinstance(where, list) else self.part_path(part)
        try:
            if isinstance(where, list):
                with open(path, "rb") as pack:
                    pack.seek(int(where[1]))
                    return path, pack.read(int(where[2]))
            return path, path.read_bytes()
        except FileNotFoundError:
            raise JournalError(f"{path}, a part of {what}, is missing") from None
        except OSError as err:
            raise JournalError(f"{path}: cannot be read: {err.strerror or err}") from err

    def _chunk(self, name: str, packed: dict[str, object], what: str) -> bytes:
        """A chunk's content: kept compressed, named by the SHA-256 of its content."""
        path, stored = self._stored(name, packed, what)
        try:
            content: bytes | None = zlib.decompress(stored)
        except zlib.error:
            content = None
        if content is None or sha256(content) != name:
            raise JournalError(f"{path}, a part of {what}, is damaged (digest differs)")
        return content

    def _part(self, part: str, packed: dict[str, object], what: str) -> bytes:
        path, stored = self._stored(part, packed, what)
        if sha256(stored) != part:
            raise JournalError(f"{path}, a part of {what}, is damaged (digest differs)")
        return stored

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
        """Remove every state not in ``kept`` and every part and pack no kept state is made
        of; the number of states and of part files removed. A kept state's manifest that
        cannot be read refuses the pruning before anything is removed."""
        needed: set[Path] = set()
        for digest in sorted(kept):
            needed |= self.files_of(digest, f"state {digest[:12]}")
        states = 0
        for folder, suffix in ((STATES, ".json.gz"), (SNAPSHOTS, ".xlsx")):
            for path in sorted((self.folder / folder).glob(f"*{suffix}")):
                if path.name[: -len(suffix)] not in kept:
                    os.unlink(path)
                    states += 1
        parts = 0
        stored = [*(self.folder / PARTS).glob("*/*"), *(self.folder / PACKS).glob("*.pack")]
        for path in sorted(stored):
            if path.is_file() and path not in needed:
                os.unlink(path)
                parts += 1
        self.tidy()
        return states, parts

    def tidy(self) -> None:
        """Remove the folders left empty (by a pruning, or a failed first action)."""
        folders = sorted((self.folder / PARTS).glob("*"), reverse=True)
        folders += [self.folder / n for n in (PARTS, PACKS, STATES, SNAPSHOTS)]
        for folder in folders:
            with contextlib.suppress(OSError):
                folder.rmdir()  # only when empty


def _raw(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _is_digest(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and not value.strip("0123456789abcdef")


def _parts_in(piece: object) -> set[str]:
    """The parts a manifest's piece names: its chunks, or its stored bytes."""
    if not isinstance(piece, dict):
        return set()
    return set(piece["chunks"]) if "chunks" in piece else {piece["part"]}


def _is_location(where: object) -> bool:
    return (
        isinstance(where, list)
        and len(where) == 3
        and _is_digest(where[0])
        and all(isinstance(n, int) and n >= 0 for n in where[1:])
    )


def _is_piece(piece: object) -> bool:
    if isinstance(piece, str):
        return True
    if not isinstance(piece, dict) or not _is_digest(piece.get("part")):
        return False
    if "chunks" not in piece:
        return True
    chunks = piece["chunks"]
    return (
        isinstance(chunks, list)
        and all(_is_digest(c) for c in chunks)
        and isinstance(piece.get("crc"), int)
        and isinstance(piece.get("size"), int)
        and isinstance(piece.get("name"), str)
        and isinstance(piece.get("level", LEVEL), int)
    )


def chunks_of(content: bytes) -> list[bytes]:
    """``content`` cut into runs of rows: before the first row, then a cut after each row
    whose CRC has the ``CHUNK_ROWS`` bits clear (or once a run is ``CHUNK_LONGEST``). A row
    changed moves at most the cuts beside it; rows added at the end change the last run."""
    starts = [m.start() for m in _ROW.finditer(content)]
    if not starts:
        return [content]
    cuts = [0, starts[0]] if starts[0] else [0]
    for row, following in itertools.pairwise(starts):
        if zlib.crc32(content[row:following]) & CHUNK_ROWS == 0 or (
            following - cuts[-1] >= CHUNK_LONGEST
        ):
            cuts.append(following)
    cuts.append(len(content))
    return [content[a:b] for a, b in itertools.pairwise(cuts) if b > a]


def _inflate(stored: bytes) -> bytes | None:
    """A deflated member's content; None when it is not raw deflate."""
    try:
        inflater = zlib.decompressobj(-15)
        content = inflater.decompress(stored) + inflater.flush()
    except zlib.error:
        return None
    return content if inflater.eof and not inflater.unused_data else None


def _deflate(content: bytes, level: int = LEVEL) -> bytes:
    """Compressed as ``zipfile`` compresses a member (raw deflate)."""
    deflater = zlib.compressobj(level, zlib.DEFLATED, -15)
    return deflater.compress(content) + deflater.flush()


def _rezipped(pieces: list[object], stored: list[bytes], manifest: Path, what: str) -> bytes:
    """The package written again member by member, each member's content as the state held
    it (checked against its CRC): this Python compresses a chunked member otherwise than the
    one that kept it, so the bytes cannot be the same, but the workbook is."""
    out = io.BytesIO()
    header = b""
    with zipfile.ZipFile(out, "w") as package:
        for piece, data in zip(pieces, stored, strict=True):
            if isinstance(piece, str):
                header = data
                continue
            if not isinstance(piece, dict) or "name" not in piece:
                raise JournalError(f"{manifest}, the manifest of {what}, cannot be rebuilt")
            info = zipfile.ZipInfo(str(piece["name"]), _date_time(header))
            info.compress_type = int(piece["method"])
            content = _inflate(data) if info.compress_type == zipfile.ZIP_DEFLATED else data
            if content is None or zlib.crc32(content) != piece["crc"]:
                raise JournalError(f"{manifest}, the manifest of {what}, cannot be rebuilt")
            package.writestr(info, content)
    return out.getvalue()


def _date_time(header: bytes) -> tuple[int, int, int, int, int, int]:
    """The date and time in the local header at the end of ``header`` (1980-01-01: none)."""
    at = header.rfind(_LOCAL_HEADER)
    if at < 0 or len(header) < at + 30:
        return (1980, 1, 1, 0, 0, 0)
    time_, date = struct.unpack("<HH", header[at + 10 : at + 14])
    year, month, day = 1980 + (date >> 9), max(1, (date >> 5) & 15), max(1, date & 31)
    return (year, month, day, time_ >> 11, (time_ >> 5) & 63, min(59, (time_ & 31) * 2))


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None


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
