"""``python -m addin install-excel``: put the add-in into Excel on Windows or macOS.

1. Build ``aga_mcmahon.xlam`` from the installed xlwings (``addin.excel.build``), with
   this Python interpreter, this project's folder and the help page baked into its own
   settings sheet (``aga_mcmahon.conf``), so its buttons run this code whatever else is
   configured. The TD's xlwings settings (``xlwings.conf``, the xlwings add-in) are left
   alone: the add-in carries xlwings' VBA itself and reads only its own settings.
2. Copy it into Excel's startup folder (XLSTART), which xlwings finds; on macOS also put
   xlwings' AppleScript where Excel lets RunPython call it.

Every step that fails says so in one line and the command exits 1: nothing is reported
installed that is not.
"""

from __future__ import annotations

import argparse
import html
import re
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import addin
from addin.excel.build import ADDIN_FILE, BuildError, build_addin

STAGING = Path.home() / ".aga-mcmahon"
"""Where the built add-in and its help page are kept."""
HELP_FILE = "aga_mcmahon_help.html"
MAC_SCRIPTS = Path.home() / "Library" / "Application Scripts" / "com.microsoft.Excel"


class InstallError(RuntimeError):
    """The add-in cannot be installed (or removed) here."""


def supported(platform: str = sys.platform) -> bool:
    return platform.startswith("win") or platform == "darwin"


def project_folder() -> Path:
    return Path(addin.__file__).resolve().parents[1]


def excel_settings(python: str = sys.executable, platform: str = sys.platform) -> dict[str, str]:
    """The settings that make a RunPython call find this interpreter and this code."""
    key = "INTERPRETER_MAC" if platform == "darwin" else "INTERPRETER_WIN"
    return {key: python, "PYTHONPATH": str(project_folder())}


def startup_folder() -> Path:
    """Excel's per-user startup folder (XLSTART), as xlwings finds it (it asks Excel)."""
    try:
        from xlwings import cli

        return Path(cli.get_addin_dir())
    except Exception as err:  # no Excel, or Excel refused: say so, no traceback
        raise InstallError(
            f"cannot find Excel's startup folder (is Excel installed?): {err}"
        ) from err


def help_page(guide: Path) -> str:
    """The user guide as a plain HTML page with GitHub's heading anchors (Help opens it)."""
    out = ["<!DOCTYPE html><meta charset='utf-8'><title>AGA Swiss McMahon</title>",
           "<body style='font-family:sans-serif;max-width:60em;margin:auto'>"]  # fmt: skip
    fence = False
    for line in guide.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            out.append("</pre>" if fence else "<pre>")
            fence = not fence
            continue
        heading = re.match(r"(#{1,4}) (.*)", line)
        if heading and not fence:
            level, title = len(heading.group(1)), heading.group(2).strip()
            anchor = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
            out.append(f"<h{level} id='{anchor}'>{html.escape(title)}</h{level}>")
        elif fence:
            out.append(html.escape(line))
        else:
            out.append(html.escape(line) + ("<br>" if line.strip() else "<p>"))
    return "\n".join(out)


def install_excel(
    *,
    folder: Path | None = None,
    platform: str = sys.platform,
    echo: Callable[[str], None] = print,
) -> Path:
    """Build and install the add-in into ``folder`` (default: Excel's startup folder);
    the path of the installed file."""
    if not supported(platform):
        raise InstallError(
            "Excel add-ins install on Windows or macOS; here you can only build the file: "
            "python -m addin build-excel OUT.xlam"
        )
    settings = excel_settings(platform=platform)
    guide = project_folder() / "docs" / "guide.md"
    try:
        STAGING.mkdir(parents=True, exist_ok=True)
        if guide.is_file():
            page = STAGING / HELP_FILE
            page.write_text(help_page(guide), encoding="utf-8")
            settings["HELP"] = page.resolve().as_uri()
        xlam = build_addin(STAGING / ADDIN_FILE, settings)
    except (BuildError, OSError) as err:
        raise InstallError(f"cannot build the add-in in {STAGING}: {err}") from err
    echo(f"Built {xlam}")
    target_folder = folder or startup_folder()
    target = target_folder / ADDIN_FILE
    try:
        target_folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(xlam, target)
    except OSError as err:
        raise InstallError(
            f"cannot copy the add-in to {target}: {err.strerror or err}. Quit Excel and try again."
        ) from err
    echo(f"Installed {target}")
    if platform == "darwin":
        _install_mac_script(echo)
    echo("Restart Excel (on a Mac: Cmd-Q, then start it again): the AGA Swiss McMahon tab "
         "appears on the ribbon.")  # fmt: skip
    return target


def _install_mac_script(echo: Callable[[str], None]) -> None:
    """RunPython on macOS calls xlwings' AppleScript, which must be in Excel's scripts folder."""
    import xlwings

    script = Path(xlwings.__file__).parent / f"xlwings-{xlwings.__version__}.applescript"
    try:
        MAC_SCRIPTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(script, MAC_SCRIPTS)
    except OSError as err:
        raise InstallError(f"cannot copy {script.name} to {MAC_SCRIPTS}: {err}") from err
    echo(f"Installed {MAC_SCRIPTS / script.name} (lets Excel start Python)")


def uninstall_excel(
    *, folder: Path | None = None, platform: str = sys.platform, echo: Callable[[str], None] = print
) -> None:
    """Remove the add-in from Excel's startup folder (xlwings and its settings stay)."""
    if not supported(platform):
        raise InstallError("Excel add-ins are installed on Windows or macOS only")
    target = (folder or startup_folder()) / ADDIN_FILE
    try:
        target.unlink()
    except FileNotFoundError as err:
        raise InstallError(f"the add-in is not installed: there is no {target}") from err
    except OSError as err:
        raise InstallError(
            f"cannot remove {target}: {err.strerror or err}. Quit Excel and try again."
        ) from err
    echo(f"Removed {target}. Restart Excel.")


def main(argv: Sequence[str] | None = None) -> int:
    """``install-excel [--remove]``; exit 0 done, 1 error (one line, no traceback)."""
    parser = argparse.ArgumentParser(prog="python -m addin install-excel")
    parser.add_argument("--remove", action="store_true", help="remove the add-in from Excel")
    parser.add_argument(
        "--without-xlwings-addin",
        action="store_true",
        help="kept for old scripts: the xlwings add-in is no longer installed (not needed)",
    )
    args = parser.parse_args(argv)
    try:
        if args.remove:
            uninstall_excel()
        else:
            install_excel()
    except InstallError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
