"""Write the add-in's VBA project from module sources, as MS-OVBA says a writer must.

A vbaProject.bin is a compound file (``addin.excel.cfb``): a ``PROJECT`` text stream,
``PROJECTwm`` (module names in Unicode), and a ``VBA`` storage holding ``_VBA_PROJECT``,
the ``dir`` stream (the project's records, compressed with the MS-OVBA algorithm,
section 2.4.1) and one stream per module. A module stream may start with a compiled
cache (p-code) before its compressed source; Office runs that cache instead of the
source when its VBA version matches, which is how a file whose source was edited but
whose p-code was not ("VBA stomping") behaves unlike its source.

So the add-in's own modules are written from source only (MS-OVBA 2.3.4.3: the module
stream is its compressed source, the ``dir`` stream's MODULEOFFSET 0), and ``_VBA_PROJECT``
says that no cache may be used (2.3.4.1: Version 0xFFFF, no PerformanceCache): Office
compiles every module from its source on load. The template's other modules (the
document modules, ``Dictionary``) are carried over as they are, stream and MODULEOFFSET:
their compiled code is the template's own, ignored under Version 0xFFFF, and this is the
shape of the add-ins xlwings ships. The references and settings of the template's project
are kept; the caller renames the project and edits its own modules' sources.
"""

from __future__ import annotations

import io
import math
import struct
from collections.abc import Mapping
from dataclasses import dataclass

from addin.excel import cfb

CHUNK = 4096
SOURCE_CACHE_NEUTRAL = b"\xff\xff"
"""The ``_VBA_PROJECT`` version that makes Office ignore compiled caches (MS-OVBA 2.3.4.1)."""
VBA_PROJECT_STREAM = b"\xcc\x61" + SOURCE_CACHE_NEUTRAL + b"\x00" + b"\x01\x00"
"""Reserved1 0x61CC, Version 0xFFFF, Reserved2 0x00, Reserved3 0x0001: MS-OVBA 3.1.1's
example byte for byte, and what xlwings' shipped add-ins hold. Reserved3 is "undefined",
but 0x0000 there makes the stream exactly what FireEye's public rule OLE_VBAPurged_2
("VBA purging", a malware technique) looks for, and an antivirus may quarantine the file."""
CODEPAGE = "cp1252"


class VBAError(RuntimeError):
    """The VBA project is not shaped as expected; the add-in cannot be built."""


# --- MS-OVBA compression (2.4.1.3) ----------------------------------------------------


def _copy_token_help(position: int, chunk_start: int) -> tuple[int, int]:
    """Bit count of the offset field and the longest copy at ``position``."""
    difference = position - chunk_start
    bit_count = max(math.ceil(math.log2(difference)), 4) if difference > 1 else 4
    return bit_count, (0xFFFF >> bit_count) + 3


def _compress_chunk(data: bytes, start: int, end: int) -> bytes:
    out = bytearray()
    seen: dict[bytes, list[int]] = {}
    """Earlier positions in the chunk by their next three bytes: only those can match."""
    indexed = start
    pos = start
    while pos < end:
        flag_index = len(out)
        out.append(0)
        flags = 0
        for bit in range(8):
            if pos >= end:
                break
            while indexed < pos:
                seen.setdefault(data[indexed : indexed + 3], []).append(indexed)
                indexed += 1
            best_len, best_at = 0, 0
            for candidate in reversed(seen.get(data[pos : pos + 3], [])):
                length = 0
                while pos + length < end and data[candidate + length] == data[pos + length]:
                    length += 1
                if length > best_len:  # nearest first: ties keep the nearest (as 2.4.1.3.19.4)
                    best_len, best_at = length, candidate
            bit_count, max_len = _copy_token_help(pos, start)
            if best_len >= 3:
                length = min(best_len, max_len)
                token = ((pos - best_at - 1) << (16 - bit_count)) | (length - 3)
                out += struct.pack("<H", token)
                flags |= 1 << bit
                pos += length
            else:
                out.append(data[pos])
                pos += 1
        out[flag_index] = flags
    return bytes(out)


def compress(data: bytes) -> bytes:
    """A CompressedContainer for ``data``."""
    out = bytearray(b"\x01")
    for start in range(0, len(data), CHUNK):
        end = min(start + CHUNK, len(data))
        body = _compress_chunk(data, start, end)
        if len(body) > CHUNK:  # incompressible: a raw chunk of exactly 4096 bytes
            raw = data[start:end].ljust(CHUNK, b"\x00")
            out += struct.pack("<H", 0x3000 | (CHUNK - 1)) + raw
        else:
            out += struct.pack("<H", 0xB000 | (len(body) + 2 - 3)) + body
    return bytes(out)


