"""The ``lookup`` action: search the TDListA and EGD list sheets, at the registration desk's pace.

It reads those lists and nothing else, and writes nothing: it declares so
(``reads_only``), and the command line reads just that sheet (python-calamine), importing
neither openpyxl nor the other actions.
"""

from __future__ import annotations

from collections.abc import Mapping

from addin.actions.member_list import read_egd, read_members
from addin.actions.registry import Param, action
from addin.actions.session import ActionError, Session
from addin.core.egd import describe as describe_egd
from addin.core.registration import describe
from addin.workbook.egd_sheet import EGD_SHEETS
from addin.workbook.member_sheet import MEMBER_SHEETS


@action(
    "lookup",
    "Look up player",
    "search the TDListA sheet by family name (prefix, any case or accent) or AGA number, and "
    "the EGD list sheet by name or PIN",
    Param(
        "query",
        "a family name prefix, 'Family, Given', an AGA number or an EGD PIN",
        required=True,
        positional=True,
    ),
    reads_only=(*MEMBER_SHEETS, *EGD_SHEETS),
)
def lookup(session: Session, params: Mapping[str, object]) -> None:
    index, egd = read_members(session.gw), read_egd(session.gw)
    if not len(index) and not len(egd):
        raise ActionError(
            f"{session.gw.source}: the TDListA sheet is empty; import a TDListA first (or "
            "the EGD's list: import-egd-list)"
        )
    query = str(params["query"])
    matches = [describe(m) for m in index.search(query)]
    matches += [describe_egd(p) for p in egd.search(query)]
    for line in matches:
        session.say(line)
    session.say(f"{len(matches)} match(es) for {params['query']!r}")
