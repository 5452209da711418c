"""``import-opengotha``: every real OpenGotha file in tests/data, through the command line.

The file is read here independently (lxml, OpenGotha's own rules from its source): every
player, game and bye must be in the workbook, the initial McMahon scores must be the file's
(``Player.smms``), and from the state after round k the next round must pair at once,
legally, from pairing scores that are OpenGotha's (``fillBaseScoringInfoIfNecessary``),
absent rounds included: OpenGotha's ½ point a round absent, rounded down, is the Sleeping
players option "Half a point a round" (BGA 4.3), which the import sets.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from lxml import etree

from addin.actions.pairing import pairing_input
from addin.core.european import Sleeping
from addin.core.model import Bye, ByeKind, HandicapBasis, PlayerId, Result, Status, Tournament
from addin.core.scoring import mcmahon_scores
from addin.workbook import book
from addin.workbook.openpyxl_gateway import OpenpyxlGateway
from tests.factories import make_tournament
from tests.helpers import DATA, digest, log_messages, run, sheet_rows
from tests.test_bands_cli import set_setting
from tests.workbook_fixtures import write_workbook

FILES = sorted((DATA / "opengotha").glob("*.xml"))


def result(code: str) -> Result | None:
    """OpenGotha's result codes (info.vannier.gotha.Game) as the AGA's: BYDEF is "by
    default", a forfeit; an equal game by default was not played, no result."""
    base, forfeit = code.removeprefix("RESULT_").removesuffix("_BYDEF"), code.endswith("_BYDEF")
    if base == "UNKNOWN":
        return None
    if base == "BOTHLOSE":
        return Result.DOUBLE_FORFEIT
    if base == "EQUAL":
        return Result.NO_RESULT if forfeit else Result.JIGO
    winner = "White" if base == "WHITEWINS" else "Black"
    return Result(f"{winner} wins" + (" by forfeit" if forfeit else ""))


PAIRING_RULE_WARNINGS = ("pairing rule relaxed", "three rounds running")
"""The engine's own warnings about a pairing it made (docs/decisions.md): the only ones a
freshly imported OpenGotha event may ask the TD to confirm before the next round."""


def key(text: str) -> str:
    """OpenGotha's key string (Player.computeKeyString), also ignoring underscores."""
    return text.replace(" ", "").replace("_", "").upper()


def rank(text: str) -> int:
    """OpenGotha's Player.convertKDPToInt for the k/d ranks of these files: 1d = 0."""
    number, kind = int(text[:-1]), text[-1].upper()
    return max(-30, min(8, number - 1 if kind == "D" else -number))


