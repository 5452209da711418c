"""The in-tournament reports of the AGA interface document, as tables and renderers.

Pure: ``kinds.build_report(tournament, kind, sort, round)`` makes a :class:`Report`.
Renderers take the report, never the workbook: ``output.render_bytes(report, path)`` makes
.html, .pdf or .txt by the file's extension (the action writes it); the "Report - ..." sheet
is written by ``addin.workbook.report_sheet.write_sheet(gateway, report)``.
This package's own import loads only the pure part.
"""

from addin.reports.kinds import KINDS, SORTS, build_report
from addin.reports.model import Report, ReportError

__all__ = ["KINDS", "SORTS", "Report", "ReportError", "build_report"]
