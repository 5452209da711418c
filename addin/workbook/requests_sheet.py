"""The Requests sheet as the director's operations add to it: one pair request a row."""

from __future__ import annotations

from addin.core.model import PairRequest
from addin.workbook.book import Book
from addin.workbook.gateway import Row, Tables
from addin.workbook.layout import REQUESTS


def add_request(tables: Tables, b: Book, request: PairRequest, notes: str) -> None:
    """The Requests rows ``b`` read, and ``request`` after them with ``notes``."""
    rows: list[Row | dict[str, object]] = list(b.tables[REQUESTS.name].rows)
    rows.append(
        {
            "round": request.round,
            "kind": request.kind.value,
            "first": request.first,
            "second": request.second,
            "notes": notes,
        }
    )
    tables.write_table(REQUESTS, rows)
