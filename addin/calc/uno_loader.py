"""Importing LibreOffice's ``uno`` module from any Python of the same minor version.

Inside LibreOffice (the extension's macros) ``uno`` is simply there. Outside it (tests,
scripts) the module lives where the LibreOffice install put it: Debian/Ubuntu's
python3-uno in /usr/lib/python3/dist-packages, LibreOffice's own build in its program
folder. Only ``uno.py`` and ``unohelper.py`` are loaded from there, by file, so the
rest of that folder (the system's other packages) never shadows the project's.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

PLACES = (
    Path("/usr/lib/python3/dist-packages"),
    Path("/usr/lib/libreoffice/program"),
    Path("/opt/libreoffice/program"),
    Path("/Applications/LibreOffice.app/Contents/Resources"),
    Path(os.environ.get("PROGRAMFILES", "C:/Program Files")) / "LibreOffice" / "program",
)
"""Where ``uno.py`` is looked for, after ``LIBREOFFICE_PYTHONPATH`` (a folder) if set."""


class UnoMissing(ImportError):
    """LibreOffice's Python bridge is not installed (or not for this Python)."""


def uno_folder() -> Path | None:
    given = os.environ.get("LIBREOFFICE_PYTHONPATH")
    for place in ([Path(given)] if given else []) + list(PLACES):
        if (place / "uno.py").is_file():
            return place
    return None


def _load(name: str, folder: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def load_uno() -> ModuleType:
    """The ``uno`` module (and ``unohelper``); raises ``UnoMissing`` saying why not."""
    if "uno" in sys.modules:
        return sys.modules["uno"]
    try:
        import uno  # inside LibreOffice, or on sys.path

        return uno
    except ImportError:
        pass
    folder = uno_folder()
    if folder is None:
        raise UnoMissing(
            "LibreOffice's Python bridge (uno.py) is not installed: on Debian/Ubuntu "
            "apt-get install python3-uno"
        )
    try:
        module = _load("uno", folder)
        _load("unohelper", folder)
    except ImportError as err:  # pyuno built for another Python
        raise UnoMissing(f"{folder / 'uno.py'} does not load in this Python: {err}") from err
    return module
