"""The README's picture of the Calc toolbar, rendered again by a real GUI LibreOffice.

scripts/calc_toolbar_screenshot.py runs LibreOffice (X11 'gen' plugin) on a private Xvfb
screen with the extension added to a fresh profile. Skipped, saying why, where there is no
LibreOffice with windows or no Xvfb; in CI (AGA_REQUIRE_LIBREOFFICE) that fails instead.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from tests.calc_support import REQUIRED, require_office

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "calc_toolbar_screenshot.py"
README_IMAGE = ROOT / "docs" / "img" / "calc-toolbar.png"
NO_GUI = 4
"""The script's exit code where no GUI LibreOffice or no Xvfb is installed."""


def test_the_toolbar_is_drawn_with_its_buttons(tmp_path: Path) -> None:
    require_office()
    out = tmp_path / "toolbar.png"
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    )
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(out)],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
        cwd=ROOT,
    )
    if done.returncode == NO_GUI:
        if os.environ.get(REQUIRED):
            pytest.fail(f"{done.stderr.strip()} ({REQUIRED} is set)")
        pytest.skip(done.stderr.strip())
    assert done.returncode == 0, done.stderr
    shot = Image.open(out).convert("RGB")
    width, height = shot.size
    assert 400 <= width <= 1000 and 40 <= height <= 200, shot.size  # rows of buttons, no sheet
    colours = shot.getcolors(maxcolors=100_000) or []
    assert len(colours) >= 12, f"{len(colours)} colours: a blank grab, not a drawn toolbar"
    grey = shot.convert("L")
    dark = sum(count for count, value in grey.getcolors(256) or [] if value < 90)
    assert 0.01 < dark / (width * height) < 0.4, "button labels (dark text on grey) are missing"
    readme = Image.open(README_IMAGE)
    assert (
        abs(readme.width - width) <= 0.15 * width and abs(readme.height - height) <= 0.25 * height
    ), (
        f"docs/img/calc-toolbar.png is {readme.size}, the toolbar now {shot.size}: render it "
        "again with scripts/calc_toolbar_screenshot.py"
    )
