"""Build the Excel add-in (.xlam) from xlwings' own ribbon add-in template.

The template (``quickstart_addin_ribbon.xlam`` in the installed xlwings package, the
file ``xlwings quickstart NAME --addin --ribbon`` copies) carries xlwings' VBA:
``RunPython``, configuration, the Mac and Windows plumbing. Three parts are changed:

- ``customUI/customUI.xml``: one tab, one button per ``addin.door.buttons.buttons()``,
  every button's ``onAction`` the same VBA sub;
- the ``RibbonMyAddin`` VBA module: that one sub, which hands the button's id to
  ``addin.excel.entry.dispatch`` (see ``addin.excel.vba`` for how it is replaced);
- the add-in's ``_myaddin.conf`` sheet, when settings are given: renamed to
  ``myaddin.conf`` (xlwings reads it only then) and filled with the interpreter and
  PYTHONPATH found at install time.

So a new button changes only the ribbon XML, and building again after an action is
registered adds it. The output matches the installed xlwings version by construction.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from xml.sax.saxutils import quoteattr

from lxml import etree

from addin.door.buttons import GROUPS, Button, buttons, report_items
from addin.excel import vba

ADDIN_FILE = "aga_mcmahon.xlam"
TITLE = "AGA Swiss McMahon"
TEMPLATE = "quickstart_addin_ribbon.xlam"
MODULE = "RibbonMyAddin"
CALLBACK = "AgaButton"
ON_ACTION = f"{MODULE}.{CALLBACK}"
ENTRY_MODULE = "addin.excel.entry"
ENTRY_FUNCTION = "dispatch"
PYTHON_COMMAND = f"import {ENTRY_MODULE} as e;e.{ENTRY_FUNCTION}('"
VBA_SOURCE = f"""Attribute VB_Name = "{MODULE}"
Sub {CALLBACK}(c As IRibbonControl)
If ActiveWorkbook Is Nothing Then Workbooks.Add
RunPython "{PYTHON_COMMAND}" & c.Id & "')"
End Sub
"""
"""The one ribbon callback. It is short on purpose: it must fit in the template's module."""

CONF_SHEET = "_myaddin.conf"
"""xlwings' per-add-in settings sheet; the leading underscore switches it off."""
PROJECT_NAME = "myaddin"
"""The template's VBA ``PROJECT_NAME``: the settings sheet is ``myaddin.conf``."""

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
    """The customUI part: one tab, a group per kind of button, one callback for all."""
    lines = [
        '<customUI xmlns="http://schemas.microsoft.com/office/2006/01/customui">',
        "  <ribbon>",
        "    <tabs>",
        f'      <tab id="agaMcMahonTab" label={quoteattr(TITLE)}>',
    ]
    for key, label in GROUPS.items():
        members = [b for b in items if b.group == key]
        if not members:
            continue
        lines.append(f'        <group id="agaGroup_{key}" label={quoteattr(label)}>')
        for b in members:
            tips = f"screentip={quoteattr(b.label)} supertip={quoteattr(b.tip)}"
            head = f'id="{b.control_id}" label={quoteattr(b.label)} size="{b.size}"'
            if b.action == "report":
                lines.append(f'          <menu {head} imageMso="{b.image}" {tips}>')
                lines += [_menu_item(item) for item in report_items()]
                lines.append("          </menu>")
                continue
            lines.append(
                f'          <button {head} imageMso="{b.image}" {tips} onAction="{ON_ACTION}" />'
            )
        lines.append("        </group>")
    lines += ["      </tab>", "    </tabs>", "  </ribbon>", "</customUI>", ""]
    return "\n".join(lines).encode("utf-8")


def _menu_item(b: Button) -> str:
    """A report menu item: a text entry, as Excel's own menus list their commands."""
    return (
        f'            <button id="{b.control_id}" label={quoteattr(b.label)}'
        f" screentip={quoteattr(b.label)} supertip={quoteattr(b.tip)}"
        f' onAction="{ON_ACTION}" />'
    )


def _shared_strings(data: bytes) -> list[str]:
    root = etree.fromstring(data)
    return ["".join(si.itertext()) for si in root.findall("m:si", NS)]


def _conf_sheet(sheet: bytes, strings: list[str], config: Mapping[str, str]) -> bytes:
    """The settings sheet with column B set for each key of ``config`` (keys as in column A)."""
    root = etree.fromstring(sheet)
    data = root.find("m:sheetData", NS)
    assert data is not None
    wanted = {k.upper(): (k, v) for k, v in config.items()}
    rows = data.findall("m:row", NS)
    for row in rows:
        a = row.find("m:c[@r='A" + row.get("r", "") + "']", NS)
        if a is None or a.get("t") != "s":
            continue
        key = strings[int(a.findtext("m:v", namespaces=NS) or 0)].upper()
        if key in wanted:
            _set_b(row, wanted.pop(key)[1])
    last = max((int(r.get("r", "0")) for r in rows), default=0)
    for offset, (label, value) in enumerate(wanted.values(), start=1):
        row = etree.SubElement(data, f"{{{NS['m']}}}row", r=str(last + offset))
        _inline(row, f"A{last + offset}", label)
        _set_b(row, value)
    for dim in root.findall("m:dimension", NS):
        dim.set("ref", f"A1:B{max(last + len(wanted), 1)}")
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)


def _inline(row: etree._Element, ref: str, text: str) -> None:
    cell = etree.SubElement(row, f"{{{NS['m']}}}c", r=ref, t="inlineStr")
    etree.SubElement(etree.SubElement(cell, f"{{{NS['m']}}}is"), f"{{{NS['m']}}}t").text = text


def _set_b(row: etree._Element, value: str) -> None:
    ref = f"B{row.get('r')}"
    for old in row.findall(f"m:c[@r='{ref}']", NS):
        row.remove(old)
    _inline(row, ref, value)
    row.set("spans", "1:2")


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
        parts[VBA_PROJECT] = vba.replace_module(parts[VBA_PROJECT], MODULE, VBA_SOURCE)
    except vba.VBAError as err:
        raise BuildError(f"{source}: {err}") from err
    parts["docProps/core.xml"] = _core(parts["docProps/core.xml"])
    if config:
        _bake_config(parts, config)
    out.parent.mkdir(parents=True, exist_ok=True)
    temporary = out.with_name(f".{out.name}.tmp")
    with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in infos:
            dst.writestr(info, parts[info.filename], zipfile.ZIP_DEFLATED)
    os.replace(temporary, out)
    return out


def _bake_config(parts: dict[str, bytes], config: Mapping[str, str]) -> None:
    workbook = parts["xl/workbook.xml"]
    quoted = f'name="{CONF_SHEET}"'.encode()
    if quoted not in workbook:
        raise BuildError(f"the template has no {CONF_SHEET} sheet to hold the settings")
    parts["xl/workbook.xml"] = workbook.replace(quoted, f'name="{PROJECT_NAME}.conf"'.encode())
    strings = _shared_strings(parts["xl/sharedStrings.xml"])
    sheet = "xl/worksheets/sheet1.xml"
    parts[sheet] = _conf_sheet(parts[sheet], strings, config)


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
