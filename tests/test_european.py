"""European McMahon options, checked against the BGA McMahon functional specification.

Section numbers are the specification's (tests/data/README.md names its source). Each option
is a Tournament setting; blank follows the "McMahon rules" preset (AGA, BGA, EGF), and the AGA
preset is the program as it was: an AGA event never sees them.
"""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

from addin.core.european import (
    PRESETS,
    BarTable,
    GradeScale,
    McMahonRules,
    Options,
    Supergroup,
)
from addin.core.model import Player, Settings, Tournament
from addin.core.ratings import parse_rating
from addin.workbook import book
from addin.workbook.layout import SETTINGS
from addin.workbook.openpyxl_gateway import OpenpyxlGateway
from tests.helpers import run
from tests.typing_helpers import set_setting
from tests.workbook_fixtures import write_workbook


def field(*groups: tuple[str, int], first_id: int = 1) -> list[Player]:
    """Players in groups of (rank, how many), numbered from ``first_id``."""
    players = []
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
        assert setting.choices, setting.key
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
