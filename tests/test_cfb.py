"""The compound file writer: olefile (an independent reader) reads back every stream, and
each storage's children form a red-black tree as MS-CFB 2.6.4 requires."""

from __future__ import annotations

import olefile
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from addin.excel import cfb

names = st.text(alphabet="ABCDEFGHIJKabcdefghijk_0123456789", min_size=1, max_size=31)
streams = st.binary(max_size=9000) | st.sampled_from([b"", b"x" * 4095, b"y" * 4096])
trees = st.recursive(
    st.dictionaries(names, streams, max_size=12),
    lambda children: st.dictionaries(names, children | streams, min_size=1, max_size=8),
    max_leaves=30,
)


def flatten(tree: dict, prefix: str = "") -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for name, value in tree.items():
        if isinstance(value, dict):
            out.update(flatten(value, f"{prefix}{name}/"))
        else:
            out[prefix + name] = value
    return out


def unique(tree: dict) -> bool:
    """MS-CFB compares names case-insensitively: two that differ only in case clash."""
    keys = [k.upper() for k in tree]
    return len(keys) == len(set(keys)) and all(
        unique(v) for v in tree.values() if isinstance(v, dict)
    )


def black_height(entries: list, sid: int) -> int:
    """The black nodes on every path below ``sid``; fails on a red node with a red child."""
    if sid == cfb.NOSTREAM:
        return 1
    node = entries[sid]
    left, right = black_height(entries, node.sid_left), black_height(entries, node.sid_right)
    assert left == right, f"{node.name}: unequal black heights"
    if node.color == cfb.RED:
        for child in (node.sid_left, node.sid_right):
            assert child == cfb.NOSTREAM or entries[child].color == cfb.BLACK
    return left + (node.color == cfb.BLACK)


@settings(max_examples=80, deadline=None)
@given(trees.filter(unique))
def test_every_stream_reads_back_and_every_tree_is_red_black(tree: dict) -> None:
    data = cfb.write(tree)
    with olefile.OleFileIO(data) as ole:
        found = {"/".join(s): ole.openstream(s).read() for s in ole.listdir()}
        entries = ole.direntries
        for entry in entries:
            if entry is not None and entry.sid_child != cfb.NOSTREAM:
                root = entries[entry.sid_child]
                assert root.color == cfb.BLACK
                black_height(entries, entry.sid_child)
    assert found == flatten(tree)


def test_a_bad_name_is_refused() -> None:
    with pytest.raises(cfb.CFBError):
        cfb.write({"a/b": b""})
    with pytest.raises(cfb.CFBError):
        cfb.write({"x" * 32: b""})
    with pytest.raises(cfb.CFBError):
        cfb.write({"abc": b"", "ABC": b""})
