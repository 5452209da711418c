"""The ``lookup`` action: search the TDListA sheet, at the registration desk's pace.

It reads the TDListA and nothing else, and writes nothing: it declares so
(``reads_only``), and the command line reads just that sheet (python-calamine), importing
neither openpyxl nor the other actions.
"""

from __future__ import annotations

from collections.abc import Mapping

from addin.actions.member_list import read_members
from addin.actions.registry import Param, action
from addin.actions.session import ActionError, Session
from addin.core.registration import describe
from addin.workbook.member_sheet import MEMBER_SHEETS


@action(
    "lookup",
    "Look up player",
    "search the TDListA sheet by family name (prefix, any case or accent) or AGA number",
    Param(
        "query",
        "a family name prefix, 'Family, Given', or an AGA number",
        required=True,
        positional=True,
    ),
    reads_only=MEMBER_SHEETS,
)
def lookup(session: Session, params: Mapping[str, object]) -> None:
    index = read_members(session.gw)
    if not len(index):
        raise ActionError(
            f"{session.gw.source}: the TDListA sheet is empty; import a TDListA first"
        )
    matches = index.search(str(params["query"]))
    for m in matches:
        session.say(describe(m))
    session.say(f"{len(matches)} match(es) for {params['query']!r}")
