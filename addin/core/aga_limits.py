"""What the AGA report formats cannot carry of a European option, for the export's warnings.

The AGA text and XML reports know games, byes and results; a ghost game (BGA 7.1) goes as an
ordinary game between two players, and komi for stones beyond 9 (BGA 6.2) as a 9-stone game's
reverse komi. The export says so, as it does for Eggplant's limits.
"""

from __future__ import annotations

from addin.core.european import BeyondNine, Sleeping
from addin.core.ghost import ghost_games
from addin.core.handicap import HANDICAP_KOMI, MAX_HANDICAP
from addin.core.model import Tournament
from addin.core.sleeping import rounds_slept


def european_limits(t: Tournament) -> list[str]:
    """One line per thing of a European option the AGA report carries as something else."""
    lines = []
    for number, game in ghost_games(t):
        names = " v ".join(
            t.players[p].name if p in t.players else str(p) for p in (game.white, game.black)
        )
        lines.append(
            f"round {number}, board {game.board}: {names} is a ghost game (BGA 7.1); the AGA "
            "report has no ghost and carries it as an ordinary game"
        )
    if t.settings.options.beyond_nine is not BeyondNine.CAPPED:
        for rnd in t.rounds:
            for game in rnd.games:
                if game.handicap == MAX_HANDICAP and game.komi < HANDICAP_KOMI:
                    lines.append(
                        f"round {rnd.number}, board {game.board}: 9 stones and komi "
                        f"{game.komi:g} for the stones beyond 9 (BGA 6.2); the AGA report "
                        "writes it as a 9-stone game with reverse komi"
                    )
    if t.settings.options.sleeping is not Sleeping.NOTHING:
        last = max((r.number for r in t.rounds), default=0)
        for player, slept in sorted(rounds_slept(t, last + 1).items()):
            if slept >= 2:
                name = t.players[player].name if player in t.players else str(player)
                lines.append(
                    f"{name} slept {slept} rounds, counted ½ each for the pairing (BGA 4.3); "
                    "the AGA report carries them as voluntary byes, which score nothing"
                )
    return lines
