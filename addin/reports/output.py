"""Writing a report to a file, the format chosen by the file's extension."""

from __future__ import annotations

import os
import tempfile
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


def write_report(report: Report, path: Path) -> Path:
    """Render and write atomically (temporary file, then rename): never half a file."""
    content = renderer(path)(report)
    data = content.encode("utf-8") if isinstance(content, str) else content
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise ReportError(f"cannot write {path}: the folder {folder} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, _mode(path))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def _mode(path: Path) -> int:
    """The file's present permissions, else the usual ones (a web server must read a page;
    mkstemp alone would leave it readable by its owner only)."""
    if path.exists():
        return path.stat().st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
