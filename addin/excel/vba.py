"""Replace the source of one VBA module inside a vbaProject.bin, in place.

A vbaProject.bin is an OLE compound file. Each module stream holds an optional
compiled cache followed, from the offset the ``dir`` stream records, by the module's
source compressed with the MS-OVBA algorithm (section 2.4.1). xlwings ships its
add-in template with the ``_VBA_PROJECT`` version set to 0xFFFF, which tells Office
that any compiled cache is stale: Excel compiles every module from its source on
load. So replacing the compressed source is enough to change what a module does.

The OLE container is not rebuilt: the new compressed source is padded with a VBA
comment to exactly the length of the old one, and olefile overwrites the stream in
place. Every other byte of the project stays as xlwings wrote it.
"""

from __future__ import annotations

import io
import math
import struct

CHUNK = 4096
SOURCE_CACHE_NEUTRAL = b"\xff\xff"
"""The ``_VBA_PROJECT`` version that makes Office ignore compiled caches (MS-OVBA 2.3.4.1)."""


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


def _filler(size: int = 2000) -> bytes:
    """Letters and digits in which no three bytes repeat, so each adds to the compressed size."""
    alphabet = b"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    out, seen = bytearray(b"ab"), set()
    while len(out) < size:
        fresh = [c for c in alphabet if bytes(out[-2:]) + bytes([c]) not in seen]
        c = fresh[0] if fresh else alphabet[len(out) % len(alphabet)]
        seen.add(bytes(out[-2:]) + bytes([c]))
        out.append(c)
    return bytes(out)


def compress_to(data: bytes, size: int) -> bytes:
    """``data`` plus a trailing VBA comment line, compressed to exactly ``size`` bytes."""
    exact = compress(data)
    if len(exact) == size:
        return exact
    if len(exact) < size:
        filler = _filler()
        for variant in (b"'", b"' ", b"' pad ", b"' ### ###"):
            start = max(0, (size - len(exact) - len(variant)) * 8 // 9 - 16)
            for length in range(start, len(filler)):
                out = compress(data + variant + filler[:length] + b"\r\n")
                if len(out) == size:
                    return out
                if len(out) > size + 2:
                    break
    raise VBAError(f"the new module source does not fit the template's {size} bytes; shorten it")


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


def replace_module(vba_project: bytes, module: str, source: str) -> bytes:
    """``vba_project`` with ``module``'s source replaced by ``source`` (CRLF line ends)."""
    import olefile

    text = source.replace("\r\n", "\n").replace("\n", "\r\n").encode("latin-1")
    buffer = bytearray(vba_project)
    with olefile.OleFileIO(bytes(buffer)) as probe:
        version = probe.openstream("VBA/_VBA_PROJECT").read()[2:4]
        offset = module_offsets(probe.openstream("VBA/dir").read()).get(module)
        if offset is None:
            raise VBAError(f"the VBA project has no module {module!r}")
        stream = probe.openstream(f"VBA/{module}").read()
    if version != SOURCE_CACHE_NEUTRAL:
        raise VBAError(
            "the template's VBA project carries a compiled cache that Office would use "
            "instead of the patched source"
        )
    new_source = compress_to(text, len(stream) - offset)
    out = io.BytesIO(bytes(buffer))
    with olefile.OleFileIO(out, write_mode=True) as ole:
        ole.write_stream(f"VBA/{module}", stream[:offset] + new_source)
    result = out.getvalue()
    if not read_module(result, module).startswith(text.decode("latin-1")):
        raise VBAError("the patched module does not read back as written")
    return result
