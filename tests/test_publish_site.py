"""``publish``: the players' site, written by the real command line and read as files.

The browser tests are in ``test_publish_browser.py``; these need no browser.
"""

from __future__ import annotations

import re
from datetime import datetime
from html import unescape
from pathlib import Path

import pytest

from addin.core.model import Game, Player, Result, Round, Settings, Tournament
from addin.publish.assets import STAMP_MARK
from addin.publish.site import build_site
from tests.helpers import digest, log_messages, run, sheet_rows

TAGS = re.compile(r"<[^>]+>")
FLOAT = re.compile(r"Float: (.*?) \((\d+)\) down from .*?, (.*?) \((\d+)\) up")
"""The engine's note on a game between score groups (``pairing.assemble``)."""


def text_of(html: str) -> str:
    """What a reader sees: tags out, entities decoded, spaces collapsed."""
    return " ".join(unescape(TAGS.sub(" ", html)).split())


def played_book(folder: Path) -> Path:
    """A demo tournament whose last round is paired again and has no results yet."""
    book = folder / "open.xlsx"
    assert run("demo", book, "--players", "16", "--rounds", "3", "--seed", "2").returncode == 0
    assert run("unpair", book, "--yes").returncode == 0
    done = run("pair", book, "--yes")
    assert done.returncode == 0, done.stderr
    return book


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return played_book(tmp_path_factory.mktemp("publish"))


def published(book: Path, folder: Path) -> dict[str, str]:
    done = run("publish", book, "--to", folder)
    assert done.returncode == 0, done.stderr
    assert str(folder) in done.stdout
    return {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir() if p.is_file()}


def test_publish_reads_the_workbook_only_and_writes_every_page(book: Path, tmp_path: Path) -> None:
    before, log = digest(book), log_messages(book)
    site = published(book, tmp_path / "site")
    assert digest(book) == before, "publishing never saves the workbook"
    assert log_messages(book) == log, "nor writes the Log"
    players = [int(p["AGA #"]) for p in sheet_rows(book, "Players")]  # type: ignore[call-overload]
    expected = {"index.html", "standings.html", "crosstable.html", "event.html"}
    expected |= {"report.html", "site.css", "site.js", "stamp.js", "round1.html", "round2.html"}
    expected |= {"hall.html", "hall-boards.html"}
    expected |= {f"p{pid}.html" for pid in players}
    expected |= {n.replace(".html", ".stamp.js") for n in expected if n.endswith(".html")}
    assert set(site) == expected
    assert site["stamp.js"].startswith(STAMP_MARK), "how publish knows its folder again"
    stamps = page_stamps(site)
    assert len(set(stamps.values())) == len(stamps), "each page its own stamp"
    for name, html in site.items():
        if name.endswith(".html"):
            own = re.search(r'data-stamp="(\w+)" data-stamp-file="([\w.-]+)"', html)
            assert own is not None and own.group(2) == name.replace(".html", ".stamp.js"), name
            assert stamps[name] == own.group(1), f"{name}: its stamp file holds its stamp"
            assert re.search(r"Updated <time>\d{4}-\d\d-\d\d \d\d:\d\d</time>", html), name
            assert "http://" not in html and "https://" not in html, "nothing from outside"


def test_the_default_folder_is_beside_the_workbook(book: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.xlsx"
    copy.write_bytes(book.read_bytes())
    done = run("publish", copy)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "copy-site" / "index.html").is_file()


def test_pairings_by_name_and_by_board_match_the_round_sheet(book: Path, tmp_path: Path) -> None:
    index = published(book, tmp_path / "site")["index.html"]
    games = sheet_rows(book, "Round 3")
    assert games
    shown = text_of(index)
    assert "Pairings, round 3" in shown
    for g in games:
        if g.get("Board") is None:
            continue
        board = re.search(rf'<li id="board-{g["Board"]}".*?</li>', index)
        assert board is not None
        text = text_of(board.group(0))
        assert f"White: {g['White']}" in text and f"Black: {g['Black']}" in text
        assert "Not played yet" in text
        for who in ("White", "Black"):
            assert index.count(f'href="p{g[f"{who} AGA #"]}.html"') >= 3, "name, board, opponent"


