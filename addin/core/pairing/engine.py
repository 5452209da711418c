"""``pair_round``: one round of AGA Swiss McMahon pairing by maximum-weight matching.

The protocol's recommended method (Program Implementation Notes; Olafsson 1990): every
allowed game is an edge whose weight encodes, in lexicographic tiers, how far it is from
the ideal pairing (:mod:`.weights`); Edmonds' algorithm then finds the perfect matching of
maximum weight, which is the pairing that "least disturbs the normal ideal". Mandatory
rules are absent edges, so a pairing is found whenever one exists.

Steps: prepare the field (:mod:`.field`), set forced pairs aside, pick the bye candidates
(:mod:`.bye`), build the candidate graph (:mod:`.graph`; sparse with denser and complete
fallbacks), solve (:mod:`.solve`), re-solve when the matching floats differently from the
split-and-shift layout it was weighted with (:mod:`.structure`) or the graph was widened
where a rule gave way (on a sparse graph only the region whose games changed is solved
again: :meth:`_Solver._resolve`), then colour and number the games (:mod:`.assemble`).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Literal

import rustworkx as rx

from addin.core.model import (
    Bye,
    Game,
)
from addin.core.pairing import bye as byes
from addin.core.pairing.assemble import PairingStats, assemble, stats
from addin.core.pairing.colors import ColorBook
from addin.core.pairing.errors import PairingError
from addin.core.pairing.field import Entrant, Field, prepare
from addin.core.pairing.graph import Density, GraphMemo, candidate_pairs, troubled, widen
from addin.core.pairing.inputs import PairingInput as PairingInput  # what pair_round takes
from addin.core.pairing.problem import Placements, Problem, build_problem
from addin.core.pairing.solve import BACKENDS, Backend, solve
from addin.core.pairing.structure import Structure, from_matching, ideal
from addin.core.pairing.weights import SAFE_WEIGHT, TIERS, Context

GraphMode = Literal["auto", "sparse", "complete"]
COMPLETE_UP_TO = 200
"""In ``auto`` mode, fields up to this size use the complete graph straight away."""
MAX_PASSES = 4
"""Layout passes per attempt (the second is needed only when groups merge)."""


@dataclass(frozen=True)
class PairingResult:
    round: int
    games: tuple[Game, ...]
    """Games in board order (board 1 = top of the field), with notes explaining floats,
    handicaps, colour rules relaxed and avoidance kept."""
    byes: tuple[Bye, ...]
    """The forced bye of an odd field, then the voluntary byes filtered from the input."""
    stats: PairingStats
    warnings: tuple[str, ...] = ()
    """For the TD's active warnings: forced rematches, rules relaxed, solver fallbacks."""
    bye_note: str = ""
    """Which rule chose the forced bye (empty without one)."""


@dataclass(frozen=True)
class _Attempt:
    """A perfect matching found, with the graph it was found in."""

    problem: Problem
    matching: list[tuple[int, int]]
    bye: int | None
    density: Density
    edges: int
    """Candidate games (and bye edges) of the graph it was found in."""


def _densities(mode: GraphMode, players: int) -> tuple[Density, ...]:
    if mode == "complete" or (mode == "auto" and players <= COMPLETE_UP_TO):
        return (Density.COMPLETE,)
    if mode in ("auto", "sparse"):
        return (Density.SPARSE, Density.DENSER, Density.COMPLETE)
    raise ValueError(f"unknown graph mode {mode!r}; use auto, sparse or complete")


