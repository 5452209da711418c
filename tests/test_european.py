"""European McMahon options, checked against the BGA McMahon functional specification.

Section numbers and quotations are from the BGA's "McMahon tournament pairing rules: functional
specification" (britgo.org, last updated 28 April 2017), no file of which a test reads. Each option
is a Tournament setting; blank follows the "McMahon rules" preset (AGA, BGA, EGF), and the AGA
preset is the program as it was: an AGA event never sees them.
"""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

import openpyxl

from addin.actions.pairing import pairing_input
from addin.core import sleeping
from addin.core.aga_limits import european_limits
from addin.core.bands import (
    BAR_POPULATION,
    Banding,
    BarStyle,
    bar_style,
    build_bands,
    rebuild_bands,
    suggest_bar,
)
from addin.core.european import (
    PRESETS,
    AvoidanceScope,
    BarTable,
    BeyondNine,
    FloatChoice,
    GradeScale,
    GroupPairing,
    GroupSeeding,
    McMahonRules,
    Options,
    Sleeping,
    Supergroup,
)
from addin.core.handicap import game_conditions
from addin.core.limits import komi_problem
from addin.core.model import (
    Bye,
    ByeKind,
    Game,
    HandicapBasis,
    HandicapPolicy,
    Player,
    Result,
    Round,
    Settings,
    Tournament,
)
from addin.core.pairing.engine import PairingInput, pair_round
from addin.core.pairing.field import prepare
from addin.core.pairing.seeding import float_priorities, sos_so_far
from addin.core.ratings import parse_rating, rank_floor, rank_of
from addin.core.scoring import mcmahon_scores
from addin.workbook import book
from addin.workbook.layout import SETTINGS
from addin.workbook.openpyxl_gateway import OpenpyxlGateway
from tests.helpers import log_messages, run, sheet_rows
from tests.typing_helpers import set_setting
from tests.workbook_fixtures import ready_for_aga, write_workbook


def field(*groups: tuple[str, int], first_id: int = 1) -> list[Player]:
    """Players in groups of (rank, how many), numbered from ``first_id``."""
    players: list[Player] = []
    for rank, count in groups:
        for _ in range(count):
            number = first_id + len(players)
            players.append(Player(number, f"Player{number}", rating=parse_rating(rank)))
    return players


# --- settings scaffolding and the rules preset ----------------------------------------------


def test_a_new_event_is_an_aga_event_and_every_european_option_is_off() -> None:
    settings = book.settings_from_values(book.default_values())
    assert settings.mcmahon_rules is McMahonRules.AGA
    assert settings.typed_options == Options()  # every option blank: the preset decides
    assert settings.options == PRESETS[McMahonRules.AGA]
    assert settings.options.grade_scale is GradeScale.AGA_BANDS
    assert settings.options.supergroup is Supergroup.NONE


def test_each_preset_decides_every_option_and_a_typed_value_wins() -> None:
    for rules in McMahonRules:
        resolved = Settings(mcmahon_rules=rules).options
        assert all(getattr(resolved, f.name) is not None for f in fields(Options)), rules
    egf = Settings(mcmahon_rules=McMahonRules.EGF)
    assert egf.options.grade_scale is GradeScale.ZERO_20_KYU  # spec 4: "commonly used in Europe"
    assert egf.options.bar_table is BarTable.EGF
    assert egf.options.supergroup is Supergroup.EGF
    assert Settings(mcmahon_rules=McMahonRules.BGA).options.grade_scale is GradeScale.ZERO_SHODAN
    typed = replace(egf, typed_options=Options(grade_scale=GradeScale.ZERO_SHODAN))
    assert typed.options.grade_scale is GradeScale.ZERO_SHODAN
    assert typed.options.bar_table is BarTable.EGF  # the rest still follows the preset


def test_the_european_settings_are_one_block_at_the_end_with_a_help_line_and_a_dropdown() -> None:
    keys = [s.key for s in SETTINGS]
    block = keys[keys.index("mcmahon_rules") :]
    assert block[:4] == ["mcmahon_rules", "grade_scale", "bar_table", "supergroup"]
    for setting in SETTINGS[keys.index("mcmahon_rules") :]:
        assert setting.choices or setting.key == "ghost_player", setting.key  # an AGA #
        assert book.setting_help(setting), setting.key


