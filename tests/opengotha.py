"""Test helper: OpenGotha files as the product reads them (``addin.formats.opengotha``).

``read_opengotha`` gives the whole tournament, settings included (avoidance, tiebreaks,
the Swiss format...). The pairing-quality tests and benchmarks measure the engine with the
default pairing options, as they always have: ``plain_settings`` keeps only the file's
name, number of rounds and komi, and ``handicap_settings`` adds the file's handicap scheme.
"""

from __future__ import annotations

from pathlib import Path

from addin.core.model import Settings, Tournament
from addin.formats.opengotha import key_of, rank_value, read_opengotha

__all__ = ["handicap_settings", "key_of", "plain_settings", "rank_value", "read_opengotha"]

HANDICAP_FIELDS = ("handicap_basis", "handicap_policy", "handicap_ceiling", "handicap_even_from")


def plain_settings(t: Tournament) -> Settings:
    """The file's name, number of rounds and komi; every pairing option at its default."""
    return Settings(name=t.settings.name, rounds=t.settings.rounds, komi=t.settings.komi)


def handicap_settings(path: str | Path) -> dict[str, object]:
    """``Settings`` fields for the handicap scheme the file's HandicapParameterSet asks for:
    basis (hdBasedOnMMS), correction (hdCorrection 0-3), ceiling (hdCeiling) and the rank
    from which games are even (hdNoHdRankThreshold)."""
    settings = read_opengotha(path).settings
    return {name: getattr(settings, name) for name in HANDICAP_FIELDS}
