"""``import-tdlista`` with a newer list: the registered players' AGA data follow it.

Before round 1 is paired every change is made and listed; after it the Players sheet stays as
it is unless the TD asks (``--update-players``, an active warning: bands and handicaps were
computed from the old ratings), and the import says how many players differ.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date

from addin.actions.change import Draft
from addin.core.member import Member
from addin.core.member_refresh import Refresh, as_listed_before, listed_before, waiting
from addin.workbook import book, players_sheet
from addin.workbook.book import read_log
from addin.workbook.players_sheet import refreshes

UPDATE_FLAG = "--update-players"


def _shown(value: object) -> str:
    if value is None or value == "":
        return "blank"
    if isinstance(value, float):
        return f"{value:.5f}".rstrip("0").rstrip(".")
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


def describe(name: str, r: Refresh, header: dict[str, str]) -> list[str]:
    lines = [
        f"{name} (AGA # {r.aga_id}): {header[c.key]} {_shown(c.old)} -> {_shown(c.new)}"
        for c in r.changes
    ]
    lines += [
        f"{name} (AGA # {r.aga_id}): {header[c.key]} {_shown(c.old)} kept, typed at the desk "
        f"(the new list says {_shown(c.new)})"
        for c in r.kept
    ]
    if r.kept_rating is not None:
        published = next((c.new for c in r.changes if c.key == "aga_rating"), None)
        lines.append(
            f"{name} (AGA # {r.aga_id}): entry rating {_shown(r.kept_rating)} kept, set by the TD "
            f"(the new list rates {_shown(published)}; set-rating changes it)"
        )
    return lines


def _paired(b: book.Book) -> list[int]:
    return [r.number for r in b.tournament.rounds if r.games or r.byes]


def update_players(
    draft: Draft,
    b: book.Book,
    members: Sequence[Member],
    update: bool,
    previous: Mapping[int, Member] | None = None,
) -> None:
    """Compare the registered players with the new list; write their changes when allowed.

    Called before anything is written: a declined warning leaves the workbook as it was.
    ``previous``: the list the workbook held until now (a value typed over it stays).
    """
    header = players_sheet.headers(b.tournament.settings.rounds)
    remembered = listed_before((m for _, m in read_log(draft)), header)
    previous = {
        aga_id: as_listed_before(m, remembered[aga_id]) if aga_id in remembered else m
        for aga_id, m in (previous or {}).items()
    }
    found = refreshes(b, members, previous)
    changed = [(name, r) for name, r in found if r.changes]
    if not found:
        return
    paired = _paired(b)
    if paired and not update:
        draft.done(
            f"{len(changed)} registered player(s) have different AGA data in the new list; "
            f"round {paired[0]} is paired, so the Players sheet is unchanged (run import-tdlista "
            f"again with {UPDATE_FLAG} to update them)"
        )
        for name, r in found:  # logged with the old values: the next import needs them
            lines = describe(name, r, header)  # the changes first, then what stays
            for i, line in enumerate(lines):
                draft.done(f"  {waiting(line) if i < len(r.changes) else line}")
        return
    if paired:
        moved = [n for n, r in changed if any(c.key == "rating" for c in r.changes)]
        draft.warn(
            [
                f"round(s) {', '.join(map(str, paired))} are paired: their bands, McMahon "
                f"scores and handicaps were computed from the old ratings; {UPDATE_FLAG} "
                f"changes {len(changed)} player(s)' AGA data now"
                + (f", the entry rating of {len(moved)}" if moved else "")
            ]
        )
    updates = {r.aga_id: r.values() for _, r in changed}
    if updates:
        players_sheet.write_fields(draft, b, updates)
    draft.done(f"Updated the AGA data of {len(changed)} registered player(s) from the new list")
    for name, r in found:
        for line in describe(name, r, header):
            draft.done(f"  {line}")
    rerated = any(c.key == "rating" for _, r in changed for c in r.changes)
    if rerated and b.tournament.bands and not paired:
        draft.done("The bands were built from the old entry ratings: run bands again")
