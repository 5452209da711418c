"""``import-tdlista`` (``import-egd-list``) with a newer list: the registered players' AGA
(EGD) data follow it.

Before round 1 is paired every change is made and listed; after it the Players sheet stays as
it is unless the TD asks (``--update-players``, an active warning: bands and handicaps were
computed from the old ratings), and the import says how many players differ.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from addin.actions.change import Draft
from addin.core.egd_refresh import EGD_MEMORY
from addin.core.member_refresh import (
    AGA_MEMORY,
    Listed,
    Memory,
    Refresh,
    as_listed_before,
    listed_before,
    waiting,
)
from addin.workbook import book, players_sheet
from addin.workbook.book import read_log

UPDATE_FLAG = "--update-players"


def _shown(value: object) -> str:
    if value is None or value == "":
        return "blank"
    if isinstance(value, float):
        return f"{value:.5f}".rstrip("0").rstrip(".")
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


@dataclass(frozen=True)
class ListWords:
    """How a list's refresh speaks: its command, its published rating's column, how the
    list is said to give that rating, and what its Log lines remember (its data's name)."""

    command: str
    published: str
    rates: str
    memory: Memory

    @property
    def data(self) -> str:
        return self.memory.data


AGA_LIST = ListWords("import-tdlista", "aga_rating", "rates", AGA_MEMORY)
EGD_LIST = ListWords("import-egd-list", "gor", "gives GoR", EGD_MEMORY)


def describe(who: str, r: Refresh, header: dict[str, str], words: ListWords) -> list[str]:
    """The lines of ``r`` for the player ``who`` ("Name (AGA # 123)")."""
    lines = [f"{who}: {header[c.key]} {_shown(c.old)} -> {_shown(c.new)}" for c in r.changes]
    lines += [
        f"{who}: {header[c.key]} {_shown(c.old)} kept, typed at the desk "
        f"(the new list says {_shown(c.new)})"
        for c in r.kept
    ]
    if r.kept_rating is not None:
        new = next((c.new for c in r.changes if c.key == words.published), None)
        rates = f"{words.rates} {_shown(new)}" if new is not None else "gives another grade"
        lines.append(
            f"{who}: entry rating {_shown(r.kept_rating)} kept, set by the TD "
            f"(the new list {rates}; set-rating changes it)"
        )
    return lines


def as_listed(
    draft: Draft, b: book.Book, previous: Mapping[int, Listed], words: ListWords = AGA_LIST
) -> dict[int, Listed]:
    """The lines ``previous`` (the list the workbook held until now, by its key) as the older
    list gave them, where the last import left a difference waiting (its Log lines say the
    older list's value): a difference listed once is made when the TD asks, not kept as if
    typed at the desk."""
    header = players_sheet.headers(b.tournament.settings.rounds)
    remembered = listed_before((m for _, m in read_log(draft)), header, words.memory)
    return {
        key: as_listed_before(line, remembered[key], words.memory) if key in remembered else line
        for key, line in previous.items()
    }


def _paired(b: book.Book) -> list[int]:
    return [r.number for r in b.tournament.rounds if r.games or r.byes]


def update_players(
    draft: Draft,
    b: book.Book,
    found: Sequence[tuple[str, Refresh]],
    update: bool,
    words: ListWords = AGA_LIST,
) -> None:
    """Write the registered players' changes ``found`` (who, refresh) when allowed.

    Called before anything is written: a declined warning leaves the workbook as it was.
    """
    changed = [(who, r) for who, r in found if r.changes]
    if not found:
        return
    header = players_sheet.headers(b.tournament.settings.rounds)
    paired = _paired(b)
    if paired and not update:
        draft.done(
            f"{len(changed)} registered player(s) have different {words.data} in the new "
            f"list; round {paired[0]} is paired, so the Players sheet is unchanged (run "
            f"{words.command} again with {UPDATE_FLAG} to update them)"
        )
        for who, r in found:  # logged with the old values: the next import needs them
            lines = describe(who, r, header, words)  # the changes first, then what stays
            for i, line in enumerate(lines):
                draft.done(f"  {waiting(line) if i < len(r.changes) else line}")
        return
    if paired:
        moved = [w for w, r in changed if any(c.key == "rating" for c in r.changes)]
        draft.warn(
            [
                f"round(s) {', '.join(map(str, paired))} are paired: their bands, McMahon "
                f"scores and handicaps were computed from the old ratings; {UPDATE_FLAG} "
                f"changes {len(changed)} player(s)' {words.data} now"
                + (f", the entry rating of {len(moved)}" if moved else "")
            ]
        )
    updates = {r.aga_id: r.values() for _, r in changed}
    if updates:
        players_sheet.write_fields(draft, b, updates)
    draft.done(f"Updated the {words.data} of {len(changed)} registered player(s) from the new list")
    for who, r in found:
        for line in describe(who, r, header, words):
            draft.done(f"  {line}")
    rerated = any(c.key == "rating" for _, r in changed for c in r.changes)
    if rerated and b.tournament.bands and not paired:
        draft.done("The bands were built from the old entry ratings: run bands again")
