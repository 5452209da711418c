"""The ``lookup`` action: search the TDListA and EGD list sheets, at the registration desk's pace.

It reads those lists and the Tournament sheet (whose first day decides which memberships
have lapsed) and nothing else, and writes nothing: it declares so, and the command line
reads just those sheets (python-calamine), importing neither openpyxl nor the other
actions. Matches are listed current members first, lapsed ones marked, the first
``SHOWN`` of each list unless asked for more.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.member_list import read_egd, read_members
from addin.actions.registry import action, param
from addin.core.egd import describe as describe_egd
from addin.core.lookup import SHOWN, current_first, is_lapsed, more_text
from addin.core.registration import describe
from addin.workbook.event_day import first_day
from addin.workbook.layout import Section


@dataclass(frozen=True, kw_only=True)
class LookupParams:
    query: str = param(
        "a family name prefix, 'Family, Given', 'Given Family', an AGA number or an EGD PIN",
        required=True,
        positional=True,
    )
    limit: int | None = param(
        f"how many matches to list (default {SHOWN})", asked=False, bounds=(1, 100_000)
    )
    all: bool = param("list every match", asked=False)


@action(
    "lookup",
    "Look up player",
    "search the TDListA sheet by name (family name prefix, 'Family, Given' or 'Given Family'; "
    "any case, accent or apostrophe) or AGA number, and the EGD list sheet by name or PIN; "
    "current members first, lapsed ones marked",
    LookupParams,
    reads={Section.MEMBERS, Section.EGD_LIST, Section.SETTINGS},
    changes=False,
)
def lookup(snapshot: Snapshot, params: LookupParams) -> Change:
    draft = Draft(snapshot)
    index, egd = read_members(draft), read_egd(draft)
    if not len(index) and not len(egd):
        raise ActionError(
            f"{draft.source}: the TDListA sheet is empty; import a TDListA first (or "
            "the EGD's list: import-egd-list)"
        )
    day = event_day(draft)
    members = current_first(index.search(params.query), day)
    players = egd.search(params.query)
    shown = max(len(members), len(players)) if params.all else params.limit or SHOWN
    for member in members[:shown]:
        draft.say(describe(member, day))
    if len(members) > shown:
        left = sum(is_lapsed(m, day) for m in members[shown:])
        draft.say(more_text(len(members) - shown, left, NARROW))
    for player in players[:shown]:
        draft.say(describe_egd(player))
    if len(players) > shown:
        draft.say(more_text(len(players) - shown, 0, NARROW) + " (the EGD list)")
    lapsed = sum(is_lapsed(m, day) for m in members)
    among = f" ({lapsed} lapsed before {day.isoformat()})" if lapsed else ""
    draft.say(f"{len(members) + len(players)} match(es) for {params.query!r}{among}")
    return draft.change


NARROW = " (add a given name), or list them all with --all"


def event_day(draft: Draft) -> date:
    """The day memberships must last to: the event's first day, else today."""
    return first_day(draft) or date.today()
