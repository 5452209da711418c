"""Python's cyclic garbage collector, set for a process that holds a whole workbook.

A workbook read by openpyxl is hundreds of thousands of long-lived objects (the TDListA
sheet alone is over 200,000 cells). With the default thresholds the collector walks all of
them again every time a few tens of thousands of new ones survive, which at 2,000 players
was a sixth of a ``pair`` command and grew with every round sheet. Nearly everything the
actions create is freed by reference counting, so young collections can wait longer.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 200_000
"""Net allocations between young collections (Python's default is 700)."""


def relax() -> None:
    """Collect less often: for the command line and the demo, not for a library import."""
    young, middle, old = gc.get_threshold()
    gc.set_threshold(max(YOUNG_THRESHOLD, young), middle, old)
