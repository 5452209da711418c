"""``python -m addin install-calc``: build the .oxt for this Python and add it to LibreOffice.

The extension is built with this interpreter's folders in ``addin_path.txt`` (see
``addin.calc.extension.python_path``) and added with LibreOffice's ``unopkg add``; a
LibreOffice that is running must be restarted to show the menu and toolbar.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from addin.calc.extension import EXTENSION_FILE, IDENTIFIER, build_extension
from addin.calc.office import soffice_environment

STAGING = Path.home() / ".aga-mcmahon"
UNOPKG_PLACES = (
    "/usr/lib/libreoffice/program/unopkg",
    "/opt/libreoffice/program/unopkg",
    "/Applications/LibreOffice.app/Contents/MacOS/unopkg",
    str(
        Path(os.environ.get("PROGRAMFILES", "C:/Program Files"))
        / "LibreOffice"
        / "program"
        / "unopkg.com"
    ),
)


class InstallError(RuntimeError):
    """The extension cannot be installed here."""


def unopkg() -> str:
    found = shutil.which("unopkg")
    if found:
        return found
    for place in UNOPKG_PLACES:
        if Path(place).is_file():
            return place
    raise InstallError("LibreOffice's unopkg was not found: is LibreOffice installed?")


def profile_option(profile: Path | None) -> list[str]:
    return [f"-env:UserInstallation={profile.resolve().as_uri()}"] if profile else []


def install(
    profile: Path | None = None, staging: Path = STAGING, as_user: Sequence[str] = ()
) -> Path:
    """Build and add the extension (to ``profile``, a LibreOffice user profile folder, if
    given; else the user's own). Returns the .oxt.

    ``as_user``: a command that runs ``unopkg`` as another user (``setpriv ...``), since
    unopkg refuses to add an extension to a user's profile as root."""
    oxt = build_extension(staging / EXTENSION_FILE)
    _unopkg(["add", "--force", str(oxt), *profile_option(profile)], as_user)
    return oxt


def remove(profile: Path | None = None) -> None:
    _unopkg(["remove", IDENTIFIER, *profile_option(profile)])


CRASH_RETRIES = 2


def _unopkg(args: list[str], as_user: Sequence[str] = ()) -> None:
    """Run unopkg; a run that crashed (unopkg now and then segfaults on its way out,
    most often when another LibreOffice is starting) is tried again, as the TD would."""
    command = [*as_user, unopkg(), *args]
    for _ in range(CRASH_RETRIES + 1):
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=300,
            env=soffice_environment(),
            cwd=tempfile.gettempdir(),  # unopkg starts with a cd to it: a folder any user may enter
        )
        if not _crashed(done):
            break
    if done.returncode != 0:
        reason = (done.stderr or done.stdout).strip().splitlines()
        raise InstallError(f"unopkg {args[0]} failed: {reason[-1] if reason else done.returncode}")


def _crashed(done: subprocess.CompletedProcess[str]) -> bool:
    """Killed by a signal: directly (negative code) or through unopkg's shell script (128+N)."""
    return done.returncode < 0 or done.returncode > 128 or "Segmentation fault" in done.stderr


def main(remove_it: bool = False, profile: Path | None = None) -> int:
    try:
        if remove_it:
            remove(profile)
            print("Removed the AGA McMahon extension from LibreOffice.")
            return 0
        oxt = install(profile)
    except (InstallError, OSError, subprocess.TimeoutExpired) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"Installed {oxt} into LibreOffice (restart LibreOffice to see the AGA McMahon menu).")
    print(f"Its buttons run the addin package of {sys.executable}.")
    return 0