@dataclass
class GothaFile:
    """What an OpenGotha file says, read with nothing but lxml."""

    root: etree._Element

    @property
    def gps(self) -> etree._Element:
        return self.root.find("TournamentParameterSet/GeneralParameterSet")

    @property
    def rounds(self) -> int:
        return int(self.gps.get("numberOfRounds"))

    @property
    def swiss(self) -> bool:
        return self.root.find(".//PlacementCriterion[@number='1']").get("name") == "NBW"

    @property
    def players(self) -> dict[str, etree._Element]:
        return {key(p.get("name") + p.get("firstName")): p for p in self.root.iter("Player")}

    def games(self, r: int) -> list[tuple[str, str, int, Result | None]]:
        return [
            (
                key(g.get("whitePlayer")),
                key(g.get("blackPlayer")),
                int(g.get("handicap")),
                result(g.get("result")),
            )
            for g in self.root.iter("Game")
            if int(g.get("roundNumber")) == r
        ]

    def bye(self, r: int) -> set[str]:
        return {
            key(b.get("player"))
            for b in self.root.iter("ByePlayer")
            if b.get("player") and int(b.get("roundNumber")) == r
        }

    def played(self) -> list[int]:
        return sorted({int(g.get("roundNumber")) for g in self.root.iter("Game")})

    def absent(self, r: int) -> set[str]:
        """Players whose participation says 0 in round ``r`` and who have no game or bye."""
        there = {p for g in self.games(r) for p in g[:2]} | self.bye(r)
        return {k for k, p in self.players.items() if p.get("participating")[r - 1] == "0"} - there

    def smms(self, k: str) -> int:
        """Player.smms: rank framed by floor and bar, minus zero, plus the correction."""
        if self.swiss:
            return 0
        floor, bar, zero = (rank(self.gps.get(a)) for a in ("genMMFloor", "genMMBar", "genMMZero"))
        p = self.players[k]
        return min(max(rank(p.get("rank")), floor), bar) - zero + int(p.get("smmsCorrection"))

    @property
    def main(self) -> str:
        """The main score: MMS, or NBW in a Swiss event."""
        return "NBW" if self.swiss else "MMS"

    @property
    def absent_value(self) -> int:
        """Half points OpenGotha's main score gives a round absent."""
        return int(self.gps.get(f"gen{self.main}2ValueAbsent"))

    def score(self, after: int) -> dict[str, float]:
        """OpenGotha's main score after round ``after`` (MMS, or NBW in a Swiss event),
        as Tournament.fillBaseScoringInfoIfNecessary computes it, in half points."""
        absent_value = self.absent_value
        bye_value = int(self.gps.get(f"gen{self.main}2ValueBye"))
        x2 = {k: 2 * self.smms(k) for k in self.players}
        extra = dict.fromkeys(self.players, 0)
        for r in range(1, after + 1):
            for white, black, _, result in self.games(r):
                if result is not None and result.winner is not None:
                    x2[white if result.winner.value == "W" else black] += 2
                elif result in (Result.JIGO, Result.NO_RESULT):
                    x2[white] += 1
                    x2[black] += 1
            for k in self.absent(r):
                extra[k] += absent_value
            for k in self.bye(r):
                extra[k] += bye_value
        if self.gps.get("genRoundDownNBWMMS") == "true":
            extra = {k: v // 2 * 2 for k, v in extra.items()}
        return {k: (x2[k] + extra[k]) / 2 for k in self.players}


def gotha(path: Path) -> GothaFile:
    return GothaFile(etree.parse(str(path)).getroot())


def tournament(path: Path) -> Tournament:
    return book.read_book(OpenpyxlGateway.open(path)).tournament


def imported(tmp_path: Path, source: Path) -> tuple[Path, str]:
    path = tmp_path / f"{source.stem}.xlsx"
    assert run("new", path).returncode == 0
    result = run("import-opengotha", path, source)
    assert result.returncode == 0, result.stderr
    return path, result.stdout


def ids_by_key(t: Tournament) -> dict[str, PlayerId]:
    return {key(p.family_name + p.given_name): p.aga_id for p in t.players.values()}


def last_complete_round(f: GothaFile) -> int:
    """The state to continue from: the last round with every result in, before the end."""
    done = [r for r in f.played() if all(g[3] is not None for g in f.games(r))]
    return min(max(done, default=0), f.rounds - 1)


def after_round(source: Path, k: int, target: Path) -> Path:
    """The file as OpenGotha saves it after round ``k``: no games or byes after it."""
    root = etree.parse(str(source)).getroot()
    for el in list(root.iter("Game", "ByePlayer")):
        if el.get("roundNumber") and int(el.get("roundNumber")) > k:
            el.getparent().remove(el)
    target.write_bytes(etree.tostring(root, xml_declaration=True, encoding="UTF-8"))
    return target


@pytest.mark.parametrize("source", FILES, ids=lambda p: p.stem)
def test_every_player_game_and_bye_of_the_file_is_in_the_workbook(
    tmp_path: Path, source: Path
) -> None:
    f = gotha(source)
    path, out = imported(tmp_path, source)
    t = tournament(path)
    ids = ids_by_key(t)
    assert set(ids) == set(f.players), "every player, by OpenGotha's key string"
    for k, el in f.players.items():
        p = t.players[ids[k]]
        aga = el.get("agaId")
        assert p.aga_id == int(aga) if aga else 90000 <= p.aga_id <= 99999
        assert (p.chapter, p.country) == (el.get("club").strip(), el.get("country").strip())
        confirmed = el.get("registeringStatus") == "FIN"
        assert p.status is (Status.ACTIVE if confirmed else Status.DROPPED)
        flags = el.get("participating")
        assert p.bye_requests == {r for r in range(1, f.rounds + 1) if flags[r - 1] == "0"}
    scores = {r["AGA #"]: r["Initial score"] for r in sheet_rows(path, "Players")}
    assert {k: scores[ids[k]] for k in f.players} == {k: f.smms(k) for k in f.players}
    assert [r.number for r in t.rounds] == f.played()
    for rnd in t.rounds:
        games = [
            (g.white, g.black, g.handicap, g.result) for g in rnd.games
        ]  # colours, handicaps, results
        expected = [(ids[w], ids[b], h, res) for w, b, h, res in f.games(rnd.number)]
        assert sorted(games, key=str) == sorted(expected, key=str)
        komi = float(f.gps.get("komi"))
        assert all(g.komi == (komi if g.handicap == 0 else 0.5) for g in rnd.games)
        forced = {b.player for b in rnd.byes if b.kind is ByeKind.FORCED}
        assert forced == {ids[k] for k in f.bye(rnd.number)}
        voluntary = {b.player for b in rnd.byes if b.kind is ByeKind.VOLUNTARY}
        active = {ids[k] for k, p in f.players.items() if p.get("registeringStatus") == "FIN"}
        assert voluntary == {ids[k] for k in f.absent(rnd.number)} & active
    counted = sum(len(r.games) for r in t.rounds), sum(len(r.byes) for r in t.rounds)
    assert f"({counted[0]} games, {counted[1]} byes)" in out
    assert t.settings.rounds == f.rounds and t.settings.komi == float(f.gps.get("komi"))
    assert t.settings.pairing_format == ("Swiss" if f.swiss else "McMahon")


@pytest.mark.parametrize("source", FILES, ids=lambda p: p.stem)
def test_the_state_after_round_k_pairs_round_k_plus_1_from_the_files_scores(
    tmp_path: Path, source: Path
) -> None:
    k = last_complete_round(gotha(source))
    state = after_round(source, k, tmp_path / f"{source.stem}-after-{k}.xml")
    f = gotha(state)
    path, out = imported(tmp_path, state)

    first = run("pair", path)  # straight after the import: no bands, no other command
    if first.returncode == 3:
        warnings = [line for line in first.stderr.splitlines() if "warning:" in line]
        assert warnings and all(any(w in line for w in PAIRING_RULE_WARNINGS) for line in warnings)
        first = run("pair", path, "--yes")
    assert first.returncode == 0, first.stderr

    t = tournament(path)
    ids = ids_by_key(t)
    names = {v: k for k, v in ids.items()}
    rnd = t.round(k + 1)
    assert rnd is not None
    earlier = [r for r in t.rounds if r.number <= k]

    # Legality: everyone here plays once or has the bye; nobody absent; no rematch.
    here = {
        ids[k_]
        for k_, p in f.players.items()
        if p.get("registeringStatus") == "FIN" and p.get("participating")[k] == "1"
    }
    paired = [p for g in rnd.games for p in g.players]
    forced = [b.player for b in rnd.byes if b.kind is ByeKind.FORCED]
    assert len(paired) == len(set(paired)) and not set(paired) & set(forced)
    assert set(paired) | set(forced) == here
    assert len(forced) == len(here) % 2
    had = {b.player for r in earlier for b in r.byes if b.kind is ByeKind.FORCED}
    assert not set(forced) & had
    met = {frozenset(g.players) for r in earlier for g in r.games}
    assert not [g for g in rnd.games if frozenset(g.players) in met], "a rematch"

    # The scores the round was paired from are OpenGotha's, absent rounds included: the
    # import set Sleeping players to OpenGotha's ½ a round absent, rounded down.
    settings = {r["Setting"]: r["Value"] for r in sheet_rows(path, "Tournament")}
    sleeps = f.absent_value == 1 and f.gps.get("genRoundDownNBWMMS") == "true"
    assert settings["Sleeping players"] == (Sleeping.HALF.value if sleeps else None)
    assert ("Sleeping players: Half a point a round" in out) is sleeps
    entrants = [p for p in t.players.values() if p.status is Status.ACTIVE]
    paired_from = pairing_input(replace(t, rounds=earlier), k + 1, entrants).scores
    theirs = f.score(k)
    assert {names[p.aga_id]: paired_from[p.aga_id] for p in entrants} == {
        names[p.aga_id]: theirs[names[p.aga_id]] for p in entrants
    }
    not_carried = next(line for line in out.splitlines() if line.startswith("Not carried"))
    assert "absent rounds" not in not_carried
    # The standings keep the AGA's 0 for a voluntary bye: a sleeper pairs higher, and each
    # game of one says by how much.
    ours = mcmahon_scores(replace(t, rounds=earlier), after_round=k)
    notes = {pid: g.notes for g in rnd.games for pid in g.players}
    slept = {
        p.aga_id: sum(Bye(p.aga_id, ByeKind.VOLUNTARY) in r.byes for r in earlier) for p in entrants
    }
    higher = {pid: paired_from[pid] - ours[pid] for pid in slept}
    assert higher == {pid: n // 2 if sleeps else 0 for pid, n in slept.items()}
    for pid, points in higher.items():
        if points and pid in notes:
            name = t.players[pid].name
            assert f"{name} ({pid}) paired {points:g} point(s) higher" in notes[pid]
    assert any(m[2].startswith("Sleeping players") for m in log_messages(path)) is sleeps

    # Handicaps and komi as the file's settings ask.
    s = t.settings
    for g in rnd.games:
        assert g.handicap <= s.handicap_ceiling
        assert g.komi == (s.komi if g.handicap == 0 else 0.5)
        if g.handicap:
            white, black = t.players[g.white], t.players[g.black]
            if s.handicap_basis is HandicapBasis.MMS:
                assert paired_from[g.white] > paired_from[g.black]
            else:
                assert (white.rating or 0) > (black.rating or 0)

    initial = {r["AGA #"]: r["Initial score"] for r in sheet_rows(path, "Players")}
    assert {names[pid]: score for pid, score in initial.items()} == {
        k_: f.smms(k_) for k_ in f.players
    }


def with_absence_rule(source: Path, target: Path, absent: str, round_down: str) -> Path:
    """``source`` with OpenGotha's value of an absent round and its round-down changed."""
    root = etree.parse(str(source)).getroot()
    gps = root.find("TournamentParameterSet/GeneralParameterSet")
    gps.set("genMMS2ValueAbsent", absent)
    gps.set("genRoundDownNBWMMS", round_down)
    target.write_bytes(etree.tostring(root, xml_declaration=True, encoding="UTF-8"))
    return target


@pytest.mark.parametrize(
    ("absent", "round_down", "option"),
    [
        ("2", "true", None),  # a point a round: no option says it, the AGA's 0 stays
        ("1", "false", Sleeping.HALF.value),  # ½ a round, not rounded: an odd round left over
        ("0", "true", None),  # the AGA's rule: nothing to set, nothing to name
    ],
)
def test_an_absence_rule_the_option_cannot_say_names_each_difference(
    tmp_path: Path, absent: str, round_down: str, option: str | None
) -> None:
    source = DATA / "opengotha" / "Toulouse2024.xml"
    k = last_complete_round(gotha(source))
    cut = after_round(source, k, tmp_path / "cut.xml")
    f = gotha(with_absence_rule(cut, tmp_path / "rule.xml", absent, round_down))
    path, out = imported(tmp_path, tmp_path / "rule.xml")
    settings = {r["Setting"]: r["Value"] for r in sheet_rows(path, "Tournament")}
    assert settings["Sleeping players"] == option
    t = tournament(path)
    names = {v: k_ for k_, v in ids_by_key(t).items()}
    entrants = [p for p in t.players.values() if p.status is Status.ACTIVE]
    paired_from = pairing_input(t, k + 1, entrants).scores
    theirs = f.score(k)
    differences = {p.name: theirs[names[p.aga_id]] - paired_from[p.aga_id] for p in entrants}
    named = {name: x for name, x in differences.items() if x}
    not_carried = next(line for line in out.splitlines() if line.startswith("Not carried"))
    assert bool(named) is (absent != "0") and ("absent rounds" in not_carried) is bool(named)
    for name, x in named.items():
        assert f"{name} {x:g}" in not_carried


@pytest.mark.parametrize(
    ("source", "typed", "option"),
    [
        ("simpleswiss", Sleeping.NOTHING.value, Sleeping.NOTHING),  # NBW: absences score 0
        ("Toulouse2024", None, Sleeping.HALF),  # the BGA preset already gives ½ a round
    ],
)
def test_a_bga_workbook_pairs_absences_by_the_files_rule(
    tmp_path: Path, source: str, typed: str | None, option: Sleeping
) -> None:
    path = tmp_path / "bga.xlsx"
    assert run("new", path).returncode == 0
    set_setting(path, "McMahon rules", "BGA")
    result = run("import-opengotha", path, DATA / "opengotha" / f"{source}.xml")
    assert result.returncode == 0, result.stderr
    settings = {r["Setting"]: r["Value"] for r in sheet_rows(path, "Tournament")}
    assert (settings["McMahon rules"], settings["Sleeping players"]) == ("BGA", typed)
    assert tournament(path).settings.options.sleeping is option


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda text: text.replace('result="RESULT_WHITEWINS"', 'result="RESULT_BOTHWIN"', 1),
            "line 16: result RESULT_BOTHWIN has no AGA equivalent",
        ),
        (
            lambda text: text.replace('whitePlayer="LEVEQUECAMILLE"', 'whitePlayer="NOBODY"', 1),
            "whitePlayer='NOBODY' is no player of the file",
        ),
        (
            lambda text: text.replace("<Tournament ", "<Tourney ", 1).replace(
                "</Tournament>", "</Tourney>"
            ),
            "not an OpenGotha tournament file",
        ),
        (lambda text: text[:2000], "not well-formed XML"),
        (lambda text: text.replace('handicap="5"', 'handicap="12"', 1), "handicap=12 is not"),
        (lambda text: text.replace('roundNumber="1"', 'roundNumber="1000000"', 1), "(1 to 30)"),
        (lambda text: text.replace('name="Robin"', 'name=" "', 1), "a player without a name"),
        (lambda text: text.replace('komi="7.5"', 'komi="nan"', 1), "komi: komi nan is not"),
        (
            lambda text: text.replace('beginDate="2024-01-02"', 'beginDate="2024-02-02"', 1),
            "endDate 2024-01-02 is before beginDate 2024-02-02",
        ),
        (
            lambda text: text.replace(
                "<Tournament ", '<!DOCTYPE t [<!ENTITY a "aaaa">]><Tournament ', 1
            ),
            "declares entities",
        ),
    ],
)
def test_a_file_that_cannot_be_taken_is_one_line_and_changes_nothing(
    tmp_path: Path, change, message: str
) -> None:
    source = DATA / "opengotha" / "notsimplemm.xml"
    bad = tmp_path / "bad.xml"
    bad.write_text(change(source.read_text(encoding="utf-8")), encoding="utf-8")
    path = tmp_path / "t.xlsx"
    assert run("new", path).returncode == 0
    before = digest(path)
    result = run("import-opengotha", path, bad)
    assert result.returncode == 1
    assert message in result.stderr and "bad.xml" in result.stderr
    assert "Traceback" not in result.stderr
    assert digest(path) == before


