"""What one round's pairing is given (``PairingInput``): below the engine, so the field,
the weights and every caller name it without importing the engine."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from addin.core.model import PairRequest, Player, PlayerId, Round, Settings


@dataclass(frozen=True)
class PairingInput:
    """Everything one round's pairing depends on."""

    round: int
    total_rounds: int
    players: tuple[Player, ...]
    """Players to pair. Dropped players and players with a voluntary bye this round
    (``round in bye_requests``) are filtered out; the latter come back as voluntary byes."""
    scores: Mapping[PlayerId, float]
    """McMahon score of each player before this round. Scores of dropped players, when
    given, let the previous round's floats be read exactly."""
    history: tuple[Round, ...] = ()
    """Rounds already played (numbers below ``round``; later ones are ignored)."""
    requests: tuple[PairRequest, ...] = ()
    """Forced and prohibited pairs; those for other rounds are ignored."""
    settings: Settings = field(default_factory=Settings)
