"""The add-in's VBA project beside the add-ins xlwings itself ships, which TDs' Excel loads.

xlwings' wheel carries ``xlwings.xlam`` (its own add-in) and the quickstart template the
build starts from. Their projects are source-only where xlwings edits code, keep the old
compiled code of every other module, and end ``_VBA_PROJECT`` as MS-OVBA's example does.
Ours is held to that shape record by record (only the differences docs/decisions.md names),
to what oletools and pcodedmp read in it, and to FireEye's public antivirus rules.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import olefile
import pytest
import yara
from oletools.olevba import VBA_Parser

from addin.excel import build, cfb, vba

DOCS = Path(__file__).resolve().parents[1] / "docs"
RULES = Path(__file__).resolve().parent / "data" / "yara" / "fireeye_vba_purging.yar"
OUR_MODULES = {"AgaRibbon", "xlwings"}
"""The modules the add-in writes from source (docs/decisions.md): the quickstart's ribbon
module, replaced by ours, and xlwings' module, edited."""
MS_OVBA_EXAMPLE = bytes.fromhex("CC61FFFF000100")
"""MS-OVBA 3.1.1: _VBA_PROJECT with Reserved1 0x61CC, Version 0xFFFF, Reserved2 0x00,
Reserved3 0x0001 and no PerformanceCache."""
NAME_RECORDS = {0x0004, 0x0019, 0x0047, 0x001A, 0x0032}
"""PROJECTNAME; MODULENAME, its Unicode twin; MODULESTREAMNAME, its Unicode twin."""
MODULENAME, MODULESTREAMNAME, MODULEOFFSET = 0x0019, 0x001A, 0x0031


def project_of(path: Path) -> bytes:
    with zipfile.ZipFile(path) as z:
        return z.read(build.VBA_PROJECT)


