"""Build the Excel add-in (.xlam) from xlwings' own ribbon add-in template.

The template (``quickstart_addin_ribbon.xlam`` in the installed xlwings package, the
file ``xlwings quickstart NAME --addin --ribbon`` copies) carries xlwings' VBA:
``RunPython``, configuration, the Mac and Windows plumbing. The build makes it this
add-in throughout:

- ``customUI/customUI.xml``: one tab, one button per ``addin.door.buttons.buttons()``,
  every button's ``onAction`` the same VBA sub, plus Help and About, with keytips;
- the VBA project (``addin.excel.vba``), in the shape of the add-ins xlwings ships: the
  quickstart's ``RibbonMyAddin`` module becomes ``AgaRibbon`` (``vba_src/AgaRibbon.bas``:
  the callback, Help, About, and the error message a TD sees) and xlwings' module reads
  its settings under this add-in's name (``aga_mcmahon.conf``) and no longer puts the
  workbook's folder on Python's path, both written from source; the document modules and
  ``Dictionary`` are the template's, as they are; the project is called ``AgaMcMahon``;
- the settings sheet ``aga_mcmahon.conf``: only the settings given (the interpreter,
  PYTHONPATH and the help page ``install-excel`` found), one per row from A1, so that
  xlwings reads every one of them and anything not on it comes from the settings file.

So a new button changes only the ribbon XML, and building again after an action is
registered adds it. The output matches the installed xlwings version by construction.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from xml.sax.saxutils import quoteattr

from lxml import etree

import addin
from addin.door.buttons import GROUPS, Button, buttons, report_items
from addin.excel import vba
from addin.workbook.sheet_guide import SHEET_GUIDE

ADDIN_FILE = "aga_mcmahon.xlam"
TITLE = "AGA Swiss McMahon"
TEMPLATE = "quickstart_addin_ribbon.xlam"
VBA_PROJECT_NAME = "AgaMcMahon"
"""The VBA project's name (an identifier: no spaces)."""
TEMPLATE_MODULE = "RibbonMyAddin"
MODULE = "AgaRibbon"
XLWINGS_MODULE = "xlwings"
CALLBACK = "AgaButton"
ON_ACTION = f"{MODULE}.{CALLBACK}"
HELP_ACTION = f"{MODULE}.AgaHelp"
ABOUT_ACTION = f"{MODULE}.AgaAbout"
ENTRY_MODULE = "addin.excel.entry"
ENTRY_FUNCTION = "dispatch"
PYTHON_COMMAND = f"import {ENTRY_MODULE} as e;e.{ENTRY_FUNCTION}('"
PROJECT_NAME = "aga_mcmahon"
"""xlwings' ``PROJECT_NAME`` in the VBA: the settings sheet and file are ``aga_mcmahon.conf``."""
CONF_SHEET = f"{PROJECT_NAME}.conf"
TEMPLATE_CONF_SHEET = "_myaddin.conf"
LOG_FILE = "aga_mcmahon.log"
"""Where the VBA keeps the full text of every error (TEMP on Windows, Excel's container
folder on macOS)."""
DEFAULT_SETTINGS = {"ADD_WORKBOOK_TO_PYTHONPATH": "False"}
"""xlwings would put the workbook's folder on Python's path (and map OneDrive folders) on
every click; this add-in's code is found through PYTHONPATH alone."""
SHEET_HELP = SHEET_GUIDE
"""The guide's section for a sheet (docs/guide.md anchors); a Round sheet and any other:
In Excel."""
XLWINGS_EDITS = (
    ('Public Const PROJECT_NAME As String = "myaddin"',
     f'Public Const PROJECT_NAME As String = "{PROJECT_NAME}"'),
    ('GetConfig("ADD_WORKBOOK_TO_PYTHONPATH", "true")',
     'GetConfig("ADD_WORKBOOK_TO_PYTHONPATH", "false")'),
    ('Sub ShowError(FileName As String, Optional Message As String = "")',
     'Sub XlwingsShowError(FileName As String, Optional Message As String = "")'),
    ("please run 'xlwings runpython install' in a terminal once and try again.",
     "run this in a terminal once, then try again: python -m addin install-excel"),
    ('MsgBox "Could not find Interpreter!", vbCritical',
     'MsgBox "The Python this add-in was installed with is gone: " & PYTHON_WIN & vbLf & '
     '"In a terminal, run again: python -m addin install-excel", vbCritical'),
)  # fmt: skip
"""(text in the template's xlwings module, its replacement): each must be found. The
settings take this add-in's name; ``ShowError`` gives way to ``AgaRibbon``'s."""

