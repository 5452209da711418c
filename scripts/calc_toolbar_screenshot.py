"""Screenshot the AGA McMahon toolbar in a real LibreOffice Calc window (docs/img/).

python scripts/calc_toolbar_screenshot.py docs/img/calc-toolbar.png [--program DIR]

Builds the extension, adds it to a fresh profile with ``unopkg add``, opens a demo workbook
in a GUI LibreOffice (X11 'gen' plugin) on a private Xvfb screen, asks LibreOffice through UNO
where the toolbar is on the screen, grabs that rectangle (Pillow, over X) and saves it.

``--program`` (or AGA_LIBREOFFICE_GUI): the ``program`` folder of a LibreOffice that has
windows (``libvclplug_genlo.so``); by default the one ``soffice`` on PATH runs. Debian's
``libreoffice-calc-nogui`` has none: then exit 4, saying so. Other failures exit 1.
CI installs ``libreoffice-calc`` (with windows; it also runs ``--headless``) and ``xvfb``.

A GUI LibreOffice beside an installed -nogui one (Debian 12), without touching it::

    apt-get download libreoffice-core libreoffice-calc
    mkdir -p /tmp/lo-gui/prefix/lib && cp -a /usr/lib/libreoffice /tmp/lo-gui/prefix/lib/
    for d in *.deb; do dpkg -x "$d" /tmp/x; done
    cp -a /tmp/x/usr/lib/libreoffice/. /tmp/lo-gui/prefix/lib/libreoffice/
    ln -s /usr/share /tmp/lo-gui/prefix/share     # the icon themes' relative links
    sed -i 's|^BRAND_BASE_DIR=.*|BRAND_BASE_DIR=${ORIGIN}/..|' \
        /tmp/lo-gui/prefix/lib/libreoffice/program/fundamentalrc
    AGA_LIBREOFFICE_GUI=/tmp/lo-gui/prefix/lib/libreoffice/program python scripts/...

(Debian's fundamentalrc names /usr/lib/libreoffice: left so, the copy loads the -nogui
services and aborts with a DeploymentException.)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from PIL import Image, ImageGrab

from addin.calc.extension import EXTENSION_FILE, TOOLBAR, build_extension
from addin.calc.office import free_port, properties, soffice, soffice_environment
from addin.calc.uno_loader import load_uno

GUI_PLUGIN = "libvclplug_genlo.so"
TOOLBAR_URL = f"private:resource/toolbar/addon_{TOOLBAR}"
NOBODY = 65534
WAIT_SECONDS = 90
SCREEN = (1400, 900)
FLOAT_AT = (40, 200)
FLOAT_WIDTH = 900
FLOAT_HEIGHT = 400
POS_SIZE = 15
"""com.sun.star.awt.PosSize.POSSIZE"""
PAINT_SECONDS = 1
DARK = 90
EDGE = 12
EMPTY_STRETCH = 40
PAD = 9


class NoGui(RuntimeError):
    """No LibreOffice with windows, or no Xvfb, here."""


def gui_program(given: str | None) -> Path:
    """The program folder of a LibreOffice that can open windows on X11."""
    candidates = [given, os.environ.get("AGA_LIBREOFFICE_GUI")]
    found = soffice()
    if found:
        candidates.append(str(Path(found).resolve().parent))
    for folder in filter(None, candidates):
        program = Path(folder)
        if (program / GUI_PLUGIN).is_file() and (program / "soffice").is_file():
            return program
    raise NoGui(
        f"no LibreOffice with windows ({GUI_PLUGIN}): install Debian's libreoffice-calc "
        "(not -nogui), or give --program / AGA_LIBREOFFICE_GUI"
    )


@contextlib.contextmanager
def xvfb() -> Iterator[str]:
    """A private X screen; yields its DISPLAY."""
    server = shutil.which("Xvfb")
    if server is None:
        raise NoGui("Xvfb is not installed (apt-get install xvfb)")
    read, write = os.pipe()
    width, height = SCREEN
    process = subprocess.Popen(
        [
            server,
            "-displayfd",
            str(write),
            "-screen",
            "0",
            f"{width}x{height}x24",
            "-nolisten",
            "tcp",
        ],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        with os.fdopen(read) as answer:
            number = answer.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start")
        yield f":{number}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def add_extension(program: Path, profile: Path, home: Path) -> None:
    """``unopkg add`` the freshly built .oxt into ``profile`` (as nobody when run as root:
    unopkg refuses root)."""
    oxt = build_extension(home / EXTENSION_FILE)
    as_user: list[str] = []
    if os.geteuid() == 0:
        os.chown(home, NOBODY, NOBODY)
        home.chmod(0o755)
        as_user = [
            shutil.which("setpriv") or "setpriv",
            f"--reuid={NOBODY}",
            f"--regid={NOBODY}",
            "--clear-groups",
            "env",
            f"HOME={home}",
        ]
    done = subprocess.run(
        [
            *as_user,
            str(program / "unopkg"),
            "add",
            "--force",
            str(oxt),
            f"-env:UserInstallation={profile.as_uri()}",
        ],
        capture_output=True,
        text=True,
        timeout=180,
        env=soffice_environment(),
        cwd=tempfile.gettempdir(),
    )
    if done.returncode != 0:
        raise RuntimeError(f"unopkg add failed: {done.stderr.strip() or done.stdout.strip()}")


def demo_workbook(folder: Path) -> Path:
    book = folder / "demo.xlsx"
    subprocess.run(
        [sys.executable, "-m", "addin", "demo", "--players", "12", "--rounds", "1", str(book)],
        check=True,
        capture_output=True,
        cwd=folder,
    )
    return book


def connect(port: int, process: subprocess.Popen[bytes]) -> Any:
    uno = load_uno()
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext(
        "com.sun.star.bridge.UnoUrlResolver", local
    )
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        try:
            return resolver.resolve(
                f"uno:socket,host=127.0.0.1,port={port};urp;StarOffice.ComponentContext"
            )
        except Exception:
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError("LibreOffice (GUI) did not answer on its UNO socket") from None
            time.sleep(0.5)


def toolbar_box(frame: Any) -> tuple[int, int, int, int] | None:
    """The toolbar's rectangle on the screen, once it is shown; else None."""
    element = frame.LayoutManager.getElement(TOOLBAR_URL)
    if element is None:
        return None
    window = element.getRealInterface()
    with contextlib.suppress(AttributeError):
        if not window.isVisible():
            return None
    context = window.AccessibleContext
    where = context.getLocationOnScreen()
    size = context.getSize()
    if size.Width <= 0 or size.Height <= 0:
        return None
    return (where.X, where.Y, where.X + size.Width, where.Y + size.Height)