def decompress(container: bytes) -> bytes:
    """The data of a CompressedContainer (MS-OVBA 2.4.1.3.1)."""
    if not container or container[0] != 1:
        raise VBAError("not a compressed VBA container")
    out = bytearray()
    pos = 1
    while pos < len(container):
        header = struct.unpack_from("<H", container, pos)[0]
        size = (header & 0x0FFF) + 3
        compressed = header & 0x8000
        end = min(pos + size, len(container))
        pos += 2
        chunk_start = len(out)
        if not compressed:
            out += container[pos : pos + CHUNK]
            pos += CHUNK
            continue
        while pos < end:
            flags = container[pos]
            pos += 1
            for bit in range(8):
                if pos >= end:
                    break
                if not flags & (1 << bit):
                    out.append(container[pos])
                    pos += 1
                    continue
                token = struct.unpack_from("<H", container, pos)[0]
                pos += 2
                bit_count, _ = _copy_token_help(len(out), chunk_start)
                length = (token & (0xFFFF >> bit_count)) + 3
                offset = (token >> (16 - bit_count)) + 1
                for _ in range(length):
                    out.append(out[-offset])
    return bytes(out)


# --- the dir stream (MS-OVBA 2.3.4.2) -------------------------------------------------


def module_offsets(dir_stream: bytes) -> dict[str, int]:
    """Each module's stream name -> the offset of its compressed source."""
    data = decompress(dir_stream)
    offsets: dict[str, int] = {}
    pos, stream_name = 0, ""
    while pos + 6 <= len(data):
        record_id, size = struct.unpack_from("<HI", data, pos)
        pos += 6
        if record_id == 0x0009:  # PROJECTVERSION: its size field lies (6 bytes follow)
            size = 6
        payload = data[pos : pos + size]
        if record_id == 0x001A:  # MODULESTREAMNAME (its Unicode twin, 0x0032, follows)
            stream_name = payload.decode("latin-1")
        elif record_id == 0x0031:  # MODULEOFFSET
            offsets[stream_name] = struct.unpack("<I", payload)[0]
        pos += size
    return offsets


# --- the project file ------------------------------------------------------------------


def read_module(vba_project: bytes, module: str) -> str:
    """The source text of ``module`` (for checks and tests)."""
    import olefile

    with olefile.OleFileIO(io.BytesIO(vba_project)) as ole:
        offset = module_offsets(ole.openstream("VBA/dir").read())[module]
        stream = ole.openstream(f"VBA/{module}").read()
    return decompress(stream[offset:]).decode("latin-1")


# --- writing a project ----------------------------------------------------------------


@dataclass(frozen=True)
class Record:
    """One record of the decompressed ``dir`` stream: id, size field, payload."""

    id: int
    size: int
    payload: bytes


def dir_records(data: bytes) -> list[Record]:
    """The records of a decompressed ``dir`` stream, in order."""
    records, pos = [], 0
    while pos + 6 <= len(data):
        record_id, size = struct.unpack_from("<HI", data, pos)
        pos += 6
        length = 6 if record_id == 0x0009 else size  # PROJECTVERSION's size field is 4
        records.append(Record(record_id, size, data[pos : pos + length]))
        pos += length
    if pos != len(data):
        raise VBAError("the dir stream ends inside a record")
    return records


def dir_bytes(records: list[Record]) -> bytes:
    return b"".join(struct.pack("<HI", r.id, r.size) + r.payload for r in records)


def read_sources(vba_project: bytes) -> dict[str, str]:
    """Every module's source, by module name, in the project's order."""
    import olefile

    with olefile.OleFileIO(io.BytesIO(vba_project)) as ole:
        offsets = module_offsets(ole.openstream("VBA/dir").read())
        return {
            name: decompress(ole.openstream(f"VBA/{name}").read()[offset:]).decode(CODEPAGE)
            for name, offset in offsets.items()
        }


def _renamed_records(records: list[Record], name: str, renames: Mapping[str, str],
                     from_source: set[str]) -> list[Record]:  # fmt: skip
    """The ``dir`` records with the project called ``name``, each module renamed by
    ``renames``, and the modules ``from_source`` (new names) at MODULEOFFSET 0."""
    out, module = [], ""
    for r in records:
        payload = r.payload
        if r.id == 0x0004:  # PROJECTNAME
            payload = name.encode(CODEPAGE)
        elif r.id in (0x0019, 0x001A):  # MODULENAME, MODULESTREAMNAME
            old = payload.decode(CODEPAGE)
            payload = renames.get(old, old).encode(CODEPAGE)
            if r.id == 0x001A:
                module = renames.get(old, old)
        elif r.id in (0x0047, 0x0032):  # their Unicode twins
            old = payload.decode("utf-16-le")
            payload = renames.get(old, old).encode("utf-16-le")
        elif r.id == 0x0031 and module in from_source:  # MODULEOFFSET: no p-code before
            payload = struct.pack("<I", 0)
        size = r.size if r.id == 0x0009 else len(payload)
        out.append(Record(r.id, size, payload))
    return out