def test_the_preset_and_an_option_typed_in_the_workbook_are_read_and_kept(tmp_path: Path) -> None:
    t = Tournament(settings=Settings(rounds=5))
    for p in field(("5d", 4), ("2k", 4)):
        t.players[p.aga_id] = p
    path = write_workbook(tmp_path / "event.xlsx", t, rounds=5)
    set_setting(path, "McMahon rules", "EGF")
    set_setting(path, "McMahon scale", "Zero shodan")
    checked = run("check", path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    settings = book.read_settings(OpenpyxlGateway.open(path)).settings
    assert settings.mcmahon_rules is McMahonRules.EGF
    assert settings.options.grade_scale is GradeScale.ZERO_SHODAN
    assert settings.options.supergroup is Supergroup.EGF
    assert book.settings_values(settings)["bar_table"] is None  # blank stays blank


def test_a_misspelt_option_is_a_problem_naming_its_cell(tmp_path: Path) -> None:
    t = Tournament(settings=Settings(rounds=5))
    path = write_workbook(tmp_path / "event.xlsx", t, rounds=5)
    cell = set_setting(path, "McMahon rules", "UK")
    checked = run("check", path)
    assert checked.returncode == 1
    assert f"Tournament!{cell} (McMahon rules)" in checked.stdout


# --- 4, 4.1: one McMahon point per grade ------------------------------------------------------

SCALE_FIELD = (("5d", 2), ("4d", 3), ("2d", 2), ("1d", 4), ("1k", 3), ("3k", 2), ("25k", 1))


def _scores(scale: GradeScale, bar: str | None = "4d") -> dict[str, set[float]]:
    players = field(*SCALE_FIELD)
    settings = Settings(
        rounds=5,
        bar=None if bar is None else rank_floor(bar),
        typed_options=Options(grade_scale=scale),
    )
    banding = build_bands(players, settings)
    by_rank: dict[str, set[float]] = {}
    for p in players:
        by_rank.setdefault(rank_of(p.rating or 0), set()).add(banding.initial_scores[p.aga_id])
    return by_rank


def test_zero_shodan_sets_shodan_at_zero_and_kyu_players_below_one_point_a_grade() -> None:
    """4: "the 'Zero Shodan' scale ... sets shodan at zero McMahon points, and kyu players then
    have negative points"; 4.1: the top groups are lowered to the bar (4d)."""
    scores = _scores(GradeScale.ZERO_SHODAN)
    assert scores == {
        "5d": {3}, "4d": {3}, "2d": {1}, "1d": {0}, "1k": {-1}, "3k": {-3}, "25k": {-25}
    }  # fmt: skip


def test_zero_20_kyu_sets_20_kyu_and_below_at_zero_and_shodan_at_20() -> None:
    """4: "the 'Zero 20 kyu' scale ... sets the scale of all players at 20 kyu or below to
    zero ... in the latter scale, shodan has the value 20"."""
    scores = _scores(GradeScale.ZERO_20_KYU)
    assert scores == {
        "5d": {23}, "4d": {23}, "2d": {21}, "1d": {20}, "1k": {19}, "3k": {17}, "25k": {0}
    }  # fmt: skip


def test_the_two_scales_differ_by_20_above_the_bottom_bars() -> None:
    """Note 4: "a McMahon score in the Zero Shodan scale is converted to the Zero 20 Kyu scale
    simply by adding 20"; and every grade is its own group, however small (4.1)."""
    uk, europe = _scores(GradeScale.ZERO_SHODAN, None), _scores(GradeScale.ZERO_20_KYU, None)
    for rank in uk:
        if rank != "25k":
            assert {s + 20 for s in uk[rank]} == europe[rank], rank
    assert len({s for v in uk.values() for s in v}) == len(SCALE_FIELD)


def test_the_bottom_bar_promotes_weaker_players_30k_uk_and_20k_europe() -> None:
    """6.2: "The bottom bar is 30 kyu in the UK and 20 kyu in most European countries." """
    players = field(("1d", 4), ("35k", 1), ("30k", 1), ("22k", 1), ("20k", 1))
    for scale, expected in (
        (GradeScale.ZERO_SHODAN, {"35k": -30, "30k": -30, "22k": -22, "20k": -20}),
        (GradeScale.ZERO_20_KYU, {"35k": 0, "30k": 0, "22k": 0, "20k": 0}),
    ):
        banding = build_bands(players, Settings(typed_options=Options(grade_scale=scale)))
        got = {rank_of(p.rating or 0): banding.initial_scores[p.aga_id] for p in players[4:]}
        assert got == expected, scale
        assert banding.below_floor == ()


def test_a_grade_scale_keeps_the_tds_separation_override() -> None:
    players = field(*SCALE_FIELD)
    settings = Settings(
        rounds=5, bar=rank_floor("4d"), typed_options=Options(grade_scale=GradeScale.ZERO_SHODAN)
    )
    rows = list(build_bands(players, settings).bands)
    rows[2] = replace(rows[2], separation_override=0)  # the TD merges 1d's score into 2d's
    banding = rebuild_bands(rows, players, settings)
    assert [b.initial_score for b in banding.bands][:4] == [3, 1, 1, 0]


def test_the_aga_preset_keeps_the_aga_band_formula() -> None:
    players = field(*SCALE_FIELD)
    aga = Settings(rounds=5, bar=rank_floor("4d"))
    assert build_bands(players, aga) == build_bands(
        players, replace(aga, typed_options=Options(grade_scale=GradeScale.AGA_BANDS))
    )
    assert len(build_bands(players, aga).bands) < len(SCALE_FIELD)  # small bands merged


# --- 4.2: the bar population table is a setting --------------------------------------------

BAR_FIELD = (("6d", 2), ("5d", 3), ("4d", 2), ("3d", 6), ("1k", 10))
"""At or above 4d: 7 players; at or above 3d: 13 (five rounds)."""


def test_the_bar_tables_are_the_specifications() -> None:
    assert BAR_POPULATION[BarStyle.BGA][5] == (6, 12)  # 4.2.1
    assert BAR_POPULATION[BarStyle.EGF][5] == (10, 16)  # 4.2.2
    assert BAR_POPULATION[BarStyle.TOYOTA] == {5: (10, 12), 6: (12, 16)}  # note 2


def test_each_table_proposes_its_own_bar_for_the_same_field() -> None:
    """4.2.1: the BGA bar is lowered from the top while the population stays within the
    table; 4.2.2: the EGF bar is 4d, lowered while too few are above it; note 2: Toyota Tour
    asks for 10-12 in five rounds, so 13 at 3d is too many and 4d stays."""
    ratings = [p.rating or 0 for p in field(*BAR_FIELD)]
    proposed = {}
    for table in BarTable:
        style = bar_style(Settings(rounds=5, typed_options=Options(bar_table=table)))
        proposed[table] = suggest_bar(ratings, 5, style=style).rank
    assert proposed == {BarTable.BGA: "4d", BarTable.EGF: "3d", BarTable.TOYOTA: "4d"}


def test_bands_proposes_from_the_table_the_td_chose(tmp_path: Path) -> None:
    t = Tournament(settings=Settings(rounds=5))
    for p in field(*BAR_FIELD):
        t.players[p.aga_id] = p
    path = write_workbook(tmp_path / "event.xlsx", t, rounds=5)
    aga = run("bands", path)
    assert aga.returncode == 3 and "proposes a bar of 4d" in aga.stderr
    # The AGA preset proposes the AGA way: the realistic winners, within the BGA table's maximum.
    assert "at most 12 by the BGA table for 5 rounds" in aga.stderr
    set_setting(path, "McMahon rules", "EGF")
    egf = run("bands", path)
    assert egf.returncode == 3 and "proposes a bar of 3d" in egf.stderr
    assert "EGF table asks for 10-16" in egf.stderr


# --- 4.2.3: the EGF supergroup, and note 2: Toyota Tour --------------------------------------


def _supergroup(kind: Supergroup, rounds: int, at_bar: int) -> tuple[Banding, list[Player]]:
    """``at_bar`` players from 7d down at or above a 4d bar, and twelve kyu players."""
    ranks = ["7d", "6d", "5d", "4d"]
    strong = [(ranks[i % 4], 1) for i in range(at_bar)]
    players = field(*strong, ("2k", 6), ("5k", 6))
    settings = Settings(rounds=rounds, bar=rank_floor("4d"), typed_options=Options(supergroup=kind))
    return build_bands(players, settings), players


def test_the_egf_supergroup_forms_above_6_n_minus_2_and_promotes_exactly_4_n_minus_2() -> None:
    """4.2.3: "Exactly 4(N - 2) players are promoted to the Supergroup by having their initial
    McMahon score increased to the Super bar", "one McMahon point above the McMahon bar",
    when the number at 4d and stronger "exceeds 6(N - 2)"."""
    for rounds in (5, 6):
        limit, size = 6 * (rounds - 2), 4 * (rounds - 2)
        at_limit, _ = _supergroup(Supergroup.EGF, rounds, limit)
        assert at_limit.supergroup == ()
        banding, players = _supergroup(Supergroup.EGF, rounds, limit + 1)
        assert len(banding.supergroup) == size
        bar_score = banding.bands[0].initial_score or 0.0
        for p in players[: limit + 1]:
            expected = bar_score + 1 if p.aga_id in banding.supergroup else bar_score
            assert banding.initial_scores[p.aga_id] == expected
        promoted = [p.rating for p in players if p.aga_id in banding.supergroup]
        kept = [p.rating for p in players[: limit + 1] if p.aga_id not in banding.supergroup]
        assert min(r or 0 for r in promoted) >= max(r or 0 for r in kept)  # the strongest go up


def test_the_toyota_tour_supergroup_has_12_players_in_5_rounds_and_16_in_6() -> None:
    """Note 2: "bar populations of 10-12 players for a 5 round tournament, and 12-16 players
    for a 6 round tournament. If the population exceeds this, then the supergroup has 12
    players for a 5 rounder, or 16 players for a 6 rounder." """
    for rounds, most in ((5, 12), (6, 16)):
        assert _supergroup(Supergroup.TOYOTA, rounds, most)[0].supergroup == ()
        assert len(_supergroup(Supergroup.TOYOTA, rounds, most + 1)[0].supergroup) == most


def test_no_supergroup_under_the_aga_preset() -> None:
    banding, _ = _supergroup(Supergroup.NONE, 5, 40)
    assert banding.supergroup == ()
    assert Settings().options.supergroup is Supergroup.NONE


def test_bands_says_who_is_promoted_and_logs_it(tmp_path: Path) -> None:
    _, players = _supergroup(Supergroup.EGF, 5, 19)
    t = Tournament(settings=Settings(rounds=5, bar=rank_floor("4d")))
    for p in players:
        t.players[p.aga_id] = p
    path = write_workbook(tmp_path / "event.xlsx", t, rounds=5)
    set_setting(path, "McMahon rules", "EGF")
    done = run("bands", path, "--yes")
    assert done.returncode == 0, done.stderr
    assert "Supergroup (EGF, 4(N-2))" in done.stdout and "strongest 12 start at 24" in done.stdout
    scores = [r["Initial score"] for r in sheet_rows(path, "Players")]
    assert scores.count(24) == 12 and scores.count(23) == 7  # Zero 20 kyu: 4d is 23
    assert any("Supergroup" in message for _, _, message in log_messages(path))


# --- 7.1: there are no byes; a ghost player makes the numbers even ------------------------------

GHOST = 99


def _ghost_event(tmp_path: Path, players: int, rules: str = "EGF") -> Path:
    t = Tournament(settings=Settings(rounds=3, bar=rank_floor("3d")))
    for p in field(("4d", 2), ("1k", 4), ("5k", 4), ("10k", 4))[:players]:
        t.players[p.aga_id] = p
    t.players[GHOST] = Player(GHOST, "Ghost", "Gail", rating=parse_rating("2k"))
    path = write_workbook(tmp_path / "event.xlsx", ready_for_aga(t), rounds=3)
    set_setting(path, "McMahon rules", rules)
    set_setting(path, "Ghost player (AGA #)", GHOST)
    assert run("bands", path, "--yes").returncode == 0
    return path


def _round(path: Path, number: int) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    rows = sheet_rows(path, f"Round {number}")
    games = [r for r in rows if r.get("Board")]
    return games, [r for r in rows if not r.get("Board") and r.get("AGA #")]


def test_an_odd_field_has_no_bye_the_ghost_plays_the_player_who_would_have_had_it(
    tmp_path: Path,
) -> None:
    """7.1: "The organisers must ensure that there is a 'ghost' player able to play to make
    up even numbers as required." Eleven players: five games, and the ghost's sixth."""
    path = _ghost_event(tmp_path, 11)
    paired = run("pair", path, "--yes")
    assert paired.returncode == 0, paired.stderr
    assert "0 byes" in paired.stdout and "Ghost game" in paired.stdout
    games, _ = _round(path, 1)
    assert len(games) == 6
    ghost_games = [g for g in games if GHOST in (g["White AGA #"], g["Black AGA #"])]
    assert len(ghost_games) == 1 and "Ghost game" in str(ghost_games[0]["Notes"])
    seated = [g[c] for g in games for c in ("White AGA #", "Black AGA #")]
    assert len(seated) == len(set(seated)) == 12


def test_an_even_field_leaves_the_ghost_out_and_the_aga_preset_gives_a_bye(
    tmp_path: Path,
) -> None:
    even = _ghost_event(tmp_path, 12)
    assert run("pair", even, "--yes").returncode == 0
    games, _ = _round(even, 1)
    assert len(games) == 6
    assert all(GHOST not in (g["White AGA #"], g["Black AGA #"]) for g in games)
    (tmp_path / "aga").mkdir()
    aga = _ghost_event(tmp_path / "aga", 10, rules="AGA")  # the "ghost" is an 11th player
    aga_paired = run("pair", aga, "--yes")
    assert aga_paired.returncode == 0 and "1 byes" in aga_paired.stdout
    assert "Ghost" not in aga_paired.stdout


def test_a_ghost_game_is_named_by_the_aga_export(tmp_path: Path) -> None:
    path = _ghost_event(tmp_path, 11)
    assert run("pair", path, "--yes").returncode == 0
    exported = run("export-aga", path, "--text", tmp_path / "aga.txt")
    assert exported.returncode == 3  # warnings to confirm (a ghost game, missing AGA data)
    assert "is a ghost game (BGA 7.1)" in exported.stderr


def test_with_no_ghost_named_the_odd_player_has_a_bye_and_is_told(tmp_path: Path) -> None:
    path = _ghost_event(tmp_path, 10)  # with no ghost named, player 99 plays as any other
    set_setting(path, "Ghost player (AGA #)", None)
    paired = run("pair", path, "--yes")
    assert paired.returncode == 0 and "1 byes" in paired.stdout
    assert "No ghost game: no ghost player is named" in paired.stdout


def test_with_a_supergroup_the_egf_bar_remains_at_4_dan() -> None:
    """4.2.3: "The McMahon bar remains at 4 dan" when a supergroup forms; without one the
    EGF table raises the bar until the population fits (4.2.2)."""
    ratings = [p.rating or 0 for p in field(("6d", 8), ("5d", 8), ("4d", 8), ("1k", 20))]
    assert suggest_bar(ratings, 5, BarStyle.EGF).rank == "5d"  # 16 at 5d fits 10-16
    kept = suggest_bar(ratings, 5, BarStyle.EGF, supergroup_above=18)
    assert kept.rank == "4d" and kept.population == 24


def test_the_egf_demo_has_a_supergroup_a_ghost_instead_of_byes_and_says_so(
    tmp_path: Path,
) -> None:
    out = tmp_path / "egf.xlsx"
    done = run("demo", out, "--players", 120, "--rounds", 5, "--rules", "egf")
    assert done.returncode == 0, done.stderr
    assert "Rules: EGF preset" in done.stdout
    assert "Supergroup (EGF, 4(N-2))" in done.stdout and "strongest 12" in done.stdout
    assert "No byes: the ghost player played in rounds" in done.stdout
    assert "Floats seeded by SOS (BGA 6.1.2)" in done.stdout
    notes = [str(r.get("Notes")) for n in range(2, 6) for r in sheet_rows(out, f"Round {n}")]
    assert any("EGF: seeded by SOS" in note for note in notes)
    for number in range(1, 6):
        byes = [r for r in sheet_rows(out, f"Round {number}") if r.get("Bye type") == "Forced"]
        assert byes == [], number


# --- 7.3: seeding and pairing within a McMahon group -----------------------------------------


def _group(count: int) -> list[Player]:
    """``count`` 5d players, strongest first (5.9, 5.8, ...): one score group, even games."""
    return [Player(i, f"Seed{i}", rating=round(5.95 - i / 10, 2)) for i in range(1, count + 1)]


def _pairs(settings: Settings, players: list[Player], **kw: object) -> set[frozenset[int]]:
    scores = kw.pop("scores", {p.aga_id: 0.0 for p in players})
    inp = PairingInput(2, 5, tuple(players), scores, settings=settings, **kw)  # type: ignore[arg-type]
    return {frozenset(g.players) for g in pair_round(inp).games}


def test_split_and_fold_pairs_the_top_of_the_group_with_its_bottom() -> None:
    """7.3: "Split & Fold": of eight seeded 1-8, 1 meets 8, 2 meets 7, 3 meets 6, 4 meets 5;
    the AGA's split and shift ("Split & Match") pairs 1-5, 2-6, 3-7, 4-8."""
    players = _group(8)
    shift = _pairs(Settings(), players)
    fold = _pairs(Settings(typed_options=Options(group_pairing=GroupPairing.FOLD)), players)
    assert shift == {frozenset(p) for p in ((1, 5), (2, 6), (3, 7), (4, 8))}
    assert fold == {frozenset(p) for p in ((1, 8), (2, 7), (3, 6), (4, 5))}


def test_seeding_by_sos_orders_the_group_by_the_opponents_scores() -> None:
    """7.3: seeding "is usually done using one or other of the tie-breaks" (5.3, SOS).
    Four winners of round 1 (rated 1 > 2 > 3 > 4) beat opponents now on -1, -1, 0, 0: by SOS
    the order is 3, 4, 1, 2; by rating 1, 2, 3, 4."""
    winners = _group(4)
    losers = [Player(10 + i, f"Lost{i}", rating=-10.5) for i in range(1, 5)]
    rnd1 = Round(
        1,
        tuple(
            Game(w.aga_id, opponent, result=Result.WHITE_WINS)
            for w, opponent in zip(winners, (14, 13, 12, 11), strict=True)
        ),
    )
    scores = {1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0, 11: 0.0, 12: 0.0, 13: -1.0, 14: -1.0}
    sos = sos_so_far([rnd1], scores)
    assert [sos[p] for p in (1, 2, 3, 4)] == [-1, -1, 0, 0]
    settings = Settings(typed_options=Options(group_seeding=GroupSeeding.SOS))
    inp = PairingInput(2, 5, tuple(winners + losers), scores, (rnd1,), settings=settings)
    top = prepare(inp).groups[0]
    assert [prepare(inp).pool[i].id for i in top] == [3, 4, 1, 2]
    aga = PairingInput(2, 5, tuple(winners + losers), scores, (rnd1,))
    assert [prepare(aga).pool[i].id for i in prepare(aga).groups[0]] == [1, 2, 3, 4]


def test_random_seeding_is_fixed_by_the_seed_and_changes_with_it() -> None:
    """7.3: "Random"; the Random seed setting makes the draw repeatable."""
    players = _group(10)

    def order(seed: int) -> list[int]:
        settings = Settings(seed=seed, typed_options=Options(group_seeding=GroupSeeding.RANDOM))
        inp = PairingInput(
            1, 5, tuple(players), {p.aga_id: 0.0 for p in players}, settings=settings
        )
        return [e.id for e in prepare(inp).pool]

    assert order(1) == order(1)
    assert order(1) != order(2)
    assert sorted(order(1)) == list(range(1, 11)) != order(1)


# --- 6.1.2: EGF floats, neighbouring groups seeded by SOS --------------------------------------


def test_egf_floats_the_upper_groups_highest_sos_against_the_lower_groups_lowest() -> None:
    """6.1.2: "players in neighbouring McMahon groups are seeded by SOS. Then the strongest in
    the group playing down is paired against the weakest in the group playing up."
    Upper group (1 point) U1-U3 with SOS 0, 1, 2; lower group (0) L1-L3 with SOS 3, 2, 1,
    each rated in field order. EGF: U3 (SOS 2) plays down against L3 (SOS 1); the AGA floats
    the strongest-rated of the lower group, L1."""
    upper = [Player(i, f"U{i}", rating=5.9 - i / 10) for i in (1, 2, 3)]
    lower = [Player(10 + i, f"L{i}", rating=5.5 - i / 10) for i in (1, 2, 3)]
    gone = {21: 0.0, 22: 1.0, 23: 2.0, 31: 3.0, 32: 2.0, 33: 1.0}  # round 1's opponents, dropped
    rnd1 = Round(
        1,
        (
            *(Game(i, 20 + i, result=Result.WHITE_WINS) for i in (1, 2, 3)),
            *(Game(30 + i, 10 + i, result=Result.WHITE_WINS) for i in (1, 2, 3)),
        ),
    )
    scores = {1: 1.0, 2: 1.0, 3: 1.0, 11: 0.0, 12: 0.0, 13: 0.0, **gone}

    def cross(choice: FloatChoice) -> frozenset[int]:
        settings = Settings(typed_options=Options(float_choice=choice))
        inp = PairingInput(2, 2, tuple(upper + lower), scores, (rnd1,), settings=settings)
        result = pair_round(inp)
        (game,) = [g for g in result.games if scores[g.white] != scores[g.black]]
        assert "Float:" in game.notes
        if choice is FloatChoice.EGF_SOS:
            assert "EGF: seeded by SOS, 2 and 1" in game.notes
        return frozenset(game.players)

    assert cross(FloatChoice.EGF_SOS) == {3, 13}
    assert 11 in cross(FloatChoice.AGA)


# --- 6.2: komi in place of the stones beyond 9 -------------------------------------------------


def test_stones_beyond_9_become_komi_for_black_twice_komi_15_or_20_points() -> None:
    """6.2: "handicaps may have to be awarded in excess of 9 stones. An alternative is to award
    komi points instead of the remaining stones. The BGA suggests twice the value of even
    game komi; the author ... suggests 20 points per stone ...; and the EGF suggests 15."
    5d against 7k is 11 stones by rating; minus 1 is 10: one stone beyond 9."""
    strong, weak = parse_rating("5d"), parse_rating("7k")
    expected = {
        BeyondNine.CAPPED: 0.5,  # the AGA: 9 stones, White's half point
        BeyondNine.TWICE_KOMI: 0.5 - 2 * 6.5,
        BeyondNine.FIFTEEN: 0.5 - 15,
        BeyondNine.TWENTY: 0.5 - 20,
    }
    for option, komi in expected.items():
        s = Settings(komi=6.5, typed_options=Options(beyond_nine=option))
        assert game_conditions(strong, weak, s) == (9, komi), option
    two_beyond = Settings(
        handicap_policy=HandicapPolicy.FULL, typed_options=Options(beyond_nine=BeyondNine.FIFTEEN)
    )
    assert game_conditions(strong, weak, two_beyond) == (9, 0.5 - 30)
    even_within_nine = Settings(typed_options=Options(beyond_nine=BeyondNine.FIFTEEN))
    assert game_conditions(strong, parse_rating("3k"), even_within_nine).komi == 0.5


def test_stones_beyond_9_from_the_mcmahon_score_difference_european_style() -> None:
    """6.2, European: handicap = MMS difference - 2; a difference of 13 is 11 stones, 2 beyond."""
    s = Settings(
        handicap_basis=HandicapBasis.MMS,
        handicap_policy=HandicapPolicy.MINUS_2,
        typed_options=Options(beyond_nine=BeyondNine.FIFTEEN),
    )
    assert game_conditions(parse_rating("1d"), parse_rating("12k"), s, scores=(20, 7)) == (
        9,
        0.5 - 30,
    )


def test_the_pairing_note_says_why_black_gets_the_komi() -> None:
    players = [Player(1, "Strong", rating=parse_rating("5d")), Player(2, "Weak", rating=-7.5)]
    s = Settings(typed_options=Options(beyond_nine=BeyondNine.FIFTEEN))
    (game,) = pair_round(PairingInput(1, 3, tuple(players), {1: 0.0, 2: 0.0}, settings=s)).games
    assert (game.handicap, game.komi) == (9, -14.5)
    assert "Komi -14.5: Black gets 15 points for the stones beyond 9" in game.notes
    aga = pair_round(PairingInput(1, 3, tuple(players), {1: 0.0, 2: 0.0})).games[0]
    assert (aga.handicap, aga.komi) == (9, 0.5) and "Komi" not in aga.notes
    t = Tournament(settings=s, players={p.aga_id: p for p in players}, rounds=[Round(1, (game,))])
    (line,) = european_limits(t)
    assert "9 stones and komi -14.5 for the stones beyond 9 (BGA 6.2)" in line


def test_the_komi_for_stones_beyond_9_stops_where_a_round_sheet_stops() -> None:
    s = Settings(
        handicap_policy=HandicapPolicy.FULL, typed_options=Options(beyond_nine=BeyondNine.TWENTY)
    )
    conditions = game_conditions(parse_rating("7d"), parse_rating("25k"), s)
    assert conditions == (9, -50) and komi_problem(conditions.komi) is None


# --- 6.1.1: BGA floats, priority from the previous float and its result -------------------------


def test_bga_floats_follow_the_previous_float_and_its_result() -> None:
    """6.1.1: played down and won -> priority up high, down low; played up and lost -> up
    low, down high. Upper group: U1 played down and won, U2 played up and lost, U3 did not
    float; lower group: L1 played up and lost, L2 played down and won, L3 did not float.
    U2 plays down and L2 plays up; the AGA floats the strongest-rated of the lower group, L1."""
    upper = [Player(i, f"U{i}", rating=5.9 - i / 10) for i in (1, 2, 3)]
    lower = [Player(10 + i, f"L{i}", rating=5.5 - i / 10) for i in (1, 2, 3)]
    W = Result.WHITE_WINS
    rnd1 = Round(  # the round before the last of three, when criterion 3 no longer applies
        2,
        (
            Game(1, 21, result=W),  # U1 (0) beats X1 (-1): down and won
            Game(22, 2, result=W),  # X2 (2) beats U2 (1): up and lost
            Game(23, 3, result=Result.BLACK_WINS),  # U3 (0) beats X3 (0): no float
            Game(24, 11, result=W),  # X4 (1) beats L1 (0): up and lost
            Game(12, 25, result=W),  # L2 (-1) beats X5 (-2): down and won
            Game(13, 26, result=Result.BLACK_WINS),  # X6 (0) beats L3 (0): no float
        ),
    )
    dropped = {21: -1.0, 22: 3.0, 23: 0.0, 24: 2.0, 25: -2.0, 26: 1.0}
    scores = {1: 1.0, 2: 1.0, 3: 1.0, 11: 0.0, 12: 0.0, 13: 0.0, **dropped}
    priorities = float_priorities([rnd1], scores)
    assert priorities[1] == (0, 2) and priorities[2] == (2, 0)  # (up, down): 0 high, 2 low
    assert priorities[12] == (0, 2) and priorities[11] == (2, 0)
    assert 3 not in priorities and 13 not in priorities

    def cross(choice: FloatChoice) -> tuple[frozenset[int], str]:
        settings = Settings(typed_options=Options(float_choice=choice))
        inp = PairingInput(3, 3, tuple(upper + lower), scores, (rnd1,), settings=settings)
        (game,) = [g for g in pair_round(inp).games if scores[g.white] != scores[g.black]]
        return frozenset(game.players), game.notes

    players, notes = cross(FloatChoice.BGA)
    assert players == {2, 12}
    assert "BGA 6.1.1, by previous float: priority down high, up high" in notes
    assert 11 in cross(FloatChoice.AGA)[0]


def test_bga_floats_without_history_are_drawn_at_random_repeatably() -> None:
    """6.1.1: "If no one in the group has played up or down then we choose a player at
    random": round 1, a group of three above a group of three."""
    upper = [Player(i, f"U{i}", rating=5.9 - i / 10) for i in (1, 2, 3)]
    lower = [Player(10 + i, f"L{i}", rating=5.5 - i / 10) for i in (1, 2, 3)]
    scores = {1: 1.0, 2: 1.0, 3: 1.0, 11: 0.0, 12: 0.0, 13: 0.0}

    def cross(seed: int) -> frozenset[int]:
        settings = Settings(seed=seed, typed_options=Options(float_choice=FloatChoice.BGA))
        inp = PairingInput(1, 3, tuple(upper + lower), scores, settings=settings)
        (game,) = [g for g in pair_round(inp).games if scores[g.white] != scores[g.black]]
        return frozenset(game.players)

    drawn = {cross(seed) for seed in range(12)}
    assert cross(5) == cross(5)
    assert len(drawn) > 1  # not always the same pair, as the AGA's rule would give


# --- 7.5: club and country avoidance below the current bar -------------------------------------


def _clubbed(first: int, band: int, initial: float) -> list[Player]:
    """Four players rated in order whose split-and-shift partners share a club (1-3 in X,
    2-4 in Y)."""
    return [
        Player(
            first + i,
            f"P{first + i}",
            rating=5.9 - i / 10 - (band - 1) * 2,
            chapter="XY"[i % 2],
            band=band,
            initial_score=initial,
        )
        for i in range(4)
    ]


def _same_club_games(scope: AvoidanceScope, number: int, players: list[Player]) -> int:
    settings = Settings(avoid_same_club=True, typed_options=Options(avoidance_scope=scope))
    scores = {p.aga_id: p.initial_score or 0.0 for p in players}
    games = pair_round(PairingInput(number, 2, tuple(players), scores, settings=settings)).games
    club = {p.aga_id: p.chapter for p in players}
    return sum(club[g.white] == club[g.black] for g in games)


def test_above_the_bar_clubs_are_not_avoided_below_it_they_are() -> None:
    """7.5: "Players below the bar should be paired from different countries or clubs where
    possible. Players above the bar are usually paired without regard to country or club."
    Round 1: four at the bar (initial 0) and four below (initial -1), partners of one club."""
    at_bar, below = _clubbed(1, 1, 0.0), _clubbed(11, 2, -1.0)
    below_bar = AvoidanceScope.BELOW_CURRENT_BAR
    assert _same_club_games(below_bar, 1, at_bar + below) == 2  # the two games at the bar
    assert _same_club_games(below_bar, 1, below) == 0
    assert _same_club_games(AvoidanceScope.FIRST_HALF, 1, at_bar + below) == 0  # the AGA


def test_the_current_bar_rises_by_one_a_round() -> None:
    """7.5: "The bar referred to here is the Current McMahon Bar which starts off at the
    initial McMahon bar ... and increases by 1 each round." In round 2 of 2 the players
    still on the bar's initial score are below the current bar, so their clubs are avoided;
    the AGA rule avoids clubs in the first half only."""
    at_bar = _clubbed(1, 1, 0.0)
    assert _same_club_games(AvoidanceScope.BELOW_CURRENT_BAR, 2, at_bar) == 0
    assert _same_club_games(AvoidanceScope.FIRST_HALF, 2, at_bar) == 2


# --- 4.3: sleeping players ------------------------------------------------------------------------


def _sleepers(sleeping: Sleeping) -> Tournament:
    """Players 1-6 play rounds 1 and 2; 7 sleeps both, 8 sleeps round 2 only."""
    W = Result.WHITE_WINS
    t = Tournament(settings=Settings(rounds=4, typed_options=Options(sleeping=sleeping)))
    for i in range(1, 9):
        t.players[i] = Player(i, f"P{i}", rating=3.5, band=1, initial_score=0.0)
    t.rounds = [
        Round(
            1,
            (Game(1, 2, result=W), Game(3, 4, result=W), Game(5, 6, result=W)),
            (Bye(7, ByeKind.VOLUNTARY), Bye(8, ByeKind.FORCED)),
        ),
        Round(
            2,
            (Game(1, 3, result=W), Game(2, 4, result=W), Game(6, 5, result=W)),
            (Bye(7, ByeKind.VOLUNTARY), Bye(8, ByeKind.VOLUNTARY)),
        ),
    ]
    return t


def test_a_sleeper_is_paired_a_point_higher_after_every_two_rounds_slept() -> None:
    """4.3: "a sleeping player is deemed to have achieved an average score for each round
    missed ... an extra McMahon point is awarded after every two rounds missed instead of a
    half point for every round missed." For the pairing only: the standings keep 0."""
    t = _sleepers(Sleeping.HALF)
    assert sleeping.rounds_slept(t, 3) == {7: 2, 8: 1}
    assert sleeping.pairing_bonus(t, 3) == {7: 1.0}  # two rounds: one point; one round: none
    inp = pairing_input(t, 3, list(t.players.values()))
    assert inp.scores[7] == 1.0 and inp.scores[8] == 1.0  # 8: the forced bye's point only
    assert mcmahon_scores(t)[7] == 0.0
    aga = _sleepers(Sleeping.NOTHING)
    assert sleeping.pairing_bonus(aga, 3) == {}
    assert pairing_input(aga, 3, list(aga.players.values())).scores[7] == 0.0


def test_the_sleepers_game_says_why_and_the_aga_export_names_it() -> None:
    t = _sleepers(Sleeping.HALF)
    games = pair_round(pairing_input(t, 3, list(t.players.values()))).games
    rnd = sleeping.noted(Round(3, games), t, sleeping.pairing_bonus(t, 3))
    (game,) = [g for g in rnd.games if 7 in g.players]
    assert "P7 (7) paired 1 point(s) higher: slept 2 round(s), ½ each" in game.notes
    assert any("P7 slept 2 rounds, counted ½ each" in line for line in european_limits(t))


def test_no_sleeping_in_the_top_group_starts_a_sleeper_one_point_below_the_bar() -> None:
    """4.3: "players in the top McMahon group ... are not allowed to sleep for any round.
    Sleeping players who would be in the top group are removed by reducing their initial
    McMahon score by one"."""
    players = field(("5d", 4), ("2k", 4))
    players[0] = replace(players[0], bye_requests=frozenset({3}))
    for option, expected in ((Sleeping.HALF, 0.0), (Sleeping.HALF_NOT_TOP, -1.0)):
        s = Settings(rounds=5, bar=rank_floor("4d"), typed_options=Options(sleeping=option))
        banding = build_bands(players, s)
        assert banding.initial_scores[players[0].aga_id] == expected, option
        assert banding.initial_scores[players[1].aga_id] == 0.0


def test_a_sleep_request_typed_after_bands_in_the_top_group_is_warned_until_bands_runs(
    tmp_path: Path,
) -> None:
    """4.3 again, for the TD's real order: bands first, then a top-group player asks for a
    bye. ``pair`` says so by name before pairing; ``bands`` then moves them below the bar."""
    t = Tournament(settings=Settings(rounds=4, bar=rank_floor("4d")))
    for p in field(("5d", 4), ("2k", 4)):
        t.players[p.aga_id] = p
    path = write_workbook(tmp_path / "event.xlsx", ready_for_aga(t), rounds=4)
    set_setting(path, "Sleeping players", Sleeping.HALF_NOT_TOP.value)
    assert run("bands", path, "--yes").returncode == 0
    wb = openpyxl.load_workbook(path)
    ws = wb["Players"]
    headers = [c.value for c in ws[1]]
    row = next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 1).value == 1)
    ws.cell(row, headers.index("R2") + 1, "Bye")  # Player1, 5d, in the top group
    wb.save(path)

    asked = run("pair", path)
    assert asked.returncode == 3, asked.stderr
    assert (
        "Player1 asked to sleep (round 2) but starts in the top group at 0: no sleeping in "
        "the top group (BGA 4.3); run bands again to start them one point below the bar, or "
        "clear the request"
    ) in asked.stderr
    late = book.read_book(OpenpyxlGateway.open(path)).tournament
    assert sleeping.sleeping_in_top_group(late, 2) == {1: [2]}
    assert sleeping.sleeping_in_top_group(late, 3) == {}, "a round played is past warning"
    assert run("bands", path, "--yes").returncode == 0
    player1 = next(p for p in sheet_rows(path, "Players") if p["AGA #"] == 1)
    assert player1["Initial score"] == -1
    paired = run("pair", path)
    assert paired.returncode == 0, paired.stderr
    assert "sleep" not in paired.stderr