class _Solver:
    """Runs the attempts of one round; counts solves and remembers solver fallbacks."""

    def __init__(
        self, f: Field, backend: Backend, mode: GraphMode, reuse: bool = True, local: bool = True
    ) -> None:
        self.field = f
        self.local = local
        self.backend = backend
        self.ctx = Context(f, ColorBook(f), fast_stones=reuse)
        self.densities = _densities(mode, len(f.pool))
        self.cache: dict[tuple[int, int], tuple[int, ...]] = {}
        self.reuse = reuse
        self.memo = GraphMemo(f, self.ctx)
        self.placements = Placements()
        self.solves = 0
        self.warnings: list[str] = []

    def _kept(self) -> Placements | None:
        return self.placements if self.reuse else None

    def _solve(self, problem: Problem) -> list[tuple[int, int]]:
        backend = self.backend
        if backend == "rustworkx" and problem.max_weight >= SAFE_WEIGHT:
            backend = "networkx"
            note = "weights exceed rustworkx's integer range; the exact networkx solver was used"
            if note not in self.warnings:
                self.warnings.append(note)
        self.solves += 1
        return solve(problem, backend)

    def attempt(self, candidates: tuple[int, ...] | None, density: Density) -> _Attempt | None:
        """Best pairing with the bye among ``candidates``, or None if the graph has none."""
        f = self.field
        ranks = byes.bye_rank(f, candidates) if candidates is not None else None
        preferred = min(ranks, key=ranks.__getitem__) if ranks else None
        structure: Structure = ideal(f, preferred)
        extra: set[int] = set()
        best: _Attempt | None = None
        changed: set[int] = set()
        for _ in range(MAX_PASSES):
            memo = self.memo if self.reuse else None
            pairs = candidate_pairs(f, self.ctx, structure, density, extra, memo)
            edges = len(pairs) + len(ranks or ())
            if best is None or not self.local or density is Density.COMPLETE:
                problem = build_problem(
                    f, self.ctx, structure, pairs, ranks, self.cache, self._kept()
                )
                matching = self._solve(problem)
                if 2 * len(matching) != problem.nodes:
                    break
            else:
                matching = self._resolve(best, structure, pairs, ranks, changed)
                problem = self._placed(structure, matching, ranks, best.problem.bye_node)
            mate, bye = _mates(matching, problem.bye_node)
            best = _Attempt(problem, matching, bye, density, edges)
            layout = from_matching(f, mate, bye)
            more: set[int] = set()
            if density is not Density.COMPLETE:
                # widen the graph around the players whose games break a rule, and keep
                # this matching available so that no pass does worse in the upper tiers
                more = widen(f, layout, troubled(f, problem, matching)) - extra
                n = len(f.pool)
                extra |= {i * n + j for i, j in matching if j < n}
            if layout == structure and not more:
                break
            changed = _moved(f, structure, layout, more)
            structure = layout
            extra |= more
        return best

    def _resolve(
        self,
        best: _Attempt,
        structure: Structure,
        pairs: list[tuple[int, int]],
        ranks: dict[int, int] | None,
        changed: set[int],
    ) -> list[tuple[int, int]]:
        """The last matching with the region around ``changed`` solved again.

        The region is the score groups of the players whose candidate games changed (new
        edges, or a group whose layout moved) with everyone's opponent in the last
        matching, so that matching restricted to the region is one of its pairings: the
        region's optimum is never worse in any tier, and the rest of the field, whose
        weights did not change, keeps its games. This is what keeps late rounds cheap.
        """
        f = self.field
        bye_node = best.problem.bye_node
        mate, bye = _mates(best.matching, bye_node)
        region = {i for g in {f.pool[i].group for i in changed} for i in f.groups[g]}
        region |= {mate[i] for i in region if i in mate}
        inside = [(i, j) for i, j in pairs if i in region and j in region]
        local_ranks = None
        if ranks is not None and bye in region:
            local_ranks = {i: r for i, r in ranks.items() if i in region}
        problem = build_problem(
            f, self.ctx, structure, inside, local_ranks, self.cache, self._kept()
        )
        solved = self._solve(problem) if inside else []
        if 2 * len(solved) != len(region) + (local_ranks is not None):
            return best.matching  # cannot happen: the last matching pairs the region
        kept = [(i, j) for i, j in best.matching if i not in region]
        return sorted(kept + solved)

    def _placed(
        self,
        structure: Structure,
        matching: list[tuple[int, int]],
        ranks: dict[int, int] | None,
        bye_node: int | None,
    ) -> Problem:
        """The matched games (and bye) weighed under ``structure``, for the next pass."""
        games = [(i, j) for i, j in matching if j != bye_node]
        bye_ranks = None
        if ranks is not None:
            bye_ranks = {i: ranks[i] for i, j in matching if j == bye_node}
        return build_problem(
            self.field, self.ctx, structure, games, bye_ranks, self.cache, self._kept()
        )

    def run(self) -> _Attempt:
        f = self.field
        sets: list[tuple[int, ...] | None] = (
            list(byes.candidate_sets(f)) if byes.needs_bye(f) else [None]
        )
        for candidates in sets:
            for density in self.densities:
                found = self.attempt(candidates, density)
                if found is not None:
                    return found
        raise PairingError(_diagnose(f))


