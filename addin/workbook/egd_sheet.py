"""The EGD list sheet: the European Go Database's players, read as an index and written.

``import-egd-list`` replaces its rows; ``lookup`` and ``register --pin`` read it. Like the
TDListA it is a bulk sheet (``Table.bulk``): the EGD's whole list is some 45,000 players.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from addin.core.egd import EgdIndex, EgdPlayer
from addin.workbook.gateway import Problem, Row, Tables, TableSource
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


def write_egd_players(tables: Tables, players: Iterable[EgdPlayer]) -> None:
    """Replace the EGD list sheet's rows with ``players``."""
    tables.write_table(EGD_LIST, [_values(p) for p in players])


def _player(row: Row) -> EgdPlayer | None:
    pin, family = row.whole("pin"), row.text("family_name").strip()
    if pin is None or not family:
        return None
    return EgdPlayer(
        pin=pin,
        family_name=family,
        given_name=row.text("given_name").strip(),
        country=row.text("country").strip(),
        club=row.text("club").strip(),
        grade=row.text("grade").strip().lower(),
        gor=row.whole("gor"),
        promotion=row.text("promotion").strip(),
        tournaments=row.whole("tournaments"),
        last_tournament=row.text("last_tournament").strip(),
    )


def read_egd_index(tables: TableSource) -> tuple[EgdIndex, list[Problem]]:
    """The EGD list indexed, or the problems that stop it being used (an empty index then).
    A workbook made before the sheet existed has an empty list. Kept for the next look-up
    as the TDListA's index is (``read_cache``)."""
    from addin.workbook import read_cache

    return read_cache.indexed(tables, EGD_LIST, EgdIndex, lambda: _indexed(tables))


def _indexed(tables: TableSource) -> tuple[EgdIndex, list[Problem], bool]:
    data = tables.read_table(EGD_LIST)
    if data.problems and data.present:
        return EgdIndex(()), list(data.problems), False
    index = EgdIndex(p for p in map(_player, data.rows) if p is not None)
    return index, [], not data.problems  # kept even empty: reading it opens the workbook


def previous_egd_players(tables: TableSource, wanted: Collection[int]) -> dict[int, EgdPlayer]:
    """The players of PINs ``wanted`` as the sheet holds them now, before a newer list
    replaces it (nothing is read when nobody is wanted)."""
    if not wanted:
        return {}
    found: dict[int, EgdPlayer] = {}
    for row in tables.read_table(EGD_LIST).rows:
        if row.get("pin") in wanted:
            player = _player(row)
            if player is not None:
                found[player.pin] = player
    return found