def wait_for_toolbar(frame: Any) -> bool:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if toolbar_box(frame):
            return True
        time.sleep(0.5)
    return False


def floating_toolbar(frame: Any, display: str) -> Image.Image:
    """Float the toolbar in a window FLOAT_WIDTH wide (its buttons wrap into a few rows)
    over the sheet, grab it, and cut off the empty rows below the last button."""
    frame.LayoutManager.floatWindow(TOOLBAR_URL)
    window = frame.LayoutManager.getElement(TOOLBAR_URL).getRealInterface()
    window.setPosSize(FLOAT_AT[0], FLOAT_AT[1], FLOAT_WIDTH, FLOAT_HEIGHT, POS_SIZE)
    return settled(frame, display)


def settled(frame: Any, display: str) -> Image.Image:
    """Grab the toolbar until two grabs PAINT_SECONDS apart are the same (it is drawn)."""
    deadline = time.monotonic() + WAIT_SECONDS
    previous = None
    while time.monotonic() < deadline:
        time.sleep(PAINT_SECONDS)
        box = toolbar_box(frame)
        if box is None:
            raise RuntimeError("the floating toolbar vanished")
        shot = without_empty_rows(ImageGrab.grab(bbox=box, xdisplay=display))
        if previous is not None and shot.tobytes() == previous.tobytes():
            return shot
        previous = shot
    raise RuntimeError("the toolbar never stopped changing on the screen")


def without_empty_rows(image: Image.Image) -> Image.Image:
    """The buttons only: down to the last line of text before an empty stretch (the
    floating window's unused rows) and across to the rightmost text, with a little margin."""
    grey = image.convert("L")
    width, height = grey.size
    pixels = grey.load()
    inner = range(EDGE, width - EDGE)
    last_y = right = 0
    for y in range(height):
        dark = [x for x in inner if pixels[x, y] < DARK]
        if dark:
            last_y, right = y, max(right, dark[-1])
        elif last_y and y - last_y > EMPTY_STRETCH:
            break
    return image.crop((0, 0, min(width, right + PAD), min(height, last_y + PAD)))


def capture(program: Path, display: str, profile: Path, book: Path) -> Image.Image:
    port = free_port()
    env = soffice_environment() | {"DISPLAY": display, "SAL_USE_VCLPLUGIN": "gen"}
    process = subprocess.Popen(
        [
            str(program / "soffice"),
            f"-env:UserInstallation={profile.as_uri()}",
            "--norestore",
            "--nologo",
            f"--accept=socket,host=127.0.0.1,port={port};urp;",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    desktop = None
    try:
        ctx = connect(port, process)
        desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        url = load_uno().systemPathToFileUrl(str(book.resolve()))
        doc = desktop.loadComponentFromURL(url, "_default", 0, properties())
        frame = doc.CurrentController.Frame
        frame.ContainerWindow.setPosSize(0, 0, SCREEN[0], SCREEN[1], POS_SIZE)
        if not wait_for_toolbar(frame):
            raise RuntimeError(f"the toolbar {TOOLBAR_URL} was not shown")
        return floating_toolbar(frame, display)
    finally:
        if desktop is not None:
            with contextlib.suppress(Exception):
                desktop.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def screenshot(out: Path, program_dir: str | None = None) -> Path:
    program = gui_program(program_dir)
    with tempfile.TemporaryDirectory(prefix="aga-shot-") as folder:
        home = Path(folder)
        profile = home / "profile"
        add_extension(program, profile, home)
        book = demo_workbook(Path(tempfile.mkdtemp(prefix="book-", dir=home)))
        with xvfb() as display:
            image = capture(program, display, profile, book)
    out.parent.mkdir(parents=True, exist_ok=True)
    image.convert("P", palette=Image.Palette.ADAPTIVE, colors=64).save(out, optimize=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--program", help="a GUI LibreOffice's program folder")
    args = parser.parse_args(argv)
    try:
        print(screenshot(args.out, args.program))
    except NoGui as err:
        print(f"calc_toolbar_screenshot: {err}", file=sys.stderr)
        return 4
    except (RuntimeError, subprocess.SubprocessError, OSError) as err:
        print(f"calc_toolbar_screenshot: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
