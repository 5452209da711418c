"""Who plays which round: ``bye``, ``volunteer``, ``drop``, ``readmit``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from addin.actions.director.desk import Desk, check_warnings, finish, open_desk
from addin.actions.director.lookup import (
    PLAYER,
    break_first,
    find_active,
    find_player,
    forced_partner,
    game_of,
    in_tournament,
    name_of,
    seat,
)
from addin.actions.director.rebanding import (
    band_updates,
    moved_warning,
    rebuilt_banding,
    write_banding,
)
from addin.actions.director.writing import with_round, write_players, write_round
from addin.actions.registry import Param, ParamKind, action
from addin.actions.session import ActionError, Session
from addin.core.model import Bye, ByeKind, Player, PlayerId, Round, Status
from addin.core.scoring import last_round

ROUND_REQUIRED = Param("round", "round number", ParamKind.INT, required=True)


def _bye_of(rnd: Round, pid: PlayerId) -> Bye | None:
    return next((b for b in rnd.byes if b.player == pid), None)


@action(
    "bye",
    "Give a voluntary bye",
    "a voluntary bye (no game, 0 points): for an unpaired player of a paired round, "
    "or as a request for a future round",
    PLAYER,
    ROUND_REQUIRED,
)
def voluntary_bye(session: Session, params: Mapping[str, object]) -> None:
    desk = open_desk(session)
    t = desk.t
    player = find_active(t, params.get("player"))
    number = in_tournament(t, int(params["round"]))  # type: ignore[call-overload]
    column = f"r{number}"
    rnd = t.round(number)
    if rnd is None:
        _request_bye(session, desk, player, number, "Bye")
        return
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
    session.warn(warnings + check_warnings(session, desk, after))
    write_round(session, desk, new_round)
    write_players(session, desk, {pid: {column: "Bye"}})
    finish(session, desk, after, f"Voluntary bye for {name_of(t, pid)} in round {number}")


def _request_bye(session: Session, desk: Desk, player: Player, number: int, kind: str) -> None:
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
    session.warn(check_warnings(session, desk))
    write_players(session, desk, {pid: {f"r{number}": kind}})
    what = "a voluntary bye" if kind == "Bye" else "the bye volunteer"
    replaced = f" (was {before})" if before else ""
    finish(
        session,
        desk,
        t,
        f"{name_of(t, pid)} is {what} for round {number}: Players R{number} = {kind}{replaced}",
    )


@action(
    "volunteer",
    "Bye volunteer",
    "make a player the bye volunteer for a future round (takes the bye if the field is odd)",
    PLAYER,
    ROUND_REQUIRED,
)
def volunteer(session: Session, params: Mapping[str, object]) -> None:
    desk = open_desk(session)
    t = desk.t
    player = find_active(t, params.get("player"))
    number = in_tournament(t, int(params["round"]))  # type: ignore[call-overload]
    if t.round(number) is not None:
        raise ActionError(
            f"round {number} is already paired: a bye volunteer is for a round not paired "
            f"yet (bye --player {player.aga_id} --round {number} gives a voluntary bye)"
        )
    _request_bye(session, desk, player, number, "Volunteer")


@action(
    "drop",
    "Drop a player",
    "drop a player from the tournament (not paired from the next round on)",
    PLAYER,
)
def drop(session: Session, params: Mapping[str, object]) -> None:
    desk = open_desk(session)
    t = desk.t
    player = find_player(t, params.get("player"))
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
    session.warn(check_warnings(session, desk))
    write_players(session, desk, {pid: {"status": Status.DROPPED.value}})
    played = last_round(t)
    when = f"after round {played}" if played else "before round 1"
    finish(
        session,
        desk,
        t,
        f"Dropped {name_of(t, pid)} {when}: not paired from round {played + 1} on",
    )


@action(
    "readmit",
    "Re-admit a player",
    "re-admit a dropped player (one who never had a band gets one from the bands)",
    PLAYER,
)
def readmit(session: Session, params: Mapping[str, object]) -> None:
    desk = open_desk(session)
    t = desk.t
    player = find_player(t, params.get("player"))
    pid = player.aga_id
    if player.status is not Status.DROPPED:
        raise ActionError(f"{name_of(t, pid)} is not dropped")
    back = replace(player, status=Status.ACTIVE)
    banding = rebuilt_banding(desk, back) if player.initial_score is None else None
    updates, moved = band_updates(desk, back, banding)
    updates[pid] = {**updates.get(pid, {}), "status": Status.ACTIVE.value}
    session.warn(moved_warning(t, moved) + check_warnings(session, desk))
    write_banding(session, desk, banding, updates)
    missed = [r.number for r in t.rounds if game_of(r, pid) is None and _bye_of(r, pid) is None]
    absent = f"; absent from round(s) {', '.join(map(str, missed))} (0 points)" if missed else ""
    banded = (
        f"; band {banding.effective_band(pid)}, initial score {banding.initial_scores[pid]:g}"
        if banding
        else ""
    )
    finish(
        session,
        desk,
        t,
        f"Readmitted {name_of(t, pid)}: paired again from round {last_round(t) + 1}"
        f"{absent}{banded}",
    )
