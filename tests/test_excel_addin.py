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

from addin.actions.registry import load_all
from addin.door.buttons import CONTROL_PREFIX, buttons, buttons_table, resolve
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
    """Every button that runs an action (the Help group's two run VBA of their own)."""
    with zipfile.ZipFile(path) as z:
        root = etree.fromstring(z.read(build.CUSTOM_UI))
    return [b for b in root.iter(f"{CUSTOM_UI}button") if b.get("onAction") == build.ON_ACTION]


def help_buttons(path: Path) -> list[etree._Element]:
    with zipfile.ZipFile(path) as z:
        root = etree.fromstring(z.read(build.CUSTOM_UI))
    return list(root.find(f".//{CUSTOM_UI}group[@id='agaGroup_help']"))


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
    return [c for g in root.iter(f"{CUSTOM_UI}group") if g.get("id") != "agaGroup_help" for c in g]


def test_the_ribbon_lists_a_button_for_every_action_that_wants_one(xlam: Path) -> None:
    ids = [b.get("id") for b in ribbon_controls(xlam)]
    registered = {a.id for a in load_all().values() if a.button}
    expected = {CONTROL_PREFIX + a for a in registered}
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
    assert labels == ["Before", "Desk", "Round", "After", "Help"]


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


def test_no_message_sends_the_td_to_an_xlwings_command(xlam: Path) -> None:
    prompts = [p for source in vba_modules(xlam).values() for p in vba_prompts(source)]
    assert not [p for p in prompts if re.search(r"xlwings (runpython|addin|config)", p)]
    assert any("python -m addin install-excel" in p for p in prompts)


def test_our_vba_asks_nothing_itself(xlam: Path) -> None:
    """Every question is asked by the dispatcher, which asks only typed values; the VBA
    only tells (Help, About, an error)."""
    assert not re.search(r"\bInputBox\b", vba_modules(xlam)[build.MODULE], re.I)


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
    for element in ribbon_buttons(xlam) + help_buttons(xlam):
        module, _, sub = element.get("onAction").partition(".")
        assert module in modules, f"no VBA module {module}"
        subs = public_subs(modules[module])
        assert sub in subs, f"{module} has no Sub {sub}"
        assert re.fullmatch(r"\s*\w+\s+As\s+IRibbonControl\s*", subs[sub], re.I)


def test_all_buttons_share_one_callback(xlam: Path) -> None:
    with zipfile.ZipFile(xlam) as z:
        root = etree.fromstring(z.read(build.CUSTOM_UI))
    helpers = {b.get("id") for b in help_buttons(xlam)}
    assert helpers == {"aga_help", "aga_about"}
    for b in root.iter(f"{CUSTOM_UI}button"):
        if b.get("id") not in helpers:
            assert b.get("onAction") == build.ON_ACTION
    assert {b.get("onAction") for b in help_buttons(xlam)} == {
        build.HELP_ACTION,
        build.ABOUT_ACTION,
    }


OFFICE = Path(__file__).resolve().parent / "data" / "office"


def test_the_ribbon_is_valid_against_microsofts_customui_schema(xlam: Path) -> None:
    schema = etree.XMLSchema(etree.parse(str(OFFICE / "customUI.xsd")))
    with zipfile.ZipFile(xlam) as z:
        ribbon = etree.fromstring(z.read(build.CUSTOM_UI))
    assert schema.validate(ribbon), schema.error_log
    broken = etree.fromstring(z_read(xlam).replace(b'keytip="Y1"', b'keytip="Y123"'))
    assert not schema.validate(broken), "the schema must catch a four-letter keytip"


def z_read(path: Path) -> bytes:
    with zipfile.ZipFile(path) as z:
        return z.read(build.CUSTOM_UI)


def test_every_icon_is_in_microsofts_excel_control_list(xlam: Path) -> None:
    """An imageMso from another application's list (Outlook's AcceptInvitation, Word's
    ReviewAcceptChange) draws no icon in Excel."""
    known = set((OFFICE / "excel-control-ids.txt").read_text(encoding="utf-8").split())
    with zipfile.ZipFile(xlam) as z:
        root = etree.fromstring(z.read(build.CUSTOM_UI))
    icons = [e.get("imageMso") for e in root.iter() if e.get("imageMso")]
    assert len(icons) == len(ribbon_controls(xlam)) + 2
    assert sorted(i for i in icons if i not in known) == []


