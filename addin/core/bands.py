"""McMahon bands, their separations and the initial McMahon scores (AGA protocol, Initialization).

Bands as rows
-------------
The workbook stores one row per band: number, label, min rating, players, separation,
separation override, initial score. ``Band.min_rating`` is inclusive: a player belongs to the
first band, from the top, whose min rating is at or below the player's entry rating. Built
bands start at a rank boundary (4d -> 4.0, 3k -> -3.99999 since -4.0 is already 4k), so a late
arrival lands in the band of their rank.

* :func:`build_bands` builds the rows from scratch (the bar, one rank per band, small bands
  merged).
* :func:`rebuild_bands` takes the rows as the TD left them and recomputes labels, counts,
  separations and initial scores, keeping every separation override and player band override.
  To merge a band into the one below, delete its row; to merge it into the one above, delete it
  and lower the min rating of the band above. Rows are renumbered 1..n from the top and player
  band overrides follow their band (``Banding.renumbered``).
* A player rated below the lowest band joins the lowest band, as the BGA "bottom bar" promotes
  weaker players to it. No one else's initial score moves, and with "0 at bottom" the late
  arrival does not go below the offset. ``Banding.below_floor`` lists them for a warning.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import NamedTuple

from addin.core import sleeping, supergroup
from addin.core.grades import bottom_floor, grade_points, is_grade_scale
from addin.core.limits import MAX_SCORE, number_said, shown
from addin.core.model import Band, Player, PlayerId, ScoreOrigin, Settings, Tournament
from addin.core.ratings import RatingError, entry_rating, rank_floor, rank_of

MIN_BAND_SIZE = 4
"""Smallest band a build leaves alone, whatever the number of rounds (see min_band_size)."""


class BandError(ValueError):
    """A banding input the TD must fix; ``band``, ``player`` or ``setting`` locate the cell."""

    def __init__(
        self,
        message: str,
        *,
        band: int | None = None,
        player: PlayerId | None = None,
        setting: str | None = None,
    ) -> None:
        super().__init__(message)
        self.band = band
        self.player = player
        self.setting = setting


@dataclass(frozen=True)
class Banding:
    """Everything a band computation decides, ready to be written back."""

    bands: tuple[Band, ...]
    counts: dict[int, int]
    """Band number -> players in it (after overrides)."""
    band_of: dict[PlayerId, int]
    """Band from rating, bar and ``above_bar``: ``Player.band``."""
    band_overrides: dict[PlayerId, int]
    """The TD's band overrides, renumbered: ``Player.band_override``."""
    initial_scores: dict[PlayerId, float]
    below_floor: tuple[PlayerId, ...] = ()
    """Players rated below the lowest band, placed in it: warn the TD."""
    renumbered: dict[int, int] = field(default_factory=dict)
    """Band number as given -> band number now."""
    cleared_overrides: tuple[PlayerId, ...] = ()
    """Band overrides a fresh build discarded: confirm with the TD first."""
    supergroup: tuple[PlayerId, ...] = ()
    """Top-band players promoted one point above the bar (spec 4.2.3), strongest first."""
    sleepers_out_of_top: tuple[PlayerId, ...] = ()
    """Top-band players who asked to sleep, started one point below the bar (spec 4.3)."""

    def sizes(self) -> str:
        """The bands and their sizes in words: "3 bands of 19, 17 and 10 players"."""
        counts = [str(self.counts.get(band.number, 0)) for band in self.bands]
        if len(counts) == 1:
            return f"1 band of {counts[0]} player{'' if counts[0] == '1' else 's'}"
        listed = ", ".join(counts[:-1]) + f" and {counts[-1]}" if counts else "no"
        return f"{len(counts)} bands of {listed} players"

    def effective_band(self, player: PlayerId) -> int:
        return self.band_overrides.get(player, self.band_of[player])


def _check_settings(rounds: int, d: float) -> None:
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise BandError(
            f"rounds must be a whole number of at least 1, not {rounds!r}", setting="rounds"
        )
    if isinstance(d, bool) or not isinstance(d, int | float) or not (math.isfinite(d) and d > 0):
        raise BandError(f"band parameter D must be a number above 0, not {d!r}", setting="band_d")


