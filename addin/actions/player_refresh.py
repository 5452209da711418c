"""``import-tdlista`` (``import-egd-list``) with a newer list: the registered players' AGA
(EGD) data follow it.

Before round 1 is paired every change is made and listed; after it the Players sheet stays as
it is unless the TD asks (``--update-players``, an active warning: bands and handicaps were
computed from the old ratings), and the import says how many players differ.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from addin.actions.session import Session
from addin.core.member_refresh import Refresh
from addin.workbook import book, players_sheet

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
    """How a list's refresh speaks: its data, its command, its published rating's column
    and how the list is said to give that rating."""

    data: str
    command: str
    published: str
    rates: str


AGA_LIST = ListWords("AGA data", "import-tdlista", "aga_rating", "rates")
EGD_LIST = ListWords("EGD data", "import-egd-list", "gor", "gives GoR")


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


def _paired(b: book.Book) -> list[int]:
    return [r.number for r in b.tournament.rounds if r.games or r.byes]


def update_players(
    session: Session,
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
    rounds = b.tournament.settings.rounds
    header = players_sheet.headers(rounds)
    paired = _paired(b)
    if paired and not update:
        session.done(
            f"{len(changed)} registered player(s) have different {words.data} in the new "
            f"list; round {paired[0]} is paired, so the Players sheet is unchanged (run "
            f"{words.command} again with {UPDATE_FLAG} to update them)"
        )
        for who, r in changed:
            fields = ", ".join(header[c.key] for c in r.changes)
            session.say(f"  {who}: {fields}")
        return
    if paired:
        moved = [w for w, r in changed if any(c.key == "rating" for c in r.changes)]
        session.warn(
            [
                f"round(s) {', '.join(map(str, paired))} are paired: their bands, McMahon "
                f"scores and handicaps were computed from the old ratings; {UPDATE_FLAG} "
                f"changes {len(changed)} player(s)' {words.data} now"
                + (f", the entry rating of {len(moved)}" if moved else "")
            ]
        )
    updates = {r.aga_id: r.values() for _, r in changed}
    if updates:
        players_sheet.write_fields(session.gw, b, updates)
    session.done(
        f"Updated the {words.data} of {len(changed)} registered player(s) from the new list"
    )
    for who, r in found:
        for line in describe(who, r, header, words):
            session.done(f"  {line}")
    rerated = any(c.key == "rating" for _, r in changed for c in r.changes)
    if rerated and b.tournament.bands and not paired:
        session.done("The bands were built from the old entry ratings: run bands again")
