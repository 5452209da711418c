"""Carrying on an event from another laptop's report: import the state after round k, pair
round k+1 at once (issue 30).

Every real report of each kind in tests/data (AGA XML as Eggplant writes it, with its
``<eggplant>`` block; the AGA text format) is cut down to rounds 1..k, imported through the
real command line, and the next round paired with no other command between. The expected
figures are read from the files here with lxml and plain text, not through the importer:
the initial McMahon scores, who played whom, who won, who is absent.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from lxml import etree

from addin.core.ratings import rank_floor
from addin.workbook import book
from addin.workbook.openpyxl_gateway import OpenpyxlGateway
from tests.factories import make_tournament
from tests.helpers import DATA, digest, run, sheet_rows
from tests.workbook_fixtures import write_workbook

AGA_XML = sorted(
    path
    for path in DATA.rglob("*.xml")
    if etree.parse(str(path)).getroot().tag == "TournamentReport"
)
EGGPLANT = [p for p in AGA_XML if etree.parse(str(p)).getroot().find("eggplant") is not None]
AGA_TEXT = sorted((DATA / "aga-text").glob("*.txt"))
PENDING = "without a result"
"""The only warning pairing may raise here: the files' last rounds have unknown results."""


# --------------------------------------------------------------------------- the files


def xml_rounds(path: Path) -> list[int]:
    """Rounds of the XML report that have games, in order."""
    root = etree.parse(str(path)).getroot()
    return [
        int(r.get("RoundNumber"))
        for r in root.iter("Round")
        if r.find("Game") is not None and r.get("RoundNumber") is not None
    ]


def cut_xml(path: Path, k: int, out: Path) -> Path:
    """The report as it stood after round ``k``: later rounds' games removed."""
    tree = etree.parse(str(path))
    for rnd in list(tree.getroot().iter("Round")):
        if int(rnd.get("RoundNumber")) > k:
            for game in list(rnd):
                rnd.remove(game)
    tree.write(str(out), xml_declaration=True, encoding="UTF-8")
    return out


def xml_initial_scores(path: Path) -> dict[int, float]:
    root = etree.parse(str(path)).getroot()
    return {
        int(p.get("ID")): float(p.get("InitialTournamentScore"))
        for p in root.iter("Player")
        if p.get("InitialTournamentScore")
    }


_POINTS = {
    "WHITE": (1.0, 0.0),
    "WHITE_BY_DEFAULT": (1.0, 0.0),
    "BLACK": (0.0, 1.0),
    "BLACK_BY_DEFAULT": (0.0, 1.0),
    "DRAW": (0.5, 0.5),
}


def xml_games(path: Path, k: int) -> list[tuple[int, int, float, float]]:
    """(white, black, white's points, black's points) of rounds 1..k; a self-game is a bye."""
    root = etree.parse(str(path)).getroot()
    games = []
    for rnd in root.iter("Round"):
        if int(rnd.get("RoundNumber")) > k:
            continue
        for g in rnd.iter("Game"):
            white, black = int(g.get("WhitePlayerID")), int(g.get("BlackPlayerID"))
            points = (1.0, 1.0) if white == black else _POINTS.get(g.get("eggplantresult"), (0, 0))
            games.append((white, black, *points))
    return games


def xml_absent(path: Path, number: int) -> set[int]:
    """Players whose Eggplant participation marks round ``number`` ABSENT."""
    root = etree.parse(str(path)).getroot()
    absent = set()
    for p in root.iter("Player"):
        entries = p.get("eggplantparticipation", "").split(",")
        if len(entries) >= number and entries[number - 1].strip() == "ABSENT":
            absent.add(int(p.get("ID")))
    return absent


def text_rounds(path: Path) -> list[int]:
    text = path.read_text(encoding="utf-8")
    blocks = re.split(r"^GAMES\s+(\d+)\s*$", text.split("\nEND")[0], flags=re.MULTILINE)
    return [int(n) for n, body in zip(blocks[1::2], blocks[2::2], strict=True) if body.strip()]