def test_the_player_pages_explain_the_european_options(tmp_path: Path) -> None:
    """The site says why: a supergroup promotion, a ghost game, an SOS-seeded float."""
    out = tmp_path / "egf.xlsx"
    assert run("demo", out, "--players", 120, "--rounds", 5, "--rules", "egf").returncode == 0
    assert run("publish", out, "--to", tmp_path / "site").returncode == 0
    pages = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "site").glob("p*.html"))
    assert "(supergroup: one point above the bar (EGF, BGA 4.2.3))" in pages
    assert "Ghost game: no byes (BGA 7.1)" in pages and ", the ghost, against you" in pages
    assert "Who floats: EGF: seeded by SOS" in pages


def test_the_rules_command_sets_the_group_at_once_and_each_stays_changeable(
    tmp_path: Path,
) -> None:
    path = tmp_path / "open.xlsx"
    assert run("new", path, "--name", "Open", "--start", "2026-11-28").returncode == 0
    set_setting(path, "McMahon scale", "Zero shodan")  # typed before: the preset clears it
    done = run("rules", path, "--preset", "egf")  # any case, as the demo's --rules egf
    assert done.returncode == 0, done.stderr
    assert "Handicap: Minus 1 -> Minus 2" in done.stdout
    assert "McMahon scale: Zero shodan -> (blank)" in done.stdout
    settings = book.read_settings(OpenpyxlGateway.open(path)).settings
    assert settings.mcmahon_rules is McMahonRules.EGF
    assert settings.options == PRESETS[McMahonRules.EGF]
    assert settings.handicap_basis is HandicapBasis.MMS and settings.avoidance_points == 3
    set_setting(path, "Pairing within a group", "Split and shift")  # still changeable
    changed = book.read_settings(OpenpyxlGateway.open(path)).settings
    assert changed.options.group_pairing is GroupPairing.SHIFT
    assert any("McMahon rules EGF" in message for _, _, message in log_messages(path))
    set_setting(path, "McMahon rules", "AGA")  # as the button does: the sheet's choice
    back = run("rules", path)
    assert back.returncode == 0
    aga = book.read_settings(OpenpyxlGateway.open(path)).settings
    assert aga.options == PRESETS[McMahonRules.AGA] and aga.handicap_policy.value == "Minus 1"


