"""A published page as a phone shows it: Debian's Chromium at 360 x 740, saved as a small PNG.

    python scripts/phone_screenshot.py SITE/index.html OUT.png [--find NAME] [--dark]
    python scripts/phone_screenshot.py SITE/hall.html OUT.png --size 1920x1080 --scale 0.5

Used for the README's picture of the players' site. Needs Playwright for Python and
/usr/bin/chromium (``apt-get install chromium``); ``playwright install`` is not needed.
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def shoot(
    page_file: Path | str,
    out: Path,
    find: str = "",
    colours: int = 128,
    *,
    dark: bool = False,
    size: tuple[int, int] = (360, 740),
    scale: float = 1.0,
) -> None:
    """``page_file`` (or an http:// address: a page as ``serve`` serves it) at ``size`` (a
    phone unless wider than 800), light or ``dark``."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        phone = size[0] < 800
        page = browser.new_page(
            viewport={"width": size[0], "height": size[1]},
            is_mobile=phone,
            has_touch=phone,
            color_scheme="dark" if dark else "light",
        )
        where = str(page_file)
        page.goto(where if "://" in where else Path(where).resolve().as_uri())
        if find:
            page.fill("#find", find)
        png = page.screenshot()
        browser.close()
    image = Image.open(io.BytesIO(png)).convert("RGB")
    if scale != 1.0:
        image = image.resize((round(image.width * scale), round(image.height * scale)))
    image.quantize(colours).save(out, optimize=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page", help="a page of the site, or its http:// address")
    parser.add_argument("out", type=Path)
    parser.add_argument("--find", default="", help="type this in the page's find box first")
    parser.add_argument("--dark", action="store_true", help="the phone in dark mode")
    parser.add_argument("--size", default="360x740", help="the viewport, WIDTHxHEIGHT")
    parser.add_argument("--scale", type=float, default=1.0, help="scale the picture by this")
    args = parser.parse_args()
    width, _, height = args.size.partition("x")
    shoot(
        args.page,
        args.out,
        args.find,
        dark=args.dark,
        size=(int(width), int(height)),
        scale=args.scale,
    )


if __name__ == "__main__":
    main()
