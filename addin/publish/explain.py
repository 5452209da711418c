"""Player-facing explanations: why each opponent, and how each tiebreak was computed.

The facts come from the engine's own records: the McMahon scores each player had before
the round (``scoring.player_records``), the notes the pairing engine wrote on each game
(the Round sheet's Notes: floats, handicap scheme, rules relaxed, forced pairs), the forced
bye's reason the ``pair`` action logged, and the tiebreak context the standings use.
Everything here returns plain text; the pages escape it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from addin.core.handicap import scheme_text
from addin.core.model import PlayerId, Tournament
from addin.core.scoring import Outcome, RoundRecord
from addin.core.tiebreaks import Contribution, TiebreakContext, resolve
from addin.reports.common import rank_label, rating_of
from addin.reports.model import show_score

NameOf = Callable[[PlayerId], str]

_PAIRED = re.compile(r"^Paired round (\d+):")
_BYE_REASON = re.compile(r"Forced bye: .*$")
_VERB = re.compile(r"\byou (take|float)s\b")
_EUROPEAN_FLOAT = re.compile(r"\(((?:EGF|BGA 6\.1\.1)[^()]*)\)$")


def bye_reasons(log: Sequence[tuple[str, str]]) -> dict[int, str]:
    """Round -> the forced bye's reason, from the ``pair`` action's Log lines (the last
    pairing of each round wins)."""
    reasons: dict[int, str] = {}
    for _, message in log:
        paired = _PAIRED.match(message)
        if paired is None:
            continue
        number = int(paired.group(1))
        found = _BYE_REASON.search(message)
        if found:
            reasons[number] = found.group(0)
        else:
            reasons.pop(number, None)
    return reasons


def _label(t: Tournament, pid: PlayerId) -> str:
    """How the engine's notes name a player (``Field.Entrant.label``)."""
    p = t.players.get(pid)
    return f"{p.name} ({pid})" if p is not None else f"({pid})"


def _personal(text: str, t: Tournament, me: PlayerId, opponent: PlayerId | None) -> str:
    """An engine note in the player's words: their own label becomes "you"."""
    text = text.replace(_label(t, me), "you")
    if opponent is not None:
        p = t.players.get(opponent)
        text = text.replace(_label(t, opponent), p.name if p is not None else str(opponent))
    text = _VERB.sub(lambda m: f"you {m.group(1)}", text)
    return text[:1].upper() + text[1:]


def _score(value: float) -> str:
    return show_score(value) or "0"


def _points(value: float) -> str:
    """``1 McMahon point``, ``2 McMahon points``, ``1.5 McMahon points``."""
    return f"{_score(value)} McMahon point{'' if value == 1 else 's'}"


def why_opponent(
    t: Tournament,
    rec: RoundRecord,
    opponent_rec: RoundRecord | None,
    bye_reason: str = "",
) -> list[str]:
    """One or a few lines saying why the player met this opponent in this round."""
    me = rec.player
    if rec.outcome is Outcome.FORCED_BYE:
        if bye_reason and _label(t, me) in bye_reason:
            return [_personal(bye_reason, t, me, None) + " (1 point)."]
        return ["Forced bye: the field was odd and the bye rule chose you (1 point)."]
    if rec.outcome is Outcome.VOLUNTARY_BYE:
        return ["A bye you asked for: no game, no point."]
    if rec.outcome is Outcome.ABSENT or rec.game is None or rec.opponent is None:
        return ["Not in this round."]
    game, opp = rec.game, rec.opponent
    notes = [n.strip() for n in game.notes.split("; ") if n.strip()] if game.notes else []
    lines: list[str] = []
    mine = rec.score_before
    theirs = opponent_rec.score_before if opponent_rec is not None else None
    if any(n.startswith("Forced pair") for n in notes):
        lines.append("The tournament director paired you by hand (a forced pair).")
    elif theirs is None or theirs == mine:
        lines.append(f"Same score group: you both had {_points(mine)}.")
    elif mine > theirs:
        lines.append(
            f"Float down: you had {_points(mine)}, your opponent {_score(theirs)} "
            "(your score group could not be paired within itself)."
        )
    else:
        lines.append(
            f"Float up: you had {_points(mine)}, your opponent {_score(theirs)} "
            "(your score group could not be paired within itself)."
        )
    handicap_noted = False
    for note in notes:
        chosen = _EUROPEAN_FLOAT.search(note) if note.startswith("Float:") else None
        if chosen:  # a European option chose who floats (BGA 6.1.1, 6.1.2)
            lines.append(f"Who floats: {chosen.group(1)}.")
        if note.startswith(("Float:", "Forced pair")):
            continue
        handicap_noted |= note.startswith(("Handicap", "Even game"))
        lines.append(_personal(note, t, me, opp) + ("" if note.endswith(".") else "."))
    if not handicap_noted:
        lines.append(_conditions(t, rec, opp))
    return lines


