"""The candidate graph: which games the matching may choose, and their weights.

Nodes are the pool indices (field order) plus, for an odd field, one bye node. An edge is
an allowed game: no rematch, no prohibited pair (criterion 1 and Manual pairing). A
second forced bye for a non-volunteer is never an edge either (:mod:`.bye`).

For large fields the graph is *sparse*: each player is joined to the players next to it
in the field (floats, merges, switches), to those around its split-and-shift partner
(transpositions, alternate floaters) and, under restricted colours, to the nearest ones
who can take the colour it must leave; windows count *allowed* opponents, so rematches
never thin them out, and small groups are complete. Between passes the engine widens the
graph around players whose games break a desirable rule (:func:`widen`). When the sparse
graph has no perfect matching the engine retries with a denser one and finally the
complete graph, so speed never costs a valid pairing.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import chain

from addin.core.european import GroupPairing
from addin.core.pairing.field import Field
from addin.core.pairing.problem import Problem
from addin.core.pairing.structure import Structure
from addin.core.pairing.weights import TIERS, TROUBLE_TIERS, Context


class Density(enum.Enum):
    SPARSE = "sparse"
    DENSER = "denser"
    COMPLETE = "complete"


@dataclass(frozen=True)
class Window:
    neighbours: int
    """Players joined on each side in field order."""
    partner: int
    """Players joined on each side of the split-and-shift partner."""
    full: int
    """Layouts up to this size are joined completely."""


WINDOWS = {Density.SPARSE: Window(4, 6, 24), Density.DENSER: Window(12, 18, 64)}
COLOR_MATES = 4
"""Players joined, around the split-and-shift partner, who can take the colour that a
player with a colour restriction needs to leave him (sparse graphs)."""
BALANCE_MATES = 2
"""Players joined on each side of a player's colour partner: the player of the other half
of the group, rank for rank, who has had more of the other colour (sparse graphs)."""
WIDE = 40
"""Players joined on each side (in field order and around the partner) of a player whose
game breaks a desirable rule, before the next pass: the sparse graph widens where the
pairing is hard, so the sparse optimum matches the complete one."""
WIDEN_AT_MOST = 48
"""Players widened per pass: where trouble is everywhere, widening is no longer cheap."""
_TROUBLE = tuple(TIERS.index(t) for t in TIERS if t.name in TROUBLE_TIERS)


def candidate_pairs(
    field: Field,
    ctx: Context,
    structure: Structure,
    density: Density,
    extra: Iterable[int] = (),
    memo: GraphMemo | None = None,
) -> list[tuple[int, int]]:
    """Allowed games (i < j, pool indices) of the graph of the given density, sorted.

    ``extra``: more pair keys (``i * n + j``) to include, see :func:`widen`.
    ``memo``: what earlier passes of the same round already computed (same result).
    """
    n = len(field.pool)
    memo = memo if memo is not None else GraphMemo(field, ctx)
    if density is Density.COMPLETE:
        keys = {i * n + j for i in range(n) for j in range(i + 1, n)}
    else:
        keys = memo.sparse(density).keys(structure)
        keys.update(extra)
    return [divmod(k, n) for k in sorted(keys - memo.banned)]


class GraphMemo:
    """The parts of the candidate graph that do not change between the passes of one
    round: banned pairs, field-order windows and the windows of every score-group line
    already seen (a pass usually changes the layout of a few groups only). Recomputing
    them each pass was most of the graph's cost once colour restrictions pile up."""

    def __init__(self, field: Field, ctx: Context) -> None:
        self.field, self.ctx = field, ctx
        self.banned = banned_keys(field)
        self._sparse: dict[Density, _Sparse] = {}

    def sparse(self, density: Density) -> _Sparse:
        if density not in self._sparse:
            self._sparse[density] = _Sparse(self.field, self.ctx, self.banned, WINDOWS[density])
        return self._sparse[density]