def _project_text(text: str, name: str, renames: Mapping[str, str]) -> str:
    """The PROJECT stream (MS-OVBA 2.3.1) with the project and its modules renamed."""
    lines, section = [], ""
    for line in text.split("\r\n"):
        if line.startswith("["):
            section = line
        key, sep, value = line.partition("=")
        if sep and not section:
            if key in ("Module", "Class", "BaseClass"):
                value = renames.get(value, value)
            elif key == "Document":
                module, slash, rest = value.partition("/")
                value = renames.get(module, module) + slash + rest
            elif key == "Name":
                value = f'"{name}"'
        elif sep and section == "[Workspace]":
            key = renames.get(key, key)
        lines.append(key + sep + value)
    return "\r\n".join(lines)


def _name_map(modules: list[str]) -> bytes:
    """PROJECTwm (MS-OVBA 2.3.3): each module's name in the code page, then in UTF-16."""
    out = b"".join(
        m.encode(CODEPAGE) + b"\x00" + m.encode("utf-16-le") + b"\x00\x00" for m in modules
    )
    return out + b"\x00\x00"


def write_project(template: bytes, name: str, sources: Mapping[str, str],
                  renames: Mapping[str, str] | None = None) -> bytes:  # fmt: skip
    """A new vbaProject.bin from ``template``: the project called ``name``, each module
    renamed by ``renames`` (old -> new); a module named in ``sources`` (new name) holds
    that source, written from source only; every other module is the template's, its
    stream and MODULEOFFSET as they were. A renamed module must be given a source."""
    import olefile

    renames = dict(renames or {})
    with olefile.OleFileIO(io.BytesIO(template)) as ole:
        streams = {"/".join(s): ole.openstream(s).read() for s in ole.listdir()}
        root_clsid = bytes.fromhex(ole.root.clsid.replace("-", "")) if ole.root.clsid else None
    old_modules = list(module_offsets(streams["VBA/dir"]))
    modules = [renames.get(m, m) for m in old_modules]
    if not set(sources) <= set(modules):
        raise VBAError(
            f"the project's modules are {sorted(modules)}, the sources given {sorted(sources)}"
        )
    if not set(renames.values()) <= set(sources):  # its VB_Name attribute names it
        raise VBAError(f"a renamed module needs its source: {sorted(renames.values())}")
    records = dir_records(decompress(streams["VBA/dir"]))
    records = _renamed_records(records, name, renames, set(sources))
    vba_storage: dict[str, object] = {
        "_VBA_PROJECT": VBA_PROJECT_STREAM,
        "dir": compress(dir_bytes(records)),
    }
    written = {m: sources[m].replace("\r\n", "\n").replace("\n", "\r\n") for m in sources}
    for old, module in zip(old_modules, modules, strict=True):
        if module not in written:
            vba_storage[module] = streams[f"VBA/{old}"]
            continue
        if not written[module].startswith(f'Attribute VB_Name = "{module}"'):
            raise VBAError(f"the source of {module} must begin with its VB_Name attribute")
        vba_storage[module] = compress(written[module].encode(CODEPAGE))
    for path, data in streams.items():  # any other stream of the VBA storage, as it was
        folder, _, leaf = path.partition("/")
        if folder == "VBA" and leaf not in vba_storage and leaf not in old_modules:
            if leaf.startswith("__SRP_"):  # a compiled cache of its own: never kept
                continue
            vba_storage[leaf] = data
    tree: dict[str, object] = {}
    for path, data in streams.items():
        if "/" not in path:
            tree[path] = data
    project = streams["PROJECT"].decode(CODEPAGE)
    tree["PROJECT"] = _project_text(project, name, renames).encode(CODEPAGE)
    tree["PROJECTwm"] = _name_map(modules)
    tree["VBA"] = vba_storage
    out = cfb.write(tree, root_clsid or bytes(16))
    read_back = read_sources(out)
    if {m: read_back[m] for m in written} != written:
        raise VBAError("the written project does not read back as its sources")
    return out
