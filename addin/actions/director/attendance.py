"""Who plays which round: ``bye``, ``volunteer``, ``checkin``, ``drop``, ``readmit``."""

from __future__ import annotations

from dataclasses import dataclass, replace

from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.director.desk import (
    Desk,
    break_first,
    check_warnings,
    find_active,
    find_player,
    finish,
    forced_partner,
    game_of,
    in_tournament,
    name_of,
    open_desk,
    seat,
    with_round,
    write_players,
    write_round,
)
from addin.actions.director.rebanding import (
    band_updates,
    moved_warning,
    rebuilt_banding,
    write_banding,
)
from addin.actions.registry import action, param
from addin.actions.sections import ROUNDS, SETTLED
from addin.core.model import Bye, ByeKind, Player, PlayerId, Round, Status
from addin.core.participants import in_rounds
from addin.core.scoring import last_round
from addin.workbook.layout import Section


def _bye_of(rnd: Round, pid: PlayerId) -> Bye | None:
    return next((b for b in rnd.byes if b.player == pid), None)


@dataclass(frozen=True, kw_only=True)
class ByeParams:
    player: int = param("the player's AGA #", required=True)
    round: int = param("round number", required=True)


@action(
    "bye",
    "Give a voluntary bye",
    "a voluntary bye (no game, 0 points): for an unpaired player of a paired round, "
    "or as a request for a future round",
    ByeParams,
    reads=SETTLED,
    writes=ROUNDS,
)
def voluntary_bye(snapshot: Snapshot, params: ByeParams) -> Change:
    draft = Draft(snapshot)
    desk = open_desk(draft)
    t = desk.t
    player = find_active(t, params.player)
    number = in_tournament(t, params.round)
    column = f"r{number}"
    rnd = t.round(number)
    if rnd is None:
        _request_bye(draft, desk, player, number, "Bye")
        return draft.change
    pid = player.aga_id
    game = game_of(rnd, pid)
    if game is not None:
        raise ActionError(f"{name_of(t, pid)} plays on {seat(rnd, game)}: {break_first(rnd, pid)}")
    bye = _bye_of(rnd, pid)
    if bye is not None and bye.kind is ByeKind.VOLUNTARY:
        raise ActionError(f"{name_of(t, pid)} already has a voluntary bye in round {number}")
    warnings = []
    if bye is not None:
        warnings.append(
            f"round {number}: {name_of(t, pid)} has a forced bye (1 point) recorded; "
            "it becomes a voluntary bye (0 points)"
        )
    new_round = replace(
        rnd, byes=(*(b for b in rnd.byes if b.player != pid), Bye(pid, ByeKind.VOLUNTARY))
    )
    after = with_round(t, new_round)
    draft.warn(warnings + check_warnings(desk, after))
    write_round(draft, desk, new_round)
    write_players(draft, desk, {pid: {column: "Bye"}})
    finish(draft, desk, after, f"Voluntary bye for {name_of(t, pid)} in round {number}")
    return draft.change


def _request_bye(draft: Draft, desk: Desk, player: Player, number: int, kind: str) -> None:
    """A Players R-column request for a round not paired yet: ``Bye`` or ``Volunteer``."""
    t = desk.t
    pid = player.aga_id
    before = "Bye" if number in player.bye_requests else None
    before = "Volunteer" if number in player.volunteer_rounds else before
    if before == kind:
        raise ActionError(f"{name_of(t, pid)} already has {kind} for round {number}")
    forced = forced_partner(t, pid, number)
    if kind == "Bye" and forced is not None:
        raise ActionError(
            f"{name_of(t, pid)} is forced to play {name_of(t, forced)} in round {number} "
            "(Requests sheet): remove that request first"
        )
    draft.warn(check_warnings(desk))
    write_players(draft, desk, {pid: {f"r{number}": kind}})
    what = "a voluntary bye" if kind == "Bye" else "the bye volunteer"
    replaced = f" (was {before})" if before else ""
    finish(
        draft,
        desk,
        t,
        f"{name_of(t, pid)} is {what} for round {number}: Players R{number} = {kind}{replaced}",
    )


@dataclass(frozen=True, kw_only=True)
class VolunteerParams:
    player: int = param("the player's AGA #", required=True)
    round: int = param("round number", required=True)


@action(
    "volunteer",
    "Bye volunteer",
    "make a player the bye volunteer for a future round (takes the bye if the field is odd)",
    VolunteerParams,
    reads=SETTLED,
    writes=ROUNDS,
)
def volunteer(snapshot: Snapshot, params: VolunteerParams) -> Change:
    draft = Draft(snapshot)
    desk = open_desk(draft)
    t = desk.t
    player = find_active(t, params.player)
    number = in_tournament(t, params.round)
    if t.round(number) is not None:
        raise ActionError(
            f"round {number} is already paired: a bye volunteer is for a round not paired "
            f"yet (bye --player {player.aga_id} --round {number} gives a voluntary bye)"
        )
    _request_bye(draft, desk, player, number, "Volunteer")
    return draft.change


