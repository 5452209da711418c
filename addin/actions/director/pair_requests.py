"""The Requests sheet: ``force`` and ``prohibit``."""

from __future__ import annotations

from dataclasses import dataclass

from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.director.desk import (
    Desk,
    check_warnings,
    find_active,
    find_player,
    finish,
    forced_partner,
    in_tournament,
    name_of,
    open_desk,
)
from addin.actions.registry import action, param
from addin.actions.sections import PLAYERS, SETTLED
from addin.core import consistency
from addin.core.model import PairRequest, RequestKind, Tournament
from addin.core.scoring import last_round
from addin.workbook.layout import Section
from addin.workbook.requests_sheet import add_request


@dataclass(frozen=True, kw_only=True)
class ForceParams:
    first: int = param("AGA # of one player", required=True)
    second: int = param("AGA # of the other player", required=True)
    round: int | None = param("round number (default: the next round)")


@action(
    "force",
    "Force a pair",
    "make the next pairing pair two players (Requests sheet)",
    ForceParams,
    reads=SETTLED,
    writes=PLAYERS | {Section.REQUESTS},
)
def force(snapshot: Snapshot, params: ForceParams) -> Change:
    draft = Draft(snapshot)
    desk = open_desk(draft)
    t = desk.t
    number = last_round(t) + 1 if params.round is None else params.round
    _add_request(draft, desk, (params.first, params.second), RequestKind.FORCE, number)
    return draft.change


@dataclass(frozen=True, kw_only=True)
class ProhibitParams:
    first: int = param("AGA # of one player", required=True)
    second: int = param("AGA # of the other player", required=True)
    round: int | None = param("round number (default: every round)")


@action(
    "prohibit",
    "Prohibit a pair",
    "keep two players apart in the pairings (Requests sheet)",
    ProhibitParams,
    reads=SETTLED,
    writes=PLAYERS | {Section.REQUESTS},
)
def prohibit(snapshot: Snapshot, params: ProhibitParams) -> Change:
    draft = Draft(snapshot)
    desk = open_desk(draft)
    _add_request(draft, desk, (params.first, params.second), RequestKind.PROHIBIT, params.round)
    return draft.change


def _add_request(
    draft: Draft,
    desk: Desk,
    pair: tuple[int, int],
    kind: RequestKind,
    number: int | None,
) -> None:
    t = desk.t
    first = find_player(t, pair[0], "--first")
    second = find_player(t, pair[1], "--second")
    a, b = first.aga_id, second.aga_id
    if a == b:
        raise ActionError(
            f"a player cannot be paired with themself: AGA # {a} is both --first and --second"
        )
    if number is not None:
        in_tournament(t, number)
        if t.round(number) is not None:
            other = "make-pair and break-pair" if kind is RequestKind.FORCE else "break-pair"
            raise ActionError(f"round {number} is already paired: use {other} instead")
    request = PairRequest(kind, a, b, number)
    _check_request(t, request)
    warnings = _force_warnings(t, request) if kind is RequestKind.FORCE else []
    draft.warn(warnings + check_warnings(desk))
    add_request(draft, desk.b, request, f"{first.name} - {second.name}")
    when = f"round {number}" if number is not None else "every round"
    verb = "Forced" if kind is RequestKind.FORCE else "Prohibited"
    finish(
        draft, desk, t, f"{verb} the pair {name_of(t, a)} - {name_of(t, b)} for {when} (Requests)"
    )


def _same_pair(r: PairRequest, request: PairRequest) -> bool:
    return {r.first, r.second} == {request.first, request.second}


def _overlaps(r: PairRequest, request: PairRequest) -> bool:
    return r.round is None or request.round is None or r.round == request.round


def _check_request(t: Tournament, request: PairRequest) -> None:
    """Refuse a request that repeats or contradicts one already in the Requests sheet."""
    pair = f"{name_of(t, request.first)} - {name_of(t, request.second)}"
    for r in t.requests:
        if not _overlaps(r, request):
            continue
        if _same_pair(r, request) and r.kind is request.kind and r.round == request.round:
            raise ActionError(f"the Requests sheet already has {r.kind.value} {pair}")
        if _same_pair(r, request) and r.kind is not request.kind:
            when = f"round {r.round}" if r.round is not None else "every round"
            raise ActionError(
                f"{pair} is already a {r.kind.value} request for {when}: "
                "remove that row of the Requests sheet first"
            )
    if request.kind is RequestKind.FORCE:
        _check_force(t, request)


def _check_force(t: Tournament, request: PairRequest) -> None:
    for pid in (request.first, request.second):
        player = find_active(t, pid)
        if request.round in player.bye_requests:
            raise ActionError(
                f"{name_of(t, pid)} asked for a bye in round {request.round} (Players "
                f"R{request.round}): clear it first"
            )
        other = forced_partner(t, pid, request.round)
        if other is not None:
            raise ActionError(
                f"{name_of(t, pid)} is already forced to play {name_of(t, other)} "
                f"in round {request.round}"
            )


def _force_warnings(t: Tournament, request: PairRequest) -> list[str]:
    """A rematch, or a player who forfeited the round before: the interface document's list."""
    number = request.round or last_round(t) + 1
    a, b = request.first, request.second
    warnings = [
        f"forcing {name_of(t, a)} and {name_of(t, b)} together in round {number} is a rematch: "
        f"they played each other in round {r.number}"
        for r in t.rounds
        if r.number < number and any({a, b} == set(g.players) for g in r.games)
    ]
    losers = consistency.forfeit_losers(t.round(number - 1))
    warnings += [
        f"{name_of(t, pid)} lost round {number - 1} by forfeit: check they are still here "
        f"before forcing them into round {number}"
        for pid in (a, b)
        if pid in losers
    ]
    return warnings
