"""The European McMahon options (BGA McMahon functional specification) and the rules presets.

Each option is a Tournament setting the TD may leave blank: blank follows the "McMahon rules"
preset (AGA, BGA or EGF), a typed value wins. The AGA preset is the program's behaviour before
the options existed, so an AGA event never sees them. This module holds plain data only (no
import of the model), so ``addin.core.model`` can use it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields


class McMahonRules(enum.Enum):
    """The preset that fills every blank European option (and, in ``rules``, a few others)."""

    AGA = "AGA"
    BGA = "BGA"
    EGF = "EGF"


class GradeScale(enum.Enum):
    """Spec 4 and 4.1: how an initial McMahon score follows the grade."""

    AGA_BANDS = "AGA bands"
    """AGA protocol: bands of ranks, separated by int(D x P / R) points."""
    ZERO_SHODAN = "Zero shodan"
    """UK: one point per grade, 1d = 0, 1k = -1; the bottom bar is 30k."""
    ZERO_20_KYU = "Zero 20 kyu"
    """Europe: one point per grade, 20k and weaker = 0, 1d = 20; the bottom bar is 20k."""


class BarTable(enum.Enum):
    """Spec 4.2.1, 4.2.2 and note 2: the population table a proposed bar must fit."""

    BGA = "BGA"
    EGF = "EGF"
    TOYOTA = "Toyota Tour"


class Supergroup(enum.Enum):
    """Spec 4.2.3 and note 2: players promoted one point above the bar."""

    NONE = "No"
    EGF = "EGF"
    TOYOTA = "Toyota Tour"


class OddPlayer(enum.Enum):
    """Spec 7.1: what an odd number of players gets."""

    BYE = "Bye"
    """AGA: the forced bye (one point) by the protocol's rules."""
    GHOST = "Ghost player"
    """BGA/EGF: "there are no byes": the ghost player named in the settings plays."""


class GroupSeeding(enum.Enum):
    """Spec 7.3: the order of the players within a McMahon group, before it is split."""

    RATING = "Rating"
    """AGA protocol: by entry rating."""
    SOS = "SOS"
    """By a tiebreak: the sum of the opponents' McMahon scores so far."""
    RANDOM = "Random"
    """A random order (the Random seed setting and the round fix it)."""


class GroupPairing(enum.Enum):
    """Spec 7.3: how the seeded group is split and paired."""

    SHIFT = "Split and shift"
    """AGA: top half against bottom half in order (1-5, 2-6, 3-7, 4-8); "split and match"."""
    FOLD = "Split and fold"
    """The top against the bottom (1-8, 2-7, 3-6, 4-5)."""


class FloatChoice(enum.Enum):
    """Spec 6.1: who plays up or down when a group is odd."""

    AGA = "AGA"
    """AGA protocol: the strongest of the lower group plays up."""
    EGF_SOS = "EGF (by SOS)"
    """6.1.2: both groups seeded by SOS; the strongest of the upper group plays down against
    the weakest of the lower group."""
    BGA = "BGA (by previous float)"
    """6.1.1: a player's last float and its result set their priority to play up or down;
    equal priorities are drawn at random."""


class BeyondNine(enum.Enum):
    """Spec 6.2: komi in place of the handicap stones beyond 9."""

    CAPPED = "Capped at 9"
    """AGA: the handicap stops at the ceiling; nothing more is given."""
    TWICE_KOMI = "Twice komi a stone"
    """BGA: each stone beyond 9 is twice the even-game komi, given to Black."""
    FIFTEEN = "15 points a stone"
    """EGF: 15 points a stone."""
    TWENTY = "20 points a stone"
    """The spec's author, "based on club experience"."""


class AvoidanceScope(enum.Enum):
    """Spec 7.5: where club and country avoidance applies."""

    FIRST_HALF = "First half (AGA)"
    """AGA protocol, Additional considerations: every game of the first half of the event."""
    BELOW_CURRENT_BAR = "Below the current bar"
    """7.5: games below the "current McMahon bar", the bar raised by one point a round."""


