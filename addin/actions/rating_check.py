"""A rating body's check of what it is sent, alike for the AGA's report and the EGD's table.

The checks themselves are pure (``addin.core.submission``, ``addin.formats.egd_check``);
this module says what they found the same way for both: an export stops on an invalid value,
and on an error unless ``--force`` (an error passed so is told and goes to the Log); a check
alone (``check-aga``, ``check-egd``) lists everything and fails when there is an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from addin.actions import intake
from addin.actions.change import ActionError, Draft
from addin.core.model import Tournament
from addin.core.submission import Severity, SubmissionProblem
from addin.workbook import book
from addin.workbook.gateway import LogEntry


@dataclass(frozen=True)
class RatingBody:
    """Who is sent what, in the messages."""

    who: str
    """"the AGA", "the EGD"."""
    document: str
    """What is sent: "report", "table"."""
    export: str
    """The action that sends it: "export-aga"."""
    short: str
    """The check's name in its summary: "AGA check"."""


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


def reading_problems(
    b: book.Book, wanted: intake.Needs, body: RatingBody
) -> list[SubmissionProblem]:
    """The cells that could not be read: invalid where the export needs them, else warnings."""
    return [
        SubmissionProblem(Severity.INVALID, str(p))
        if wanted.stops(p)
        else SubmissionProblem(Severity.WARNING, f"{p} ({body.export} prints around it)")
        for p in b.problems
    ]


def screen_for_export(
    draft: Draft, problems: Sequence[SubmissionProblem], body: RatingBody
) -> list[str]:
    """Stop on invalid values, and on errors unless ``--force``; the warnings to ask about.

    Errors passed with ``--force`` are told and go to the Log with the export.
    """
    invalid, errors, warnings = split(problems)
    source = draft.source
    if invalid:
        raise ActionError(
            "\n".join(
                [
                    f"{source}: {body.who} {body.document} cannot carry these values; "
                    "nothing was exported:",
                    *lines(invalid),
                ]
            )
        )
    if errors and not draft.snapshot.force:
        raise ActionError(
            "\n".join(
                [
                    f"{source}: {body.who} would reject this {body.document}; nothing was "
                    "exported (fix these, or export anyway from the command line with --force):",
                    *lines(errors),
                ]
            )
        )
    for error in errors:
        message = f"exported with --force although: {error}"
        draft.say(message)
        draft.change.log.append(LogEntry("Error", draft.action, message))
    return [str(w) for w in warnings]


def report(
    draft: Draft,
    t: Tournament,
    problems: Sequence[SubmissionProblem],
    body: RatingBody,
    notes: Sequence[str] = (),
) -> None:
    """What a check alone says: every problem, and a summary; an error fails it."""
    invalid, errors, warnings = split(problems)
    if invalid or errors:
        raise ActionError(
            "\n".join(
                [
                    f"{draft.source}: {body.who} would reject this {body.document} "
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
    games = sum(len(r.games) for r in t.rounds)
    verdict = f"{len(warnings)} warnings to look at" if warnings else "nothing to fix"
    draft.say(f"{body.short} of {len(t.players)} players and {games} games: {verdict}")
