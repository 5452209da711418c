"""Write a Compound File (MS-CFB, version 3) from a tree of streams.

The VBA project inside an add-in is such a file. olefile reads compound files but can
only overwrite a stream with one of the same size; the add-in's project is written anew
(``addin.excel.vba``), so this module writes the whole container: 512-byte sectors, a
mini stream for the streams under 4,096 bytes, and each storage's children in a
red-black tree (MS-CFB 2.6.4) that is balanced and coloured so that every path from the
root down has the same number of black nodes.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from dataclasses import dataclass, field

SECTOR = 512
MINI_SECTOR = 64
MINI_CUTOFF = 4096
ENTRY = 128
FREESECT = 0xFFFFFFFF
ENDOFCHAIN = 0xFFFFFFFE
FATSECT = 0xFFFFFFFD
NOSTREAM = 0xFFFFFFFF
SIGNATURE = bytes.fromhex("D0CF11E0A1B11AE1")
RED, BLACK = 0, 1
STORAGE, STREAM, ROOT = 1, 2, 5


class CFBError(ValueError):
    """The tree cannot be written as a compound file."""


@dataclass
class _Entry:
    name: str
    kind: int
    data: bytes = b""
    clsid: bytes = bytes(16)
    children: list[_Entry] = field(default_factory=list)
    left: int = NOSTREAM
    right: int = NOSTREAM
    child: int = NOSTREAM
    color: int = BLACK
    start: int = ENDOFCHAIN
    index: int = 0


def _key(entry: _Entry) -> tuple[int, str]:
    """MS-CFB 2.6.4: shorter names first, then by upper-case code points."""
    return len(entry.name), entry.name.upper()


def _tree(entries: list[_Entry]) -> int:
    """Link ``entries`` (sorted) as a balanced binary tree; the index of its root."""
    if not entries:
        return NOSTREAM
    middle = len(entries) // 2
    node = entries[middle]
    node.left = _tree(entries[:middle])
    node.right = _tree(entries[middle + 1 :])
    return node.index


def _height(n: int) -> int:
    return n.bit_length()


def _is_perfect(n: int) -> bool:
    return n & (n + 1) == 0


def _colour(entries: list[_Entry]) -> int:
    """Build the sibling tree of one storage's children; the index of its root."""
    ordered = sorted(entries, key=_key)
    if len({_key(e) for e in ordered}) != len(ordered):
        raise CFBError("two entries of one storage have the same name")
    root = _tree(ordered)
    # Halving keeps every empty link at the last two levels: a perfect tree is all
    # black, otherwise the deepest level is red (its parents are all black).
    _paint(ordered, 0, 0 if _is_perfect(len(ordered)) else _height(len(ordered)))
    return root


def _paint(entries: list[_Entry], depth: int, height: int) -> None:
    if not entries:
        return
    middle = len(entries) // 2
    entries[middle].color = RED if depth == height - 1 else BLACK
    _paint(entries[:middle], depth + 1, height)
    _paint(entries[middle + 1 :], depth + 1, height)


def _chain(fat: list[int], first: int, count: int) -> None:
    for i in range(first, first + count):
        fat[i] = i + 1 if i + 1 < first + count else ENDOFCHAIN


def _sectors(data: bytes, size: int) -> int:
    return (len(data) + size - 1) // size