@dataclass(frozen=True, kw_only=True)
class CheckinParams:
    player: int = param("the player's AGA #", required=True)


@action(
    "checkin",
    "Check in",
    "check a pre-registered player in as arrived (Status Not arrived becomes Active): "
    "paired from the next round",
    CheckinParams,
    reads=SETTLED,
    writes=ROUNDS,
)
def checkin(snapshot: Snapshot, params: CheckinParams) -> Change:
    draft = Draft(snapshot)
    desk = open_desk(draft)
    t = desk.t
    player = find_player(t, params.player)
    pid = player.aga_id
    if player.status is Status.DROPPED:
        raise ActionError(
            f"{name_of(t, pid)} is dropped: readmit them (readmit --player {pid}) to bring "
            "them back"
        )
    if player.status is Status.ACTIVE:
        raise ActionError(f"{name_of(t, pid)} is already checked in (Status Active)")
    draft.warn(check_warnings(desk))
    write_players(draft, desk, {pid: {"status": Status.ACTIVE.value}})
    played = last_round(t)
    rounds = "round 1" if played == 1 else f"rounds 1-{played}"
    missed = f"; absent from {rounds} (0 points)" if played else ""
    finish(
        draft,
        desk,
        t,
        f"Checked in {name_of(t, pid)}: paired from round {played + 1}{missed}",
    )
    return draft.change


@dataclass(frozen=True, kw_only=True)
class DropParams:
    player: int = param("the player's AGA #", required=True)


@action(
    "drop",
    "Drop a player",
    "drop a player from the tournament (not paired from the next round on)",
    DropParams,
    reads=SETTLED,
    writes=ROUNDS,
)
def drop(snapshot: Snapshot, params: DropParams) -> Change:
    draft = Draft(snapshot)
    desk = open_desk(draft)
    t = desk.t
    player = find_player(t, params.player)
    pid = player.aga_id
    if player.status is Status.DROPPED:
        raise ActionError(f"{name_of(t, pid)} is already dropped")
    latest = t.round(last_round(t))
    game = game_of(latest, pid) if latest else None
    if latest and game is not None and game.result is None:
        raise ActionError(
            f"{name_of(t, pid)} plays on {seat(latest, game)}, not played yet: "
            f"{break_first(latest, pid)} or record the result"
        )
    for number in range(last_round(t) + 1, t.settings.rounds + 1):
        partner = forced_partner(t, pid, number)
        if partner is not None:
            raise ActionError(
                f"{name_of(t, pid)} is forced to play {name_of(t, partner)} in round {number} "
                "(Requests sheet): remove that request first"
            )
    draft.warn(check_warnings(desk))
    write_players(draft, desk, {pid: {"status": Status.DROPPED.value}})
    played = last_round(t)
    when = f"after round {played}" if played else "before round 1"
    if played >= t.settings.rounds:
        then = f"round {played} was the last round: withdrawn, takes no further part"
    else:
        then = f"not paired from round {played + 1} on"
    if pid not in in_rounds(t):
        then += "; never played: not ranked and not reported to the AGA (did not arrive)"
    finish(draft, desk, t, f"Dropped {name_of(t, pid)} {when}: {then}")
    return draft.change


@dataclass(frozen=True, kw_only=True)
class ReadmitParams:
    player: int = param("the player's AGA #", required=True)


@action(
    "readmit",
    "Re-admit a player",
    "re-admit a dropped player (one who never had a band gets one from the bands)",
    ReadmitParams,
    reads=SETTLED,
    writes=ROUNDS | {Section.BANDS},
)
def readmit(snapshot: Snapshot, params: ReadmitParams) -> Change:
    draft = Draft(snapshot)
    desk = open_desk(draft)
    t = desk.t
    player = find_player(t, params.player)
    pid = player.aga_id
    if player.status is not Status.DROPPED:
        raise ActionError(f"{name_of(t, pid)} is not dropped")
    back = replace(player, status=Status.ACTIVE)
    banding = rebuilt_banding(desk, back) if player.initial_score is None else None
    updates, moved = band_updates(desk, back, banding)
    updates[pid] = {**updates.get(pid, {}), "status": Status.ACTIVE.value}
    draft.warn(moved_warning(t, moved) + check_warnings(desk))
    write_banding(draft, desk, banding, updates)
    missed = [r.number for r in t.rounds if game_of(r, pid) is None and _bye_of(r, pid) is None]
    absent = f"; absent from round(s) {', '.join(map(str, missed))} (0 points)" if missed else ""
    banded = (
        f"; band {banding.effective_band(pid)}, initial score {banding.initial_scores[pid]:g}"
        if banding
        else ""
    )
    finish(
        draft,
        desk,
        t,
        f"Readmitted {name_of(t, pid)}: paired again from round {last_round(t) + 1}"
        f"{absent}{banded}",
    )
    return draft.change
