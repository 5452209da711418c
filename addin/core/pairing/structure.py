"""Split-and-shift layout of the score groups (protocol, Basic Pairing; Odd-Numbered Groups).

Groups are paired from the top down. A group keeps the members not floated up into a
higher group and, when it is odd (or cannot pair within itself), pulls floaters from
the top of the next lower group(s). In that extended list, sorted by score then rating,
position ``p`` of the top half meets position ``p + half`` (1-5, 2-6, 3-7, 4-8). The
floaters sit at the bottom, so they meet the middle of the group: the A-F / G-J example
(A-D have all met) is the extended group A..H split and shifted - A-E, B-F, C-G, D-H.

The number of floaters each group pulls depends on the matching, so the engine starts
from the parity layout (:func:`ideal`) and, when the matching floats differently, solves
again with the layout read from that matching (:func:`from_matching`). Only the two
lowest tiers (``switch``, ``shift``) depend on the layout, so every pass has the same
optimum in all higher tiers.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass

from addin.core.pairing.field import Field


@dataclass(frozen=True)
class Layout:
    """One score group as split-and-shift sees it."""

    staying: tuple[int, ...]
    """Pool indices of members not floated up (nor given the bye), in field order."""
    floaters: tuple[int, ...]
    """Pool indices of lower players pulled up into this group, in field order."""

    @property
    def members(self) -> tuple[int, ...]:
        return self.staying + self.floaters

    @property
    def size(self) -> int:
        return len(self.staying) + len(self.floaters)

    @property
    def half(self) -> int:
        return (self.size + 1) // 2

    def position(self, index: int, same_group: bool) -> int:
        """Place of a player in the extended list; a member that floated up (or a lower
        player not pulled) takes the place of the next player after it."""
        if same_group:
            return bisect_left(self.staying, index)
        return len(self.staying) + bisect_left(self.floaters, index)


@dataclass(frozen=True)
class Structure:
    layouts: tuple[Layout, ...]
    bye: int | None


def ideal(field: Field, bye: int | None) -> Structure:
    """The layout if every group pairs within itself: odd groups pull one floater, the
    strongest remaining player of the next lower group."""
    pulled: set[int] = set()
    layouts: list[Layout] = []
    for g, members in enumerate(field.groups):
        staying = tuple(i for i in members if i not in pulled and i != bye)
        floaters: tuple[int, ...] = ()
        if len(staying) % 2:
            for lower in field.groups[g + 1 :]:
                top = next((i for i in lower if i not in pulled and i != bye), None)
                if top is not None:
                    floaters = (top,)
                    pulled.add(top)
                    break
        layouts.append(Layout(staying, floaters))
    return Structure(tuple(layouts), bye)


def from_matching(field: Field, mate: Mapping[int, int], bye: int | None) -> Structure:
    """The layout a matching actually realises (``mate``: pool index -> pool index)."""
    group = [e.group for e in field.pool]
    layouts: list[Layout] = []
    for g, members in enumerate(field.groups):
        paired = [i for i in members if i != bye]
        staying = tuple(i for i in paired if group[mate[i]] >= g)
        floaters = tuple(sorted(mate[i] for i in paired if group[mate[i]] > g))
        layouts.append(Layout(staying, floaters))
    return Structure(tuple(layouts), bye)
