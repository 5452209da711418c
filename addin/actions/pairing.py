"""Pairing a round, and undoing it."""

from __future__ import annotations

from dataclasses import dataclass, replace

from addin.actions import director, intake
from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.director.desk import in_tournament
from addin.actions.intake import rated_players
from addin.actions.registry import action, param
from addin.actions.sections import ROUNDS, SETTLED, TOURNAMENT
from addin.actions.station_waiting import waiting_entries
from addin.core import sleeping
from addin.core.consistency import even_colours
from addin.core.ghost import GHOST_NOTE, as_byes, ghost_of, ghost_problem, with_ghost
from addin.core.handicap import scheme_text
from addin.core.model import Bye, ByeKind, Color, Player, PlayerId, Round, Status, Tournament
from addin.core.pairing.engine import PairingResult, pair_round
from addin.core.pairing.errors import PairingError
from addin.core.pairing.inputs import PairingInput
from addin.core.scoring import mcmahon_scores
from addin.workbook import book, players_sheet, round_sheets
from addin.workbook.layout import Section
from addin.workbook.round_sheets import paired_in_log, remove_round, sheet_of, write_codes


def next_round(t: Tournament) -> int:
    return max((r.number for r in t.rounds), default=0) + 1


def pairing_input(t: Tournament, number: int, players: list[Player]) -> PairingInput:
    """What the engine needs for round ``number``: who plays, their scores, the history."""
    entrants = tuple(
        replace(p, bye_volunteer=p.bye_volunteer or number in p.volunteer_rounds) for p in players
    )
    history = tuple(r for r in t.rounds if r.number < number)
    scores = mcmahon_scores(replace(t, rounds=list(history)), after_round=number - 1)
    scores = sleeping.with_bonus(scores, sleeping.pairing_bonus(t, number))  # BGA 4.3
    requests = tuple(r for r in t.requests if r.round in (None, number))
    history = as_byes(history, t)  # spec 7.1: a ghost game counts as the bye it replaced
    return PairingInput(number, t.settings.rounds, entrants, scores, history, requests, t.settings)


def pre_pairing_warnings(t: Tournament, number: int, playing: set[PlayerId]) -> list[str]:
    """The interface document's warnings that can be known before pairing."""
    warnings: list[str] = []
    previous = t.round(number - 1)
    if previous is not None:
        pending = [g for g in previous.games if g.result is None]
        if pending:
            boards = ", ".join(str(g.board or "?") for g in pending[:10])
            warnings.append(
                f"round {previous.number} still has {len(pending)} game(s) without a result "
                f"(boards {boards})"
            )
        for g in previous.games:
            if g.result is None or not g.result.is_forfeit:
                continue
            losers = (
                [g.white, g.black]
                if g.result.winner is None
                else [g.black if g.result.winner is Color.WHITE else g.white]
            )
            for pid in losers:
                if pid in playing:
                    name = t.players[pid].name if pid in t.players else pid
                    warnings.append(
                        f"{name} forfeited in round {previous.number}: check they are still here"
                    )
    return warnings


def not_arrived_warnings(t: Tournament, number: int) -> list[str]:
    """Pre-registered players not checked in are not paired (OpenGotha pairs only its
    final registrations): the TD is told whom, before the round is made without them."""
    waiting = [p for p in t.players.values() if p.status is Status.NOT_ARRIVED]
    if not waiting:
        return []
    names = ", ".join(f"{p.name} ({p.aga_id})" for p in waiting[:10])
    more = f" and {len(waiting) - 10} more" if len(waiting) > 10 else ""
    return [
        f"{len(waiting)} pre-registered player(s) not checked in (Status {Status.NOT_ARRIVED.value}"
        f") are not paired in round {number}: {names}{more}; check them in first (checkin "
        "--player N) if they are here"
    ]


def top_group_sleepers(t: Tournament, number: int) -> list[str]:
    """BGA 4.3: nobody sleeps in the top group; a request typed after ``bands`` is warned."""
    return [
        f"{t.players[pid].name} asked to sleep (round {', '.join(map(str, rounds))}) but "
        f"starts in the top group at {t.players[pid].initial_score:g}: no sleeping in the top "
        "group (BGA 4.3); run bands again to start them one point below the bar, or clear "
        "the request"
        for pid, rounds in sleeping.sleeping_in_top_group(t, number).items()
    ]


