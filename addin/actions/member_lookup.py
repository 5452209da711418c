"""The ``lookup`` action: search the TDListA sheet, at the registration desk's pace.

It reads the TDListA and nothing else, and writes nothing: it declares so, and the command
line reads just that sheet (python-calamine), importing neither openpyxl nor the other
actions.
"""

from __future__ import annotations

from dataclasses import dataclass

from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.member_list import read_members
from addin.actions.registry import action, param
from addin.core.registration import describe
from addin.workbook.layout import Section


@dataclass(frozen=True, kw_only=True)
class LookupParams:
    query: str = param(
        "a family name prefix, 'Family, Given', or an AGA number", required=True, positional=True
    )


@action(
    "lookup",
    "Look up player",
    "search the TDListA sheet by family name (prefix, any case or accent) or AGA number",
    LookupParams,
    reads={Section.MEMBERS},
    changes=False,
)
def lookup(snapshot: Snapshot, params: LookupParams) -> Change:
    draft = Draft(snapshot)
    index = read_members(draft)
    if not len(index):
        raise ActionError(f"{draft.source}: the TDListA sheet is empty; import a TDListA first")
    matches = index.search(params.query)
    for m in matches:
        draft.say(describe(m))
    draft.say(f"{len(matches)} match(es) for {params.query!r}")
    return draft.change
