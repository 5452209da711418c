"""Maximum-weight matching backends: rustworkx (default, Rust) and networkx (reference).

Both run Edmonds' blossom algorithm with ``max_cardinality`` so that a perfect matching,
when one exists, always wins over a heavier partial one. Weights are Python ints: networkx
computes exactly with them; rustworkx uses 128-bit integers, so the engine hands it no
weight above :data:`.weights.SAFE_WEIGHT` (it falls back to networkx instead).
"""

from __future__ import annotations

from itertools import chain
from typing import Literal

import rustworkx as rx

from addin.core.pairing.problem import Problem

Backend = Literal["rustworkx", "networkx"]
BACKENDS: tuple[Backend, ...] = ("rustworkx", "networkx")


def _rustworkx(problem: Problem) -> set[tuple[int, int]]:
    # only the nodes that have an edge: a pass that re-solves one region of the field
    # hands over the region's edges, and the solver's cost follows the nodes it is given
    used = sorted(set(chain.from_iterable(problem.edges)))
    edges: list[tuple[int, int, int]]
    if used and used[-1] == len(used) - 1:  # every node from 0 on: the nodes as they are
        edges = [(i, j, w) for (i, j), w in zip(problem.edges, problem.weights, strict=True)]
    else:
        local = {v: k for k, v in enumerate(used)}
        edges = [
            (local[i], local[j], w)
            for (i, j), w in zip(problem.edges, problem.weights, strict=True)
        ]
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(len(used)))
    graph.add_edges_from(edges)
    matched = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return {(used[i], used[j]) for i, j in matched}


def _networkx(problem: Problem) -> set[tuple[int, int]]:
    import networkx as nx  # the reference backend: not loaded for every command-line start

    graph = nx.Graph()
    graph.add_weighted_edges_from(
        (i, j, w) for (i, j), w in zip(problem.edges, problem.weights, strict=True)
    )
    matched: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    return matched


def solve(problem: Problem, backend: Backend) -> list[tuple[int, int]]:
    """The matching as sorted pairs ``(i, j)``, ``i < j``."""
    if backend == "rustworkx":
        matched = _rustworkx(problem)
    elif backend == "networkx":
        matched = _networkx(problem)
    else:
        raise ValueError(f"unknown matching backend {backend!r}; use one of {BACKENDS}")
    return sorted((min(i, j), max(i, j)) for i, j in matched)


def matching_weight(problem: Problem, matching: list[tuple[int, int]]) -> int:
    """Total weight of a matching of ``problem`` (for differential tests and stats)."""
    index = {e: k for k, e in enumerate(problem.edges)}
    return sum(problem.weights[index[e]] for e in matching)