NS = {
    "m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
    "cp": "http://schemas.openxmlformats.org/package/2006/metadata/core-properties",
    "dc": "http://purl.org/dc/elements/1.1/",
}
CUSTOM_UI = "customUI/customUI.xml"
VBA_PROJECT = "xl/vbaProject.bin"


class BuildError(RuntimeError):
    """The add-in cannot be built from the installed xlwings."""


def template_path() -> Path:
    """xlwings' ribbon add-in template, from the installed package."""
    import xlwings

    path = Path(xlwings.__file__).parent / TEMPLATE
    if not path.exists():
        raise BuildError(f"xlwings {xlwings.__version__} has no {TEMPLATE} to build from")
    return path


def ribbon_xml(items: Sequence[Button]) -> bytes:
    """The customUI part: one tab, a group per kind of button, one callback for all,
    a keytip on every control (Alt, then the tab's keytip, then the control's)."""
    tips = iter(keytips(len(items) + 2))
    lines = [
        '<customUI xmlns="http://schemas.microsoft.com/office/2006/01/customui">',
        "  <ribbon>",
        "    <tabs>",
        f'      <tab id="agaMcMahonTab" label={quoteattr(TITLE)} keytip="{TAB_KEYTIP}">',
    ]
    for key, label in GROUPS.items():
        members = [b for b in items if b.group == key]
        if not members:
            continue
        lines.append(f'        <group id="agaGroup_{key}" label={quoteattr(label)}>')
        for b in members:
            text = f"screentip={quoteattr(b.label)} supertip={quoteattr(b.tip)}"
            head = (
                f'id="{b.control_id}" label={quoteattr(b.label)} size="{b.size}"'
                f' imageMso="{b.image}" keytip="{next(tips)}"'
            )
            if b.menu:
                lines.append(f"          <menu {head} {text}>")
                lines += [_menu_item(item) for item in report_items()]
                lines.append("          </menu>")
                continue
            lines.append(f'          <button {head} {text} onAction="{ON_ACTION}" />')
        lines.append("        </group>")
    lines.append('        <group id="agaGroup_help" label="Help">')
    for control, label, image, action, tip in (
        ("aga_help", "Help", "Help", HELP_ACTION,
         "Open the guide at the section for the sheet you are on."),
        ("aga_about", "About", "About", ABOUT_ACTION,
         "The add-in's version, the Python it runs and where its log is."),
    ):  # fmt: skip
        lines.append(
            f'          <button id="{control}" label="{label}" size="{SMALL_SIZE}"'
            f' imageMso="{image}" keytip="{next(tips)}" screentip="{label}"'
            f' supertip={quoteattr(tip)} onAction="{action}" />'
        )
    lines.append("        </group>")
    lines += ["      </tab>", "    </tabs>", "  </ribbon>", "</customUI>", ""]
    return "\n".join(lines).encode("utf-8")


TAB_KEYTIP = "Y1"
"""Alt, Y, 1 opens the tab (Excel's own tabs use single letters; Y1 is the usual free one)."""
SMALL_SIZE = "normal"


def keytips(count: int) -> list[str]:
    """Distinct keytips, one or two characters (the schema allows up to three)."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    singles = list(letters)
    doubles = [a + b for a in letters for b in "123456789"]
    return (singles + doubles)[:count]


def _menu_item(b: Button) -> str:
    """A report menu item: a text entry, as Excel's own menus list their commands."""
    return (
        f'            <button id="{b.control_id}" label={quoteattr(b.label)}'
        f" screentip={quoteattr(b.label)} supertip={quoteattr(b.tip)}"
        f' onAction="{ON_ACTION}" />'
    )


def vba_sources(template: Mapping[str, str]) -> dict[str, str]:
    """The sources of the add-in's own modules, from the template's (by module name): the
    quickstart's ribbon module replaced by ``AgaRibbon``, and xlwings' module edited. Only
    these are written from source; the template's others (``ThisWorkbook``, ``Sheet2``,
    ``Dictionary``) are carried over as they are, streams and offsets."""
    if TEMPLATE_MODULE not in template or XLWINGS_MODULE not in template:
        raise BuildError(f"the template has no {TEMPLATE_MODULE} or {XLWINGS_MODULE} module")
    xlwings = template[XLWINGS_MODULE]
    for old, new in XLWINGS_EDITS:
        if old not in xlwings:
            raise BuildError(f"the template's {XLWINGS_MODULE} module has no {old!r}")
        xlwings = xlwings.replace(old, new)
    return {XLWINGS_MODULE: xlwings, MODULE: ribbon_module()}


