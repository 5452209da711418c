"""A report as a file's content, the format chosen by the file's extension (the caller
writes it: the store, from a change's outputs)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from addin.reports import render_html, render_pdf, render_text
from addin.reports.model import Report, ReportError

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