def test_importing_over_a_tournament_is_an_active_warning(tmp_path: Path) -> None:
    path, _ = imported(tmp_path, DATA / "opengotha" / "simplemm.xml")
    before = digest(path)
    again = run("import-opengotha", path, DATA / "opengotha" / "notsimplemm.xml")
    assert again.returncode == 3 and "16 players and 5 rounds" in again.stderr
    assert digest(path) == before
    assert (
        run("import-opengotha", path, DATA / "opengotha" / "notsimplemm.xml", "--yes").returncode
        == 0
    )
    assert len(tournament(path).players) == 9


def through_opengotha(path: Path, tmp_path: Path) -> tuple[Tournament, Tournament, str]:
    """The workbook's tournament, and the one ``export-opengotha`` then ``import-opengotha``
    into a new workbook give; and what the export said."""
    out = tmp_path / "event.xml"
    exported = run("export-opengotha", path, out, "--yes")
    assert exported.returncode == 0, exported.stderr
    back = tmp_path / "back.xlsx"
    assert run("new", back).returncode == 0
    assert run("import-opengotha", back, out).returncode == 0
    return tournament(path), tournament(back), exported.stdout


@pytest.mark.parametrize("source", FILES, ids=lambda p: p.stem)
def test_export_then_import_gives_the_same_tournament(tmp_path: Path, source: Path) -> None:
    first, _ = imported(tmp_path, source)
    a, b, _ = through_opengotha(first, tmp_path)
    assert b.players == a.players
    assert b.rounds == a.rounds
    assert b.bands == a.bands
    assert b.settings == a.settings


