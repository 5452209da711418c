"""Bands for an imported event, so that its next round pairs at once.

A report written during an event (AGA XML, Eggplant, OpenGotha) carries each player's
initial McMahon score: those scores are what the rounds played were paired and scored
with, so they are kept exactly. A file that has its own McMahon groups (OpenGotha's, one a
rank) gives the Bands sheet those; otherwise the bands are made from the scores
(:func:`addin.core.bands.bands_from_scores`). ``bands`` run later rebuilds the same scores.
A report without scores (the AGA text format) gets bands built from the ranks as ``bands``
builds them, with the bar the Tournament sheet gives or the one :func:`propose_bar` proposes.
Either way the import says once what it did, and the TD may review it with ``bands``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from addin.core.bands import (
    BandError,
    Banding,
    bands_from_scores,
    build_bands,
    propose_bar,
    why_no_bands,
)
from addin.core.limits import number_said
from addin.core.model import Band, Player, PlayerId, Settings, Status, Tournament
from addin.core.ratings import RatingError, entry_rating, rank_of

SHOWN = 5
"""Players a note names before it says "and N more"."""


@dataclass
class ImportedBands:
    """What the import writes: the players with band and score, the Bands rows, the
    settings (score origin, a proposed bar) and one note for the TD."""

    players: dict[PlayerId, Player]
    bands: list[Band] = field(default_factory=list)
    settings: Settings | None = None
    changed: frozenset[str] = frozenset()
    """The :class:`Settings` fields ``settings`` changes."""
    note: str = ""
    counts: dict[int, int] = field(default_factory=dict)
    """Band number -> players in it."""


def imported_bands(t: Tournament) -> ImportedBands:
    """Bands and initial scores for the imported tournament ``t`` (see the module)."""
    settings = t.settings
    if settings.pairing_format.casefold() != "mcmahon" or not t.players:
        return ImportedBands(dict(t.players))
    field_ = [p for p in t.players.values() if _rated(p)]
    unrated = [p for p in t.players.values() if not _rated(p) and p.status is Status.ACTIVE]
    if unrated:
        return ImportedBands(
            dict(t.players),
            note=f"No bands were built: {_names(unrated)} have no rank or rating; type them "
            "in the Players sheet, then run bands before pairing",
        )
    if t.bands:
        return _from_file(t)
    if any(p.initial_score is not None for p in field_):
        return _from_scores(t, field_)
    return _from_ranks(t, field_)


def _from_scores(t: Tournament, field_: list[Player]) -> ImportedBands:
    derived = bands_from_scores(field_, t.settings)
    if derived is None:
        why = why_no_bands(float(p.initial_score) for p in field_ if p.initial_score is not None)
        return ImportedBands(
            dict(t.players),
            note=f"The file's initial McMahon scores make no Bands rows ({why}): they are "
            "kept as they are (pair uses them; bands would replace them)",
        )
    banding, settings = derived
    unscored = [p for p in field_ if p.initial_score is None]
    players = _placed(t, banding)
    note = (
        f"Bands: {len(banding.bands)} from the file's initial McMahon scores "
        f"({_scores(banding.bands)}); every player keeps the file's score, so the next round "
        "pairs with them"
    )
    overrides = len(banding.band_overrides)
    if overrides:
        note += f"; {overrides} band override(s) keep players whose rating lies in another band"
    if settings.score_origin is not t.settings.score_origin or (
        settings.bottom_score_offset != t.settings.bottom_score_offset
    ):
        origin = settings.score_origin
        offset = (
            f", lowest band {number_said(settings.bottom_score_offset)}"
            if origin.name == "BOTTOM"
            else ""
        )
        note += f"; Initial scores set to '{origin.value}'{offset} to match"
    if unscored:
        note += (
            f". The file gives no initial score for {_names(unscored)}: placed by rating "
            "in the band their rating reaches"
        )
    changed = frozenset(
        f for f in ("score_origin", "bottom_score_offset") if _differs(settings, t.settings, f)
    )
    return ImportedBands(players, list(banding.bands), settings, changed, note, banding.counts)


def _from_file(t: Tournament) -> ImportedBands:
    """The file's own McMahon groups (OpenGotha's), kept as the reader made them: every
    player keeps the band and the score the file gives (a score correction included)."""
    counts = Counter(
        p.band for p in t.players.values() if p.status is Status.ACTIVE and p.band is not None
    )
    note = (
        f"Bands: {len(t.bands)} from the file's McMahon groups ({_scores(t.bands)}); every "
        "player keeps the file's score, so the next round pairs with them"
    )
    return ImportedBands(dict(t.players), list(t.bands), note=note, counts=dict(counts))


def _scores(bands: list[Band] | tuple[Band, ...]) -> str:
    """The bands' initial scores, top first: all of them, or the range when there are many."""
    scores = sorted({b.initial_score for b in bands if b.initial_score is not None})
    if len(scores) <= SHOWN:
        return ", ".join(number_said(s) for s in reversed(scores))
    return f"{number_said(scores[-1])} down to {number_said(scores[0])}"


def _from_ranks(t: Tournament, field_: list[Player]) -> ImportedBands:
    settings = t.settings
    why = ""
    if settings.bar is None:
        try:
            proposal = propose_bar([entry_rating(p) for p in field_], settings.rounds)
        except BandError:
            proposal = None
        if proposal is not None:
            settings = replace(settings, bar=proposal.bar)
            why = f"proposed: {proposal.why}"
    try:
        banding = build_bands(field_, settings)
    except BandError as err:
        return ImportedBands(
            dict(t.players), note=f"No bands were built ({err}): run bands before pairing"
        )
    bar = (
        f"bar {rank_of(settings.bar)}" + (f", {why}" if why else ", the Tournament sheet's")
        if settings.bar is not None
        else "no bar"
    )
    note = (
        "The file carries no initial McMahon scores: bands built from the ranks as bands "
        f"would build them ({banding.sizes()}; {bar}); the next "
        "round pairs with them. Review them with bands (or bands --fresh after changing the "
        "bar) before pairing if the event used others"
    )
    changed = frozenset({"bar"}) if settings.bar != t.settings.bar else frozenset()
    return ImportedBands(
        _placed(t, banding), list(banding.bands), settings, changed, note, banding.counts
    )


def _placed(t: Tournament, banding: Banding) -> dict[PlayerId, Player]:
    return {
        pid: replace(
            p,
            band=banding.band_of.get(pid, p.band),
            band_override=banding.band_overrides.get(pid),
            initial_score=banding.initial_scores.get(pid, p.initial_score),
        )
        for pid, p in t.players.items()
    }


def _rated(p: Player) -> bool:
    try:
        entry_rating(p)
    except RatingError:
        return False
    return True


def _differs(a: Settings, b: Settings, name: str) -> bool:
    return bool(getattr(a, name) != getattr(b, name))


def _names(players: list[Player]) -> str:
    shown = ", ".join(p.name for p in players[:SHOWN])
    more = len(players) - SHOWN
    return f"{shown} and {more} more" if more > 0 else shown