def cut_text(path: Path, k: int, out: Path) -> Path:
    """The text report after round ``k``: the GAMES blocks after it removed."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(
        (i for i, line in enumerate(lines) if re.fullmatch(rf"GAMES\s+{k + 1}\s*", line.strip())),
        None,
    )
    end = next(i for i, line in enumerate(lines) if line.strip() == "END")
    out.write_text("".join(lines if start is None else lines[:start] + lines[end:]), "utf-8")
    return out


def text_games(path: Path, k: int) -> list[tuple[int, int]]:
    text = path.read_text(encoding="utf-8").split("\nEND")[0]
    blocks = re.split(r"^GAMES\s+(\d+)\s*$", text, flags=re.MULTILINE)
    games = []
    for n, body in zip(blocks[1::2], blocks[2::2], strict=True):
        if int(n) <= k:
            games += [
                (int(line.split()[0]), int(line.split()[1]))
                for line in body.splitlines()
                if line.strip() and not line.startswith("#")
            ]
    return games


# --------------------------------------------------------------------------- checks


def paired(path: Path, number: int) -> list[tuple[int, int]]:
    return [
        (int(g["White AGA #"]), int(g["Black AGA #"]))  # type: ignore[call-overload]
        for g in sheet_rows(path, f"Round {number}")
        if g.get("White AGA #") is not None
    ]


def pair_next(path: Path, number: int) -> None:
    """``pair`` at once: exit 0, or only the pending-results warning (then ``--yes``)."""
    asked = run("pair", path)
    if asked.returncode == 3:
        warnings = [line for line in asked.stderr.splitlines() if "warning:" in line]
        assert warnings and all(PENDING in w for w in warnings), asked.stderr
        asked = run("pair", path, "--yes")
    assert asked.returncode == 0, asked.stderr
    assert f"Paired round {number}" in asked.stdout


def legal(path: Path, number: int, earlier: list[tuple[int, int]], absent: set[int]) -> None:
    games = paired(path, number)
    seated = [pid for game in games for pid in game]
    assert len(seated) == len(set(seated)), "a player twice in one round"
    met = {frozenset(g) for g in earlier if g[0] != g[1]}
    assert not [g for g in games if frozenset(g) in met], "a rematch"
    assert not set(seated) & absent, "an absent player paired"


def initial_scores(path: Path) -> dict[int, float]:
    return {
        int(p["AGA #"]): float(p["Initial score"])  # type: ignore[arg-type]
        for p in sheet_rows(path, "Players")
        if p.get("Initial score") is not None
    }


def new_book(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.xlsx"
    assert run("new", path).returncode == 0
    return path


# --------------------------------------------------------------------------- AGA XML


XML_CASES = [(p, k) for p in AGA_XML for k in [0, *xml_rounds(p)]]


@pytest.mark.parametrize(
    ("report", "k"), XML_CASES, ids=[f"{p.stem}-after-{k}" for p, k in XML_CASES]
)
def test_an_imported_xml_report_pairs_its_next_round_with_the_files_scores(
    tmp_path: Path, report: Path, k: int
) -> None:
    cut = cut_xml(report, k, tmp_path / f"{report.stem}-r{k}.xml")
    path = new_book(tmp_path, "continued")
    imported = run("import-aga-xml", path, cut)
    assert imported.returncode == 0, imported.stderr
    expected = xml_initial_scores(report)
    assert expected and initial_scores(path) == expected

    pair_next(path, k + 1)
    legal(path, k + 1, [(w, b) for w, b, _, _ in xml_games(report, k)], xml_absent(report, k + 1))

    # Each player's McMahon score is the file's initial score plus the file's results.
    mms = dict(expected)
    for white, black, white_points, black_points in xml_games(report, k):
        mms[white] += white_points
        if black != white:
            mms[black] += black_points
    assert run("standings", path, "--yes").returncode == 0
    shown = {int(r["AGA #"]): float(r["McMahon score"]) for r in sheet_rows(path, "Standings")}  # type: ignore[arg-type]
    assert shown == mms


@pytest.mark.parametrize("report", EGGPLANT, ids=[p.stem for p in EGGPLANT])
def test_eggplants_block_becomes_the_bands_sheet_and_the_tournament_settings(
    tmp_path: Path, report: Path
) -> None:
    block = {e.tag: (e.text or "") for e in etree.parse(str(report)).getroot().find("eggplant")}
    path = new_book(tmp_path, "eggplant")
    assert run("import-aga-xml", path, report).returncode == 0
    scores = sorted(set(xml_initial_scores(report).values()), reverse=True)
    bands = sheet_rows(path, "Bands")
    assert [float(b["Initial score"]) for b in bands] == scores  # type: ignore[arg-type]
    counts = [list(xml_initial_scores(report).values()).count(s) for s in scores]
    assert [b["Players"] for b in bands] == counts

    settings = book.read_book(OpenpyxlGateway.open(path)).tournament.settings
    assert settings.bar == rank_floor(block["mmbar"].lower())
    assert settings.handicap_policy.reduction == int(block["handicapmodifier"])
    assert settings.handicap_ceiling == int(block["handicapceiling"])
    assert not settings.top_band_even, "Eggplant gives every game its handicap"

    # bands keeps the file's scores: nothing to confirm, nothing changed.
    before = initial_scores(path)
    rebuilt = run("bands", path)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert initial_scores(path) == before


def test_bands_over_played_rounds_says_how_many_scores_it_would_change(tmp_path: Path) -> None:
    report = EGGPLANT[0]
    path = new_book(tmp_path, "rebuild")
    assert run("import-aga-xml", path, report).returncode == 0
    before = digest(path)
    fresh = run("bands", path, "--fresh")
    assert fresh.returncode == 3 and digest(path) == before
    # What accepting does, on a copy: the warning's count is the scores that change.
    copy = tmp_path / "copy.xlsx"
    shutil.copy(path, copy)
    assert run("bands", copy, "--fresh", "--yes").returncode == 0
    old, new = initial_scores(path), initial_scores(copy)
    changed = [pid for pid in old if new.get(pid) != old[pid]]
    assert changed
    assert f"change the initial score of {len(changed)} of {len(old)} players" in fresh.stderr
    assert digest(path) == before


# --------------------------------------------------------------------------- AGA text


TEXT_CASES = [(p, k) for p in AGA_TEXT for k in [0, *text_rounds(p)]]


@pytest.mark.parametrize(
    ("report", "k"), TEXT_CASES, ids=[f"{p.stem}-after-{k}" for p, k in TEXT_CASES]
)
def test_an_imported_text_report_builds_bands_from_the_ranks_once_and_pairs(
    tmp_path: Path, report: Path, k: int
) -> None:
    cut = cut_text(report, k, tmp_path / f"{report.stem}-r{k}.txt")
    path = new_book(tmp_path, "text")
    imported = run("import-aga-text", path, cut)
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.count("carries no initial McMahon scores") == 1
    players = sheet_rows(path, "Players")
    scores = initial_scores(path)
    assert len(scores) == len(players), "every player has an initial score"
    assert len(sheet_rows(path, "Bands")) >= 1

    pair_next(path, k + 1)
    legal(path, k + 1, text_games(report, k), set())

    rebuilt = run("bands", path)  # the bands the import built are the ones bands keeps
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert initial_scores(path) == scores


# --------------------------------------------------------------------------- the gate


def test_scores_without_bands_rows_pair_and_a_missing_score_is_named(tmp_path: Path) -> None:
    """An import (OpenGotha's too) may give initial scores and no Bands rows."""
    from openpyxl import load_workbook

    report = AGA_XML[0]
    path = new_book(tmp_path, "gate")
    assert run("import-aga-xml", path, cut_xml(report, 0, tmp_path / "r0.xml")).returncode == 0
    wb = load_workbook(path)
    ws = wb["Bands"]
    for row in ws.iter_rows(min_row=2):
        for cell in row:
            cell.value = None
    wb.save(path)
    assert run("pair", path, "--yes").returncode == 0
    assert run("unpair", path, "--yes").returncode == 0

    wb = load_workbook(path)
    ws = wb["Players"]
    header = [c.value for c in ws[1]]
    ws.cell(row=2, column=header.index("Initial score") + 1).value = None
    wb.save(path)
    refused = run("pair", path, "--yes")
    assert refused.returncode == 1
    assert "Players!" in refused.stderr and "no initial McMahon score" in refused.stderr


# --------------------------------------------------------------------------- our own report


def test_our_own_report_cut_after_round_two_carries_on_with_the_same_scores(
    tmp_path: Path,
) -> None:
    t = make_tournament(3)
    source = write_workbook(tmp_path / "source.xlsx", t, rounds=5)
    exported = tmp_path / "ours.xml"
    done = run("export-aga", source, "--xml", exported, "--yes", "--force")
    assert done.returncode == 0, done.stderr
    cut = cut_xml(exported, 2, tmp_path / "ours-r2.xml")
    path = new_book(tmp_path, "ours")
    assert run("import-aga-xml", path, cut).returncode == 0
    assert initial_scores(path) == xml_initial_scores(exported)
    # The factory's rounds are arbitrary: a float rule may have to give (a warning).
    paired_now = run("pair", path, "--yes")
    assert paired_now.returncode == 0, paired_now.stderr
    legal(path, 3, [(w, b) for w, b, _, _ in xml_games(exported, 2)], set())


def test_a_continued_event_pairs_its_next_round_as_the_original_did(tmp_path: Path) -> None:
    """The demo's own XML report cut after round 3, imported on another laptop: round 4 is
    paired exactly as the demo paired it (same pairs), with the file's scores alone."""
    original = tmp_path / "original.xlsx"
    assert run("demo", original, "--players", 40, "--rounds", 5).returncode == 0
    cut = cut_xml(tmp_path / "original-aga.xml", 3, tmp_path / "after-3.xml")
    path = new_book(tmp_path, "laptop")
    assert run("import-aga-xml", path, cut).returncode == 0
    assert run("pair", path, "--round", 4, "--yes").returncode == 0
    assert {frozenset(g) for g in paired(path, 4)} == {frozenset(g) for g in paired(original, 4)}
