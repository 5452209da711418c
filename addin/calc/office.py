"""A LibreOffice of our own: ``soffice --headless`` with a UNO socket and a fresh profile.

Tests and scripts start one, open workbooks in it and talk to them through UNO, exactly
as the extension's macros talk to the document the TD has open.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from addin.calc.uno_loader import load_uno

START_SECONDS = 120


def soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def soffice_environment() -> dict[str, str]:
    """This process's environment for starting ``soffice`` or ``unopkg``, with the system's
    programs first on PATH (Linux). LibreOffice's own Python (Debian's python3 through
    python3-uno) looks for ``python3`` on PATH as it starts: another Python found first
    (pyenv, a virtual environment) makes it fail, and with it every Python component."""
    env = dict(os.environ)
    if sys.platform.startswith("linux"):
        env["PATH"] = os.pathsep.join(["/usr/bin", "/bin", env.get("PATH", "")])
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def properties(**values: object) -> tuple[Any, ...]:
    uno = load_uno()
    out = []
    for name, value in values.items():
        prop = uno.createUnoStruct("com.sun.star.beans.PropertyValue")
        prop.Name, prop.Value = name, value
        out.append(prop)
    return tuple(out)


class Office:
    """``with Office() as office: doc = office.open(path)``; the process ends on exit."""

    def __init__(self, profile: Path | None = None, *, extra: tuple[str, ...] = ()) -> None:
        self.uno = load_uno()
        self._scratch: tempfile.TemporaryDirectory[str] | None = None
        if profile is None:
            self._scratch = tempfile.TemporaryDirectory(prefix="aga-lo-")
            profile = Path(self._scratch.name) / "profile"
        self.profile = profile
        self.port = free_port()
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None
        self.ctx: Any = None
        self.desktop: Any = None

    def __enter__(self) -> Office:
        program = soffice()
        if program is None:
            raise FileNotFoundError("soffice: LibreOffice is not installed")
        accept = f"socket,host=127.0.0.1,port={self.port};urp;StarOffice.ComponentContext"
        self.process = subprocess.Popen(
            [
                program,
                f"-env:UserInstallation={self.profile.as_uri()}",
                "--headless",
                "--invisible",
                "--nologo",
                "--norestore",
                "--nodefault",
                f"--accept={accept}",
                *self.extra,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=soffice_environment(),
        )
        local = self.uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext(
            "com.sun.star.bridge.UnoUrlResolver", local
        )
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                self.ctx = resolver.resolve(f"uno:{accept}")
                break
            except Exception:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.__exit__(None, None, None)
                    raise RuntimeError("LibreOffice did not answer on its UNO socket") from None
                time.sleep(0.25)
        self.desktop = self.ctx.ServiceManager.createInstanceWithContext(
            "com.sun.star.frame.Desktop", self.ctx
        )
        return self

    def open(self, path: Path) -> Any:
        """Open a workbook as a TD would (hidden: there is no screen)."""
        url = self.uno.systemPathToFileUrl(str(Path(path).resolve()))
        doc = self.desktop.loadComponentFromURL(url, "_blank", 0, properties(Hidden=True))
        if doc is None:
            raise RuntimeError(f"LibreOffice could not open {path}")
        return doc

    def save_as_xlsx(self, doc: Any, path: Path) -> None:
        url = self.uno.systemPathToFileUrl(str(Path(path).resolve()))
        doc.storeToURL(url, properties(FilterName="Calc MS Excel 2007 XML"))

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.desktop is not None:
            with contextlib.suppress(Exception):  # closing drops each document's lock file
                components = self.desktop.Components.createEnumeration()
                while components.hasMoreElements():
                    components.nextElement().close(True)
            with contextlib.suppress(Exception):
                self.desktop.terminate()
        if self.process is not None:
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._scratch is not None:
            self._scratch.cleanup()
