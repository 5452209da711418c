"""The TDListA and EGD list sheets as indexes: what registration and typed rows are checked
against."""

from __future__ import annotations

import contextlib
from pathlib import Path

from addin.actions.change import ActionError
from addin.core.egd import EgdIndex
from addin.core.lookup import MemberIndex
from addin.workbook.egd_sheet import read_egd_index
from addin.workbook.gateway import TableSource
from addin.workbook.member_sheet import read_member_index


def read_members(tables: TableSource) -> MemberIndex:
    """The TDListA indexed (``addin.workbook.member_sheet``); its problems stop the action."""
    index, problems = read_member_index(tables)
    if problems:
        raise ActionError(f"{tables.source}: the TDListA sheet has problems", problems)
    return index


def read_egd(tables: TableSource) -> EgdIndex:
    """The EGD list sheet indexed (``addin.workbook.egd_sheet``); its problems stop the
    action. A workbook without the sheet has an empty list."""
    index, problems = read_egd_index(tables)
    if problems:
        raise ActionError(f"{tables.source}: the EGD list sheet has problems", problems)
    return index


def keep_index(path: Path) -> int:
    """Index the TDListA and the EGD list saved in ``path`` and keep both, as ``lookup``
    reads and keys them (it searches both): a new list is indexed when it arrives, not at
    the desk's first look-up, and the other list's index, whose keys the save may have
    changed, is kept again with it. What is kept is what reading the saved file makes,
    under keys of its saved bytes, so a list changed later misses it. Run once the
    workbook is saved (``Change.afterwards``); anything in the way (another command's turn,
    a list with problems) leaves nothing kept and is no error: the next look-up indexes
    the list. Returns the exit code, 0."""
    from addin.workbook.calamine_reader import CalamineReader
    from addin.workbook.egd_sheet import EGD_SHEETS
    from addin.workbook.member_sheet import MEMBER_SHEETS
    from addin.workbook.saving import one_at_a_time, target_of

    # the import is done and reported: keeping its index is a bonus, never an error
    with contextlib.suppress(Exception), one_at_a_time(target_of(path), timeout=KEEP_WAIT):
        read_members(CalamineReader.open(path, MEMBER_SHEETS))
        read_egd(CalamineReader.open(path, EGD_SHEETS))
    return 0


KEEP_WAIT = 2.0
"""Seconds ``keep_index`` waits for another command on the workbook before it gives up."""
