"""The European Go Database's report: ``check-egd`` (reads only) and ``export-egd``.

The table and its check are pure (``addin.formats.egd_h9``, ``addin.formats.egd_check``);
the actions read the workbook, hand over the cells a problem names, and stop or warn as the
AGA's report does (``addin.actions.rating_check``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from pathlib import Path

from addin import __version__
from addin.actions import needs, rating_check
from addin.actions.aga_reports import SOFTWARE
from addin.actions.paired_check import with_paired_round_problems
from addin.actions.rating_check import RatingBody
from addin.actions.registry import Param, ParamKind, action
from addin.actions.session import ActionError, Session
from addin.core.submission import Submission, SubmissionProblem
from addin.formats.egd_check import check_egd
from addin.formats.egd_h9 import EgfClass, EventDetails, egd_table
from addin.workbook import book
from addin.workbook.parts import EGD_COLUMNS
from addin.workbook.submission_cells import player_rows, result_cells, setting_fields

EGD = RatingBody("the EGD", "table", "export-egd", "EGD check")
EGD_NEEDS = needs.Needs(
    players=needs.EVERY,
    player_columns=EGD_COLUMNS,
    rounds=needs.EVERY,
    settings=needs.EVERY,
    unknown_players=True,
)
"""Every player's standing, grade, club, country and PIN, every round, every setting (the
header's name, dates and times; the tiebreaks that place the players)."""

COUNTRY = Param(
    "country", "the event's country code, for the EGD (PC): DE, FR, GB...", metavar="CODE"
)
CLASS = Param(
    "egf_class",
    "the EGF class the organiser declares (A, B, C; D online); default: the highest the time "
    "limits allow",
    ParamKind.CHOICE,
    choices=tuple(c.value for c in EgfClass if c is not EgfClass.X),
    option="class",
    metavar="CLASS",
)


def details(params: Mapping[str, object]) -> EventDetails:
    chosen = params.get("egf_class")
    return EventDetails(
        country=str(params.get("country") or ""),
        egf_class=EgfClass(str(chosen)) if chosen else None,
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
    COUNTRY,
    CLASS,
)
def check_egd_action(session: Session, params: Mapping[str, object]) -> None:
    b = with_paired_round_problems(book.read_book(session.gw), session.gw)
    checked = [
        *rating_check.reading_problems(b, EGD_NEEDS, EGD),
        *egd_problems(b, details(params)),
    ]
    rating_check.report(session, b.tournament, checked, EGD)


@action(
    "export-egd",
    "Export EGD table",
    "check the tournament as the European Go Database will, then write the EGF tournament "
    "table (.h9) to send it",
    Param("out", "the EGF tournament table to write (.h9)", ParamKind.FILE_OUT, True),
    COUNTRY,
    CLASS,
)
def export_egd(session: Session, params: Mapping[str, object]) -> None:
    b = with_paired_round_problems(book.read_book(session.gw), session.gw)
    read_warnings = needs.screen(session, b, EGD_NEEDS)
    event = details(params)
    warnings = rating_check.screen_for_export(session, egd_problems(b, event), EGD)
    session.warn([*warnings, *read_warnings])
    try:
        table = egd_table(b.tournament, event, f"{SOFTWARE} {__version__}")
    except ValueError as err:
        raise ActionError(f"cannot write the EGD table: {err}") from err
    out = Path(str(params["out"]))
    session.write_output(out, table.data())
    games = sum(len(r.games) for r in b.tournament.rounds if r.number <= table.rounds)
    session.done(
        f"Exported {len(table.lines)} players and {table.rounds} rounds ({games} games) to {out}"
    )