def test_every_control_has_a_distinct_keytip(xlam: Path) -> None:
    with zipfile.ZipFile(xlam) as z:
        root = etree.fromstring(z.read(build.CUSTOM_UI))
    (tab,) = root.iter(f"{CUSTOM_UI}tab")
    tips = [c.get("keytip") for c in ribbon_controls(xlam) + help_buttons(xlam)]
    assert tab.get("keytip") and all(tips) and len(set(tips)) == len(tips)
    assert all(1 <= len(t) <= 3 for t in tips)


def test_help_opens_the_guide_section_of_each_named_sheet() -> None:
    from addin.workbook import layout

    readme = (DOCS / "guide.md").read_text(encoding="utf-8")
    anchors = {
        _anchor(line.lstrip("#").strip()) for line in readme.splitlines() if line.startswith("#")
    }
    assert set(build.SHEET_HELP.values()) | {"in-excel"} <= anchors
    assert set(build.SHEET_HELP) == set(layout.SHEET_ORDER)


def _anchor(title: str) -> str:
    """GitHub's heading anchor."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def test_about_names_the_version() -> None:
    import addin

    assert f'ADDIN_VERSION As String = "{addin.__version__}"' in build.ribbon_module()


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
        spec = actions[button.action]
        assert callable(spec.run) and spec.button
        assert importlib.import_module(spec.run.__module__)


def test_the_vba_is_the_templates_with_this_addins_names(xlam: Path) -> None:
    """xlwings' module changes only where the build says (XLWINGS_EDITS); the quickstart's
    ribbon module is replaced by ours; the other modules are as xlwings wrote them."""

    def lines(modules: dict[str, str]) -> dict[str, str]:  # xlwings' module ends lines in LF
        return {k: v.replace("\r\n", "\n") for k, v in modules.items()}

    ours, theirs = lines(vba_modules(xlam)), lines(vba_modules(build.template_path()))
    assert set(ours) == set(theirs) - {build.TEMPLATE_MODULE} | {build.MODULE}
    for name in set(theirs) - {build.TEMPLATE_MODULE, "xlwings"}:
        assert ours[name] == theirs[name], name
    edited = theirs["xlwings"]
    for old, new in build.XLWINGS_EDITS:
        edited = edited.replace(old, new)
    assert ours["xlwings"] == edited != theirs["xlwings"]
    assert re.search(r'^Attribute VB_Name = "AgaRibbon"', ours[build.MODULE])


def test_no_myaddin_name_is_left_in_the_addin(xlam: Path) -> None:
    with zipfile.ZipFile(xlam) as z:
        project = z.read(build.VBA_PROJECT)
        parts = {n: z.read(n) for n in z.namelist() if n != build.VBA_PROJECT}
    for name, data in parts.items():
        assert b"myaddin" not in data.lower(), name
    with olefile.OleFileIO(project) as ole:
        for stream in ole.listdir():
            path = "/".join(stream)
            assert "myaddin" not in path.lower()
            data = ole.openstream(stream).read()
            if path.startswith("VBA/") and path != "VBA/_VBA_PROJECT":
                data = vba.decompress(data)
            assert b"myaddin" not in data.lower(), path
            assert "myaddin" not in data.decode("utf-16-le", "ignore").lower(), path
    assert re.search(r'Name="AgaMcMahon"', vba_project_text(xlam))


def vba_project_text(path: Path) -> str:
    with (
        zipfile.ZipFile(path) as z,
        olefile.OleFileIO(io.BytesIO(z.read(build.VBA_PROJECT))) as ole,
    ):
        return ole.openstream("PROJECT").read().decode("cp1252")


# --- the VBA project, read back as MS-OVBA describes it -------------------------------------


def test_libreoffice_reads_the_vba_project_back(xlam: Path, tmp_path: Path) -> None:
    """Another implementation of MS-OVBA, LibreOffice, loads the project (the dir stream,
    our modules written from source, the template's carried over with their compiled code)
    and writes it out again as it does xlwings' template itself (it writes no class
    module, so Dictionary is left out of both)."""
    import os

    from tests.helpers import SOFFICE, libreoffice_convert

    if SOFFICE is None:
        if os.environ.get("AGA_REQUIRE_LIBREOFFICE"):
            pytest.fail("LibreOffice (soffice) is not installed (AGA_REQUIRE_LIBREOFFICE is set)")
        pytest.skip("LibreOffice is not installed")
    written = {}
    for name, path in (("ours", xlam), ("template", build.template_path())):
        workbook = tmp_path / f"{name}.xlsm"
        workbook.write_bytes(as_xlsm(path).getvalue())
        out = libreoffice_convert(workbook, "xlsm:Calc MS Excel 2007 VBA XML", tmp_path / name)
        written[name] = vba_modules(out)
    modules = written["ours"]
    renamed = {build.TEMPLATE_MODULE: build.MODULE}
    assert set(modules) == {renamed.get(m, m) for m in written["template"]}
    assert {"AgaRibbon", "xlwings", "ThisWorkbook", "Sheet2"} <= set(modules)
    assert set(public_subs(modules["AgaRibbon"])) >= {"AgaButton", "AgaHelp", "AgaAbout"}
    assert 'PROJECT_NAME As String = "aga_mcmahon"' in modules["xlwings"]


def test_the_compound_file_reads_back_with_every_stream(xlam: Path) -> None:
    with zipfile.ZipFile(xlam) as z:
        data = z.read(build.VBA_PROJECT)
    with olefile.OleFileIO(data) as ole:
        names = sorted("/".join(s) for s in ole.listdir())
        assert names == sorted(
            ["PROJECT", "PROJECTwm", "VBA/_VBA_PROJECT", "VBA/dir"]
            + [f"VBA/{m}" for m in ("AgaRibbon", "Dictionary", "Sheet2", "ThisWorkbook", "xlwings")]
        )
        wm = ole.openstream("PROJECTwm").read()
    assert b"AgaRibbon\x00" + "AgaRibbon".encode("utf-16-le") + b"\x00\x00" in wm
    assert "Module=AgaRibbon" in vba_project_text(xlam)


# --- settings baked in at install time ----------------------------------------------------


def conf_rows_as_xlwings_reads_them(path: Path) -> dict[str, object]:
    """The settings sheet as xlwings' GetConfigFromSheet reads it: the sheet named
    PROJECT_NAME & ".conf", from A1 down to the first empty cell of column A."""
    wb = openpyxl.load_workbook(as_xlsm(path), read_only=True)
    try:
        sheet = wb[f"{build.PROJECT_NAME}.conf"]
        found = {}
        for row in sheet.iter_rows(values_only=True):
            if not row or row[0] in (None, ""):
                break
            found[str(row[0]).upper()] = row[1] if len(row) > 1 else None
        return found
    finally:
        wb.close()


def test_the_vba_reads_its_settings_under_the_addins_own_name(xlam: Path) -> None:
    """xlwings builds every settings place from PROJECT_NAME: the sheet
    aga_mcmahon.conf in the add-in, then aga_mcmahon.conf in the workbook's folder, then
    the user's file, as docs/excel-install.md says."""
    source = vba_modules(xlam)["xlwings"]
    assert f'Public Const PROJECT_NAME As String = "{build.PROJECT_NAME}"' in source
    assert 'Sheets(PROJECT_NAME & ".conf")' in source
    assert '& "\\." & PROJECT_NAME & "\\" & PROJECT_NAME & ".conf"' in source
    assert '"/" & PROJECT_NAME & ".conf"' in source
    assert 'GetConfig("ADD_WORKBOOK_TO_PYTHONPATH", "true")' not in source
    guide = (DOCS / "excel-install.md").read_text(encoding="utf-8")
    for place in (
        "aga_mcmahon.conf",
        r"%USERPROFILE%\.aga_mcmahon\aga_mcmahon.conf",
        "~/Library/Containers/com.microsoft.Excel/Data/aga_mcmahon.conf",
    ):
        assert place in guide, place


