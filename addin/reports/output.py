"""Writing a report to a file, the format chosen by the file's extension."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from addin.reports import render_html, render_pdf, render_text
from addin.reports.model import Report, ReportError
from addin.workbook.saving import SaveRefused, write_bytes_safely

RENDERERS: dict[str, Callable[[Report], str | bytes]] = {
    ".html": render_html.render,
    ".htm": render_html.render,
    ".pdf": render_pdf.render,
    ".txt": render_text.render,
}


def renderer(path: Path) -> Callable[[Report], str | bytes]:
    """The renderer for ``path``; a ReportError names the extensions that work."""
    found = RENDERERS.get(path.suffix.lower())
    if found is None:
        raise ReportError(
            f"cannot write a report to {path.name!r}: the file must end in .html, .pdf or .txt"
        )
    return found


def render_bytes(report: Report, path: Path) -> bytes:
    """The file content for ``path``'s format."""
    content = renderer(path)(report)
    return content.encode("utf-8") if isinstance(content, str) else content


def write_report(report: Report, path: Path) -> Path:
    """Render and write safely (``saving.write_bytes_safely``): never half a file, the
    user's usual permissions, symbolic links followed, never over a tournament workbook."""
    try:
        write_bytes_safely(path, render_bytes(report, path))
    except SaveRefused as err:
        raise ReportError(str(err)) from err
    return path