def ribbon_module() -> str:
    """AgaRibbon's source, its fields filled in."""
    text = resources.files("addin.excel").joinpath("vba_src/AgaRibbon.bas").read_text("ascii")
    fields = {
        "TITLE": TITLE,
        "VERSION": addin.__version__,
        "SHEET_HELP": ";".join(f"{k}={v}" for k, v in SHEET_HELP.items()),
        "PYTHON_COMMAND": PYTHON_COMMAND,
        "LOG": LOG_FILE,
    }
    for key, value in fields.items():
        text = text.replace("{{" + key + "}}", value)
    if "{{" in text:
        raise BuildError("AgaRibbon.bas names a field the build does not fill")
    return text


def _conf_sheet(sheet: bytes, config: Mapping[str, str]) -> bytes:
    """The settings sheet holding ``config`` alone, one key per row from A1.

    xlwings reads the sheet from A1 down to the first empty cell of column A, and a key
    present there with an empty value hides the settings file: so the template's rows
    (its keys without values, and a stray cell at A13) all go."""
    root = etree.fromstring(sheet)
    data = root.find("m:sheetData", NS)
    assert data is not None
    for row in list(data):
        data.remove(row)
    for number, (key, value) in enumerate(config.items(), start=1):
        row = etree.SubElement(data, f"{{{NS['m']}}}row", r=str(number), spans="1:2")
        _inline(row, f"A{number}", key)
        _inline(row, f"B{number}", value)
    for dim in root.findall("m:dimension", NS):
        dim.set("ref", f"A1:B{max(len(config), 1)}")
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


def _inline(row: etree._Element, ref: str, text: str) -> None:
    cell = etree.SubElement(row, f"{{{NS['m']}}}c", r=ref, t="inlineStr")
    etree.SubElement(etree.SubElement(cell, f"{{{NS['m']}}}is"), f"{{{NS['m']}}}t").text = text


def _core(data: bytes) -> bytes:
    root = etree.fromstring(data)
    for tag, text in (("dc:title", TITLE), ("dc:creator", "addin"), ("dc:description", "")):
        node = root.find(tag, NS)
        if node is not None:
            node.text = text or None
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


def build_addin(out: Path | str, config: Mapping[str, str] | None = None) -> Path:
    """Write the add-in to ``out`` (atomically); ``config``: xlwings settings to bake in,
    e.g. ``{"Interpreter_Win": ..., "PYTHONPATH": ...}`` (keys as xlwings spells them)."""
    out = Path(out)
    source = template_path()
    with zipfile.ZipFile(source) as src:
        parts = {info.filename: src.read(info) for info in src.infolist()}
        infos = src.infolist()
    if CUSTOM_UI not in parts or VBA_PROJECT not in parts:
        raise BuildError(f"{source} is not the ribbon add-in template this build expects")
    parts[CUSTOM_UI] = ribbon_xml(buttons())
    try:
        template = vba.read_sources(parts[VBA_PROJECT])
        parts[VBA_PROJECT] = vba.write_project(
            parts[VBA_PROJECT],
            VBA_PROJECT_NAME,
            vba_sources(template),
            {TEMPLATE_MODULE: MODULE},
        )
    except vba.VBAError as err:
        raise BuildError(f"{source}: {err}") from err
    parts["docProps/core.xml"] = _core(parts["docProps/core.xml"])
    _bake_config(parts, {**DEFAULT_SETTINGS, **(config or {})})
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = out.with_name(f".{out.name}.tmp")
    with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in infos:
            dst.writestr(info, parts[info.filename], zipfile.ZIP_DEFLATED)
    os.replace(temporary, out)
    return out


def _bake_config(parts: dict[str, bytes], config: Mapping[str, str]) -> None:
    workbook = parts["xl/workbook.xml"]
    quoted = f'name="{TEMPLATE_CONF_SHEET}"'.encode()
    if quoted not in workbook:
        raise BuildError(f"the template has no {TEMPLATE_CONF_SHEET} sheet to hold the settings")
    parts["xl/workbook.xml"] = workbook.replace(quoted, f'name="{CONF_SHEET}"'.encode())
    sheet = "xl/worksheets/sheet1.xml"
    parts[sheet] = _conf_sheet(parts[sheet], config)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m addin.excel.build [OUT.xlam]``: build the add-in without settings."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    out = Path(args[0]) if args else Path(ADDIN_FILE)
    try:
        build_addin(out)
    except BuildError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"Wrote {out} ({len(buttons())} buttons)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