def test_settings_are_baked_into_the_addins_own_sheet_every_one_readable(tmp_path: Path) -> None:
    settings = install.excel_settings(r"C:\Python311\python.exe", "win32")
    path = build.build_addin(tmp_path / "a.xlam", settings)
    wb = openpyxl.load_workbook(as_xlsm(path), read_only=True)
    assert wb.sheetnames == [build.CONF_SHEET] == ["aga_mcmahon.conf"]
    wb.close()
    values = conf_rows_as_xlwings_reads_them(path)
    assert values["INTERPRETER_WIN"] == r"C:\Python311\python.exe"
    assert values["PYTHONPATH"] == str(Path(__file__).resolve().parents[1])
    assert values["ADD_WORKBOOK_TO_PYTHONPATH"] == "False"
    assert set(values) == {k.upper() for k in {**build.DEFAULT_SETTINGS, **settings}}
    assert importlib.import_module("addin").__file__.startswith(values["PYTHONPATH"])


def test_a_build_without_settings_leaves_the_interpreter_to_the_settings_file(xlam: Path) -> None:
    """A key on the sheet, even empty, hides the file: so only what was given is there."""
    assert conf_rows_as_xlwings_reads_them(xlam) == {"ADD_WORKBOOK_TO_PYTHONPATH": "False"}


