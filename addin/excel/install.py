"""``python -m addin install-excel``: put the add-in into Excel on Windows or macOS.

1. Build ``aga_mcmahon.xlam`` from the installed xlwings (``addin.excel.build``), with
   this Python interpreter and this project's folder baked into its settings sheet, so
   its buttons run this code whatever else is configured.
2. Write the same two settings (``INTERPRETER_WIN``/``INTERPRETER_MAC`` and
   ``PYTHONPATH``) to the user's xlwings.conf, which the xlwings add-in reads.
3. Install the xlwings add-in and ours into Excel's startup folder, with xlwings' own
   installer (``xlwings addin install``; on macOS it also installs the AppleScript
   that RunPython needs).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import addin
from addin.excel.build import ADDIN_FILE, BuildError, build_addin

STAGING = Path.home() / ".aga-mcmahon"
"""Where the built add-in is kept before xlwings copies it into Excel's startup folder."""


class InstallError(RuntimeError):
    """The add-in cannot be installed here."""


def supported() -> bool:
    return sys.platform.startswith("win") or sys.platform == "darwin"


def excel_settings(python: str = sys.executable, platform: str = sys.platform) -> dict[str, str]:
    """The xlwings settings that make a RunPython call find this interpreter and this code."""
    key = "INTERPRETER_MAC" if platform == "darwin" else "INTERPRETER_WIN"
    return {key: python, "PYTHONPATH": str(Path(addin.__file__).resolve().parents[1])}


def install_excel(*, with_xlwings_addin: bool = True, echo: Callable[[str], None] = print) -> Path:
    """Build and install the add-in; the path of the built file."""
    if not supported():
        raise InstallError(
            "Excel add-ins install on Windows or macOS; here you can only build the file: "
            "python -m addin build-excel OUT.xlam"
        )
    from xlwings import cli

    settings = excel_settings()
    try:
        xlam = build_addin(STAGING / ADDIN_FILE, settings)
    except BuildError as err:
        raise InstallError(str(err)) from err
    echo(f"Built {xlam}")
    if with_xlwings_addin:
        cli.addin_install(argparse.Namespace(file=None, dir=None, glob=False))
    cli.addin_install(argparse.Namespace(file=str(xlam), dir=None, glob=False))
    for key, value in settings.items():
        cli.update_user_config(key, value)
    echo(f"Set {', '.join(settings)} in the xlwings settings (xlwings.conf)")
    echo("Restart Excel: the AGA Swiss McMahon tab appears on the ribbon.")
    return xlam


def uninstall_excel() -> None:
    """Remove our add-in from Excel (the xlwings add-in stays)."""
    if not supported():
        raise InstallError("Excel add-ins are installed on Windows or macOS only")
    from xlwings import cli

    cli.addin_remove(argparse.Namespace(file=ADDIN_FILE, dir=None, glob=False))


def main(argv: Sequence[str] | None = None) -> int:
    """``install-excel [--remove] [--without-xlwings-addin]``; exit 0 done, 1 error."""
    parser = argparse.ArgumentParser(prog="python -m addin install-excel")
    parser.add_argument("--remove", action="store_true", help="remove the add-in from Excel")
    parser.add_argument(
        "--without-xlwings-addin",
        action="store_true",
        help="do not (re)install the xlwings add-in itself",
    )
    args = parser.parse_args(argv)
    try:
        if args.remove:
            uninstall_excel()
        else:
            install_excel(with_xlwings_addin=not args.without_xlwings_addin)
    except InstallError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
