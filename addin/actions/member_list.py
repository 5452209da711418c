"""The TDListA sheet as a member index: what registration and typed rows are checked against."""

from __future__ import annotations

from addin.actions.session import ActionError
from addin.core.lookup import MemberIndex
from addin.workbook.gateway import Gateway
from addin.workbook.member_sheet import read_member_index


def read_members(gw: Gateway) -> MemberIndex:
    """The TDListA indexed (``addin.workbook.member_sheet``); its problems stop the action."""
    index, problems = read_member_index(gw)
    if problems:
        raise ActionError(f"{gw.source}: the TDListA sheet has problems", problems)
    return index
