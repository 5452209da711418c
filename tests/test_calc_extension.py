"""The Calc extension: built by the command line, added to a real LibreOffice profile with
``unopkg add``, and its menu and toolbar, as LibreOffice's configuration holds them, list
every action the Excel ribbon has."""

from __future__ import annotations

import os
import shutil
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from addin.actions.registry import load_all
from addin.calc import install
from addin.calc.extension import IDENTIFIER, PROTOCOL, TOOLBAR
from addin.calc.office import Office, properties
from addin.door.buttons import buttons, report_items
from tests.calc_support import cli, file_cells, live_cells, require_office, without_clock
from tests.helpers import run
from tests.workbook_fixtures import simple_tournament, write_workbook

NOBODY = 65534
SETPRIV = shutil.which("setpriv") or "setpriv"
MENU_PATH = f"/org.openoffice.Office.Addons/AddonUI/OfficeMenuBar/{IDENTIFIER}.menu/Submenu"
TOOLBAR_PATH = f"/org.openoffice.Office.Addons/AddonUI/OfficeToolBar/{TOOLBAR}"


def test_build_calc_writes_an_extension_with_its_menu(tmp_path: Path) -> None:
    out = tmp_path / "aga.oxt"
    done = run("build-calc", out)
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(out) as oxt:
        names = set(oxt.namelist())
        assert {"META-INF/manifest.xml", "description.xml", "Addons.xcu"} <= names
        for xml in ("META-INF/manifest.xml", "Addons.xcu", "ProtocolHandler.xcu"):
            ElementTree.fromstring(oxt.read(xml))  # well-formed
        listed = oxt.read("addin_path.txt").decode().split()
    assert str(Path(__file__).resolve().parents[1]) in listed or any(
        (Path(p) / "addin" / "__init__.py").is_file() for p in listed
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Office]:
    """A fresh LibreOffice profile with the extension added by ``unopkg add``, running."""
    require_office()
    with tempfile.TemporaryDirectory(prefix="aga-oxt-") as folder:
        home = Path(folder)
        as_user: list[str] = []
        if os.geteuid() == 0:  # unopkg adds to a user's profile only as that user, not root
            os.chown(home, NOBODY, NOBODY)
            home.chmod(0o755)
            as_user = [SETPRIV, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
            as_user += ["env", f"HOME={home}"]
        install.install(home / "profile", staging=home, as_user=as_user)
        with Office(home / "profile") as office:
            yield office


def _config(office: Office, path: str) -> Any:
    provider = office.ctx.ServiceManager.createInstanceWithContext(
        "com.sun.star.configuration.ConfigurationProvider", office.ctx
    )
    return provider.createInstanceWithArguments(
        "com.sun.star.configuration.ConfigurationAccess", properties(nodepath=path)
    )


def _urls(node: Any) -> list[str]:
    """Every entry's URL under a configuration node, submenus included, in order."""
    found = []
    for name in node.ElementNames:
        entry = node.getByName(name)
        names = entry.ElementNames
        if "URL" in names and entry.URL:
            found.append(str(entry.URL))
        if "Submenu" in names:
            found += _urls(entry.Submenu)
    return found


def test_unopkg_adds_the_extension_and_its_menu_lists_every_action(installed: Office) -> None:
    menu = _urls(_config(installed, MENU_PATH))
    toolbar = _urls(_config(installed, TOOLBAR_PATH))
    actions = {a.id for a in load_all().values() if a.button}
    assert {u.removeprefix(PROTOCOL + "aga_").split("__")[0] for u in menu} >= actions
    expected = [PROTOCOL + b.control_id for b in buttons() if b.action != "report"]
    assert [u for u in menu if "__" not in u and not u.startswith("private:")] == expected
    assert [u for u in menu if "__" in u] == [PROTOCOL + r.control_id for r in report_items()]
    assert toolbar == [PROTOCOL + b.control_id for b in buttons()]


def test_the_extensions_handler_answers_its_entries(installed: Office) -> None:
    """LibreOffice loaded the extension's Python component for the entries' URLs."""
    handler = installed.ctx.ServiceManager.createInstanceWithContext(
        "org.usgo.aga.McMahonHandler", installed.ctx
    )
    assert handler is not None
    assert handler.supportsService("com.sun.star.frame.ProtocolHandler")


def test_a_toolbar_entry_runs_the_installed_addin_inside_libreoffice(
    installed: Office, tmp_path: Path
) -> None:
    """The entry's URL, dispatched in the document's window, runs in LibreOffice's own Python
    (the handler finds ``addin`` through ``addin_path.txt``) and writes what the command line
    writes."""
    source = write_workbook(tmp_path / "club.xlsx", simple_tournament(20, 2, seed=3), 3)
    by_cli = Path(shutil.copy(source, tmp_path / "by-cli.xlsx"))
    assert cli(by_cli, "standings", {}) == 0
    doc = installed.open(Path(shutil.copy(source, tmp_path / "by-calc.xlsx")))
    helper = installed.ctx.ServiceManager.createInstanceWithContext(
        "com.sun.star.frame.DispatchHelper", installed.ctx
    )
    frame = doc.CurrentController.Frame
    helper.executeDispatch(
        frame, f"{PROTOCOL}aga_standings", "", 0, properties(params="{}", yes=True)
    )
    live = without_clock(live_cells(doc))
    assert live == without_clock(file_cells(by_cli))
    assert any(row[1] == "standings" for row in live["Log"][1:])
