"""Every name prints in the PDFs: CJK through a fallback font, Arabic and Hebrew shaped."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from addin.reports import pdf_text
from addin.reports.render_pdf import fonts
from tests.helpers import run
from tests.workbook_fixtures import simple_tournament, write_workbook

NAMES = [
    ("王", "小明"),
    ("山田", "太郎"),
    ("김", "민준"),
    ("محمد", "علي"),
    ("כהן", "דוד"),
    ("Ōta", "Jürgen"),
]


@pytest.fixture(scope="module")
def international(tmp_path_factory: pytest.TempPathFactory) -> Path:
    t = simple_tournament(len(NAMES), 1)
    for pid, (family, given) in zip(list(t.players), NAMES, strict=True):
        t.players[pid] = replace(t.players[pid], family_name=family, given_name=given)
    return write_workbook(tmp_path_factory.mktemp("scripts") / "intl.xlsx", t, rounds=3)


def test_a_fallback_font_with_cjk_and_hangul_is_installed() -> None:
    """The README's packages bring fonts-wqy-microhei (.ci/run installs them); each of
    Chinese, Japanese and Korean must find a font that has it, whatever else (Droid, which
    LibreOffice brings and which has no Hangul) is installed beside it."""
    assert pdf_text.fallback_font(), "no CJK font: apt-get install fonts-wqy-microhei"
    for char in "王山田太郎たろう김민준":
        fallback = pdf_text.fallback_for(char)
        assert fallback and not pdf_text.needs_markup(char, fallback), char


def test_each_character_takes_the_first_fallback_that_has_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A font without CJK listed first (as Droid lacks Hangul) does not stop the next one
    from printing what it lacks: DejaVu Sans has no 王, WenQuanYi has."""
    dejavu = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    wqy = Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
    if not (dejavu.is_file() and wqy.is_file()):
        pytest.skip("needs fonts-dejavu-core and fonts-wqy-microhei (the README's packages)")
    monkeypatch.setattr(pdf_text, "FALLBACK_CANDIDATES", (str(dejavu), str(wqy)))
    pdf_text.fallback_fonts.cache_clear()
    pdf_text._glyphs.cache_clear()
    try:
        first, second = pdf_text.fallback_fonts()
        assert pdf_text.fallback_for("Ω") == first and pdf_text.fallback_for("김") == second
        assert pdf_text.markup("Kim 김 Ω", "Helvetica") == (
            f'Kim <font name="{second}">김</font> <font name="{first}">Ω</font>'
        )
        assert pdf_text.font_for("김민준", "Helvetica") == second
    finally:
        monkeypatch.undo()
        pdf_text.fallback_fonts.cache_clear()
        pdf_text._glyphs.cache_clear()


@pytest.mark.parametrize("kind", ["registration", "slips"])
def test_cjk_names_are_set_in_the_fallback_font_and_extract_as_text(
    international: Path, tmp_path: Path, kind: str
) -> None:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    out = tmp_path / f"{kind}.pdf"
    assert run("report", international, kind, "--out", out).returncode == 0
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True).stdout
    for family, given in NAMES[:3]:
        assert family in text and given in text, (family, given)
    assert any(name in out.read_bytes() for name in (b"WenQuanYi", b"Nanum", b"Droid"))


def test_arabic_is_joined_and_hebrew_in_drawing_order() -> None:
    arabic = pdf_text.visual("محمد")
    assert all(0xFE70 <= ord(c) <= 0xFEFF for c in arabic)  # joined presentation forms
    assert pdf_text.visual("כהן, דוד") == "דוד ,ןהכ"
    assert pdf_text.visual("Ōta, Jürgen") == "Ōta, Jürgen"


def test_markup_escapes_and_switches_font_only_where_needed() -> None:
    regular, _ = fonts()
    assert pdf_text.markup("A & <B>", regular) == "A &amp; &lt;B&gt;"
    marked = pdf_text.markup("Wang 王", regular)
    assert (
        marked.startswith("Wang ")
        and f'<font name="{pdf_text.fallback_for("王")}">王</font>' in marked
    )


def test_the_readme_names_exactly_the_packages_ci_installs() -> None:
    """A fresh machine with the README's packages has a CJK font with Hangul: the README's
    apt-get line and .ci/run's are the same list."""
    import re

    root = Path(__file__).resolve().parents[1]
    readme = " ".join(root.joinpath("README.md").read_text(encoding="utf-8").split())
    ci = " ".join(
        root.joinpath(".ci", "run").read_text(encoding="utf-8").replace("\\\n", " ").split()
    )
    (listed,) = re.findall(r"`apt-get install ([a-z0-9 .+-]+)`", readme)[:1]
    installed = re.search(r"apt-get install -y -qq --no-install-recommends ([a-z0-9 .+-]+?) >", ci)
    assert installed and set(listed.split()) == set(installed.group(1).split())
    assert "fonts-wqy-microhei" in listed.split()
