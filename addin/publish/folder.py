"""Where a workbook's published site lives, unless the TD names another folder."""

from __future__ import annotations

from pathlib import Path

SITE_SUFFIX = "-site"


def default_site_folder(book: Path) -> Path:
    """``tournament.xlsx`` publishes to ``tournament-site/`` beside it."""
    return book.with_name(book.stem + SITE_SUFFIX)
