"""The European Go Database's report: ``check-egd`` (reads only) and ``export-egd``.

The table and its check are pure (``addin.formats.egd_h9``, ``addin.formats.egd_check``);
the actions read the workbook, hand over the cells a problem names, and stop or warn as the
AGA's report does (``addin.actions.rating_check``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from addin import __version__
from addin.actions import intake, rating_check
from addin.actions.aga_reports import SOFTWARE
from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.intake import with_paired_round_problems
from addin.actions.rating_check import RatingBody
from addin.actions.registry import ParamKind, action, param
from addin.actions.sections import SETTLED
from addin.core.submission import Submission, SubmissionProblem
from addin.formats.egd_check import check_egd
from addin.formats.egd_h9 import EgfClass, EventDetails, egd_table
from addin.workbook import book
from addin.workbook.book import EGD_COLUMNS
from addin.workbook.submission_cells import player_rows, result_cells, setting_fields

EGD = RatingBody("the EGD", "table", "export-egd", "EGD check")
EGD_NEEDS = intake.Needs(
    players=intake.EVERY,
    player_columns=EGD_COLUMNS,
    rounds=intake.EVERY,
    settings=intake.EVERY,
    unknown_players=True,
)
"""Every player's standing, grade, club, country and PIN, every round, every setting (the
header's name, dates and times; the tiebreaks that place the players)."""

CLASSES = tuple(c.value for c in EgfClass if c is not EgfClass.X)


def country_param() -> Any:
    """``--country CODE``: the event's country, which the workbook does not say."""
    return param("the event's country code, for the EGD (PC): DE, FR, GB...", metavar="CODE")


def class_param() -> Any:
    """``--class CLASS``: the EGF class the organiser declares."""
    return param(
        "the EGF class the organiser declares (A, B, C; D online); default: the highest the "
        "time limits allow",
        ParamKind.CHOICE,
        choices=CLASSES,
        option="class",
        metavar="CLASS",
    )


@dataclass(frozen=True, kw_only=True)
class CheckEgdParams:
    country: str | None = country_param()
    egf_class: str | None = class_param()


@dataclass(frozen=True, kw_only=True)
class ExportEgdParams:
    out: Path = param("the EGF tournament table to write (.h9)", required=True)
    country: str | None = country_param()
    egf_class: str | None = class_param()


def details(params: CheckEgdParams | ExportEgdParams) -> EventDetails:
    """What the EGD's table says of the event that the workbook does not."""
    chosen = params.egf_class
    return EventDetails(
        country=params.country or "", egf_class=EgfClass(chosen) if chosen else None
    )


def egd_problems(b: book.Book, event: EventDetails) -> list[SubmissionProblem]:
    """Everything the EGD would reject or question in ``b``'s table."""
    return check_egd(
        Submission(
            tournament=b.tournament,
            rows=player_rows(b),
            settings=setting_fields(b),
            result_cells=result_cells(b),
            today=date.today(),
        ),
        event,
    )


@action(
    "check-egd",
    "EGD check",
    "list what the European Go Database would reject or question in the EGF tournament "
    "table (reads only)",
    CheckEgdParams,
    reads=SETTLED,
)
def check_egd_action(snapshot: Snapshot, params: CheckEgdParams) -> Change:
    draft = Draft(snapshot)
    b = with_paired_round_problems(book.read_book(draft), draft)
    checked = [
        *rating_check.reading_problems(b, EGD_NEEDS, EGD),
        *egd_problems(b, details(params)),
    ]
    rating_check.report(draft, b.tournament, checked, EGD)
    return draft.change


@action(
    "export-egd",
    "Export EGD table",
    "check the tournament as the European Go Database will, then write the EGF tournament "
    "table (.h9) to send it",
    ExportEgdParams,
    reads=SETTLED,
)
def export_egd(snapshot: Snapshot, params: ExportEgdParams) -> Change:
    draft = Draft(snapshot)
    b = with_paired_round_problems(book.read_book(draft), draft)
    read_warnings = intake.screen(draft, b, EGD_NEEDS)
    event = details(params)
    warnings = rating_check.screen_for_export(draft, egd_problems(b, event), EGD)
    draft.warn([*warnings, *read_warnings])
    try:
        table = egd_table(b.tournament, event, f"{SOFTWARE} {__version__}")
    except ValueError as err:
        raise ActionError(f"cannot write the EGD table: {err}") from err
    draft.output(params.out, table.data())
    games = sum(len(r.games) for r in b.tournament.rounds if r.number <= table.rounds)
    draft.done(
        f"Exported {len(table.lines)} players and {table.rounds} rounds ({games} games) "
        f"to {params.out}"
    )
    return draft.change
