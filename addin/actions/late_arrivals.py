"""Late arrivals: a player the bands do not cover yet joins them as they stand."""

from __future__ import annotations

from addin.actions.change import ActionError
from addin.core.bands import band_for_rating
from addin.core.model import Status
from addin.core.ratings import RatingError, entry_rating
from addin.workbook import book
from addin.workbook.gateway import Row
from addin.workbook.players_sheet import place_row, row_aga_id


def _where(row: Row) -> str:
    return f"Players row {row.number}" if row.number else "Players (new row)"


def place_late_arrivals(b: book.Book, rows: list[Row]) -> tuple[list[str], list[str], bool]:
    """Band and initial score for active players the bands do not cover yet.

    A player registered after ``bands`` (by command, button or typing) gets the band the
    current bands give their entry rating (band 1 when "Above bar"; their band override
    when set), and that band's initial score; nobody else's score changes. Returns the
    warnings (one per player), the Log notes, and whether a row changed.
    """
    t = b.tournament
    if not t.bands or t.settings.pairing_format != "McMahon":
        return [], [], False
    bands = {band.number: band for band in t.bands}
    warnings: list[str] = []
    notes: list[str] = []
    changed = False
    for row in rows:
        pid = row_aga_id(row)
        p = t.players.get(pid) if isinstance(pid, int) else None
        if p is None or p.status is Status.DROPPED:
            continue
        if p.initial_score is not None:
            continue  # a score given (by bands, an import, the TD) is never replaced here
        try:
            rating = entry_rating(p)
        except RatingError:
            continue
        if p.band_override in bands:
            number, why = p.band_override, "their band override"
        elif p.above_bar:
            number, why = 1, '"Above bar" says Yes'
        elif p.band in bands:
            number, why = p.band, "the band typed in the row"
        else:
            number = band_for_rating(t.bands, rating)
            band = bands[number]
            below = rating < min(x.min_rating for x in t.bands)
            why = (
                f"rated {rating:g}, below every band: the lowest band takes them"
                if below
                else f"rated {rating:g}, at or above the band's lowest rating {band.min_rating:g}"
            )
        band = bands[number]
        if band.initial_score is None:
            raise ActionError(
                f"Bands: band {number} has no initial score; run bands before pairing "
                f"(needed for {p.name}, {_where(row)})"
            )
        place_row(row, number, band.initial_score)
        changed = True
        text = (
            f"{p.name} (AGA # {p.aga_id}, {_where(row)}) arrived after the bands were made: "
            f"joins band {number} ({band.label or 'no label'}) with initial score "
            f"{band.initial_score:g}, because {why}; nobody else's score changes "
            "(run bands to rebuild them instead)"
        )
        warnings.append(text)
        notes.append(text)
    return warnings, notes, changed