class _Sparse:
    """Windows counted in *allowed* opponents, so rematches never thin a player's options."""

    def __init__(self, field: Field, ctx: Context, banned: set[int], w: Window) -> None:
        self.field, self.ctx, self.banned, self.w = field, ctx, banned, w
        self.n = len(field.pool)
        self.out: set[int] = set()
        self._order: set[int] | None = None
        self._lines: dict[tuple[tuple[int, ...], int, int], set[int]] = {}

    def _walk(
        self,
        line: Sequence[int],
        me: int,
        start: int,
        step: int,
        want: int,
        ok: Callable[[int], bool] | None = None,
    ) -> None:
        """Join ``line[me]`` to the first ``want`` allowed players from ``start`` on."""
        n, found, q = self.n, 0, start
        a = line[me]
        banned, out, end = self.banned, self.out, len(line)
        while 0 <= q < end and found < want:
            if q != me:
                b = line[q]
                key = a * n + b if a < b else b * n + a
                if key not in banned and (ok is None or ok(b)):
                    out.add(key)
                    found += 1
            q += step

    def _collect(self, fill: Callable[[], None]) -> set[int]:
        """The keys ``fill`` adds to a fresh :attr:`out`."""
        self.out = set()
        fill()
        return self.out

    def _field_order(self) -> None:
        order = range(self.n)
        for i in order:
            self._walk(order, i, i + 1, 1, self.w.neighbours)
            self._walk(order, i, i - 1, -1, self.w.neighbours)

    def _line(self, line: tuple[int, ...], size: int, half: int) -> None:
        n = self.n
        if len(line) <= self.w.full:
            self.out.update(_key(a, b, n) for a in line for b in line if a < b)
            return
        fold = self.field.settings.options.group_pairing is GroupPairing.FOLD
        for pos in range(size):
            for partner in (size - 1 - pos,) if fold else _partners(pos, half):
                self._walk(line, pos, partner, 1, self.w.partner + 1)
                self._walk(line, pos, partner - 1, -1, self.w.partner)
                self._color_mates(line, pos, partner)
        self._balance_mates(line[:half], line[half:size], fold)

    def keys(self, structure: Structure) -> set[int]:
        field, w, n = self.field, self.w, self.n
        if self._order is None:
            self._order = self._collect(self._field_order)
        lines: list[tuple[tuple[int, ...], int, int]] = []
        for g, members in enumerate(field.groups):
            # the whole score group (floated-up members included), then the players below
            tail = members[-1] + 1
            line = tuple(members) + tuple(range(tail, min(n, tail + w.partner)))
            lines.append((line, len(members), structure.layouts[g].half))
        lines += [(lay.members, lay.size, lay.half) for lay in structure.layouts]
        keys = set(self._order)
        for line, size, half in lines:
            memo = (line, size, half)
            if memo not in self._lines:
                self._lines[memo] = self._collect(partial(self._line, line, size, half))
            keys |= self._lines[memo]
        return keys

    def _color_mates(self, line: Sequence[int], pos: int, partner: int) -> None:
        """Join a player who may not take one colour to the nearest players around his
        partner who may take it, so criterion 4 needs no denser graph."""
        ctx = self.ctx
        forbidden = ctx.forbidden[line[pos]]
        if not ctx.restricted or len(forbidden) != 1:
            return
        (needed,) = forbidden  # the opponent must take the colour this player may not

        me = line[pos]
        may_take, stones = ctx.may_take[needed], ctx.stones_between

        def ok(j: int) -> bool:
            if may_take[j]:
                return True
            return (stones(me, j) if me < j else stones(j, me)) > 0  # colours follow handicap

        self._walk(line, pos, partner, 1, COLOR_MATES, ok)
        self._walk(line, pos, partner - 1, -1, COLOR_MATES, ok)

    def _balance_mates(self, top: Sequence[int], bottom: Sequence[int], fold: bool) -> None:
        """Join the players of a group who have had more Whites (in even games) to those
        who have had more Blacks, rank for rank: the k-th of the top half to the k-th of
        the bottom half (counted from its end when the halves fold) and the other way, and
        what one sign has over in a half to what the other has over in the same half.

        The colour tier outranks the fold order, so the best pairing gives every player he
        can an opponent who balances his colours; but the signs lie at random along a
        group, and a run of one sign around a player's split-and-shift partner left him
        none in his windows: 60 players off balance instead of 45 in round 2 of a
        2,000-player field, where every group made complete gives 45."""
        ctx = self.ctx
        if not ctx.balance:
            return
        balance = ctx.balances
        top_white = [i for i in top if balance[i] > 0]
        top_black = [i for i in top if balance[i] < 0]
        order = reversed(bottom) if fold else iter(bottom)
        bottom_white, bottom_black = [], []
        for i in order:
            if balance[i] > 0:
                bottom_white.append(i)
            elif balance[i] < 0:
                bottom_black.append(i)
        self._align(top_white, bottom_black)
        self._align(top_black, bottom_white)
        self._align(top_white[len(bottom_black) :], top_black[len(bottom_white) :])
        self._align(bottom_white[len(top_black) :], bottom_black[len(top_white) :])

    def _align(self, xs: Sequence[int], ys: Sequence[int]) -> None:
        """Join the k-th of ``xs`` to the :data:`BALANCE_MATES` players either side of the
        k-th of ``ys`` (rematches and prohibited pairs left out)."""
        n, banned, out = self.n, self.banned, self.out
        for k, a in enumerate(xs):
            for b in ys[max(0, k - BALANCE_MATES) : k + BALANCE_MATES + 1]:
                key = a * n + b if a < b else b * n + a
                if key not in banned:
                    out.add(key)


