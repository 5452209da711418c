"""The TD's manual operations (interface document: "Manual pairings" and "Recording Results").

After a round is paired: ``break-pair``, ``make-pair``, ``bye`` (a voluntary bye for an
unpaired player), ``drop`` (an unpaired player), ``set-game`` (handicap, komi, colours);
``unpair`` (addin.actions.pairing) undoes the whole pairing.
Before a round is paired: ``force`` and ``prohibit`` (the Requests sheet), ``bye`` and
``volunteer`` for a future round (the Players sheet's R columns), ``drop`` and ``readmit``.
Before a new round: ``set-rating`` and ``set-band``; the initial McMahon score follows the
bands, and with it every McMahon score.
Any time: ``result`` records or corrects a result, of an earlier round too.

Every operation reads the whole workbook and refuses bad input with a clear message before
writing anything. It asks the TD to confirm the interface document's warnings: the rule
breaks its own change makes, and those in rounds the TD edited by hand since the last check
(addin.core.consistency). Then it writes only the rows it changes, stamps the rounds as they
now stand in the Log (so that the next action notices a hand edit), and logs what it did.
"""

# isort: off
# Each action registers as its module is imported: this order is the help's and the ribbon's.
from addin.actions.director import paired_round, attendance, pair_requests, rating_and_band

# isort: on
from addin.actions.director.attendance import drop, volunteer
from addin.actions.director.desk import edited_round_warnings, log_lines, stamp_pairings

__all__ = [
    "attendance",
    "drop",
    "edited_round_warnings",
    "log_lines",
    "pair_requests",
    "paired_round",
    "rating_and_band",
    "stamp_pairings",
    "volunteer",
]