def after_pairing_warnings(t: Tournament, result: PairingResult) -> list[str]:
    """Rule breaks in the pairing made: same colour three times running, rematches forced."""
    warnings = list(result.warnings)
    last_two = [even_colours(r) for r in sorted(t.rounds, key=lambda r: r.number)[-2:]]
    if len(last_two) < 2:
        return warnings
    for g in result.games:
        for pid, color in ((g.white, Color.WHITE), (g.black, Color.BLACK)):
            if all(colors.get(pid) is color for colors in last_two):
                name = t.players[pid].name if pid in t.players else pid
                warnings.append(f"{name} gets {color.name.lower()} three rounds running")
    return warnings


@dataclass(frozen=True, kw_only=True)
class PairParams:
    round: int | None = param("round number (default: the next round)")


@action(
    "pair",
    "Pair next round",
    "pair a round by the AGA Swiss McMahon rules",
    PairParams,
    reads=SETTLED,
    writes=ROUNDS,
)
def pair(snapshot: Snapshot, params: PairParams) -> Change:
    draft = Draft(snapshot)
    b = intake.settled_book(draft, lambda b: intake.pairing(b.tournament, _asked(b, params.round)))
    t = b.tournament
    number = _asked(b, params.round)
    if t.round(number) is not None:
        raise ActionError(
            f"round {number} is already paired; unpair it first (unpair --round {number})"
        )
    if number < next_round(t) - 1:
        raise ActionError(
            f"round {next_round(t) - 1} is paired after round {number}: restore the "
            f"{sheet_of(number)} sheet, or unpair the rounds after it first "
            f"(unpair --round {next_round(t) - 1})"
        )
    if number > next_round(t):
        raise ActionError(f"round {next_round(t)} comes before round {number}")
    if number > t.settings.rounds:
        raise ActionError(
            f"the tournament has {t.settings.rounds} rounds (Tournament sheet, Number of rounds)"
        )
    ghost = ghost_of(t) if ghost_problem(t, number) is None else None
    active = [
        p
        for p in rated_players(b)
        if p.status is Status.ACTIVE and (ghost is None or p.aga_id != ghost.aga_id)
    ]  # spec 7.1: the ghost plays only to make the numbers even
    _require_bands(b, active)
    playing = {p.aga_id for p in active if number not in p.bye_requests}
    if not playing:
        raise ActionError(
            f"round {number} has nobody to pair: no active player without a bye request "
            "(register players first: Players sheet)"
        )
    warnings = pre_pairing_warnings(t, number, playing) + top_group_sleepers(t, number)
    warnings += not_arrived_warnings(t, number)
    warnings += [
        f"a station's entry is not in the workbook yet, and round {number} is paired without "
        f"it: {w}"
        for w in waiting_entries(draft, t)
    ]
    log = director.log_lines(draft)
    warnings += director.edited_round_warnings(t, log)
    try:
        result = pair_round(pairing_input(t, number, active))
    except PairingError as err:
        raise ActionError(f"round {number} cannot be paired: {err}") from err
    draft.warn(warnings + after_pairing_warnings(t, result))

    rnd = Round(number, result.games, _byes(result, active, number))
    rnd = sleeping.noted(rnd, t, sleeping.pairing_bonus(t, number))
    ghosted = None
    if ghost is not None:
        earlier = replace(t, rounds=[r for r in t.rounds if r.number < number])
        rnd, ghosted = with_ghost(rnd, t, mcmahon_scores(earlier, number - 1))
    elif (problem := ghost_problem(t, number)) and result.byes:
        draft.say(f"No ghost game: {problem}; the odd player has a bye")
    round_sheets.write_round(draft, rnd, t.players)
    write_codes(draft, rnd)
    director.stamp_pairings(draft, [*t.rounds, rnd], log)
    s = result.stats
    draft.done(
        f"Paired round {number}: {len(rnd.games)} games, {len(rnd.byes)} byes; "
        f"{s.cross_group_games} games across score groups, sum of squared McMahon "
        f"differences {s.mms_squared_difference:g}, {s.color_breaks} colour and "
        f"{s.float_breaks} float rule breaks, {s.handicap_games} handicap games "
        f"(handicap: {scheme_text(t.settings)})"
        + (f". {result.bye_note}" if result.bye_note and not ghosted else "")
        + (f". {GHOST_NOTE}: {t.players[ghosted].name} plays the ghost" if ghosted else "")
    )
    return draft.change