def test_export_of_our_own_event_names_what_opengotha_cannot_hold(tmp_path: Path) -> None:
    t = make_tournament(seed=3, rounds=4)
    played = write_workbook(tmp_path / "played.xlsx", t, rounds=5)
    set_setting(played, "Tiebreak order", "SOS, SODOS, Random")
    asked = run("export-opengotha", played, tmp_path / "event.xml")
    assert asked.returncode == 3 and not (tmp_path / "event.xml").exists()
    assert "tiebreak Random (OpenGotha has no such placement criterion)" in asked.stderr
    a, b, said = through_opengotha(played, tmp_path)
    assert a.players.keys() == b.players.keys()
    assert [r.games for r in a.rounds] == [r.games for r in b.rounds]
    shifts = {b.players[p].initial_score - (a.players[p].initial_score or 0) for p in a.players}
    assert len(shifts) == 1, "every initial score moves by one constant: the same differences"
    shift = shifts.pop()
    assert shift == 0 or f"OpenGotha shows every McMahon score {shift:+g}" in said


@pytest.mark.parametrize(
    ("option", "swiss", "absent", "lost"),
    [
        (None, False, ("0", "0"), False),  # AGA: an absence scores nothing
        (Sleeping.HALF.value, False, ("1", "0"), False),  # ½ a round, rounded down: OpenGotha's
        (Sleeping.HALF.value, True, ("0", "1"), False),  # a Swiss event pairs on NBW
        (Sleeping.HALF_NOT_TOP.value, False, ("1", "0"), True),  # OpenGotha has no top rule
    ],
)
def test_export_writes_sleeping_players_as_opengothas_absence_value(
    tmp_path: Path, option: str | None, swiss: bool, absent: tuple[str, str], lost: bool
) -> None:
    played = write_workbook(tmp_path / "played.xlsx", make_tournament(seed=3, rounds=4), rounds=5)
    if option:
        set_setting(played, "Sleeping players", option)
    if swiss:
        set_setting(played, "Pairing format", "Swiss")
    out = tmp_path / "event.xml"
    asked = run("export-opengotha", played, out)
    assert asked.returncode == (3 if lost else 0), asked.stderr
    assert ("no sleeping in the top group (OpenGotha has no such rule)" in asked.stderr) is lost
    if lost:
        assert run("export-opengotha", played, out, "--yes").returncode == 0
    gps = etree.parse(str(out)).getroot().find("TournamentParameterSet/GeneralParameterSet")
    assert (gps.get("genMMS2ValueAbsent"), gps.get("genNBW2ValueAbsent")) == absent
    assert (gps.get("genRoundDownNBWMMS"), gps.get("genMMS2ValueBye")) == ("true", "2")


