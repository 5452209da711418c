"""The ``report`` action: any in-tournament report to a file (.html, .pdf, .txt) or a sheet."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.director.desk import in_tournament
from addin.actions.intake import NOTHING, read_for
from addin.actions.ratings import projection_after
from addin.actions.registry import ParamKind, action, param
from addin.actions.sections import SETTLED
from addin.core.model import PlayerId
from addin.reports.kinds import KINDS, SORTS, build_report, sort_word
from addin.reports.model import ReportError
from addin.reports.output import render_bytes, renderer
from addin.reports.projected import ProjectedRating
from addin.workbook.layout import Section
from addin.workbook.report_sheet import write_sheet
from addin.workbook.round_sheets import read_codes

_KINDS_HELP = "; ".join(
    f"{k.name} ({', '.join(sort_word(s) for s in k.sorts)})" for k in KINDS.values()
)


@dataclass(frozen=True, kw_only=True)
class ReportParams:
    kind: str = param(
        f"which report, with its sort orders (the first is the default): {_KINDS_HELP}",
        required=True,
        choices=tuple(KINDS),
        positional=True,
    )
    sort: str | None = param(
        "sort order (default: the report's first); name is also called alphabetical",
        choices=SORTS,
    )
    round: int | None = param("the round (default: the last round paired)")
    out: Path | None = param("the file to write: .html, .pdf or .txt")
    sheet: bool = param("also write the report to a sheet for printing from Excel", ParamKind.FLAG)


@action(
    "report",
    "Reports",
    "Write an in-tournament report (registration, pairing list, win/loss, cross table, "
    "tiebreak list, byes and drops, pairing cards, result slips, projected ratings) to a "
    ".html, .pdf or .txt file and/or to a 'Report - ...' sheet.",
    ReportParams,
    reads=SETTLED,
    writes={Section.REPORT_SHEETS},
)
def report(snapshot: Snapshot, params: ReportParams) -> Change:
    draft = Draft(snapshot)
    out = params.out
    to_sheet = params.sheet
    if out is None and not to_sheet:
        raise ActionError("say where the report goes: --out FILE (.html, .pdf, .txt) or --sheet")
    book = read_for(draft, NOTHING)
    number = params.round
    if number is not None:
        in_tournament(book.tournament, number)

    def ratings_of(number: int) -> dict[PlayerId, ProjectedRating]:
        found, why = projection_after(draft, book, number)
        if found is None:
            raise ReportError(f"no ratings can be projected: {why}")
        return found

    try:
        if out is not None:
            renderer(out)  # refuse a bad extension before any work
        rep = build_report(
            book.tournament,
            params.kind,
            params.sort or None,
            number,
            codes_of=lambda n: read_codes(draft, n),
            ratings_of=ratings_of,
        )
        data = render_bytes(rep, out) if out is not None else b""
    except ReportError as err:
        raise ActionError(f"cannot make the report: {err}") from err
    where = [str(out)] if out is not None else []
    if out is not None:
        draft.output(out, data)
    if to_sheet:
        where.append(f"sheet '{write_sheet(draft, rep)}'")
    message = f"{rep.title} ({rep.subtitle}) written to {' and '.join(where)}"
    if to_sheet:
        draft.wrote(message)
    else:
        draft.say(message)  # reading never writes: the workbook stays byte-identical
    return draft.change