def _asked(b: book.Book, asked: int | None) -> int:
    """The round to pair: the one asked for (a round of the tournament), else the next."""
    if asked is None:
        return next_round(b.tournament)
    return in_tournament(b.tournament, asked)


def _require_bands(b: book.Book, active: list[Player]) -> None:
    """McMahon pairing needs every active player's initial score: none, no silent pairing.

    The scores may come from ``bands``, from an imported report (AGA XML, Eggplant,
    OpenGotha) or from the TD's typing: the gate asks for the scores, not for Bands rows.
    """
    t = b.tournament
    if t.settings.pairing_format != "McMahon":
        return
    blank = [p for p in active if p.initial_score is None]
    if not blank:
        return
    if not t.bands and len(blank) == len(active):
        raise ActionError(
            f"{b.settings.data.table.sheet}: Pairing format is McMahon and there are no bands "
            "yet: run bands first (it proposes the bands and initial McMahon scores), then pair"
        )
    problems = [
        problem
        for p in blank
        if (
            problem := players_sheet.initial_score_problem(
                b, p.aga_id, f"{p.name} has no initial McMahon score; run bands, or set-band"
            )
        )
        is not None
    ]
    raise ActionError("these players cannot be paired yet", problems)


def _byes(result: PairingResult, active: list[Player], number: int) -> tuple[Bye, ...]:
    byes = list(result.byes)
    listed = {b.player for b in byes}
    byes += [
        Bye(p.aga_id, ByeKind.VOLUNTARY)
        for p in active
        if number in p.bye_requests and p.aga_id not in listed
    ]
    return tuple(byes)


@dataclass(frozen=True, kw_only=True)
class UnpairParams:
    round: int | None = param("round number (default: the next round)")


@action(
    "unpair",
    "Undo pairing",
    "remove a round's pairing (the last round paired)",
    UnpairParams,
    reads=TOURNAMENT,
    writes={Section.ROUNDS},
)
def unpair(snapshot: Snapshot, params: UnpairParams) -> Change:
    draft = Draft(snapshot)
    b = book.read_book(draft)
    t = b.tournament
    last = next_round(t) - 1
    asked = params.round
    if asked is None and not last:
        raise ActionError("no round is paired yet: nothing to unpair")
    number = last if asked is None else in_tournament(t, asked)
    rnd = t.round(number)
    if (rnd is None or not (rnd.games or rnd.byes)) and lost_by_hand(t, draft, number):
        remove_round(draft, number)  # nothing left to take: the Log says so
        draft.done(f"Removed the pairing of round {number} (its games were gone already)")
        return draft.change
    if rnd is None:
        raise ActionError(f"round {number} is not paired")
    if number != last:
        raise ActionError(f"round {last} is paired after round {number}: unpair round {last} first")
    recorded = [g for g in rnd.games if g.result is not None]
    if recorded:
        draft.warn([f"round {number} already has {len(recorded)} result(s); they will be lost"])
    remove_round(draft, number)
    draft.done(f"Removed the pairing of round {number} ({len(rnd.games)} games)")
    return draft.change


def lost_by_hand(t: Tournament, draft: Draft, number: int) -> bool:
    """Round ``number`` is the last the Log records as paired, and its sheet was deleted,
    renamed or emptied by hand (``paired_rounds``): unpairing it records that it is gone."""
    paired = paired_in_log(director.log_lines(draft))
    later = [r.number for r in t.rounds if r.number > number and (r.games or r.byes)]
    return number in paired and max(paired) == number and not later
