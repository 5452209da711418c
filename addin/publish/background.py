"""The server the Excel (or Calc) button starts: a separate process, so Excel is never blocked.

It runs ``python -m addin.publish.serve FOLDER --port N`` detached from Excel, and notes its
process and address in a small file in the temporary folder (never in the site folder, which
phones can read). Pressing the button again finds it still serving and says where; the
``stop`` option ends it.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from addin.publish.serve import ServeError, SiteHandler, open_server, shown_host, site_url

START_SECONDS = 15.0
LOG = Path(tempfile.gettempdir()) / "aga-mcmahon-serve.log"


@dataclass(frozen=True)
class Running:
    pid: int
    port: int
    url: str
    host: str = "127.0.0.1"
    """Where this machine reaches it (the address it is bound to, if one)."""


def state_file(folder: Path) -> Path:
    key = hashlib.sha256(str(folder.resolve()).encode("utf-8", "surrogatepass")).hexdigest()
    return Path(tempfile.gettempdir()) / f"aga-mcmahon-serve-{key[:16]}.json"


def answers(port: int, timeout: float = 1.0, host: str = "127.0.0.1") -> bool:
    """Whether this program's server answers on ``port`` of this machine."""
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        connection.request("HEAD", "/")
        server = connection.getresponse().getheader("Server") or ""
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()
    return server.startswith(SiteHandler.server_version)


def running(folder: Path) -> Running | None:
    """The background server of ``folder``, when it is still serving."""
    try:
        data = json.loads(state_file(folder).read_text(encoding="utf-8"))
        found = Running(
            int(data["pid"]),
            int(data["port"]),
            str(data["url"]),
            str(data.get("host", "127.0.0.1")),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return found if answers(found.port, host=found.host) else None


def start(
    folder: Path,
    port: int | None,
    bind: str = "",
    reports: Path | None = None,
    stations: Path | None = None,
) -> Running:
    """Start serving ``folder`` in the background; its address. Raises ``ServeError`` with
    the server's own reason if it fails (the port in use, another server keeping the
    reports: found here first, in this process, so the TD is told at once). ``stations``:
    the workbook the stations enter into."""
    probe = open_server(folder, port, bind, reports)
    chosen = probe.port
    probe.server_close()
    command = [_python(), "-m", "addin.publish.serve", str(folder.resolve()), "--port", str(chosen)]
    if bind:
        command += ["--bind", bind]
    if reports is not None:
        command += ["--reports", str(reports.resolve())]
    if stations is not None:  # the workbook the stations enter into
        command += ["--stations", str(stations.resolve())]
    host = bind if bind and bind != "0.0.0.0" else "127.0.0.1"
    flags = 0
    if sys.platform == "win32":  # os.name "nt"; mypy checks this only for Windows
        flags = subprocess.CREATE_NO_WINDOW | subprocess.CREATE_NEW_PROCESS_GROUP
    with LOG.open("w", encoding="utf-8") as log:
        process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=str(folder.resolve()),
            env={**os.environ, "PYTHONPATH": _package_root()},
            start_new_session=os.name != "nt",
            creationflags=flags,
        )
    deadline = time.monotonic() + START_SECONDS
    while not answers(chosen, timeout=0.5, host=host):
        if process.poll() is not None or time.monotonic() > deadline:
            with contextlib.suppress(Exception):
                process.kill()
            raise ServeError(f"the server did not start: {_last_line(LOG) or 'no answer'}")
        time.sleep(0.2)
    found = Running(process.pid, chosen, site_url(shown_host(bind), chosen), host)
    with contextlib.suppress(OSError):
        state_file(folder).write_text(json.dumps(found.__dict__), encoding="utf-8")
    return found


def stop(folder: Path) -> Running | None:
    """End the background server of ``folder``; the one ended, or None if none was serving."""
    found = running(folder)
    if found is not None:
        with contextlib.suppress(OSError):
            os.kill(found.pid, signal.SIGTERM)
        deadline = time.monotonic() + 5
        while answers(found.port, timeout=0.3, host=found.host) and time.monotonic() < deadline:
            time.sleep(0.2)
    with contextlib.suppress(OSError):
        state_file(folder).unlink()
    return found


def _python() -> str:
    """The Python running this add-in (inside LibreOffice, a python on the PATH)."""
    if Path(sys.executable).name.lower().startswith("python"):
        return sys.executable
    other = shutil.which("python3") or shutil.which("python")
    if other is None:
        raise ServeError("no Python program found to run the server with")
    return other


def _package_root() -> str:
    """Where the ``addin`` package is, so the server runs this very copy of it."""
    root = str(Path(__file__).resolve().parents[2])
    rest = os.environ.get("PYTHONPATH", "")
    return os.pathsep.join([root, rest]) if rest else root


def _last_line(path: Path) -> str:
    with contextlib.suppress(OSError):
        lines = path.read_text(encoding="utf-8", errors="replace").strip().splitlines()
        return lines[-1] if lines else ""
    return ""
