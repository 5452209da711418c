"""The Calc extension (.oxt): the Excel ribbon's buttons as a Calc menu and toolbar.

Every entry comes from ``addin.door.buttons`` (one declaration for both doors): the
menu "AGA McMahon" has the ribbon's groups in order, separated, with the report items
in a "Reports" submenu; the toolbar has every button. Each entry's URL,
``org.usgo.aga.mcmahon:<control id>``, is handled by the extension's Python component
(``oxt/aga_calc_handler.py``), which calls ``addin.calc.entry.dispatch``.
"""

from __future__ import annotations

import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import addin
from addin.door.buttons import Button, buttons, report_items

EXTENSION_FILE = "aga-mcmahon.oxt"
IDENTIFIER = "org.usgo.aga-mcmahon"
PROTOCOL = "org.usgo.aga.mcmahon:"
HANDLER = "aga_calc_handler.py"
MENU = "AGA McMahon"
TOOLBAR = "org.usgo.aga.toolbar"
CALC = "com.sun.star.sheet.SpreadsheetDocument"
SEPARATOR = "private:separator"


def url(button: Button) -> str:
    return PROTOCOL + button.control_id


def menu_entries() -> list[tuple[str, str]]:
    """(title, URL) of every entry, menu order; the report items as one "Reports" list."""
    entries: list[tuple[str, str]] = []
    for b in buttons():
        if b.menu:
            entries += [(f"Reports: {r.label}", url(r)) for r in report_items()]
        else:
            entries.append((b.label, url(b)))
    return entries


def _prop(name: str, value: str, kind: str = "xs:string") -> str:
    return f'<prop oor:name="{name}" oor:type="{kind}"><value>{escape(value)}</value></prop>'


def _entry(node: str, title: str, link: str, extra: str = "") -> str:
    return (
        f'<node oor:name={quoteattr(node)} oor:op="replace">'
        + _prop("URL", link)
        + (_prop("Title", title) if title else "")
        + _prop("Target", "_self")
        + _prop("Context", CALC)
        + extra
        + "</node>"
    )


def addons_xcu() -> str:
    """Addons.xcu: the menu (groups separated, reports in a submenu) and the toolbar."""
    menu: list[str] = []
    n = 0
    group = None
    for b in buttons():
        if group is not None and b.group != group:
            n += 1
            menu.append(_entry(f"m{n:02d}", "", SEPARATOR))
        group = b.group
        n += 1
        if b.menu:
            items = "".join(
                _entry(f"r{i:02d}", r.label, url(r)) for i, r in enumerate(report_items(), 1)
            )
            sub = f'<node oor:name="Submenu">{items}</node>'
            menu.append(
                f'<node oor:name="m{n:02d}" oor:op="replace">'
                + _prop("Title", "Reports")
                + _prop("Context", CALC)
                + sub
                + "</node>"
            )
        else:
            menu.append(_entry(f"m{n:02d}", b.label, url(b)))
    toolbar = "".join(_entry(f"t{i:02d}", b.label, url(b)) for i, b in enumerate(buttons(), 1))
    top = (
        f'<node oor:name="{IDENTIFIER}.menu" oor:op="replace">'
        + _prop("Title", MENU)
        + _prop("Context", CALC)
        + f'<node oor:name="Submenu">{"".join(menu)}</node></node>'
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<oor:component-data xmlns:oor="http://openoffice.org/2001/registry" '
        'xmlns:xs="http://www.w3.org/2001/XMLSchema" oor:name="Addons" '
        'oor:package="org.openoffice.Office">'
        '<node oor:name="AddonUI">'
        f'<node oor:name="OfficeMenuBar">{top}</node>'
        f'<node oor:name="OfficeToolBar"><node oor:name="{TOOLBAR}" oor:op="replace">'
        f"{toolbar}</node></node>"
        "</node></oor:component-data>\n"
    )


def protocol_handler_xcu() -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<oor:component-data xmlns:oor="http://openoffice.org/2001/registry" '
        'xmlns:xs="http://www.w3.org/2001/XMLSchema" oor:name="ProtocolHandler" '
        'oor:package="org.openoffice.Office"><node oor:name="HandlerSet">'
        '<node oor:name="org.usgo.aga.McMahonHandler" oor:op="replace">'
        f'<prop oor:name="Protocols" oor:type="oor:string-list"><value>{PROTOCOL}*</value>'
        "</prop></node></node></oor:component-data>\n"
    )


MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="http://openoffice.org/2001/manifest">
 <manifest:file-entry manifest:full-path="{handler}"
  manifest:media-type="application/vnd.sun.star.uno-component;type=Python"/>
 <manifest:file-entry manifest:full-path="Addons.xcu"
  manifest:media-type="application/vnd.sun.star.configuration-data"/>
 <manifest:file-entry manifest:full-path="ProtocolHandler.xcu"
  manifest:media-type="application/vnd.sun.star.configuration-data"/>
</manifest:manifest>
"""


def description_xml() -> str:
    version = getattr(addin, "__version__", "0.1.0")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<description xmlns="http://openoffice.org/extensions/description/2006" '
        'xmlns:xlink="http://www.w3.org/1999/xlink">'
        f'<identifier value="{IDENTIFIER}"/><version value="{version}"/>'
        '<display-name><name lang="en">AGA Swiss McMahon</name></display-name>'
        "</description>\n"
    )


def python_path() -> list[str]:
    """The folders LibreOffice's Python needs for this ``addin`` and its dependencies: this
    project's folder and this interpreter's site-packages."""
    import site

    folders = [str(Path(addin.__file__).resolve().parents[1])]
    folders += [p for p in (*site.getsitepackages(), site.getusersitepackages())]
    folders += [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
    return list(dict.fromkeys(f for f in folders if Path(f).is_dir()))


def build_extension(out: Path, paths: Sequence[str] | None = None) -> Path:
    """Write the .oxt to ``out``; ``paths``: the folders written to ``addin_path.txt``."""
    handler = (Path(__file__).parent / "oxt" / HANDLER).read_text(encoding="utf-8")
    listed = python_path() if paths is None else list(paths)
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as oxt:
        oxt.writestr("META-INF/manifest.xml", MANIFEST.format(handler=HANDLER))
        oxt.writestr("description.xml", description_xml())
        oxt.writestr("Addons.xcu", addons_xcu())
        oxt.writestr("ProtocolHandler.xcu", protocol_handler_xcu())
        oxt.writestr(HANDLER, handler)
        oxt.writestr("addin_path.txt", "\n".join(listed) + "\n")
    return out