def _moved(f: Field, before: Structure, after: Structure, keys: set[int]) -> set[int]:
    """Players whose candidate games weigh differently or are new after a pass: the
    members of every group whose layout moved, and both ends of every new edge."""
    n = len(f.pool)
    players = {k // n for k in keys} | {k % n for k in keys}
    for old, new in zip(before.layouts, after.layouts, strict=True):
        if old != new:
            players.update(old.members, new.members)
    return players


def _mates(
    matching: list[tuple[int, int]], bye_node: int | None
) -> tuple[dict[int, int], int | None]:
    mate: dict[int, int] = {}
    bye = None
    for i, j in matching:
        if j == bye_node:
            bye = i
        else:
            mate[i], mate[j] = j, i
    return mate, bye


def pair_round(
    inp: PairingInput,
    backend: Backend = "rustworkx",
    *,
    graph: GraphMode = "auto",
    reuse: bool = True,
    local: bool = True,
) -> PairingResult:
    """Pair one round. Raises :class:`PairingError` when no valid pairing exists.

    ``backend``: the matching implementation (rustworkx, or networkx as the reference).
    ``graph``: ``auto`` uses the complete candidate graph up to :data:`COMPLETE_UP_TO`
    players and a sparse one (with fallbacks) above; ``sparse`` and ``complete`` force one.
    ``reuse``: keep what one pass computed for the next (graph windows, game costs,
    handicap stones from per-player ratings); ``False`` recomputes it all each pass, the
    reference the tests and ``benchmarks/bench_rounds.py`` compare with (same pairings).
    ``local``: on sparse graphs, passes after the first solve again only the region whose
    candidate games changed (see ``_Solver._resolve``); ``False`` solves the whole field
    every pass, the engine before round cost was bounded (issue 18).
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown matching backend {backend!r}; use one of {BACKENDS}")
    with _cycles_collected_after():
        return _pair(inp, backend, graph, reuse, local)


@contextmanager
def _cycles_collected_after() -> Iterator[None]:
    """Python's cycle collector paused while a round is paired. The weights make a few
    hundred thousand small tuples and lists a round; each few hundred the collector would
    walk the young objects (and now and then everything the process holds) looking for
    cycles, which the pairing does not make: a ninth of a round's time at 300 players.
    Memory is still freed as it is dropped; the collector resumes when the round is paired
    or fails."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _pair(
    inp: PairingInput, backend: Backend, graph: GraphMode, reuse: bool, local: bool
) -> PairingResult:
    f = prepare(inp)
    solver = _Solver(f, backend, graph, reuse, local)
    if f.pool:
        found = solver.run()
        problem, matching = found.problem, found.matching
        pool = f.pool
        matched = [(pool[i], pool[j]) for i, j in matching if j != problem.bye_node]
        bye = pool[found.bye] if found.bye is not None else None
        index = {e: k for k, e in enumerate(problem.edges)}
        totals = [sum(problem.costs[index[e]][t] for e in matching) for t in range(len(TIERS))]
        graph_used, edges = found.density.value, found.edges
    else:
        matched, bye, totals, graph_used, edges = [], None, [0] * len(TIERS), "none", 0
    done = assemble(f, solver.ctx.colors, matched, bye)
    return PairingResult(
        round=f.round,
        games=done.games,
        byes=done.byes,
        stats=stats(f, done, totals, graph_used, edges, solver.solves),
        warnings=f.warnings + tuple(solver.warnings) + done.warnings,
        bye_note=byes.reason(f, bye) if bye is not None else "",
    )


# --- explaining an impossible pairing -------------------------------------------------


def _unpaired(f: Field) -> list[Entrant]:
    """Players left over by a maximum-cardinality matching of all allowed games (and the
    bye, for an odd field, to anyone who may take it); empty when a pairing exists."""
    pool = f.pool
    n = len(pool)
    graph = rx.PyGraph()
    graph.add_nodes_from(range(n + 1))
    graph.add_edges_from_no_data(
        [(i, j) for i in range(n) for j in range(i + 1, n) if f.allowed(pool[i], pool[j])]
    )
    if n % 2:
        graph.add_edges_from_no_data([(e.index, n) for e in pool if byes.may_receive(f, e)])
    matching = rx.max_weight_matching(graph, max_cardinality=True)
    covered = {v for edge in matching for v in edge}
    return [e for e in pool if e.index not in covered]


def _names(entrants: list[Entrant]) -> str:
    return ", ".join(e.label for e in entrants)


def _diagnose(f: Field) -> str:
    """A message naming what makes the pairing impossible."""
    stuck = _unpaired(f)
    head = f"no valid pairing for round {f.round}"
    if f.forced:
        forced = ", ".join(f"{a.id}-{b.id}" for a, b in f.forced)
        if not _unpaired(replace(f, pool=_repool(f), forced=())):
            return (
                f"{head}: the forced pair(s) {forced} make it impossible; "
                f"{_names(stuck) or 'the others'} cannot then be paired"
            )
    if f.prohibited and not _unpaired(replace(f, prohibited=frozenset())):
        ids = {e.id for e in stuck}
        named = sorted(tuple(sorted(p)) for p in f.prohibited if p & ids) or sorted(
            tuple(sorted(p)) for p in f.prohibited
        )
        pairs = ", ".join(f"{a}-{b}" for a, b in named)
        return (
            f"{head}: the prohibited pair(s) {pairs} make it impossible; "
            f"{_names(stuck)} cannot be paired with anyone left"
        )
    alone = [e for e in f.pool if not any(f.allowed(e, o) for o in f.pool if o is not e)]
    if alone:
        return f"{head}: {_names(alone)} already played (or are barred from) everyone left"
    return (
        f"{head}: every pairing needs a rematch or a prohibited game; at best "
        f"{_names(stuck) or 'one pair'} would be left without a valid opponent"
    )


def _repool(f: Field) -> tuple[Entrant, ...]:
    """The pool with the forced players put back, re-indexed (for the diagnosis only)."""
    everyone = sorted([*f.pool, *(e for fp in f.forced for e in fp)], key=lambda e: e.order)
    return tuple(replace(e, index=i) for i, e in enumerate(everyone))