def test_excel_settings_name_the_platforms_interpreter() -> None:
    assert set(install.excel_settings("/usr/bin/python3", "darwin")) == {
        "INTERPRETER_MAC",
        "PYTHONPATH",
    }


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_install_and_remove_touch_only_the_addin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, platform: str
) -> None:
    """Into a startup folder given (xlwings asks Excel for the real one): the add-in with
    its settings and help page; nothing of xlwings' own settings; removing twice says the
    second time that there is nothing to remove, in one line."""
    monkeypatch.setattr(install, "STAGING", tmp_path / "staging")
    monkeypatch.setattr(install, "MAC_SCRIPTS", tmp_path / "scripts")
    startup = tmp_path / "XLSTART"
    said: list[str] = []
    target = install.install_excel(folder=startup, platform=platform, echo=said.append)
    assert target == startup / build.ADDIN_FILE and target.is_file()
    values = conf_rows_as_xlwings_reads_them(target)
    key = "INTERPRETER_MAC" if platform == "darwin" else "INTERPRETER_WIN"
    assert values[key] == sys.executable
    page = Path(values["HELP"].removeprefix("file://"))
    assert page.is_file() and "id='in-excel'" in page.read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["staging", "XLSTART"] + (["scripts"] if platform == "darwin" else [])
    )
    install.uninstall_excel(folder=startup, platform=platform, echo=said.append)
    assert not target.exists()
    with pytest.raises(install.InstallError, match="not installed"):
        install.uninstall_excel(folder=startup, platform=platform, echo=said.append)
    assert any("Installed" in line for line in said) and any("Removed" in line for line in said)


def test_a_copy_that_fails_is_reported_not_claimed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(install, "STAGING", tmp_path / "staging")
    blocker = tmp_path / "XLSTART"
    blocker.write_text("a file where the folder should be")
    said: list[str] = []
    with pytest.raises(install.InstallError, match="cannot copy the add-in"):
        install.install_excel(folder=blocker, platform="win32", echo=said.append)
    assert not any("Installed" in line for line in said)


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
    assert build.TEMPLATE_MODULE in offsets and "xlwings" in offsets


def test_the_project_writer_refuses_a_module_set_that_does_not_match() -> None:
    with zipfile.ZipFile(build.template_path()) as z:
        project = z.read(build.VBA_PROJECT)
    sources = vba.read_sources(project)
    with pytest.raises(vba.VBAError, match="modules are"):
        vba.write_project(project, "X", {**sources, "Extra": 'Attribute VB_Name = "Extra"'})
    with pytest.raises(vba.VBAError, match="VB_Name"):
        vba.write_project(project, "X", {**sources, "xlwings": "Sub A()\r\nEnd Sub\r\n"})
    with pytest.raises(vba.VBAError, match="renamed module needs its source"):
        vba.write_project(project, "X", {}, {"Dictionary": "Lookup"})


def test_the_dir_stream_records_round_trip() -> None:
    with (
        zipfile.ZipFile(build.template_path()) as z,
        olefile.OleFileIO(z.read(build.VBA_PROJECT)) as ole,
    ):
        data = vba.decompress(ole.openstream("VBA/dir").read())
    assert vba.dir_bytes(vba.dir_records(data)) == data


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