def max_separation(rounds: int) -> int:
    """R/3 rounded up: 2 for a six-round tournament."""
    return -(-rounds // 3)


def min_band_size(rounds: int) -> int:
    """A built band holds at least max(4, R) players when the field allows.

    Enough players to pair the band within itself for the first rounds; smaller bands make
    their players float from round 1 and give SOS little to separate.
    """
    return max(MIN_BAND_SIZE, rounds)


def separation(p: int, rounds: int, d: float) -> int:
    """Points between a band of ``p`` players and the band above: int(D*P/R) in [1, ceil(R/3)]."""
    _check_settings(rounds, d)
    if p < 0:
        raise BandError(f"a band cannot hold {p} players")
    raw = math.floor(round(d * p / rounds, 9))
    return min(max(raw, 1), max_separation(rounds))


def initial_scores(separations: Sequence[int], origin: ScoreOrigin, offset: float) -> list[float]:
    """Initial score of each band, top first. ``separations[i]`` is band i+1's gap to band i
    (``separations[0]`` is ignored). TOP: the top band has 0; BOTTOM: the lowest has ``offset``.
    """
    scores: list[float] = []
    for index, gap in enumerate(separations):
        scores.append(0.0 if index == 0 else scores[-1] - gap)
    if origin is ScoreOrigin.BOTTOM and scores:
        shift = offset - scores[-1]
        scores = [score + shift for score in scores]
    return scores


def _rating(player: Player) -> float:
    try:
        return entry_rating(player)
    except RatingError as error:
        raise BandError(str(error), player=player.aga_id) from error


def _label(ratings: Sequence[float]) -> str:
    if not ratings:
        return "(no players)"
    weakest, strongest = rank_of(min(ratings)), rank_of(max(ratings))
    return weakest if weakest == strongest else f"{weakest}-{strongest}"


def _validated_rows(bands: Sequence[Band]) -> list[Band]:
    numbers = [band.number for band in bands]
    for band in bands:
        if numbers.count(band.number) > 1:
            raise BandError(f"two bands are numbered {band.number}", band=band.number)
        if not math.isfinite(band.min_rating):
            raise BandError(f"band {band.number} has no usable min rating", band=band.number)
        override = band.separation_override
        if override is not None and (isinstance(override, bool) or not 0 <= override <= MAX_SCORE):
            raise BandError(
                f"band {band.number}: separation override must be from 0 to "
                f"{number_said(MAX_SCORE)}, "
                f"not {shown(override)}",
                band=band.number,
            )
    rows = sorted(bands, key=lambda band: -band.min_rating)
    for upper, lower in pairwise(rows):
        if upper.min_rating == lower.min_rating:
            raise BandError(
                f"bands {upper.number} and {lower.number} have the same min rating "
                f"{lower.min_rating}",
                band=lower.number,
            )
    if rows and rows[0].separation_override is not None:
        raise BandError(
            f"band {rows[0].number} is the top band: it has no band above to be separated from;"
            " clear its separation override",
            band=rows[0].number,
        )
    return rows


def rebuild_bands(bands: Sequence[Band], players: Iterable[Player], settings: Settings) -> Banding:
    """Recompute the TD's band rows: counts, separations, initial scores and labels.

    Keeps separation overrides (0 is allowed: two bands then share a score) and player band
    overrides; ``above_bar`` players go to the top band. Every player passed counts towards
    the band sizes: pass only those who should (dropped players before round 1, say).
    Labels are recomputed from the ranks of the players the rating places in each band.
    """
    _check_settings(settings.rounds, settings.band_d)
    field_ = sorted(players, key=lambda player: player.aga_id)
    rows = _validated_rows(bands)
    if not rows:
        if field_:
            raise BandError("there are no bands: build them before assigning initial scores")
        return Banding((), {}, {}, {}, {})
    renumbered = {row.number: index + 1 for index, row in enumerate(rows)}

    band_of: dict[PlayerId, int] = {}
    overrides: dict[PlayerId, int] = {}
    below_floor: list[PlayerId] = []
    label_ratings: dict[int, list[float]] = {number: [] for number in range(1, len(rows) + 1)}
    for player in field_:
        rating = _rating(player)
        number = next((i + 1 for i, row in enumerate(rows) if rating >= row.min_rating), None)
        if number is None:
            if not player.above_bar:
                below_floor.append(player.aga_id)
        else:
            label_ratings[number].append(rating)
        band_of[player.aga_id] = 1 if player.above_bar else (number or len(rows))
        if player.band_override is not None:
            if player.band_override not in renumbered:
                raise BandError(
                    f"player {player.aga_id} {player.name}: band override {player.band_override}"
                    f" names no band (bands are {', '.join(map(str, sorted(renumbered)))})",
                    player=player.aga_id,
                )
            overrides[player.aga_id] = renumbered[player.band_override]

    counts = {number: 0 for number in range(1, len(rows) + 1)}
    for player_id, number in band_of.items():
        counts[overrides.get(player_id, number)] += 1

    scale = settings.options.grade_scale
    computed: list[int | None] = [None]
    for number in range(2, len(rows) + 1):
        if is_grade_scale(scale):  # spec 4.1: one point per grade between bands
            upper, lower = rows[number - 2].min_rating, rows[number - 1].min_rating
            computed.append(grade_points(upper, scale) - grade_points(lower, scale))
        elif number == 2 and settings.top_band_separation_one:
            computed.append(1)
        else:
            computed.append(separation(counts[number], settings.rounds, settings.band_d))
    gaps = [
        0
        if i == 0 or gap is None
        else (row.separation_override if row.separation_override is not None else gap)
        for i, (row, gap) in enumerate(zip(rows, computed, strict=True))
    ]
    if is_grade_scale(scale):  # the top band's own grade; every band below by its gaps
        top = grade_points(rows[0].min_rating, scale)
        scores = [top + score for score in initial_scores(gaps, ScoreOrigin.TOP, 0)]
    else:
        scores = initial_scores(gaps, settings.score_origin, settings.bottom_score_offset)
    for i, score in enumerate(scores):
        if not -MAX_SCORE <= score <= MAX_SCORE:
            raise BandError(
                f"band {i + 1}: its initial score would be {number_said(score)}, beyond "
                f"{number_said(-MAX_SCORE)}..{number_said(MAX_SCORE)}; lower the separation "
                "overrides or the bottom score offset",
                band=rows[i].number,
            )
    new_rows = tuple(
        Band(
            number=i + 1,
            label=_label(label_ratings[i + 1]),
            min_rating=row.min_rating,
            separation=computed[i],
            separation_override=row.separation_override,
            initial_score=scores[i],
        )
        for i, row in enumerate(rows)
    )
    player_scores = {
        player_id: scores[overrides.get(player_id, number) - 1]
        for player_id, number in band_of.items()
    }
    in_top = [p for p in field_ if overrides.get(p.aga_id, band_of[p.aga_id]) == 1]
    out = tuple(p.aga_id for p in in_top if sleeping.top_group_drop(settings, p.bye_requests))
    top_group = [(p.aga_id, _rating(p)) for p in in_top if p.aga_id not in out]
    promoted = supergroup.promoted(top_group, settings.options.supergroup, settings.rounds)
    for player_id in promoted:
        player_scores[player_id] += 1
    for player_id in out:  # spec 4.3: no sleeping in the top group
        player_scores[player_id] = scores[0] - 1
    return Banding(
        bands=new_rows,
        counts=counts,
        band_of=band_of,
        band_overrides=overrides,
        initial_scores=player_scores,
        below_floor=tuple(below_floor),
        renumbered=renumbered,
        supergroup=promoted,
        sleepers_out_of_top=out,
    )


class _Group(NamedTuple):
    ranks: tuple[str, ...]
    size: int


def _merge_small(groups: list[_Group], fixed_top: bool, minimum: int) -> list[_Group]:
    """Merge every group under ``minimum`` into a neighbour until none is left or all are one.

    The smallest group goes first (the weaker one on a tie), into its smaller neighbour (the
    one above on a tie); a fixed top band (the bar) never takes part.
    """
    groups = list(groups)
    first = 1 if fixed_top else 0
    while len(groups) - first > 1:
        small = [i for i in range(first, len(groups)) if groups[i].size < minimum]
        if not small:
            break
        index = min(small, key=lambda i: (groups[i].size, -i))
        neighbours = [i for i in (index - 1, index + 1) if first <= i < len(groups)]
        other = min(neighbours, key=lambda i: (groups[i].size, i))
        upper, lower = sorted((index, other))
        merged = _Group(
            groups[upper].ranks + groups[lower].ranks, groups[upper].size + groups[lower].size
        )
        groups[upper : lower + 1] = [merged]
    return groups


def build_bands(players: Iterable[Player], settings: Settings) -> Banding:
    """Build band rows from scratch and compute everything :func:`rebuild_bands` computes.

    The top band holds players rated at or above ``settings.bar`` and those marked
    ``above_bar``; below it each rank is a band, and bands smaller than
    :func:`min_band_size` merge with a neighbour (``_merge_small``). Without a bar the top
    band is just the strongest group (``above_bar`` players join it). Player band overrides
    cannot survive a renumbering from scratch: they are cleared and listed in
    ``cleared_overrides``.
    """
    _check_settings(settings.rounds, settings.band_d)
    field_ = sorted(players, key=lambda player: player.aga_id)
    if not field_:
        return Banding((), {}, {}, {}, {})
    ratings = {player.aga_id: _rating(player) for player in field_}
    bar = settings.bar
    if bar is not None and not math.isfinite(bar):
        raise BandError(f"the bar {bar!r} is not a rating", setting="bar")

    top = [p for p in field_ if p.above_bar or (bar is not None and ratings[p.aga_id] >= bar)]
    top_ids = {p.aga_id for p in top}
    rest = [p for p in field_ if p.aga_id not in top_ids]
    scale = settings.options.grade_scale
    graded = is_grade_scale(scale)
    floor = bottom_floor(scale) if graded else -math.inf
    sizes: dict[str, int] = {}
    for player in sorted(rest, key=lambda p: -ratings[p.aga_id]):
        rank = rank_of(max(ratings[player.aga_id], floor))  # spec 6.2: the bottom bar promotes
        sizes[rank] = sizes.get(rank, 0) + 1
    groups = [_Group((rank,), size) for rank, size in sizes.items()]
    fixed_top = bar is not None and bool(top)
    if fixed_top:
        groups.insert(0, _Group((), len(top)))
    elif top:  # no bar: above-bar players join the strongest group
        if groups:
            groups[0] = _Group(groups[0].ranks, groups[0].size + len(top))
        else:
            groups = [_Group((), len(top))]
    if not graded:  # spec 4.1: on a grade scale every grade is its own group
        groups = _merge_small(groups, fixed_top, min_band_size(settings.rounds))

    rows: list[Band] = []
    for index, group in enumerate(groups):
        if index == 0 and fixed_top:
            assert bar is not None
            min_rating = bar
        elif group.ranks:
            min_rating = rank_floor(group.ranks[-1])
        else:
            min_rating = min(ratings.values())
        if graded and index == len(groups) - 1 and rest:  # the bottom bar's promoted players
            min_rating = min(min_rating, *(ratings[p.aga_id] for p in rest))
        rows.append(Band(number=index + 1, label="", min_rating=min_rating))
    cleared = tuple(p.aga_id for p in field_ if p.band_override is not None)
    fresh = [replace(p, band_override=None) for p in field_]
    return replace(rebuild_bands(rows, fresh, settings), cleared_overrides=cleared)


def why_no_bands(scores: Iterable[float]) -> str | None:
    """Why initial scores cannot be Bands rows (each band below the top separated from the
    one above by a whole number of points, at most the most a separation may be), or None
    when they can."""
    ordered = sorted(set(scores), reverse=True)
    gaps = [upper - lower for upper, lower in pairwise(ordered)]
    if any(not gap.is_integer() for gap in gaps):
        return "they are not whole numbers apart"
    if any(gap > MAX_SCORE for gap in gaps):
        return f"two of them are more than {number_said(MAX_SCORE)} points apart"
    return None


def bands_from_scores(
    players: Iterable[Player], settings: Settings
) -> tuple[Banding, Settings] | None:
    """Band rows that give every player who has an initial score exactly that score.

    For an event carried on from a report (AGA XML, Eggplant, OpenGotha): the players who
    share an initial score form a band, top score first. Each band's lowest rating is the
    lowest entry rating among its players (kept below the band above); a player whose
    rating would place them elsewhere gets a band override, and every band below the top
    a separation override equal to its gap, so :func:`rebuild_bands` (what ``bands`` runs
    next) gives back the very same scores. The settings returned carry the score origin
    that reproduces them: "0 at top" when the top score is 0, else "0 at bottom" with the
    lowest score as its offset. Players without an initial score are placed by rating.
    None when no player has a score or the scores cannot be separations
    (:func:`why_no_bands`): the players keep their scores without rows.
    """
    field_ = sorted(players, key=lambda player: player.aga_id)
    scored = [p for p in field_ if p.initial_score is not None]
    if not scored:
        return None
    scores = sorted({float(s) for p in scored if (s := p.initial_score) is not None}, reverse=True)
    gaps = [upper - lower for upper, lower in pairwise(scores)]
    if why_no_bands(scores) is not None:
        return None
    if scores[0] == 0:
        settings = replace(settings, score_origin=ScoreOrigin.TOP)
    else:
        settings = replace(
            settings, score_origin=ScoreOrigin.BOTTOM, bottom_score_offset=scores[-1]
        )
    number_of = {score: i + 1 for i, score in enumerate(scores)}
    ratings = {p.aga_id: _rating(p) for p in field_}
    floors: list[float] = []
    for score in scores:
        lowest = min(ratings[p.aga_id] for p in scored if p.initial_score == score)
        if floors and lowest >= floors[-1]:
            lowest = floors[-1] - 0.01
        floors.append(lowest)
    rows = [
        Band(
            number=i + 1,
            label="",
            min_rating=floor,
            separation_override=None if i == 0 else int(gaps[i - 1]),
        )
        for i, floor in enumerate(floors)
    ]
    placed = []
    for p in field_:
        natural = next((i + 1 for i, f in enumerate(floors) if ratings[p.aga_id] >= f), len(rows))
        if p.above_bar:
            natural = 1
        wanted = number_of[float(p.initial_score)] if p.initial_score is not None else None
        override = wanted if wanted is not None and wanted != natural else None
        placed.append(replace(p, band_override=override))
    return rebuild_bands(rows, placed, settings), settings


def band_for_rating(bands: Sequence[Band], rating: float) -> int:
    """Number of the band a rating belongs to (the lowest band if it is below them all)."""
    rows = sorted(bands, key=lambda band: -band.min_rating)
    if not rows:
        raise BandError("there are no bands")
    return next((row.number for row in rows if rating >= row.min_rating), rows[-1].number)


def assign_initial_scores(tournament: Tournament) -> dict[PlayerId, float]:
    """Initial McMahon score of every player: from the band rows, or built bands if none."""
    players = tournament.players.values()
    if tournament.bands:
        return rebuild_bands(tournament.bands, players, tournament.settings).initial_scores
    return build_bands(players, tournament.settings).initial_scores


class BarStyle(enum.Enum):
    BGA = "BGA"
    EGF = "EGF"
    TOYOTA = "Toyota Tour"


BAR_POPULATION: dict[BarStyle, dict[int, tuple[int, int]]] = {
    BarStyle.BGA: {
        3: (4, 8), 4: (5, 10), 5: (6, 12), 6: (7, 15), 7: (8, 18),
        8: (9, 22), 9: (10, 26), 10: (11, 30), 11: (12, 35), 12: (13, 40),
    },
    BarStyle.EGF: {5: (10, 16), 6: (12, 24), 7: (15, 30), 8: (20, 40), 9: (25, 50), 10: (35, 60)},
    BarStyle.TOYOTA: {5: (10, 12), 6: (12, 16)},
}  # fmt: skip
"""Population at or above the bar by number of rounds (BGA spec 4.2.1, 4.2.2 and note 2)."""


def bar_style(settings: Settings) -> BarStyle:
    """The bar population table the Tournament sheet's "Bar population table" chooses."""
    return BarStyle(settings.options.bar_table.value)


EGF_BAR_RANK = "4d"


class BarSuggestion(NamedTuple):
    rank: str
    bar: float
    """Value for ``Settings.bar``: the lowest rating of ``rank``."""
    population: int
    low: int
    high: int

    @property
    def within_range(self) -> bool:
        return self.low <= self.population <= self.high


def suggest_bar(
    ratings: Iterable[float],
    rounds: int,
    style: BarStyle = BarStyle.BGA,
    supergroup_above: int | None = None,
) -> BarSuggestion:
    """European option: a bar from the field and the bar population tables.

    BGA: from the strongest rank present, lower the bar rank by rank while the population
    at or above it stays within the table's maximum. EGF and Toyota Tour: the bar is 4d; if
    too many are at or above it, raise it rank by rank until the population fits; if too few,
    lower it while it stays within the maximum. (The supergroup is
    :mod:`addin.core.supergroup`'s.) A rank is never split.

    ``supergroup_above``: with a supergroup, more than this many at 4d form one and "the
    McMahon bar remains at 4 dan" (spec 4.2.3), however many are above it.
    """
    table = BAR_POPULATION[style]
    if rounds not in table:
        raise BandError(
            f"the {style.value} bar table covers {min(table)} to {max(table)} rounds, not {rounds}",
            setting="rounds",
        )
    low, high = table[rounds]
    counts: dict[str, int] = {}
    for rating in ratings:
        counts[rank_of(rating)] = counts.get(rank_of(rating), 0) + 1
    if not counts:
        raise BandError("there are no players to set a bar for")
    ranks = sorted(counts, key=rank_floor, reverse=True)
    populations = [sum(counts[r] for r in ranks[: i + 1]) for i in range(len(ranks))]

    if style is BarStyle.BGA:
        fitting = [i for i, pop in enumerate(populations) if pop <= high]
        index = fitting[-1] if fitting else 0
    else:
        floor = rank_floor(EGF_BAR_RANK)
        at_or_above = [i for i, rank in enumerate(ranks) if rank_floor(rank) >= floor]
        index = at_or_above[-1] if at_or_above else 0
        if supergroup_above is not None and at_or_above and populations[index] > supergroup_above:
            return BarSuggestion(EGF_BAR_RANK, floor, populations[index], low, high)
        while index > 0 and populations[index] > high:
            index -= 1
        while (
            populations[index] < low and index + 1 < len(ranks) and populations[index + 1] <= high
        ):
            index += 1
    rank = ranks[index]
    return BarSuggestion(rank, rank_floor(rank), populations[index], low, high)


TOP_BAND_RANKS = 3
"""A proposed top band spans at most this many ranks: the strongest present and two below."""
HIGHEST_BAR = "9d"
"""The strongest bar the AGA formats carry (Eggplant's mmbar is 1-99 K or D, no pro ranks)."""


class BarProposal(NamedTuple):
    """The bar proposed when the TD typed none, and why (:func:`propose_bar`)."""

    rank: str
    bar: float
    population: int
    high: int
    """Most players at or above the bar: the BGA table's maximum for the rounds."""
    strongest: str
    why: str


def _rank_step(rank: str) -> int:
    """Ranks as steps, 1k and 1d adjacent: 2d -> 2, 1d -> 1, 1k -> 0, 2k -> -1."""
    number = int(rank[:-1])
    return number if rank.endswith("d") else 1 - number


def propose_bar(ratings: Iterable[float], rounds: int) -> BarProposal:
    """The bar to propose for a field when the TD typed none.

    The AGA protocol's bar takes "all players who have a realistic chance of winning", and
    a new tournament plays the top band even. So, from the strongest rank present, the bar
    is lowered rank by rank while (1) at most the BGA table's maximum population stays at
    or above it and (2) the top band spans at most :data:`TOP_BAND_RANKS` ranks, so that
    no even top band game sets a player against someone many stones weaker. The bar is never above
    :data:`HIGHEST_BAR` (a professional field's bar is 9d): the AGA formats carry no
    professional rank. A rank is never split.
    """
    cap = rank_floor(HIGHEST_BAR)
    counts: dict[str, int] = {}
    for rating in ratings:
        rank = rank_of(min(rating, cap))
        counts[rank] = counts.get(rank, 0) + 1
    if not counts:
        raise BandError("there are no players to set a bar for")
    table = BAR_POPULATION[BarStyle.BGA]
    if rounds not in table:
        raise BandError(
            f"the BGA bar table covers {min(table)} to {max(table)} rounds, not {rounds}",
            setting="rounds",
        )
    high = table[rounds][1]
    source = f"the BGA table for {rounds} rounds"
    ranks = sorted(counts, key=rank_floor, reverse=True)
    strongest = ranks[0]
    index, population, limit = 0, counts[strongest], ""
    for i in range(1, len(ranks)):
        if population + counts[ranks[i]] > high:
            limit = "population"
            break
        if _rank_step(strongest) - _rank_step(ranks[i]) >= TOP_BAND_RANKS:
            limit = "spread"
            break
        index, population = i, population + counts[ranks[i]]
    rank = ranks[index]
    if limit == "spread":
        why = (
            f"the top band keeps to the {TOP_BAND_RANKS} ranks from the strongest player "
            f"({strongest}) down, the players with a realistic chance of winning (AGA "
            "protocol), so that no top band game, even with 'Top band games even', sets a "
            f"player against one many stones weaker; {population} players at or above it "
            f"(at most {high} by {source})"
        )
    else:
        why = (
            f"{population} players at or above it (at most {high} by {source}); the top "
            f"band spans {_rank_step(strongest) - _rank_step(rank) + 1} rank(s) down from "
            f"{strongest} (at most {TOP_BAND_RANKS})"
        )
    return BarProposal(rank, rank_floor(rank), population, high, strongest, why)
