"""A published page as a phone shows it: Debian's Chromium at 360 x 740, saved as a small PNG.

    python scripts/phone_screenshot.py SITE/index.html OUT.png [--find NAME]

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


def shoot(page_file: Path, out: Path, find: str = "", colours: int = 128) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport={"width": 360, "height": 740}, is_mobile=True)
        page.goto(page_file.resolve().as_uri())
        if find:
            page.fill("#find", find)
        png = page.screenshot()
        browser.close()
    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(colours)
    image.save(out, optimize=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--find", default="", help="type this in the page's find box first")
    args = parser.parse_args()
    shoot(args.page, args.out, args.find)


if __name__ == "__main__":
    main()