def test_export_of_an_egf_event_names_the_european_options_opengotha_cannot_hold(
    tmp_path: Path,
) -> None:
    """An EGF event carried on in OpenGotha: split and fold is written as OpenGotha's own
    seed system; the ghost player, SOS seeding, EGF floats and komi beyond 9 stones have no
    setting there, so each is named before anything is written (an AGA event names none:
    the sleeping test above exports one with exit 0)."""
    t = make_tournament(seed=3, rounds=4)
    played = write_workbook(tmp_path / "played.xlsx", t, rounds=5)
    ghost = min(t.players)
    set_setting(played, "McMahon rules", "EGF")
    set_setting(played, "Ghost player (AGA #)", ghost)
    out = tmp_path / "event.xml"
    asked = run("export-opengotha", played, out)
    assert asked.returncode == 3 and not out.exists()
    for lost in (
        f"the ghost player {t.players[ghost].name} ({ghost}): OpenGotha has no ghost",
        "seeding within a group by SOS",
        "who plays up or down: EGF (by SOS)",
        "handicap beyond 9 stones: 15 points a stone",
    ):
        assert f"OpenGotha cannot hold: {lost}" in asked.stderr, lost
    assert run("export-opengotha", played, out, "--yes").returncode == 0
    pps = etree.parse(str(out)).getroot().find("TournamentParameterSet/PairingParameterSet")
    assert pps.get("paiMaSeedSystem1") == pps.get("paiMaSeedSystem2") == "SPLITANDFOLD"