def test_a_player_page_says_why_each_opponent_from_the_engines_notes(
    book: Path, tmp_path: Path
) -> None:
    site = published(book, tmp_path / "site")
    floats = 0
    for number in (1, 2, 3):
        for g in sheet_rows(book, f"Round {number}"):
            notes = str(g.get("Notes") or "")
            white, black = g.get("White AGA #"), g.get("Black AGA #")
            if white is None:
                continue
            for pid in (white, black):
                page = text_of(site[f"p{pid}.html"])
                games = page.split(f"Round {number} ", 1)[1]
                why = games.split("Why:", 1)[1].split("Round ", 1)[0]
                found = FLOAT.search(notes)
                if found is None:
                    assert "Same score group" in why or "paired you by hand" in why
                    continue
                floats += 1
                down, up = int(found.group(2)), int(found.group(4))
                assert pid in (down, up)
                assert ("Float down" if pid == down else "Float up") in why, (pid, notes, why)
            if int(g.get("Handicap") or 0) > 0:
                black_page = text_of(site[f"p{black}.html"])
                assert f"Handicap {g['Handicap']} (rating difference minus 1)" in black_page
    assert floats, "the demo has floats to explain"


def test_each_tiebreak_shows_its_sum_and_matches_the_standings(book: Path, tmp_path: Path) -> None:
    site = published(book, tmp_path / "site")
    standings = site["standings.html"]
    header = re.findall(r"<th[^>]*>(.*?)</th>", standings.split("<tbody>")[0])
    sos_column = header.index("SOS")
    checked = 0
    for row in re.findall(r"<tr data-find.*?</tr>", standings):
        pid = re.search(r'href="p(\d+)\.html"', row)
        assert pid is not None
        cells = [text_of(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        sos = float(cells[sos_column])
        page = text_of(site[f"p{pid.group(1)}.html"])
        line = re.search(r"Sum of your opponents' McMahon scores: (.*?) = (-?[\d.]+)\.", page)
        assert line is not None
        parts = [float(p.rsplit(" ", 1)[1].rstrip(")")) for p in line.group(1).split(" + ")]
        assert sum(parts) == pytest.approx(float(line.group(2)))
        assert float(line.group(2)) == pytest.approx(sos)
        assert f"SOS: {cells[sos_column]}" in page
        checked += 1
    assert checked == len(sheet_rows(book, "Players"))


def page_stamps(site: dict[str, str]) -> dict[str, str]:
    """Page -> the stamp its stamp file holds (what an open page compares with its own)."""
    found = {}
    for name, text in site.items():
        if name.endswith(".stamp.js") and name != "stamp.js":
            stamp = re.fullmatch(
                r'window\.agaPageStamp && window\.agaPageStamp\("(\w+)", "[\d: -]+"\);\n', text
            )
            assert stamp is not None, name
            found[name.replace(".stamp.js", ".html")] = stamp.group(1)
    return found


def content(html: str) -> str:
    """A page as a reader sees it, less its stamp and the time of publication."""
    html = re.sub(r'data-stamp="\w+"', "", html)
    return re.sub(r"<time>[^<]*</time>", "", html)


def test_a_new_result_changes_the_stamps_of_the_pages_it_changes_and_no_other(
    tmp_path: Path,
) -> None:
    book = played_book(tmp_path)
    folder = tmp_path / "site"
    first = published(book, folder)
    again = published(book, folder)
    assert page_stamps(again) == page_stamps(first), "nothing changed: no open page reloads"
    assert again["stamp.js"] == first["stamp.js"]
    assert run("result", book, "--board", 1, "--result", "White wins").returncode == 0
    after = published(book, folder)
    assert after["stamp.js"] != first["stamp.js"]
    old, new = page_stamps(first), page_stamps(after)
    changed = {name for name in new if new[name] != old[name]}
    assert changed == {name for name in new if content(after[name]) != content(first[name])}
    board = sheet_rows(book, "Round 3")[0]
    assert {"index.html", "standings.html", "crosstable.html"} <= changed
    assert {f"p{board['White AGA #']}.html", f"p{board['Black AGA #']}.html"} <= changed
    assert not {"round1.html", "round2.html", "report.html"} & changed, "earlier rounds stay"
    assert "hall.html" in changed, "the hall screen shows the result"
    players = [n for n in new if n.startswith("p")]
    assert 0 < len(set(players) - changed) < len(players), "some players' pages stay, not all"
    board = re.search(r'<li id="board-1".*?</li>', after["index.html"])
    assert board is not None and "White wins" in text_of(board.group(0))


def test_a_folder_holding_other_files_is_refused_and_left_alone(book: Path, tmp_path: Path) -> None:
    mine = tmp_path / "documents"
    mine.mkdir()
    (mine / "p1.html").write_text("my own page")
    done = run("publish", book, "--to", mine)
    assert done.returncode == 1
    assert "not a site published by this program" in done.stderr
    assert [p.name for p in mine.iterdir()] == ["p1.html"]
    assert (mine / "p1.html").read_text() == "my own page"
    assert run("publish", book, "--to", tmp_path / "no" / "such").returncode == 1


def test_pages_of_players_who_left_the_sheet_are_removed(book: Path, tmp_path: Path) -> None:
    folder = tmp_path / "site"
    published(book, folder)
    (folder / "p424242.html").write_text("a player deleted since")
    (folder / "p424242.stamp.js").write_text("its stamp file")
    published(book, folder)
    assert not (folder / "p424242.html").exists()
    assert not (folder / "p424242.stamp.js").exists()


HOSTILE = {
    1: ("<script>window.__pwned=1</script>", "Eve"),
    2: ('"><img src=x onerror=alert(1)>', "Img"),
    3: ('=HYPERLINK("http://evil.example","x")', "Hy"),
    4: ("A" * 40_000, "Long"),
    5: ("Ctl\x00\x07\x1b\ud800", "\u202eEvil"),
    6: ("Plain", "Pat"),
}


def test_hostile_names_are_text_in_every_page() -> None:
    players = {
        pid: Player(pid, family, given, rating=-5.5, initial_score=0)
        for pid, (family, given) in HOSTILE.items()
    }
    games = (
        Game(1, 2, result=Result.WHITE_WINS, board=1),
        Game(3, 4, board=2),
        Game(5, 6, board=3),
    )
    t = Tournament(
        settings=Settings(name="<b>Open</b>", rounds=2), players=players, rounds=[Round(1, games)]
    )
    site = build_site(t, datetime(2026, 11, 23, 12, 0))
    for name, data in site.files.items():
        html = data.decode("utf-8")
        assert "<script>window" not in html and "<img" not in html and "<b>Open" not in html, name
        assert "\x00" not in html and "\x1b" not in html, name
        assert len(html) < 60_000, "a 40,000-character name is cut"
    assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in site.files["index.html"].decode()
    assert sorted(n for n in site.files if n.startswith("p")) == [
        f"p{pid}.html" for pid in sorted(HOSTILE)
    ]
    assert sorted(site.page_stamps) == sorted(
        n.replace(".html", ".stamp.js") for n in site.files if n.endswith(".html")
    )


def test_a_publication_killed_before_its_stamp_is_taken_up_by_the_next(
    book: Path, tmp_path: Path
) -> None:
    """``kill -9`` during the first publish: pages (and a temporary file) but no stamp."""
    folder = tmp_path / "site"
    published(book, folder)
    (folder / "stamp.js").unlink()
    (folder / "standings.html").unlink()
    (folder / "standings.stamp.js").unlink()
    (folder / ".p123.abcd_xyz.html").write_text("half a page")
    (folder / ".p123.stamp.abcd_xyz.js").write_text("half a stamp file")
    site = published(book, folder)
    assert "stamp.js" in site and "standings.html" in site and "standings.stamp.js" in site
    assert not (folder / ".p123.abcd_xyz.html").exists(), "the cut-short run's leftovers go"
    assert not (folder / ".p123.stamp.abcd_xyz.js").exists()


def test_a_folder_of_pages_with_a_file_of_the_tds_is_still_refused(
    book: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "site"
    published(book, folder)
    (folder / "stamp.js").unlink()
    (folder / "notes.txt").write_text("the TD's own")
    done = run("publish", book, "--to", folder)
    assert done.returncode == 1 and "not a site published by this program" in done.stderr
    assert (folder / "notes.txt").read_text() == "the TD's own"
    assert not (folder / "stamp.js").exists()
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "index.html").write_text("<p>a page someone else wrote</p>")
    done = run("publish", book, "--to", foreign)
    assert done.returncode == 1, "our file names, but not our pages"


def test_a_european_event_names_its_preset_supergroup_and_ghost_and_marks_the_ghost(
    tmp_path: Path,
) -> None:
    """Issue 40 (10): the EGF event page said "Rules: AGA" and never named the preset, the
    supergroup or the ghost player; the ghost was not marked in pairings or standings."""
    book = tmp_path / "egf.xlsx"
    done = run("demo", book, "--players", 21, "--rounds", 3, "--rules", "egf")
    assert done.returncode == 0, done.stderr
    played = re.search(r"the ghost player played in rounds ([\d, ]+)", done.stdout)
    assert played is not None, done.stdout
    settings = {r["Setting"]: r["Value"] for r in sheet_rows(book, "Tournament")}
    ghost = int(settings["Ghost player (AGA #)"])  # type: ignore[call-overload]
    name = next(p for p in sheet_rows(book, "Players") if p["AGA #"] == ghost)
    ghost_name = f"{name['Family name']}, {name['Given name']}"
    site = published(book, tmp_path / "site")
    event = text_of(site["event.html"])
    assert "Rules of play AGA" in event, "the rules of play, named as such"
    assert "McMahon rules EGF preset" in event
    assert "Supergroup EGF:" in event
    assert f"Byes none: the ghost player {ghost_name} ghost player (AGA #{ghost}) plays" in event
    tag = '<span class="tag">ghost player</span>'
    for number in (int(n) for n in played.group(1).split(",")):
        page = site["index.html" if number == 3 else f"round{number}.html"]
        board = next(
            b for b in re.findall(r'<li id="board-\d+".*?</li>', page) if f"p{ghost}.html" in b
        )
        assert tag in board, number
    row = next(r for r in re.findall(r"<tr .*?</tr>", site["standings.html"]) if f"p{ghost}." in r)
    assert tag in row
    assert f"{ghost_name} (ghost)" in text_of(site["hall.html"])
    aga = published(played_book(tmp_path), tmp_path / "aga-site")
    assert "McMahon rules AGA (the AGA Swiss McMahon protocol)" in text_of(aga["event.html"])
    assert "ghost" not in text_of(aga["event.html"])


@pytest.mark.parametrize("at", [1, 2, 12, 40])
def test_a_publish_killed_at_any_moment_is_taken_up_by_the_next(
    book: Path, tmp_path: Path, at: int
) -> None:
    """Issue 40 (18): ``publish`` killed (kill -9) in its first instant left the new folder
    holding only a temporary file, and every later ``publish`` refused it. Here the real
    command line is killed the moment it is about to put its ``at``-th file in place."""
    import signal
    import subprocess
    import sys

    folder = tmp_path / "site"
    killed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os, signal, sys\n"
            "from addin.cli import main\n"
            "put, count = os.replace, [0]\n"
            "def replace(a, b):\n"
            "    count[0] += 1\n"
            f"    if count[0] == {at}:\n"
            "        os.kill(os.getpid(), signal.SIGKILL)\n"
            "    put(a, b)\n"
            "os.replace = replace\n"
            "sys.exit(main(sys.argv[1:]))\n",
            "publish",
            str(book),
            "--to",
            str(folder),
        ],
        capture_output=True,
        text=True,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    left = sorted(p.name for p in folder.iterdir())
    assert left and "stamp.js" not in left, left
    if at == 1:
        assert all(n.startswith(".") for n in left), f"only the file being written: {left}"
    site = published(book, folder)
    assert "stamp.js" in site and "index.html" in site
    assert not [n for n in site if n.startswith(".")], "the killed run's temporary files go"
