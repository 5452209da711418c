"""What the AGA report formats cannot carry of a European option, for the export's warnings.

The AGA text and XML reports know games, byes and results; a ghost game (BGA 7.1) goes as an
ordinary game between two players. The export says so, as it does for Eggplant's limits.
"""

from __future__ import annotations

from addin.core.ghost import ghost_games
from addin.core.model import Tournament


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
    return lines