def _conditions(t: Tournament, rec: RoundRecord, opp: PlayerId) -> str:
    """Handicap or even game from the ratings and the Tournament's handicap rule."""
    mine, theirs = rating_of(t.players.get(rec.player)), rating_of(t.players.get(opp))
    ratings = (
        f"ratings {mine:.2f} (you) and {theirs:.2f}"
        if mine is not None and theirs is not None
        else "the ratings"
    )
    rule = scheme_text(t.settings)
    if rec.handicap > 0:
        side = "you take Black" if rec.color is not None and rec.color.value == "B" else "you give"
        return f"Handicap {rec.handicap} ({side}) from {ratings}; handicap rule: {rule}."
    return f"Even game from {ratings}; handicap rule: {rule}."


# --- tiebreaks ----------------------------------------------------------------------------


def _part(c: Contribution, name_of: NameOf, what: str = "phantom") -> str:
    if c.opponent is None:
        return f"R{c.round} bye ({what} {_score(c.value)})"
    return f"R{c.round} {name_of(c.opponent)} {_score(c.value)}"


def _sum(parts: Sequence[str], total: float | None) -> str:
    shown = " + ".join(parts) if parts else "nothing yet"
    return f"{shown} = {_score(total or 0.0)}"


def explain_tiebreak(
    ctx: TiebreakContext, name: str, player: PlayerId, value: float | None, name_of: NameOf
) -> str:
    """How ``player``'s value of the tiebreak ``name`` was made, with its sum."""
    tb = resolve(name)
    key = tb.name
    credit = " An opponent counts 0.5 more for each bye they asked for or game they missed."
    if key == "SOS":
        parts = [_part(c, name_of) for c in ctx.contributions[player]]
        return "Sum of your opponents' McMahon scores: " + _sum(parts, value) + "." + credit
    if key == "SODOS":
        parts = [
            _part(c, name_of) + ("" if c.weight == 1 else " \u00d7 \u00bd")
            for c in ctx.contributions[player]
            if c.weight > 0
        ]
        return "Sum of the McMahon scores of the opponents you beat: " + _sum(parts, value) + "."
    if key in ("SOS-1", "SOS-2"):
        drop = 1 if key == "SOS-1" else 2
        kept = sorted(ctx.contributions[player], key=lambda c: c.value)[drop:]
        kept.sort(key=lambda c: c.round)
        return (
            f"Your opponents' McMahon scores without the lowest {drop}: "
            + _sum([_part(c, name_of) for c in kept], value)
            + "."
        )
    if key in ("BGA SOS", "BGA SODOS"):
        chosen = [c for c in ctx.bga_contributions[player] if key == "BGA SOS" or c.weight > 0]
        parts = [_part(c, name_of, "own initial score") for c in chosen]
        return tb.doc.split("\n")[0] + " " + _sum(parts, value) + "."
    if key == "SOSOS":
        parts = [
            f"R{c.round} {name_of(c.opponent)} {_score(ctx.sos[c.opponent])}"
            if c.opponent is not None
            else f"R{c.round} bye (own SOS {_score(ctx.sos[player])})"
            for c in ctx.contributions[player]
        ]
        return "Sum of your opponents' SOS: " + _sum(parts, value) + "."
    if key == "CUSS":
        history = ctx.history[player][1:]
        parts = [f"R{i} {_score(s)}" for i, s in enumerate(history, start=1)]
        return "Sum of your McMahon score after each round: " + _sum(parts, value) + "."
    if key == "Face to face":
        if value is None:
            return (
                "Face to face: used only among players tied on everything above who all "
                "met each other; it does not apply to you now."
            )
        return (
            "Face to face: points you scored against the players tied with you on everything "
            f"above: {_score(value)}."
        )
    if key == "Random":
        return (
            "Random draw: a number fixed by the tournament's seed and your AGA number, the "
            f"same on every computer: {value:.3f}."
            if value is not None
            else "Random draw."
        )
    first = tb.doc.split("\n\n")[0].replace("\n", " ")
    return f"{first} {_score(value) if value is not None else 'does not apply'}."


def player_facts(t: Tournament, pid: PlayerId) -> Mapping[str, str]:
    """Rank and rating as a player page shows them."""
    p = t.players.get(pid)
    rating = rating_of(p)
    return {
        "rank": rank_label(p),
        "rating": f"{rating:.2f}" if rating is not None else "",
    }