def write(tree: Mapping[str, object], root_clsid: bytes = bytes(16)) -> bytes:
    """A compound file holding ``tree``: a name maps to bytes (a stream) or to a mapping
    (a storage, with its children the same way)."""
    root = _Entry("Root Entry", ROOT, clsid=root_clsid)
    flat: list[_Entry] = [root]

    def add(parent: _Entry, items: Mapping[str, object]) -> None:
        for name, value in items.items():
            if len(name) > 31 or any(c in name for c in "/\\:!"):
                raise CFBError(f"{name!r} is not a compound file entry name")
            if isinstance(value, bytes | bytearray):
                entry = _Entry(name, STREAM, bytes(value))
            elif isinstance(value, Mapping):
                entry = _Entry(name, STORAGE)
            else:
                raise CFBError(f"{name!r}: a stream is bytes, a storage a mapping")
            entry.index = len(flat)
            flat.append(entry)
            parent.children.append(entry)
            if isinstance(value, Mapping):
                add(entry, value)

    add(root, tree)
    for entry in flat:
        entry.child = _colour(entry.children) if entry.children else NOSTREAM

    small = [e for e in flat if e.kind == STREAM and len(e.data) < MINI_CUTOFF]
    large = [e for e in flat if e.kind == STREAM and len(e.data) >= MINI_CUTOFF]
    mini_stream = bytearray()
    mini_fat: list[int] = []
    for e in small:
        if not e.data:
            continue
        count = _sectors(e.data, MINI_SECTOR)
        e.start = len(mini_fat)
        mini_fat += [0] * count
        _chain(mini_fat, e.start, count)
        mini_stream += e.data.ljust(count * MINI_SECTOR, b"\x00")
    root.data = bytes(mini_stream)

    # sector layout: large streams, the mini stream, the mini FAT, the directory, the FAT
    body: list[bytes] = []
    chains: list[tuple[int, int]] = []

    def place(data: bytes) -> int:
        count = _sectors(data, SECTOR)
        if not count:
            return ENDOFCHAIN
        start = sum(len(b) for b in body) // SECTOR
        body.append(data.ljust(count * SECTOR, b"\x00"))
        chains.append((start, count))
        return start

    for e in large:
        e.start = place(e.data)
    root.start = place(root.data)
    mini_fat_bytes = struct.pack(f"<{len(mini_fat)}I", *mini_fat) if mini_fat else b""
    if mini_fat_bytes:
        mini_fat_bytes = mini_fat_bytes.ljust(_sectors(mini_fat_bytes, SECTOR) * SECTOR, b"\xff")
    mini_fat_start = place(mini_fat_bytes)
    directory = b"".join(_entry_bytes(e) for e in flat)
    free = (-len(flat)) % (SECTOR // ENTRY)
    directory += _free_entry() * free
    directory_start = place(directory)

    used = sum(len(b) for b in body) // SECTOR
    fat_count = 1
    while (used + fat_count) > fat_count * (SECTOR // 4):
        fat_count += 1
    if fat_count > 109:
        raise CFBError("the file is too large for a header-only FAT list")
    fat = [FREESECT] * (fat_count * SECTOR // 4)
    for start, count in chains:
        _chain(fat, start, count)
    for i in range(used, used + fat_count):
        fat[i] = FATSECT
    fat_bytes = struct.pack(f"<{len(fat)}I", *fat)

    difat = list(range(used, used + fat_count)) + [FREESECT] * (109 - fat_count)
    header = (
        SIGNATURE
        + bytes(16)
        + struct.pack("<HHHHH", 0x003E, 0x0003, 0xFFFE, 9, 6)
        + bytes(6)
        + struct.pack("<IIIIIIIII", 0, fat_count, directory_start, 0, MINI_CUTOFF,
                      mini_fat_start, len(mini_fat_bytes) // SECTOR, ENDOFCHAIN, 0)
        + struct.pack("<109I", *difat)
    )  # fmt: skip
    assert len(header) == SECTOR
    return header + b"".join(body) + fat_bytes


def _entry_bytes(e: _Entry) -> bytes:
    name = e.name.encode("utf-16-le") + b"\x00\x00"
    size = len(e.data) if e.kind in (STREAM, ROOT) else 0
    # a storage has no sector; nor has an empty stream (or an empty mini stream)
    start = 0 if e.kind == STORAGE else e.start if size else ENDOFCHAIN
    return (
        name.ljust(64, b"\x00")
        + struct.pack("<HBB", len(name), e.kind, e.color)
        + struct.pack("<III", e.left, e.right, e.child)
        + e.clsid
        + struct.pack("<I", 0)
        + bytes(16)
        + struct.pack("<IQ", start, size)
    )


def _free_entry() -> bytes:
    return (
        bytes(64)
        + struct.pack("<HBB", 0, 0, 0)
        + struct.pack("<III", *(NOSTREAM,) * 3)
        + bytes(16 + 4 + 16 + 4 + 8)
    )
