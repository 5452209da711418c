"""The ``lookup`` action: search the TDListA and EGD list sheets, at the registration desk's pace.

It reads those lists and nothing else, and writes nothing: it declares so, and the command
line reads just those sheets (python-calamine), importing neither openpyxl nor the other
actions.
"""

from __future__ import annotations

from dataclasses import dataclass

from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.member_list import read_egd, read_members
from addin.actions.registry import action, param
from addin.core.egd import describe as describe_egd
from addin.core.registration import describe
from addin.workbook.layout import Section


@dataclass(frozen=True, kw_only=True)
class LookupParams:
    query: str = param(
        "a family name prefix, 'Family, Given', an AGA number or an EGD PIN",
        required=True,
        positional=True,
    )


@action(
    "lookup",
    "Look up player",
    "search the TDListA sheet by family name (prefix, any case or accent) or AGA number, and "
    "the EGD list sheet by name or PIN",
    LookupParams,
    reads={Section.MEMBERS, Section.EGD_LIST},
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
    matches = [describe(m) for m in index.search(params.query)]
    matches += [describe_egd(p) for p in egd.search(params.query)]
    for line in matches:
        draft.say(line)
    draft.say(f"{len(matches)} match(es) for {params.query!r}")
    return draft.change