def _partners(pos: int, half: int) -> tuple[int, ...]:
    return (pos + half, pos - half) if pos >= half else (pos + half,)


def banned_keys(field: Field) -> set[int]:
    """Keys of the pool pairs that may not meet: rematches and prohibited pairs."""
    n = len(field.pool)
    index = {e.id: e.index for e in field.pool}
    banned = set()
    for p in chain(field.history.played, field.prohibited):
        a, b = sorted(p)
        if a in index and b in index:
            banned.add(_key(index[a], index[b], n))
    return banned


def _key(a: int, b: int, n: int) -> int:
    return a * n + b if a < b else b * n + a


def troubled(field: Field, problem: Problem, matching: Sequence[tuple[int, int]]) -> list[int]:
    """Players whose matched game breaks a desirable rule or floats across two groups,
    the most serious first (at most :data:`WIDEN_AT_MOST`)."""
    index = {e: k for k, e in enumerate(problem.edges)}
    found: list[tuple[tuple[int, ...], int, int]] = []
    for i, j in matching:
        if j == problem.bye_node:
            continue
        costs = problem.costs[index[(i, j)]]
        skip = field.pool[j].group - field.pool[i].group > 1
        if skip or any(costs[t] for t in _TROUBLE):
            found.append((tuple(-costs[t] for t in _TROUBLE), i, j))
    out: list[int] = []
    for _, i, j in sorted(found)[: WIDEN_AT_MOST // 2]:
        out += [i, j]
    return out


def widen(field: Field, structure: Structure, players: Iterable[int]) -> set[int]:
    """Pair keys joining each of ``players`` to its :data:`WIDE` neighbours in field
    order and around its split-and-shift partner."""
    n = len(field.pool)
    keys: set[int] = set()
    for i in players:
        layout = structure.layouts[field.pool[i].group]
        centres = {i, min(n - 1, i + layout.half), max(0, i - layout.half)}
        for c in centres:
            keys.update(
                _key(i, j, n) for j in range(max(0, c - WIDE), min(n, c + WIDE + 1)) if j != i
            )
    return keys
