"""The Calc door's dispatcher: a toolbar or menu entry runs ``dispatch(control_id, doc)``.

It is the window doors' shared dispatcher (``addin.door.dispatch``) with Calc's parts:
the document through a ``UnoGateway``, Calc's dialogs, and a small stand-in for what the
dispatcher asks of an open workbook (its name, its file, opening another workbook). The
buttons, the selection rules, the parameters asked and the messages are the same code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from addin.calc.dialogs import CalcDialogs
from addin.calc.office import properties
from addin.calc.uno_gateway import UnoGateway
from addin.door.dialogs import Dialogs
from addin.door.dispatch import Outcome
from addin.door.dispatch import dispatch as shared_dispatch
from addin.door.window_journal import JOURNALED, NO_FILE


class _Engine:
    name = "calc"


class _Books:
    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx

    def open(self, path: str) -> Any:
        """Open a workbook in a new Calc window (``New tournament`` does)."""
        import uno

        desktop = self.ctx.ServiceManager.createInstanceWithContext(
            "com.sun.star.frame.Desktop", self.ctx
        )
        return desktop.loadComponentFromURL(uno.systemPathToFileUrl(path), "_blank", 0, ())


class _App:
    def __init__(self, ctx: Any) -> None:
        self.engine = _Engine()
        self.books = _Books(ctx)


class CalcBook:
    """What the shared dispatcher asks of a workbook, for a Calc document."""

    def __init__(self, ctx: Any, doc: Any) -> None:
        self.ctx = ctx
        self.doc = doc
        self.app = _App(ctx)

    @property
    def fullname(self) -> str:
        if not self.doc.hasLocation():
            return str(self.doc.Title)
        import uno

        return str(uno.fileUrlToSystemPath(self.doc.Location))

    @property
    def name(self) -> str:
        return Path(self.fullname).name


def _gateway(book: CalcBook, **kwargs: Any) -> UnoGateway:
    return UnoGateway(book.doc, **kwargs)


class CalcWindow:
    """What the journal needs of a Calc document (:class:`addin.door.window_journal.Window`):
    ``store()`` saves it to its file with the filter it was opened with (the .xlsx stays
    .xlsx), and loading the file into the document's own frame shows it again."""

    door = "Calc"

    def __init__(self, book: CalcBook) -> None:
        self.book = book

    def file(self) -> Path | None:
        doc = self.book.doc
        if not doc.hasLocation():
            return None
        path = Path(self.book.fullname)
        return path if path.suffix.lower() in JOURNALED and path.is_file() else None

    def on_disk(self) -> Path | None:
        if not self.book.doc.hasLocation():
            return None
        path = Path(self.book.fullname)
        return path if path.is_file() else None

    def unavailable(self) -> str:
        return NO_FILE

    def save(self) -> None:
        self.book.doc.store()

    def modified(self) -> bool:
        return bool(self.book.doc.isModified())

    def reopen(self, between: Callable[[], None]) -> Any:
        doc = self.book.doc
        frame = doc.getCurrentController().getFrame()
        url = doc.getURL()
        hidden = any(a.Name == "Hidden" and a.Value for a in doc.getArgs())
        between()
        shown = frame.loadComponentFromURL(
            url, "_self", 0, properties(Hidden=True) if hidden else ()
        )
        if shown is None:
            raise RuntimeError(f"LibreOffice could not open {self.book.fullname} again")
        self.book.doc = shown
        return shown


def dispatch(
    control_id: str,
    doc: Any,
    ctx: Any,
    params: Mapping[str, object] | None = None,
    *,
    dialogs: Dialogs | None = None,
    yes: bool = False,
) -> Outcome:
    """Run the action behind a Calc toolbar entry on ``doc``; never raises (a dialog says)."""
    book = CalcBook(ctx, doc)
    return shared_dispatch(
        control_id,
        book,
        params,
        dialogs=dialogs or CalcDialogs(ctx, doc),
        yes=yes,
        gateway=_gateway,
        window=CalcWindow,
    )
