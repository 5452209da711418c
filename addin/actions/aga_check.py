"""The AGA submission check: before ``export-aga``, and alone as ``check-aga`` (read only).

The check itself is pure (``addin.core.submission``); this module reads what it needs from
the workbook: every Players row (duplicates included), the TDListA's expiry dates, the cells
of the settings and of each game's result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date

from addin.actions import intake
from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.intake import with_paired_round_problems
from addin.actions.member_list import read_members
from addin.actions.registry import NoParams, action
from addin.actions.sections import SETTLED
from addin.core import membership_updates
from addin.core.member import Member
from addin.core.model import PlayerId
from addin.core.submission import (
    Severity,
    Submission,
    SubmissionProblem,
    check_submission,
)
from addin.formats.aga_xml import OvertimeError, overtime_element
from addin.workbook import book
from addin.workbook.book import FEE_COLUMNS
from addin.workbook.gateway import LogEntry
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
    b: book.Book, listing: Listing
) -> dict[PlayerId, tuple[membership_updates.Change, ...]]:
    """Listed members whose chapter, state or membership type the desk changed."""
    members, _ = listing
    listed = {
        pid: membership_updates.Listed(m.chapter, m.state, m.membership_type)
        for pid, m in members.items()
    }
    return membership_updates.updates(b.tournament.players, listed)


def update_lines(b: book.Book, found: Mapping[PlayerId, Sequence[object]]) -> list[str]:
    """One line per member the report lists under MEMBERSHIP UPDATES for these changes."""
    players = b.tournament.players
    return [
        f"membership update for {players[pid].name} ({pid}): {'; '.join(map(str, what))}"
        for pid, what in found.items()
    ]


def lines(problems: Sequence[SubmissionProblem]) -> list[str]:
    return [f"  {p.severity.value}: {p}" for p in problems]


def split(
    problems: Sequence[SubmissionProblem],
) -> tuple[list[SubmissionProblem], list[SubmissionProblem], list[SubmissionProblem]]:
    """(invalid, errors, warnings)."""
    invalid, errors, warnings = (
        [p for p in problems if p.severity is severity] for severity in Severity
    )
    return invalid, errors, warnings


def screen_for_export(draft: Draft, b: book.Book, listing: Listing) -> list[str]:
    """Stop on invalid values, and on errors unless ``--force``; the warnings to ask about.

    Errors passed with ``--force`` are told and go to the Log with the export.
    """
    invalid, errors, warnings = split(submission_problems(draft, b, listing))
    source = draft.source
    if invalid:
        raise ActionError(
            "\n".join(
                [
                    f"{source}: the AGA report cannot carry these values; nothing was exported:",
                    *lines(invalid),
                ]
            )
        )
    if errors and not draft.snapshot.force:
        raise ActionError(
            "\n".join(
                [
                    f"{source}: the AGA would reject this report; nothing was exported "
                    "(fix these, or export anyway from the command line with --force):",
                    *lines(errors),
                ]
            )
        )
    for error in errors:
        message = f"exported with --force although: {error}"
        draft.say(message)
        draft.change.log.append(LogEntry("Error", draft.action, message))
    return [str(w) for w in warnings]


@action(
    "check-aga",
    "AGA check",
    "list what the AGA rating office would reject or question in the report (reads only)",
    reads=SETTLED,
)
def check_aga(snapshot: Snapshot, _params: NoParams) -> Change:
    draft = Draft(snapshot)
    b = with_paired_round_problems(book.read_book(draft), draft)
    unreadable = [
        SubmissionProblem(Severity.INVALID, str(p)) for p in b.problems if EXPORT_NEEDS.stops(p)
    ]
    around = [
        SubmissionProblem(Severity.WARNING, f"{p} (export-aga prints around it)")
        for p in b.problems
        if not EXPORT_NEEDS.stops(p)
    ]
    listing = listed_members(draft, b)
    problems = submission_problems(draft, b, listing)
    invalid, errors, warnings = split([*unreadable, *problems, *xml_problems(b), *around])
    notes = [f"note: {line}" for line in update_lines(b, desk_updates(b, listing))]
    if invalid or errors:
        raise ActionError(
            "\n".join(
                [
                    f"{draft.source}: the AGA would reject this report "
                    f"({len(invalid) + len(errors)} errors, {len(warnings)} warnings):",
                    *lines([*invalid, *errors, *warnings]),
                    *(f"  {note}" for note in notes),
                ]
            )
        )
    for line in lines(warnings):
        draft.say(line.strip())
    for note in notes:
        draft.say(note)
    players = len(b.tournament.players)
    games = sum(len(r.games) for r in b.tournament.rounds)
    verdict = f"{len(warnings)} warnings to look at" if warnings else "nothing to fix"
    draft.say(f"AGA check of {players} players and {games} games: {verdict}")
    return draft.change