def test_under_the_egf_preset_a_game_across_the_bar_takes_its_score_difference(
    tmp_path: Path,
) -> None:
    """A new event plays the top band even (Top band games even: Yes). Under the EGF preset
    the handicap comes from the McMahon scores (6.2): a top group game stays even, but a top
    group player drawn against a 10 kyu below the bar gives the score difference minus 2,
    not an even game."""
    t = Tournament(settings=Settings(rounds=3, bar=rank_floor("3d")))
    for p in field(("4d", 3), ("10k", 1)):
        t.players[p.aga_id] = p
    path = write_workbook(tmp_path / "event.xlsx", ready_for_aga(t), rounds=3)
    set_setting(path, "Top band games even", "Yes")
    assert run("rules", path, "--preset", "EGF").returncode == 0
    assert run("bands", path, "--yes").returncode == 0
    paired = run("pair", path, "--yes")
    assert paired.returncode == 0, paired.stderr
    games, _ = _round(path, 1)
    initial = {r["AGA #"]: r["Initial score"] for r in sheet_rows(path, "Players")}
    across = [g for g in games if initial[g["White AGA #"]] != initial[g["Black AGA #"]]]
    within = [g for g in games if initial[g["White AGA #"]] == initial[g["Black AGA #"]]]
    assert len(across) == 1 and len(within) == 1
    (game,) = across
    difference = abs(initial[game["White AGA #"]] - initial[game["Black AGA #"]])  # type: ignore[operator]
    assert game["Handicap"] == min(9, difference - 2) > 0, game
    assert within[0]["Handicap"] == 0