class Sleeping(enum.Enum):
    """Spec 4.3: what a round missed with the TD's consent (a voluntary bye) counts for."""

    NOTHING = "No points (AGA)"
    """AGA: a voluntary bye scores nothing, in the pairing as in the standings."""
    HALF = "Half a point a round"
    """For the pairing only: ½ a round missed, given as a whole point every two rounds."""
    HALF_NOT_TOP = "Half a point; none in the top group"
    """As HALF, and a top-group player who asks to sleep starts one point below the bar."""


@dataclass(frozen=True)
class Options:
    """The European options; ``None`` means "as the McMahon rules preset says"."""

    grade_scale: GradeScale | None = None
    bar_table: BarTable | None = None
    supergroup: Supergroup | None = None
    odd_player: OddPlayer | None = None
    group_seeding: GroupSeeding | None = None
    group_pairing: GroupPairing | None = None
    float_choice: FloatChoice | None = None
    beyond_nine: BeyondNine | None = None
    avoidance_scope: AvoidanceScope | None = None
    sleeping: Sleeping | None = None


@dataclass(frozen=True)
class Resolved:
    """Every option decided (``Settings.options``): what the code reads."""

    grade_scale: GradeScale
    bar_table: BarTable
    supergroup: Supergroup
    odd_player: OddPlayer
    group_seeding: GroupSeeding
    group_pairing: GroupPairing
    float_choice: FloatChoice
    beyond_nine: BeyondNine
    avoidance_scope: AvoidanceScope
    sleeping: Sleeping


PRESETS: dict[McMahonRules, Resolved] = {
    McMahonRules.AGA: Resolved(
        GradeScale.AGA_BANDS,
        BarTable.BGA,
        Supergroup.NONE,
        OddPlayer.BYE,
        GroupSeeding.RATING,
        GroupPairing.SHIFT,
        FloatChoice.AGA,
        BeyondNine.CAPPED,
        AvoidanceScope.FIRST_HALF,
        Sleeping.NOTHING,
    ),
    McMahonRules.BGA: Resolved(
        GradeScale.ZERO_SHODAN,
        BarTable.BGA,
        Supergroup.NONE,
        OddPlayer.GHOST,
        GroupSeeding.RATING,
        GroupPairing.FOLD,
        FloatChoice.BGA,
        BeyondNine.TWICE_KOMI,
        AvoidanceScope.BELOW_CURRENT_BAR,
        Sleeping.HALF,
    ),
    McMahonRules.EGF: Resolved(
        GradeScale.ZERO_20_KYU,
        BarTable.EGF,
        Supergroup.EGF,
        OddPlayer.GHOST,
        GroupSeeding.SOS,
        GroupPairing.FOLD,
        FloatChoice.EGF_SOS,
        BeyondNine.FIFTEEN,
        AvoidanceScope.BELOW_CURRENT_BAR,
        Sleeping.HALF_NOT_TOP,
    ),
}
"""What each preset sets. AGA's bar table is BGA's: ``bands`` proposed from it before."""

PRESET_SETTINGS: dict[McMahonRules, dict[str, object]] = {
    McMahonRules.AGA: {
        "handicap_basis": "Rating difference",
        "handicap_policy": "Minus 1",
        "avoidance_points": 0,
    },
    McMahonRules.BGA: {
        "handicap_basis": "McMahon score difference",
        "handicap_policy": "Minus 1",
        "avoidance_points": 0,
        "avoid_same_club": True,
        "avoid_same_country": True,
    },
    McMahonRules.EGF: {
        "handicap_basis": "McMahon score difference",
        "handicap_policy": "Minus 2",
        "avoidance_points": 3,
        "avoid_same_club": True,
        "avoid_same_country": True,
    },
}
"""Other Tournament settings a preset sets (``demo --rules``), as cell values: spec 6.2 (UK:
MMS difference - 1; European: - 2) and 7.5 (clubs and countries avoided; EGF avoidance may
cost points). Blank European options need no writing: they follow the preset by themselves."""


def resolve(rules: McMahonRules, typed: Options) -> Resolved:
    """Every option decided: the typed value, else the preset's."""
    preset = PRESETS[rules]
    return Resolved(
        **{
            f.name: getattr(preset, f.name)
            if getattr(typed, f.name) is None
            else getattr(typed, f.name)
            for f in fields(Options)
        }
    )
