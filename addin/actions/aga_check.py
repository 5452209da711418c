"""The AGA submission check: before ``export-aga``, and alone as ``check-aga`` (read only).

The check itself is pure (``addin.core.submission``); this module reads what it needs from
the workbook: every Players row (duplicates included), the TDListA's expiry dates, the cells
of the settings and of each game's result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date

from addin.actions import intake, rating_check
from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.form_details import form_emails
from addin.actions.intake import with_paired_round_problems
from addin.actions.member_list import read_members
from addin.actions.rating_check import RatingBody
from addin.actions.registry import NoParams, action
from addin.actions.sections import SETTLED
from addin.core import membership_updates
from addin.core.member import Member
from addin.core.model import PlayerId
from addin.core.participants import no_show_text, reported
from addin.core.submission import (
    Severity,
    Submission,
    SubmissionProblem,
    check_submission,
)
from addin.formats.aga_text import is_temporary_member
from addin.formats.aga_xml import OvertimeError, overtime_element
from addin.workbook import book
from addin.workbook.book import FEE_COLUMNS, read_log
from addin.workbook.submission_cells import player_rows, result_cells, setting_cell, setting_fields

EXPORT_NEEDS = intake.Needs(players=intake.EVERY, player_columns=FEE_COLUMNS, unknown_players=True)
"""The fee the AGA report would carry must be readable, and every player of a game listed
(an unreadable AGA # leaves its games without their player); other bad cells are printed
around."""


Listing = tuple[dict[PlayerId, Member], list[SubmissionProblem]]
"""The TDListA row of each player it lists, and a warning when the sheet cannot be read."""


def submission_problems(draft: Draft, b: book.Book, listing: Listing) -> list[SubmissionProblem]:
    """Everything the rating office would reject or question in ``b``'s report."""
    members, unread = listing
    problems = check_submission(
        Submission(
            tournament=b.tournament,
            rows=player_rows(b),
            settings=setting_fields(b),
            listed_expiry={pid: m.expiry for pid, m in members.items()},
            result_cells=result_cells(b),
            today=date.today(),
        )
    )
    return unread + problems


def xml_problems(b: book.Book) -> list[SubmissionProblem]:
    """What the XML report needs beyond the text report: overtime settings it can state."""
    s = b.tournament.settings
    try:
        overtime_element(s.overtime_format, s.overtime_conditions)
    except OvertimeError as err:
        cell = setting_cell(b, err.setting)
        return [SubmissionProblem(Severity.WARNING, f"no XML report can be written: {err}", cell)]
    return []


def listed_members(draft: Draft, b: book.Book) -> Listing:
    """The TDListA sheet read once, for the expiry dates and the membership updates."""
    try:
        index = read_members(draft)
    except ActionError as err:
        first = str(err).splitlines()[0]
        return {}, [
            SubmissionProblem(
                Severity.WARNING, f"{first}: membership dates and updates not checked there"
            )
        ]
    found = {pid: index.by_id(pid) for pid in b.tournament.players}
    return {pid: m for pid, m in found.items() if m is not None}, []


def desk_updates(
    draft: Draft, b: book.Book, listing: Listing
) -> dict[PlayerId, tuple[membership_updates.Reason, ...]]:
    """Members whose record is news for the membership office, with why (a fee, a changed
    chapter, state or type, contact details from the desk: not the form's own email)."""
    members, _ = listing
    listed = {
        pid: membership_updates.Listed(m.chapter, m.state, m.membership_type)
        for pid, m in members.items()
    }
    return membership_updates.updates(
        b.tournament.players, listed, form_emails(read_log(draft)), is_temporary_member
    )


def update_lines(b: book.Book, found: Mapping[PlayerId, Sequence[object]]) -> list[str]:
    """One line per member the report lists under MEMBERSHIP UPDATES, saying why."""
    players = b.tournament.players
    return [
        f"membership update for {players[pid].name} ({pid}): {'; '.join(map(str, what))}"
        for pid, what in found.items()
    ]


def records_summary(
    draft: Draft, b: book.Book, found: Mapping[PlayerId, Sequence[membership_updates.Reason]]
) -> str:
    """How many membership records the report sends, and why (the form's emails left out);
    of the players reported (a player who never came is not)."""
    players = reported(b.tournament).players
    new = sum(is_temporary_member(pid) for pid in players)
    given = form_emails(read_log(draft))
    left_out = membership_updates.form_emails_only(players, found, given, is_temporary_member)
    return membership_updates.summary(new, found, left_out)


AGA = RatingBody("the AGA", "report", "export-aga", "AGA check")


def screen_for_export(draft: Draft, b: book.Book, listing: Listing) -> list[str]:
    """Stop on invalid values, and on errors unless ``--force``; the warnings to ask about."""
    return rating_check.screen_for_export(draft, submission_problems(draft, b, listing), AGA)


@action(
    "check-aga",
    "AGA check",
    "list what the AGA rating office would reject or question in the report (reads only)",
    reads=SETTLED,
)
def check_aga(snapshot: Snapshot, _params: NoParams) -> Change:
    draft = Draft(snapshot)
    b = with_paired_round_problems(book.read_book(draft), draft)
    listing = listed_members(draft, b)
    problems = submission_problems(draft, b, listing)
    reading = rating_check.reading_problems(b, EXPORT_NEEDS, AGA)
    unreadable = [p for p in reading if p.severity is Severity.INVALID]
    around = [p for p in reading if p.severity is not Severity.INVALID]
    listed = reported(b.tournament)
    found = {p: why for p, why in desk_updates(draft, b, listing).items() if p in listed.players}
    notes = [f"note: {records_summary(draft, b, found)}"]
    notes += [f"note: {line}" for line in update_lines(b, found)]
    if apart := no_show_text(b.tournament, "not reported, their memberships not checked"):
        notes.append(f"note: {apart}")
    checked = [*unreadable, *problems, *xml_problems(b), *around]
    rating_check.report(draft, listed, checked, AGA, notes)
    return draft.change
