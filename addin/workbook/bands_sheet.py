"""The Bands sheet written from the model's bands, and its cells named for a problem."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from addin.core.model import Band
from addin.workbook.book import Book
from addin.workbook.gateway import Problem, Tables
from addin.workbook.layout import BANDS


def band_values(band: Band, counts: Mapping[int, int]) -> dict[str, object]:
    """A Bands table row: the band and how many players it holds (``counts``)."""
    return {
        "number": band.number,
        "label": band.label,
        "min_rating": band.min_rating,
        "players": counts.get(band.number, 0),
        "separation": band.separation,
        "separation_override": band.separation_override,
        "initial_score": band.initial_score,
    }


def write_bands(tables: Tables, bands: Sequence[Band], counts: Mapping[int, int]) -> None:
    """Replace the Bands table's rows with ``bands`` (``counts``: band number -> players)."""
    tables.write_table(BANDS, [band_values(band, counts) for band in bands])


def separation_problem(b: Book, number: int, message: str) -> Problem | None:
    """``message`` on the Separation override cell of band ``number`` (None: no such row)."""
    data = b.tables.get(BANDS.name)
    row = next((r for r in data.rows if r.get("number") == number), None) if data else None
    if row is not None and data is not None:
        return data.problem(row, "separation_override", message)
    return None


def sheet_problem(message: str) -> Problem:
    """``message`` on the Bands sheet as a whole."""
    return Problem(BANDS.sheet, message)
