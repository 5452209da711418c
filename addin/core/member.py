"""A member of the AGA, as the membership list (TDListA) gives one: plain data that the
registration, the look-up and the member refresh compute on (read by ``addin.formats.tdlista``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

__all__ = ["Member", "split_name"]


@dataclass(frozen=True, slots=True)
class Member:
    """One line of the membership list, typed."""

    name: str
    """The name as the list gives it, stripped ("Family, Given")."""
    family_name: str
    given_name: str
    aga_id: int
    membership_type: str
    """Kept as given: Full, Youth, Non, Forgn, Life, Spons, ..."""
    rating: float | None = None
    expiry: date | None = None
    chapter: str = ""
    state: str = ""
    sigma: float | None = None
    rating_date: date | None = None

    def __reduce__(self) -> tuple[type[Member], tuple[object, ...]]:
        """Pickled as its fields in order: a kept list of 22,410 members loads in a
        fraction of the time dataclasses' own state handling takes."""
        return (
            Member,
            (
                self.name,
                self.family_name,
                self.given_name,
                self.aga_id,
                self.membership_type,
                self.rating,
                self.expiry,
                self.chapter,
                self.state,
                self.sigma,
                self.rating_date,
            ),
        )


def split_name(name: str) -> tuple[str, str]:
    """("Family", "Given") from "Family, Given"; a name without a comma is all family.

    Splits at the first comma only, so "Adamson, Charles Edwin, Jr" keeps its suffix
    with the given name, and an empty family name (", Eric Yang") stays empty.
    """
    family, comma, given = name.partition(",")
    if not comma:
        return name.strip(), ""
    return family.strip(), given.strip()
