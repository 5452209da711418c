"""The ``lookup`` action: search the TDListA and EGD list sheets, at the registration desk's pace.

It reads those lists and the Tournament sheet (whose first day decides which memberships
have lapsed) and nothing else, and writes nothing: it declares so, and the command line
reads just those sheets (python-calamine), importing neither openpyxl nor the other
actions. Matches are listed current members first, lapsed ones marked, the first
``SHOWN`` unless asked for more.
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
from addin.workbook.book import read_settings
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
    matches = [describe(m, day) for m in members]
    matches += [describe_egd(p) for p in egd.search(params.query)]
    shown = len(matches) if params.all else params.limit or SHOWN
    for line in matches[:shown]:
        draft.say(line)
    lapsed = sum(is_lapsed(m, day) for m in members)
    among = f" ({lapsed} lapsed before {day.isoformat()})" if lapsed else ""
    draft.say(f"{len(matches)} match(es) for {params.query!r}{among}")
    hidden = len(matches) - shown
    if hidden > 0:
        left = sum(is_lapsed(m, day) for m in members[shown:])
        draft.say(more_text(hidden, left, " (add a given name), or list them all with --all"))
    return draft.change


def event_day(draft: Draft) -> date:
    """The day memberships must last to: the event's first day, else today."""
    return read_settings(draft).settings.start_date or date.today()
