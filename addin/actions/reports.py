"""The ``report`` action: any in-tournament report to a file (.html, .pdf, .txt) or a sheet."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from addin.actions.director.lookup import in_tournament
from addin.actions.needs import NOTHING, read_for
from addin.actions.registry import Param, ParamKind, action
from addin.actions.session import ActionError, Session
from addin.publish.codes import read_codes
from addin.reports.kinds import KINDS, SORTS, build_report
from addin.reports.model import ReportError
from addin.reports.output import render_bytes, renderer
from addin.workbook.report_sheet import write_sheet

_KINDS_HELP = "; ".join(f"{k.name} ({', '.join(k.sorts)})" for k in KINDS.values())


@action(
    "report",
    "Reports",
    "Write an in-tournament report (registration, pairing list, win/loss, cross table, "
    "tiebreak list, byes and drops, pairing cards, result slips) to a .html, .pdf or .txt "
    "file and/or to a 'Report - ...' sheet.",
    Param(
        "kind",
        f"which report, with its sort orders (the first is the default): {_KINDS_HELP}",
        ParamKind.CHOICE,
        required=True,
        choices=tuple(KINDS),
        positional=True,
    ),
    Param("sort", "sort order (default: the report's first)", ParamKind.CHOICE, choices=SORTS),
    Param("round", "the round (default: the last round paired)", ParamKind.INT),
    Param("out", "the file to write: .html, .pdf or .txt", ParamKind.FILE_OUT),
    Param("sheet", "also write the report to a sheet for printing from Excel", ParamKind.FLAG),
)
def report(session: Session, params: Mapping[str, object]) -> None:
    out = Path(str(params["out"])) if params.get("out") else None
    to_sheet = bool(params.get("sheet"))
    if out is None and not to_sheet:
        raise ActionError("say where the report goes: --out FILE (.html, .pdf, .txt) or --sheet")
    book = read_for(session, NOTHING)
    number = params.get("round")
    if number is not None:
        in_tournament(book.tournament, int(number))  # type: ignore[call-overload]
    try:
        if out is not None:
            renderer(out)  # refuse a bad extension before any work
        rep = build_report(
            book.tournament,
            str(params["kind"]),
            str(params["sort"]) if params.get("sort") else None,
            int(number) if number is not None else None,  # type: ignore[call-overload]
            codes_of=lambda n: read_codes(session.gw, n),
        )
        data = render_bytes(rep, out) if out is not None else b""
    except ReportError as err:
        raise ActionError(f"cannot make the report: {err}") from err
    where = [str(out)] if out is not None else []
    if out is not None:
        session.write_output(out, data)
    if to_sheet:
        where.append(f"sheet '{write_sheet(session.gw, rep)}'")
    message = f"{rep.title} ({rep.subtitle}) written to {' and '.join(where)}"
    if to_sheet:
        session.wrote(message)
    else:
        session.say(message)  # reading never writes: the workbook stays byte-identical
