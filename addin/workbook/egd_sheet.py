"""The EGD list sheet: the European Go Database's players, read as an index and written.

``import-egd-list`` replaces its rows; ``lookup`` and ``register --pin`` read it. Like the
TDListA it is a bulk sheet (``Table.bulk``): the EGD's whole list is some 45,000 players.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from addin.core.egd import EgdIndex, EgdPlayer
from addin.workbook.gateway import Gateway, Problem, Row
from addin.workbook.layout import EGD_LIST

EGD_SHEETS = (EGD_LIST.sheet,)
"""The sheets a look-up in the EGD list reads."""


def _values(p: EgdPlayer) -> dict[str, object]:
    return {
        "pin": p.pin,
        "family_name": p.family_name,
        "given_name": p.given_name or None,
        "country": p.country or None,
        "club": p.club or None,
        "grade": p.grade or None,
        "gor": p.gor,
        "promotion": p.promotion or None,
        "tournaments": p.tournaments,
        "last_tournament": p.last_tournament or None,
    }


def write_egd_players(gw: Gateway, players: Iterable[EgdPlayer]) -> None:
    """Replace the EGD list sheet's rows with ``players``."""
    gw.write_table(EGD_LIST, [_values(p) for p in players])


def _text(row: Row, key: str) -> str:
    value = row.get(key)
    return "" if value is None else str(value).strip()


def _whole(row: Row, key: str) -> int | None:
    value = row.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _player(row: Row) -> EgdPlayer | None:
    pin, family = _whole(row, "pin"), _text(row, "family_name")
    if pin is None or not family:
        return None
    return EgdPlayer(
        pin=pin,
        family_name=family,
        given_name=_text(row, "given_name"),
        country=_text(row, "country"),
        club=_text(row, "club"),
        grade=_text(row, "grade").lower(),
        gor=_whole(row, "gor"),
        promotion=_text(row, "promotion"),
        tournaments=_whole(row, "tournaments"),
        last_tournament=_text(row, "last_tournament"),
    )


def read_egd_index(gw: Gateway) -> tuple[EgdIndex, list[Problem]]:
    """The EGD list indexed, or the problems that stop it being used (an empty index then).
    A workbook made before the sheet existed has an empty list. Kept for the next look-up
    as the TDListA's index is (``read_cache``)."""
    from addin.workbook import read_cache

    return read_cache.indexed(gw, EGD_LIST, EgdIndex, lambda: _indexed(gw))


def _indexed(gw: Gateway) -> tuple[EgdIndex, list[Problem], bool]:
    data = gw.read_table(EGD_LIST)
    if data.problems and data.present:
        return EgdIndex(()), list(data.problems), False
    index = EgdIndex(p for p in map(_player, data.rows) if p is not None)
    return index, [], bool(data.rows) and not data.problems  # an empty list costs nothing


def previous_egd_players(gw: Gateway, wanted: Collection[int]) -> dict[int, EgdPlayer]:
    """The players of PINs ``wanted`` as the sheet holds them now, before a newer list
    replaces it (nothing is read when nobody is wanted)."""
    if not wanted:
        return {}
    found: dict[int, EgdPlayer] = {}
    for row in gw.read_table(EGD_LIST).rows:
        if row.get("pin") in wanted:
            player = _player(row)
            if player is not None:
                found[player.pin] = player
    return found
