"""Where players and the TD see the projected AGA rating (issue 52), marked unofficial
everywhere: the wall report "Projected ratings" (sheet and PDF, by name and by change), each
player's page and the standings page of the phone site ("if the event ended now"), read in
Chromium at 360 x 740 with JavaScript on and off and passing the site's accessibility check.

The event is the real February 2014 Seattle report with its real TDListA; the figures every
view must show are the ``ratings`` command's CSV of the same workbook.
"""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from addin.core.ratings import rating_gap
from addin.publish.projection import Row, player_section, standings_section
from tests.helpers import DATA, run, set_cell, sheet_rows
from tests.test_accessibility import CHECK
from tests.test_publish_browser import PHONE, browser  # noqa: F401
from tests.test_publish_site import published
from tests.test_rating_projection import _set_setting, _tdlista_row

REPORT_SHEET = "Report - Projected ratings"
CSV = 1e-5
"""The CSV's figures have five decimals."""


@pytest.fixture(scope="module")
def reported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workbook of the real February 2014 Seattle report, with the real TDListA."""
    path = tmp_path_factory.mktemp("views") / "report.xlsx"
    assert run("new", path, "--yes").returncode == 0
    tdlista = DATA / "ratings" / "tdlista-2014-02.txt"
    assert run("import-tdlista", path, tdlista, "--yes").returncode in (0, 3)
    xml = DATA / "aga-xml" / "2014-02.xml"
    assert run("import-aga-xml", path, xml, "--yes").returncode in (0, 3)
    return path


@pytest.fixture
def book(reported: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(reported, tmp_path / "book.xlsx"))


@pytest.fixture(scope="module")
def expected(reported: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[int, dict[str, Any]]:
    """Each player's figures as the ``ratings`` command writes them, and the change."""
    out = tmp_path_factory.mktemp("csv") / "ratings.csv"
    assert run("ratings", reported, "--out", out, "--yes").returncode == 0
    found: dict[int, dict[str, Any]] = {}
    for r in csv.DictReader(io.StringIO(out.read_text())):
        before = float(r["Rating"]) if r["Rating"] else None
        after = float(r["Projected rating"]) if r["Projected rating"] else None
        change = rating_gap(after, before) if after is not None and before is not None else None
        found[int(r["AGA #"])] = {
            "name": r["Name"],
            "before": before,
            "after": after,
            "sigma": float(r["Projected sigma"]) if r["Projected sigma"] else None,
            "change": change,
        }
    assert found and all(f["change"] is not None for f in found.values())
    return found


# --- the wall report ----------------------------------------------------------------------


def test_the_wall_report_by_name_shows_each_players_projection_as_the_command_computes_it(
    book: Path, tmp_path: Path, expected: dict[int, dict[str, Any]]
) -> None:
    pdf = tmp_path / "projected.pdf"
    done = run("report", book, "ratings", "--out", pdf, "--sheet")
    assert done.returncode == 0, done.stderr
    assert "unofficial" in done.stdout
    rows = sheet_rows(book, REPORT_SHEET)
    assert [r["AGA #"] for r in rows] == [
        pid for pid, _ in sorted(expected.items(), key=lambda kv: kv[1]["name"].casefold())
    ]
    for r in rows:
        want = expected[int(r["AGA #"])]  # type: ignore[call-overload]
        assert r["Name"] == want["name"]
        assert r["Rating before"] == pytest.approx(want["before"], abs=CSV)
        assert r["Projected rating"] == pytest.approx(want["after"], abs=CSV)
        assert r["Change"] == pytest.approx(want["change"], abs=CSV)
        assert r["Projected sigma"] == pytest.approx(want["sigma"], abs=CSV)
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "Projected ratings - After round 2, unofficial, alphabetical" in text
    assert "Unofficial: projected by this program" in text
    first = rows[0]
    assert re.search(
        rf"{re.escape(str(first['Name']))}\s+{first['AGA #']}\s+\S+\s+"
        rf"{expected[int(first['AGA #'])]['before']:.2f}\s+"  # type: ignore[call-overload]
        rf"{expected[int(first['AGA #'])]['after']:.2f}",  # type: ignore[call-overload]
        text,
    )


def test_the_wall_report_by_change_puts_the_biggest_gain_first(
    book: Path, expected: dict[int, dict[str, Any]]
) -> None:
    done = run("report", book, "ratings", "--sort", "change", "--sheet")
    assert done.returncode == 0, done.stderr
    rows = sheet_rows(book, REPORT_SHEET)
    changes = [r["Change"] for r in rows]
    assert changes == sorted(changes, reverse=True)  # type: ignore[type-var]
    best = max(expected.values(), key=lambda f: f["change"])
    assert rows[0]["Name"] == best["name"] and changes[0] == pytest.approx(best["change"], abs=CSV)


