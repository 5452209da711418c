"""AGA Swiss McMahon pairing by maximum-weight matching (pure: no spreadsheet code).

Use :func:`pair_round` with a :class:`PairingInput`; see :mod:`.weights` for the tiers.
"""

from addin.core.pairing.assemble import PairingStats
from addin.core.pairing.engine import PairingResult, pair_round
from addin.core.pairing.errors import PairingError
from addin.core.pairing.inputs import PairingInput

__all__ = ["PairingError", "PairingInput", "PairingResult", "PairingStats", "pair_round"]
