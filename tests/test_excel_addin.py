"""The Excel add-in file, opened as the zip it is: ribbon, VBA and the Python it names.

Excel is not needed: the ribbon XML is read with lxml, the VBA with oletools' olevba
(an independent reader of vbaProject.bin), and every Python name the VBA or the
dispatcher uses is imported for real.
"""

from __future__ import annotations

import importlib
import inspect
import io
import re
import sys
import zipfile
from pathlib import Path

import olefile
import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree
from oletools.olevba import VBA_Parser, decompress_stream

from addin.actions.registry import ACTIONS, load_all
from addin.door.buttons import BUILTIN, CONTROL_PREFIX, buttons, buttons_table, resolve
from addin.excel import build, install, vba

CUSTOM_UI = "{http://schemas.microsoft.com/office/2006/01/customui}"
ISSUE_BUTTONS = {
    "new",
    "import-tdlista",
    "register",
    "bands",
    "pair",
    "unpair",
    "standings",
    "report",
    "export-aga",
    "import-aga-xml",
    "check",
}
"""The buttons the add-in was asked for; every other registered action follows the registry."""
DOCS = Path(__file__).resolve().parents[1] / "docs"


@pytest.fixture(scope="module")
def xlam(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build.build_addin(tmp_path_factory.mktemp("addin") / build.ADDIN_FILE)


def as_xlsm(path: Path) -> io.BytesIO:
    """The add-in with a workbook's content type, so that openpyxl (which refuses add-ins)
    reads its sheets as an independent check of the XML."""
    out = io.BytesIO()
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "[Content_Types].xml":
                data = data.replace(b"addin.macroEnabled", b"sheet.macroEnabled")
            dst.writestr(info, data)
    out.seek(0)
    return out


def ribbon_buttons(path: Path) -> list[etree._Element]:
    with zipfile.ZipFile(path) as z:
        root = etree.fromstring(z.read(build.CUSTOM_UI))
    return list(root.iter(f"{CUSTOM_UI}button"))


def vba_modules(path: Path) -> dict[str, str]:
    """Module name -> source, as olevba reads them."""
    parser = VBA_Parser(str(path))
    try:
        return {
            Path(filename).stem: code
            for _, _, filename, code in parser.extract_macros()
            if filename.endswith((".bas", ".cls"))
        }
    finally:
        parser.close()


def public_subs(source: str) -> dict[str, str]:
    """Sub name -> its parameter list, for subs a ribbon can call."""
    found = re.finditer(r"^(?:Public\s+)?Sub\s+(\w+)\s*\(([^)]*)\)", source, re.M | re.I)
    return {m.group(1): m.group(2) for m in found}


# --- the ribbon --------------------------------------------------------------------------


def ribbon_controls(path: Path) -> list[etree._Element]:
    """The controls the groups show: buttons and the Reports menu (not the menu's items)."""
    with zipfile.ZipFile(path) as z:
        root = etree.fromstring(z.read(build.CUSTOM_UI))
    return [c for g in root.iter(f"{CUSTOM_UI}group") for c in g]


def test_the_ribbon_lists_a_button_for_every_action_that_wants_one(xlam: Path) -> None:
    ids = [b.get("id") for b in ribbon_controls(xlam)]
    registered = {a.id for a in load_all().values() if a.button}
    expected = {CONTROL_PREFIX + a for a in registered | (set(BUILTIN) - set(ACTIONS))}
    assert len(ids) == len(set(ids)), "control ids must be unique"
    assert set(ids) == expected
    assert {CONTROL_PREFIX + a for a in ISSUE_BUTTONS} <= set(ids)
    assert [b.control_id for b in buttons()] == ids
    every = [b.get("id") for b in ribbon_buttons(xlam)]
    assert len(every) == len(set(every))


def test_the_groups_follow_a_tds_day(xlam: Path) -> None:
    with zipfile.ZipFile(xlam) as z:
        root = etree.fromstring(z.read(build.CUSTOM_UI))
    labels = [g.get("label") for g in root.iter(f"{CUSTOM_UI}group")]
    assert labels == ["Before", "Desk", "Round", "After"]


def test_each_control_has_its_own_icon_and_a_plain_words_tooltip(xlam: Path) -> None:
    controls = ribbon_controls(xlam)
    icons = [c.get("imageMso") for c in controls]
    assert all(icons) and len(set(icons)) == len(icons), "one distinct built-in icon each"
    for element in controls:
        button = resolve(element.get("id"))
        assert button is not None
        assert element.get("label") == button.label
        assert element.get("supertip") == button.tip
        assert element.get("size") == button.size
    for element in ribbon_buttons(xlam):
        tip = element.get("supertip")
        assert tip and "--" not in tip and not re.search(r"\b(aga|player|board)\s*=", tip)
        assert tip[0].isupper() and tip.endswith(".")


def test_the_reports_menu_has_one_item_per_report_and_sort_the_wall_list_first(
    xlam: Path,
) -> None:
    from addin.reports.kinds import KINDS

    (menu,) = [c for c in ribbon_controls(xlam) if c.tag == f"{CUSTOM_UI}menu"]
    items = [resolve(b.get("id")) for b in menu]
    presets = [b.preset for b in items if b is not None]
    assert presets[0] == ("pairings", "alphabetical")
    assert sorted(presets) == sorted((k, s) for k in KINDS for s in KINDS[k].sorts)
    assert all(b.get("onAction") == build.ON_ACTION for b in menu)


def vba_prompts(source: str) -> list[str]:
    """The text of every MsgBox/InputBox prompt: string literals joined by & on its line."""
    prompts = []
    for line in source.splitlines():
        for call in re.finditer(r"\b(MsgBox|InputBox)\b\s*\(?(.*)", line, re.I):
            literals = re.findall(r'"((?:[^"]|"")*)"', call.group(2))
            prompts.append("".join(literals).replace('""', '"'))
    return prompts


def test_every_vba_prompt_fits_excels_255_characters(xlam: Path) -> None:
    prompts = [p for source in vba_modules(xlam).values() for p in vba_prompts(source)]
    assert prompts, "the xlwings VBA shows messages; the reader must find them"
    assert max(map(len, prompts)) <= 255


def test_our_vba_asks_nothing_itself(xlam: Path) -> None:
    """Every question is asked by the dispatcher, which asks only typed values."""
    assert not vba_prompts(vba_modules(xlam)[build.MODULE])


def test_ribbon_ids_and_texts_are_within_office_limits(xlam: Path) -> None:
    with zipfile.ZipFile(xlam) as z:
        root = etree.fromstring(z.read(build.CUSTOM_UI))
    for element in root.iter():
        if element.get("id") is not None:
            assert re.fullmatch(r"[A-Za-z_][\w.\-]*", element.get("id"))  # an xsd:ID
        for attribute in ("label", "screentip", "supertip"):
            assert len(element.get(attribute, "")) <= 1024


def test_every_on_action_names_a_ribbon_callback_that_exists_in_the_vba(xlam: Path) -> None:
    modules = vba_modules(xlam)
    for element in ribbon_buttons(xlam):
        module, _, sub = element.get("onAction").partition(".")
        assert module in modules, f"no VBA module {module}"
        subs = public_subs(modules[module])
        assert sub in subs, f"{module} has no Sub {sub}"
        assert re.fullmatch(r"\s*\w+\s+As\s+IRibbonControl\s*", subs[sub], re.I)


def test_all_buttons_share_one_callback(xlam: Path) -> None:
    assert {b.get("onAction") for b in ribbon_buttons(xlam)} == {build.ON_ACTION}


def python_commands(source: str) -> list[str]:
    return re.findall(r'RunPython\s+"([^"]*)"', source)


def test_the_callback_hands_the_control_id_to_one_python_dispatcher(xlam: Path) -> None:
    source = vba_modules(xlam)[build.MODULE]
    assert re.search(r"RunPython\s+\"[^\"]*\"\s*&\s*c\.Id\s*&\s*\"'\)\"", source, re.I)
    (command,) = python_commands(source)
    match = re.fullmatch(r"import ([\w.]+) as (\w+);\2\.(\w+)\('", command)
    assert match, command
    module = importlib.import_module(match.group(1))
    dispatch = getattr(module, match.group(3))
    assert callable(dispatch)
    parameters = list(inspect.signature(dispatch).parameters.values())
    assert parameters[0].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert all(p.default is not inspect.Parameter.empty for p in parameters[1:])


def test_every_button_the_ribbon_shows_is_an_action_the_dispatcher_runs(xlam: Path) -> None:
    actions = load_all()
    for element in ribbon_buttons(xlam):
        button = resolve(element.get("id"))
        assert button is not None, element.get("id")
        if button.builtin:
            assert button.action in BUILTIN
        else:
            spec = actions[button.action]
            assert callable(spec.run) and spec.button
            assert importlib.import_module(spec.run.__module__)


def test_no_other_vba_changed_from_the_xlwings_template(xlam: Path) -> None:
    ours, theirs = vba_modules(xlam), vba_modules(build.template_path())
    assert set(ours) == set(theirs)
    for name in theirs:
        if name != build.MODULE:
            assert ours[name] == theirs[name], name
    assert "RunMain" in theirs[build.MODULE] and "RunMain" not in ours[build.MODULE]


def test_the_project_keeps_office_recompiling_from_source(xlam: Path) -> None:
    with (
        zipfile.ZipFile(xlam) as z,
        olefile.OleFileIO(io.BytesIO(z.read(build.VBA_PROJECT))) as ole,
    ):
        assert ole.openstream("VBA/_VBA_PROJECT").read()[2:4] == vba.SOURCE_CACHE_NEUTRAL


def test_only_the_ribbon_the_vba_and_the_title_differ_from_the_template(xlam: Path) -> None:
    with zipfile.ZipFile(xlam) as ours, zipfile.ZipFile(build.template_path()) as theirs:
        assert ours.namelist() == theirs.namelist()
        changed = {n for n in theirs.namelist() if ours.read(n) != theirs.read(n)}
    assert changed == {build.CUSTOM_UI, build.VBA_PROJECT, "docProps/core.xml"}


def test_in_the_vba_project_only_the_ribbon_module_stream_changed(xlam: Path) -> None:
    with zipfile.ZipFile(xlam) as ours, zipfile.ZipFile(build.template_path()) as theirs:
        new, old = ours.read(build.VBA_PROJECT), theirs.read(build.VBA_PROJECT)
    assert len(new) == len(old)
    with olefile.OleFileIO(new) as a, olefile.OleFileIO(old) as b:
        streams = ["/".join(s) for s in b.listdir()]
        assert streams == ["/".join(s) for s in a.listdir()]
        changed = {s for s in streams if a.openstream(s).read() != b.openstream(s).read()}
    assert changed == {f"VBA/{build.MODULE}"}


# --- settings baked in at install time ----------------------------------------------------


def test_settings_are_baked_into_the_addins_own_xlwings_sheet(tmp_path: Path) -> None:
    settings = install.excel_settings(r"C:\Python311\python.exe", "win32")
    path = build.build_addin(tmp_path / "a.xlam", settings)
    wb = openpyxl.load_workbook(as_xlsm(path), read_only=True)
    assert wb.sheetnames == [f"{build.PROJECT_NAME}.conf"]
    rows = wb.worksheets[0].iter_rows(values_only=True)
    values = {str(r[0]).upper(): r[1] for r in rows if r[0]}
    wb.close()
    assert values["INTERPRETER_WIN"] == r"C:\Python311\python.exe"
    assert values["PYTHONPATH"] == str(Path(__file__).resolve().parents[1])
    assert importlib.import_module("addin").__file__.startswith(values["PYTHONPATH"])


def test_a_build_without_settings_leaves_the_settings_sheet_switched_off(xlam: Path) -> None:
    wb = openpyxl.load_workbook(as_xlsm(xlam), read_only=True)
    try:
        assert wb.sheetnames == [build.CONF_SHEET]
    finally:
        wb.close()


def test_excel_settings_name_the_platforms_interpreter() -> None:
    assert set(install.excel_settings("/usr/bin/python3", "darwin")) == {
        "INTERPRETER_MAC",
        "PYTHONPATH",
    }


@pytest.mark.skipif(install.supported(), reason="installing is for Windows and macOS")
def test_install_refuses_where_there_is_no_excel() -> None:
    with pytest.raises(install.InstallError, match="build-excel"):
        install.install_excel()
    assert install.main([]) == 1


def test_the_build_command_writes_the_addin(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "sub" / "x.xlam"
    assert build.main([str(out)]) == 0
    assert zipfile.is_zipfile(out)
    assert f"{len(buttons())} buttons" in capsys.readouterr().out
    assert not list(out.parent.glob(".*.tmp"))


# --- the VBA codec ------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=9000) | st.text(alphabet="ab \r\n", max_size=9000).map(str.encode))
def test_compression_round_trips_and_olevba_reads_it(data: bytes) -> None:
    packed = vba.compress(data)
    assert vba.decompress(packed) == data
    assert bytes(decompress_stream(bytearray(packed))) == data


def test_our_decompressor_reads_every_template_module_as_olevba_does() -> None:
    with zipfile.ZipFile(build.template_path()) as z:
        project = z.read(build.VBA_PROJECT)
    with olefile.OleFileIO(project) as ole:
        offsets = vba.module_offsets(ole.openstream("VBA/dir").read())
        for module, offset in offsets.items():
            stream = ole.openstream(f"VBA/{module}").read()[offset:]
            assert vba.decompress(stream) == bytes(decompress_stream(bytearray(stream)))
    assert build.MODULE in offsets and "xlwings" in offsets


def test_compress_to_pads_with_a_comment_to_the_exact_size() -> None:
    text = b"Sub A()\r\nEnd Sub\r\n"
    base = len(vba.compress(text))
    for size in [base, *range(base + 4, base + 400, 23)]:
        packed = vba.compress_to(text, size)
        assert len(packed) == size
        source = vba.decompress(packed)
        assert source.startswith(text)
        assert all(line.startswith(b"'") for line in source[len(text) :].splitlines())


def test_a_module_too_long_for_the_template_is_refused() -> None:
    with zipfile.ZipFile(build.template_path()) as z:
        project = z.read(build.VBA_PROJECT)
    with pytest.raises(vba.VBAError, match="does not fit"):
        vba.replace_module(project, build.MODULE, "' " + vba._filler(400).decode())
    with pytest.raises(vba.VBAError, match="no module"):
        vba.replace_module(project, "Nope", "")


def test_the_dispatcher_module_imports_without_excel() -> None:
    module = importlib.import_module(build.ENTRY_MODULE)
    assert callable(getattr(module, build.ENTRY_FUNCTION))
    assert "win32com" not in sys.modules or sys.platform.startswith("win")


def test_the_install_guide_lists_every_button_as_the_ribbon_has_it() -> None:
    text = (DOCS / "excel-install.md").read_text(encoding="utf-8")
    begin, end = text.index("<!-- buttons:begin"), text.index("<!-- buttons:end -->")
    table = text[text.index("\n", begin) + 1 : end].strip()
    assert table == buttons_table(), "regenerate it: python -m addin.door.buttons"
    for command in ("install-excel", "build-excel", "Windows", "macOS"):
        assert command in text