@pytest.fixture(scope="module")
def ours(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return project_of(build.build_addin(tmp_path_factory.mktemp("addin") / build.ADDIN_FILE))


@pytest.fixture(scope="module")
def template() -> bytes:
    return project_of(build.template_path())


def shipped_addins() -> list[Path]:
    """The add-ins in the installed xlwings wheel: its own and the ribbon template."""
    folder = build.template_path().parent
    found = [folder / "addin" / "xlwings.xlam", folder / build.TEMPLATE]
    assert all(p.is_file() for p in found), found
    return found


def streams(project: bytes) -> dict[str, bytes]:
    with olefile.OleFileIO(io.BytesIO(project)) as ole:
        return {"/".join(s): ole.openstream(s).read() for s in ole.listdir()}


def records(project: bytes) -> list[vba.Record]:
    return vba.dir_records(vba.decompress(streams(project)["VBA/dir"]))


def modules(project: bytes) -> list[str]:
    """The module list in the dir stream's order (MODULESTREAMNAME records)."""
    return [r.payload.decode(vba.CODEPAGE) for r in records(project) if r.id == MODULESTREAMNAME]


# --- the shape ----------------------------------------------------------------------------


def test_vba_project_ends_as_ms_ovbas_example_and_xlwings_shipped_addins(ours: bytes) -> None:
    assert streams(ours)["VBA/_VBA_PROJECT"] == MS_OVBA_EXAMPLE
    for path in shipped_addins():
        assert streams(project_of(path))["VBA/_VBA_PROJECT"] == MS_OVBA_EXAMPLE, path
    assert vba.VBA_PROJECT_STREAM == MS_OVBA_EXAMPLE


def test_our_modules_are_source_only_and_the_others_are_the_templates(
    ours: bytes, template: bytes
) -> None:
    """Our modules: MODULEOFFSET 0, the stream is the compressed source (MS-OVBA 2.3.4.3).
    The document modules and Dictionary: the template's stream and offset, byte for byte."""
    offsets, theirs = vba.module_offsets(streams(ours)["VBA/dir"]), streams(template)
    template_offsets = vba.module_offsets(theirs["VBA/dir"])
    assert set(offsets) == OUR_MODULES | {"ThisWorkbook", "Sheet2", "Dictionary"}
    for module, offset in offsets.items():
        stream = streams(ours)[f"VBA/{module}"]
        if module in OUR_MODULES:
            assert offset == 0 and stream[0] == 1, module
            assert vba.decompress(stream).startswith(f'Attribute VB_Name = "{module}"'.encode())
        else:
            assert (stream, offset) == (theirs[f"VBA/{module}"], template_offsets[module])
            assert offset > 0, f"{module} keeps the template's compiled code before its source"
    assert not [s for s in streams(ours) if s.rpartition("/")[2].startswith("__SRP_")]


# --- what oletools and pcodedmp read ------------------------------------------------------


def test_olevba_finds_no_vba_stomping(ours: bytes, tmp_path: Path) -> None:
    """olevba compares the p-code (through pcodedmp) with the source; it does so only for a
    file on disk, so the project is read as vbaProject.bin. A project whose source was
    edited behind its p-code (the former way) is caught: the check is alive."""
    assert detect_stomping(ours, tmp_path / "ours.bin") is False
    stomped = stomp(project_of(build.template_path()), build.TEMPLATE_MODULE)
    assert detect_stomping(stomped, tmp_path / "stomped.bin") is True


def detect_stomping(project: bytes, path: Path) -> bool:
    path.write_bytes(project)
    parser = VBA_Parser(str(path))
    try:
        assert parser.detect_vba_macros()
        return bool(parser.detect_vba_stomping())
    finally:
        parser.close()


def stomp(project: bytes, module: str) -> bytes:
    """``project`` with ``module``'s source replaced behind its unchanged p-code."""
    found = streams(project)
    offset = vba.module_offsets(found["VBA/dir"])[module]
    source = f'Attribute VB_Name = "{module}"\r\nSub Other()\r\n    Beep\r\nEnd Sub\r\n'
    found[f"VBA/{module}"] = found[f"VBA/{module}"][:offset] + vba.compress(source.encode())
    tree: dict[str, object] = {path: data for path, data in found.items() if "/" not in path}
    tree["VBA"] = {p.removeprefix("VBA/"): data for p, data in found.items() if "/" in p}
    return cfb.write(tree)


def pcode_by_module(project: bytes, path: Path) -> dict[str, str]:
    """pcodedmp's disassembly of each module stream, by module."""
    path.write_bytes(project)
    out = subprocess.run(
        [sys.executable, "-m", "pcodedmp.pcodedmp", str(path)],
        capture_output=True, text=True, check=False, timeout=120,
    ).stdout  # fmt: skip
    assert "dir stream parsed" in out  # it read the project
    parts = re.split(r"^VBA/(\w+) - \d+ bytes$", out, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_pcodedmp_finds_p_code_only_where_the_template_has_it(
    ours: bytes, template: bytes, tmp_path: Path
) -> None:
    found = pcode_by_module(ours, tmp_path / "ours.bin")
    theirs = pcode_by_module(template, tmp_path / "template.bin")
    assert set(found) == set(modules(ours))
    for module, text in found.items():
        if module in OUR_MODULES:
            assert "Line #" not in text and "FuncDefn" not in text, module
        else:
            assert text == theirs[module], module
    assert "FuncDefn" in found["Dictionary"], "pcodedmp reads the template's compiled code"


# --- antivirus rules ----------------------------------------------------------------------


def yara_matches(rules: yara.Rules, project: bytes) -> set[str]:
    return {m.rule for m in rules.match(data=project)}


def test_fireeye_rules_match_nothing_in_ours_that_xlwings_own_addins_do_not_match(
    ours: bytes,
) -> None:
    """FireEye's public rules for VBA purging (tests/data/yara): ours matches no rule that
    every add-in xlwings ships does not match too. With Reserved3 0x0000, as this add-in
    once wrote it, OLE_VBAPurged_2 fires: the rules are alive."""
    rules = yara.compile(filepath=str(RULES))
    shipped = [yara_matches(rules, project_of(p)) for p in shipped_addins()]
    assert yara_matches(rules, ours) <= set.intersection(*shipped)
    purged = ours.replace(MS_OVBA_EXAMPLE, bytes.fromhex("CC61FFFF000000"))
    assert purged != ours
    assert yara_matches(rules, purged) == {"OLE_VBAPurged_1", "OLE_VBAPurged_2"}


# --- record by record beside the template ---------------------------------------------------


@dataclass(frozen=True)
class Difference:
    kind: str
    """One of the kinds docs/decisions.md may allow, or a description of an unexplained one."""
    where: str


def differences(template: bytes, project: bytes) -> list[Difference]:
    """Every way ``project`` differs from ``template``: the dir stream record by record, the
    PROJECT stream line by line, the module list, every stream. A difference is "names"
    when it renames the project or a module (consistently throughout), "our modules'
    offsets" or "our modules' source" when it is in a module of OUR_MODULES, and is
    described as it is otherwise."""
    found: list[Difference] = []
    theirs, ours = records(template), records(project)
    if [r.id for r in theirs] != [r.id for r in ours]:
        return [Difference("the dir stream's records", "their ids or order differ")]
    renames: dict[str, str] = {}
    module = ""
    for t, o in zip(theirs, ours, strict=True):
        if o.id in (MODULENAME, MODULESTREAMNAME):
            module = o.payload.decode(vba.CODEPAGE)
        if t == o:
            continue
        where = f"dir record {t.id:#06x} of {module or 'the project'}"
        if t.id in NAME_RECORDS:
            codec = "utf-16-le" if t.id in (0x0047, 0x0032) else vba.CODEPAGE
            old, new = t.payload.decode(codec), o.payload.decode(codec)
            if renames.setdefault(old, new) == new and o.size == len(o.payload):
                found.append(Difference("names", where))
                continue
        if t.id == MODULEOFFSET and module in OUR_MODULES:
            found.append(Difference("our modules' offsets", where))
            continue
        found.append(Difference(f"{where}: {t.payload!r} -> {o.payload!r}", where))
    found += _project_stream_differences(template, project, renames)
    found += _stream_differences(template, project, renames)
    return found


def _renamed(text: str, renames: Mapping[str, str]) -> str:
    for old, new in renames.items():
        text = re.sub(rf"\b{re.escape(old)}\b", new, text)
    return text


def _project_stream_differences(
    template: bytes, project: bytes, renames: Mapping[str, str]
) -> list[Difference]:
    theirs = streams(template)["PROJECT"].decode(vba.CODEPAGE).split("\r\n")
    ours = streams(project)["PROJECT"].decode(vba.CODEPAGE).split("\r\n")
    if len(theirs) != len(ours):
        return [Difference("the PROJECT stream's lines", "a line was added or removed")]
    found = []
    for number, (t, o) in enumerate(zip(theirs, ours, strict=True), start=1):
        if t != o:
            kind = "names" if _renamed(t, renames) == o else f"PROJECT line {t!r} -> {o!r}"
            found.append(Difference(kind, f"PROJECT line {number}"))
    return found


def _stream_differences(
    template: bytes, project: bytes, renames: Mapping[str, str]
) -> list[Difference]:
    theirs, ours = streams(template), streams(project)
    expected = {_renamed(path, renames): path for path in theirs if "__SRP_" not in path}
    if set(expected) != set(ours):
        return [Difference(f"streams {sorted(set(expected) ^ set(ours))}", "the stream list")]
    found = []
    for path, data in ours.items():
        old = theirs[expected[path]]
        if data == old:
            continue
        module = path.removeprefix("VBA/")
        if path == "PROJECTwm" and data == _renamed_name_map(old, renames):
            found.append(Difference("names", path))
        elif path == "VBA/dir" or path == "PROJECT":
            continue  # compared record by record and line by line
        elif module in OUR_MODULES:
            found.append(Difference("our modules' source", path))
        else:
            found.append(Difference(f"stream {path}", path))
    return found


def _renamed_name_map(data: bytes, renames: Mapping[str, str]) -> bytes:
    """PROJECTwm (MS-OVBA 2.3.3) with every module renamed: a name in the code page and
    NUL, the same name in UTF-16 and a two-byte NUL, for each module; two NULs at the end."""
    out, pos = b"", 0
    while data[pos : pos + 2] != b"\x00\x00":
        end = data.index(b"\x00", pos)
        wide_end = end + 1
        while data[wide_end : wide_end + 2] != b"\x00\x00":
            wide_end += 2
        name = data[pos:end].decode(vba.CODEPAGE)
        assert data[end + 1 : wide_end].decode("utf-16-le") == name
        new = renames.get(name, name)
        out += new.encode(vba.CODEPAGE) + b"\x00" + new.encode("utf-16-le") + b"\x00\x00"
        pos = wide_end + 2
    return out + data[pos:]


def allowed_by_decisions() -> set[str]:
    """The kinds of difference docs/decisions.md allows, from its sentence saying so."""
    text = " ".join((DOCS / "decisions.md").read_text(encoding="utf-8").split())
    match = re.search(r"differs from the template's in (?:\w+ )+only: ([^.]+)\.", text)
    assert match, "docs/decisions.md must say how the VBA project differs from the template's"
    return {kind.strip() for kind in match.group(1).split(",")}


def test_the_project_differs_from_the_template_only_as_docs_decisions_says(
    ours: bytes, template: bytes
) -> None:
    allowed = allowed_by_decisions()
    assert allowed == {"names", "our modules' offsets", "our modules' source"}
    found = differences(template, ours)
    assert {d.kind for d in found} <= allowed, [d for d in found if d.kind not in allowed]
    assert modules(ours) == [
        {build.TEMPLATE_MODULE: build.MODULE}.get(m, m) for m in modules(template)
    ]
    named = {d.where for d in found if d.kind == "names"}
    assert named, "the project and the quickstart's module are renamed"
    assert {d.where for d in found if d.kind == "our modules' source"} == {
        f"VBA/{m}" for m in OUR_MODULES
    }


def test_the_comparison_catches_a_template_module_written_from_source(template: bytes) -> None:
    """Writing Dictionary from source (no compiled code, offset 0) is a difference no line
    of docs/decisions.md allows."""
    sources = vba.read_sources(template)
    project = vba.write_project(template, "MyAddin", {"Dictionary": sources["Dictionary"]})
    kinds = {d.kind for d in differences(template, project)}
    assert any("Dictionary" in kind and "0x0031" in kind for kind in kinds), kinds
    assert "stream VBA/Dictionary" in kinds
