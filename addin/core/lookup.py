"""Find members of the TDListA by AGA number or by name, as a TD types them.

Names are compared folded: case, accents and spacing do not matter, so "gomez"
finds "Gómez, David" and "hara,takashi" finds "Hara  , Takashi".  A name query
matches a prefix of "Family, Given": "Smi" finds every family starting with
Smi, "Smith," every Smith, "Smith, J" the Smiths whose given name starts with J.
"""

from __future__ import annotations

import bisect
import unicodedata
from collections.abc import Iterable
from datetime import date

from addin.core.member import Member

_AFTER_EVERYTHING = "\U0010ffff"


def fold(text: str) -> str:
    """Case- and accent-insensitive form: NFKD, combining marks dropped, casefolded."""
    if text.isascii():
        return text.casefold()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def name_key(family: str, given: str = "") -> str:
    """The folded "family, given" under which a name is indexed and compared."""
    family_key = " ".join(fold(family).split())
    given_key = " ".join(fold(given).split())
    return f"{family_key}, {given_key}" if given_key else family_key


def query_key(query: str) -> str:
    """The folded prefix a name query stands for ("Smith ,J" -> "smith, j")."""
    family, comma, given = query.partition(",")
    family_key = " ".join(fold(family).split())
    if not comma:
        return family_key
    return f"{family_key}, {' '.join(fold(given).split())}"


def is_number_query(query: str) -> bool:
    text = query.strip().removeprefix("#").strip()
    return text.isascii() and text.isdecimal()


def prefix_range(keys: list[str], prefix: str) -> tuple[int, int]:
    """Where the sorted ``keys`` that start with ``prefix`` are: ``keys[start:stop]``."""
    start = bisect.bisect_left(keys, prefix)
    return start, bisect.bisect_left(keys, prefix + _AFTER_EVERYTHING, lo=start)


class MemberIndex:
    """The list indexed once, for repeated look-ups during registration.

    A member with an empty family name (", Eric Yang") is also indexed under its
    given name, so that a TD typing "Eric" still finds it.
    """

    def __init__(self, members: Iterable[Member]) -> None:
        self._rows: dict[int, _Fields] = {}
        """Members kept as plain fields until asked for (see ``__setstate__``)."""
        self._by_id: dict[int, Member] = {}
        folded: list[tuple[str, str, int]] = []
        entries: list[tuple[str, int]] = []
        for member in members:
            if self._by_id.setdefault(member.aga_id, member) is not member:
                continue
            family, given = name_key(member.family_name), name_key(member.given_name)
            folded.append((family, given, member.aga_id))
            entries.append((f"{family}, {given}" if given else family, member.aga_id))
            if not family and given:
                entries.append((given, member.aga_id))
        entries.sort()
        self._keys = [key for key, _ in entries]
        self._ids = [aga_id for _, aga_id in entries]
        # Results read like a list: "Gomez" before "Gomez Flores", then by number.
        self._rank = {aga_id: rank for rank, (*_, aga_id) in enumerate(sorted(folded))}

    def __getstate__(self) -> tuple[dict[int, _Fields], list[str], list[int], dict[int, int]]:
        """Kept (``read_cache``) as plain fields, dates as day numbers: unpickling 22,410
        members as objects took four times as long as the whole look-up's other work."""
        rows = {**self._rows, **{i: _fields(m) for i, m in self._by_id.items()}}
        return rows, self._keys, self._ids, self._rank

    def __setstate__(
        self, state: tuple[dict[int, _Fields], list[str], list[int], dict[int, int]]
    ) -> None:
        self._rows, self._keys, self._ids, self._rank = state
        self._by_id = {}

    def __len__(self) -> int:
        return len(self._by_id.keys() | self._rows.keys())

    def __contains__(self, aga_id: object) -> bool:
        return aga_id in self._by_id or aga_id in self._rows

    def by_id(self, aga_id: int) -> Member | None:
        found = self._by_id.get(aga_id)
        if found is None and aga_id in self._rows:
            found = self._by_id[aga_id] = _member(self._rows.pop(aga_id))
        return found

    def search(self, query: str) -> list[Member]:
        """Members for a query: an AGA number when it is digits, else a name prefix."""
        if is_number_query(query):
            found = self.by_id(int(query.strip().removeprefix("#")))
            return [found] if found else []
        prefix = query_key(query)
        if not prefix:
            return []
        start, stop = prefix_range(self._keys, prefix)
        return self._members(self._ids[start:stop])

    def by_name(self, name: str) -> list[Member]:
        """Members whose whole name equals ``name`` ("Family, Given"), folded."""
        family, _, given = name.partition(",")
        key = name_key(family, given)
        start = bisect.bisect_left(self._keys, key)
        stop = bisect.bisect_right(self._keys, key, lo=start)
        return self._members(self._ids[start:stop])

    def _members(self, ids: list[int]) -> list[Member]:
        """The members for index entries, each once, by family name, given name, number."""
        found = (self.by_id(aga_id) for aga_id in sorted(set(ids), key=self._rank.__getitem__))
        return [m for m in found if m is not None]


_Fields = tuple[
    str, str, str, int, str, float | None, int | None, str, str, float | None, int | None
]
"""A member as kept: its fields in order, dates as day numbers."""


def _fields(m: Member) -> _Fields:
    return (
        m.name,
        m.family_name,
        m.given_name,
        m.aga_id,
        m.membership_type,
        m.rating,
        m.expiry.toordinal() if m.expiry else None,
        m.chapter,
        m.state,
        m.sigma,
        m.rating_date.toordinal() if m.rating_date else None,
    )


def _member(fields: _Fields) -> Member:
    name, family, given, aga_id, kind, rating, expiry, chapter, state, sigma, rated = fields
    return Member(
        name,
        family,
        given,
        aga_id,
        kind,
        rating,
        None if expiry is None else date.fromordinal(expiry),
        chapter,
        state,
        sigma,
        None if rated is None else date.fromordinal(rated),
    )


def search_members(members: Iterable[Member] | MemberIndex, query: str) -> list[Member]:
    """Members matching ``query`` (see ``MemberIndex.search``); index once for many queries."""
    index = members if isinstance(members, MemberIndex) else MemberIndex(members)
    return index.search(query)
