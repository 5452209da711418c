"""Find members of the TDListA by AGA number or by name, as a TD types them.

Names are compared folded: case, accents, apostrophes and spacing do not matter, so
"gomez" finds "Gómez, David", "obrien" finds "O'Brien, Kevin" and "hara,takashi" finds
"Hara  , Takashi".  A name query matches a prefix of "Family, Given": "Smi" finds every
family starting with Smi, "Smith," every Smith, "Smith, J" the Smiths whose given name
starts with J.

A query of several words without a comma is also read in either order, as a TD types what
a player says: "Janice Kim" (given, family) and "kim janice" (family, given) both find
"Kim, Janice" (``name_matches`` says exactly which names a query finds).
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterable
from datetime import date

from addin.core.member import Member

_AFTER_EVERYTHING = "\U0010ffff"


_APOSTROPHES = str.maketrans(dict.fromkeys("'`\u2018\u2019\u02bc"))
"""Apostrophes (straight, typographic, modifier letter) and the backtick: dropped, so that
"OBrien" and "O\u2019Brien" are "O'Brien" (as the phone site's find box folds them)."""
_WORD = re.compile(r"\w+")


def fold(text: str) -> str:
    """Case-, accent- and apostrophe-insensitive form: NFKD, combining marks and
    apostrophes dropped, casefolded."""
    if text.isascii():
        return text.casefold().translate(_APOSTROPHES)
    decomposed = unicodedata.normalize("NFKD", text)
    return (
        "".join(c for c in decomposed if not unicodedata.combining(c))
        .casefold()
        .translate(_APOSTROPHES)
    )


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


def query_words(query: str) -> list[str]:
    """The words of a query without a comma, folded ("Janice  O'Kim" -> janice, okim)."""
    return _WORD.findall(fold(query))


def name_matches(query: str, family: str, given: str = "") -> bool:
    """Whether a name query (not a number) finds the name "``family``, ``given``".

    The folded "Family, Given" starts with the folded query; or, for a query of several
    words without a comma, the words name the family and the given name in either order:
    the family name whole ("kim janice": family Kim, given name starting with Janice) or
    the given name's first words whole ("Janice Kim", "Kenneth OBrien" for "O'Brien,
    Kenneth J."), the part typed last only its beginning ("Janice Ki"). A name with an
    empty family name (", Eric Yang") is also found by its given name alone.
    """
    prefix = query_key(query)
    if not prefix:
        return False
    keys = [name_key(family, given)]
    if not name_key(family) and name_key(given):
        keys.append(name_key(given))
    if any(key.startswith(prefix) for key in keys):
        return True
    words = query_words(query) if "," not in query else []
    return len(words) > 1 and any(_either_order(words, key) for key in keys)


def _either_order(words: list[str], key: str) -> bool:
    """``words`` (two or more) split into family and given name, in either order, match the
    indexed ``key`` ("family, given")."""
    family_key, _, given_key = key.partition(", ")
    family, given = _WORD.findall(family_key), _WORD.findall(given_key)
    for k in range(1, len(words)):
        first, last = words[:k], words[k:]
        if first == family and _begins(given, last):
            return True
        if given[:k] == first and _begins(family, last):
            return True
    return False


def _begins(have: list[str], typed: list[str]) -> bool:
    """``have`` begins with the words ``typed``, the last of them perhaps cut short."""
    n = len(typed)
    return n <= len(have) and have[: n - 1] == typed[:-1] and have[n - 1].startswith(typed[-1])


def _same_either_order(words: list[str], key: str) -> bool:
    """``words`` are the whole name of ``key``, family first or given name first."""
    family_key, _, given_key = key.partition(", ")
    family, given = _WORD.findall(family_key), _WORD.findall(given_key)
    return bool(family and given) and words in (family + given, given + family)


def either_order(keys: list[str], ids: list[int], query: str, *, whole: bool = False) -> list[int]:
    """The ``ids`` of the sorted name ``keys`` that a query of several words without a comma
    finds in either order (``name_matches``; ``whole``: the words are the whole name, as
    ``by_name`` compares); none for any other query. Only the keys whose family name starts
    with one of the words are compared: a family name is one of them, in either order."""
    words = query_words(query) if "," not in query else []
    if len(words) < 2:
        return []
    found: list[int] = []
    for word in dict.fromkeys(words):
        start, stop = prefix_range(keys, word)
        for i in range(start, stop):
            key = keys[i]
            if _same_either_order(words, key) if whole else _either_order(words, key):
                found.append(ids[i])
    return found


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
        return self._members(self._ids[start:stop] + either_order(self._keys, self._ids, query))

    def by_name(self, name: str) -> list[Member]:
        """Members whose whole name equals ``name`` ("Family, Given"), folded; a name
        without a comma also in either order ("Janice Kim" is "Kim, Janice")."""
        family, _, given = name.partition(",")
        key = name_key(family, given)
        start = bisect.bisect_left(self._keys, key)
        stop = bisect.bisect_right(self._keys, key, lo=start)
        ids = self._ids[start:stop] + either_order(self._keys, self._ids, name, whole=True)
        return self._members(ids)

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


# --- showing what a look-up found -------------------------------------------------------

SHOWN = 20
"""Matches a look-up shows unless asked for more: a family as common as Kim has hundreds."""


def is_lapsed(member: Member, day: date) -> bool:
    """The membership expired before ``day`` (the event's first day): one ending that day
    still counts, as registration's lapsed-membership warning reads it."""
    return member.expiry is not None and member.expiry < day


def current_first(members: Iterable[Member], day: date) -> list[Member]:
    """``members`` with the lapsed ones (``is_lapsed`` on ``day``) after the others, each
    part in the order given."""
    listed = list(members)
    return [m for m in listed if not is_lapsed(m, day)] + [m for m in listed if is_lapsed(m, day)]


def expiry_text(member: Member, day: date | None = None) -> str:
    """A member's membership as a look-up shows it, dates as the workbook writes them
    (YYYY-MM-DD): "expires 2027-06-30", "LAPSED 2015-11-06" (expired before ``day``), or
    "no expiry date"."""
    if member.expiry is None:
        return "no expiry date"
    if day is not None and is_lapsed(member, day):
        return f"LAPSED {member.expiry.isoformat()}"
    return f"expires {member.expiry.isoformat()}"


def more_text(hidden: int, lapsed: int, hint: str = "") -> str:
    """The line after a look-up cut short: "and 355 more (120 of them lapsed): narrow the
    search ('Kim, J' or 'J Kim')"."""
    among = f" ({lapsed} of them lapsed)" if lapsed else ""
    return f"and {hidden} more{among}: narrow the search{hint}"