def test_a_tdlista_the_projection_cannot_use_stops_the_report_naming_the_cell(
    book: Path,
) -> None:
    cell = set_cell(book, "TDListA", "Sigma", _tdlista_row(book, 7303), 0)
    done = run("report", book, "ratings", "--sheet")
    assert done.returncode != 0
    assert f"no ratings can be projected: TDListA!{cell} (Sigma)" in done.stderr
    assert REPORT_SHEET not in {str(s) for s in _sheets(book)}


def _sheets(path: Path) -> list[str]:
    import openpyxl

    return list(openpyxl.load_workbook(path, read_only=True).sheetnames)


# --- the phone site -----------------------------------------------------------------------


def test_each_players_page_and_the_standings_show_the_projection_marked_unofficial(
    book: Path, tmp_path: Path, expected: dict[int, dict[str, Any]]
) -> None:
    site = published(book, tmp_path / "site")
    standings = site["standings.html"]
    assert 'href="#projected"' in standings and "if the event ended now" in standings
    table = standings[standings.index('<table class="grid projected">') :]
    for pid, want in expected.items():
        page = site[f"p{pid}.html"]
        section = page[page.index('<section class="projection"') :]
        section = section[: section.index("</section>")]
        assert "AGA rating if the event ended now" in section and "unofficial" in section
        assert f"{want['before']:.2f}" in section and f"{want['after']:.2f}" in section
        assert f"{want['change']:+.2f}" in section or abs(want["change"]) < 0.005
        row = re.search(rf'<tr class="projected" data-find="[^"]*#{pid}">(.*?)</tr>', table)
        assert row is not None, pid
        cells = re.findall(r'<td class="num">([^<]*)</td>', row.group(1))
        shown = "0.00" if abs(want["change"]) < 0.005 else f"{want['change']:+.2f}"
        assert cells == [f"{want['before']:.2f}", f"{want['after']:.2f}", shown]


def test_the_projected_ratings_setting_at_no_leaves_the_projection_off_the_site(
    book: Path, tmp_path: Path, expected: dict[int, dict[str, Any]]
) -> None:
    _set_setting(book, "Projected ratings", False)
    site = published(book, tmp_path / "site")
    assert "if the event ended now" not in site["standings.html"]
    assert all("if the event ended now" not in site[f"p{pid}.html"] for pid in expected)


def test_a_player_without_a_rated_game_has_blank_figures_and_is_told_why() -> None:
    page = player_section(None)
    assert "unofficial" in page and "No rated game yet" in page
    assert "Projected rating" not in page
    table = standings_section([Row('<a href="p1.html">Lee, Ann</a>', "lee ann #1", None)])
    assert re.findall(r'<td class="num">([^<]*)</td>', table) == ["", "", ""]


@pytest.mark.parametrize("js", [True, False], ids=["javascript", "no-javascript"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_phone_reads_the_projection_at_360_by_740_and_passes_the_accessibility_check(
    request: pytest.FixtureRequest,
    reported: Path,
    tmp_path: Path,
    expected: dict[int, dict[str, Any]],
    js: bool,
    scheme: str,
) -> None:
    folder = tmp_path / "site"
    published(reported, folder)
    pid, want = max(expected.items(), key=lambda kv: kv[1]["change"])
    chromium = request.getfixturevalue("browser")
    context = chromium.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, color_scheme=scheme, java_script_enabled=js
    )
    try:
        page = context.new_page()
        page.goto((folder / f"p{pid}.html").as_uri())
        section = page.locator("section.projection")
        section.scroll_into_view_if_needed()
        assert section.is_visible()
        text = section.inner_text()
        assert "unofficial" in text and f"{want['after']:.2f}" in text
        assert page.evaluate(CHECK) == []
        page.goto((folder / "standings.html").as_uri() + "#projected")
        table = page.locator("table.projected")
        assert page.locator("#projected").is_visible() and "unofficial" in page.inner_text(
            "#projected"
        )
        box = table.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert page.evaluate(CHECK) == []
        if js:  # the find box filters the projection's rows like the standings'
            page.fill("#find", str(pid))
            shown = table.locator("tbody tr:visible")
            assert shown.count() == 1 and f"{want['after']:.2f}" in shown.inner_text()
    finally:
        context.close()


def test_a_projection_past_the_top_of_the_rank_scale_still_has_its_change() -> None:
    """A 9.1 who beats the field is projected past 11, where no rank is read: the change is
    still the difference across the kyu/dan gap (standings and publish once stopped here)."""
    from addin.reports.projected import ProjectedRating

    strong = ProjectedRating(before=9.12, rating=11.80, sigma=0.5)
    assert strong.change == pytest.approx((11.80 - 1.0) - (9.12 - 1.0))
    across = ProjectedRating(before=-1.5, rating=1.5, sigma=0.5)
    assert across.change == pytest.approx(1.0)
