"""The forced bye of an odd field (protocol, Remove Players Receiving Byes; Odd-Numbered
Groups; criterion 2).

The bye is a dummy node of the matching joined to the players who may receive it.
Priority, most important first:

1. a bye volunteer (``Player.bye_volunteer``, or this round in ``volunteer_rounds``),
   when one leaves a valid pairing;
2. else a player of the lowest score group that can take it, then of the two lowest, and
   so on ("the pairings in successively higher score groups are undone until a bye
   recipient can be found");
3. within those, the matching's weights: least McMahon-score disturbance first, then the
   lowest-rated player (:data:`bye_rank`).

1 and 2 are an outer loop over candidate sets (each tried until the matching is perfect);
3 is the ``bye_choice`` tier of the weights. A player who already had a forced bye is never
a candidate unless he volunteers (mandatory criterion 2).
"""

from __future__ import annotations

from addin.core.pairing.errors import PairingError
from addin.core.pairing.field import Entrant, Field


def needs_bye(field: Field) -> bool:
    return len(field.pool) % 2 == 1


def volunteers(field: Field, e: Entrant) -> bool:
    """A bye volunteer for the whole event or for this round."""
    return e.player.bye_volunteer or field.round in e.player.volunteer_rounds


def may_receive(field: Field, e: Entrant) -> bool:
    """Criterion 2: no second forced bye unless the player volunteers for it."""
    return volunteers(field, e) or e.id not in field.history.forced_byes


def candidate_sets(field: Field) -> list[tuple[int, ...]]:
    """Pool indices that may get the bye, one set per attempt, in priority order."""
    eligible = [e for e in field.pool if may_receive(field, e)]
    if not eligible:
        raise PairingError(
            "the field is odd but every player has already had a forced bye and none "
            "volunteers for another"
        )
    sets: list[tuple[int, ...]] = []
    willing = tuple(e.index for e in eligible if volunteers(field, e))
    if willing:
        sets.append(willing)
    lowest = len(field.groups)
    for floor in range(lowest - 1, -1, -1):
        candidates = tuple(e.index for e in eligible if e.group >= floor)
        if candidates and (not sets or candidates != sets[-1]):
            sets.append(candidates)
    return sets


def bye_rank(field: Field, candidates: tuple[int, ...]) -> dict[int, int]:
    """0 for the preferred candidate: lowest score, then lowest rating, then lowest placed."""
    ordered = sorted(
        candidates, key=lambda i: (field.pool[i].units, field.pool[i].rating, -field.pool[i].order)
    )
    return {i: rank for rank, i in enumerate(ordered)}


def reason(field: Field, bye: Entrant) -> str:
    """Which rule chose ``bye`` for the forced bye, in the TD's words."""
    who = f"Forced bye: {bye.label}, score {bye.score:g}"
    if volunteers(field, bye):
        return f"{who}: a volunteer"
    where = (
        "the lowest score group"
        if bye.group == len(field.groups) - 1
        else "the lowest score group that can take it and leave a valid pairing"
    )
    group = [field.pool[i] for i in field.groups[bye.group] if may_receive(field, field.pool[i])]
    weakest = min(group, key=lambda e: (e.rating, -e.order))
    choice = (
        "its lowest rated player who has had no forced bye"
        if weakest is bye
        else f"the player whose bye leaves the least score difference ({weakest.label}, "
        "rated lower, would leave more or no valid pairing)"
    )
    return f"{who}: {where}, {choice}"
