"""The one error the pairing engine raises."""

from __future__ import annotations


class PairingError(ValueError):
    """No pairing satisfies the mandatory rules, or the input contradicts itself.

    The message names the conflict (players, forced or prohibited pairs) so that the TD
    can act on it.
    """
