"""The README's pictures of printed sheets are what the code prints today.

CI renders them again (scripts/readme_pictures.py: a 120-player demo printed by LibreOffice,
the first page made a PNG by pdftoppm) and compares them with the ones in docs/img: the same
pages (size and orientation), and ink where the committed picture has ink.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image, ImageChops

from tests.helpers import SOFFICE

ROOT = Path(__file__).resolve().parents[1]
printing = SOFFICE is not None and shutil.which("pdftoppm") is not None
pytestmark = pytest.mark.skipif(
    not printing and not os.environ.get("AGA_REQUIRE_LIBREOFFICE"),
    reason="LibreOffice and poppler-utils print the sheets",
)


def _script() -> ModuleType:
    """scripts/ is not a package: load the script by its path."""
    spec = importlib.util.spec_from_file_location(
        "readme_pictures", ROOT / "scripts/readme_pictures.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ink_rows(picture: Image.Image) -> int:
    """How many pixel rows hold something darker than the paper."""
    grey = picture.convert("L").point(lambda v: 255 if v < 128 else 0)
    return sum(1 for y in range(grey.height) if grey.crop((0, y, grey.width, y + 1)).getbbox())


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pictures")
    _script().make_pictures(out)
    return out


@pytest.mark.parametrize("name", list(_script().PICTURES))
def test_each_picture_is_rendered_as_committed(rendered: Path, name: str) -> None:
    fresh = Image.open(rendered / name)
    committed = Image.open(ROOT / "docs/img" / name)
    assert fresh.size == committed.size, f"{name}: the printed page changed size or orientation"
    assert ink_rows(fresh) > fresh.height // 4, f"{name}: the page is nearly blank"
    difference = ImageChops.difference(fresh.convert("L"), committed.convert("L")).getbbox()
    inked = ink_rows(fresh), ink_rows(committed)
    assert abs(inked[0] - inked[1]) <= inked[1] // 10 or difference is None, (
        f"{name}: the sheet prints differently now; refresh with "
        "python scripts/readme_pictures.py docs/img"
    )
