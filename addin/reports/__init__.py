"""The in-tournament reports of the AGA interface document, as tables and renderers.

Pure: ``kinds.build_report(tournament, kind, sort, round)`` makes a :class:`Report`.
Renderers: ``output.write_report(report, path)`` writes .html, .pdf or .txt by the file's
extension; ``to_sheet.write_sheet(gateway, report)`` writes a "Report - ..." sheet.
This package's own import loads only the pure part.
"""

from addin.reports.kinds import KINDS, SORTS, build_report
from addin.reports.model import Report, ReportError

__all__ = ["KINDS", "SORTS", "Report", "ReportError", "build_report"]
