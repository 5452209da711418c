"""The Calc door's dispatcher: a toolbar or menu entry runs ``dispatch(control_id, doc)``.

It is the window doors' shared dispatcher (``addin.door.dispatch``) with Calc's open
window (:class:`CalcWindow`): the document's storage through UNO (``UnoGateway``), Calc's
dialogs, its selection and the journal's view of its file. The buttons, the selection
rules, the parameters asked and the messages are the same code as Excel's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from addin.actions.change import SelectRows
from addin.calc.dialogs import CalcDialogs
from addin.calc.office import properties
from addin.calc.uno_gateway import UnoGateway
from addin.door.dialogs import Dialogs
from addin.door.dispatch import Outcome
from addin.door.dispatch import dispatch as shared_dispatch
from addin.door.journal_file import JOURNALED, NO_FILE, beside
from addin.door.report_menu import report_folder, show_file
from addin.workbook.gateway import Selection


class CalcWindow:
    """A Calc document: ``store()`` saves it to its file with the filter it was opened with
    (the .xlsx stays .xlsx), and loading the file into the document's own frame shows it
    again."""

    door = "Calc"

    def __init__(self, ctx: Any, doc: Any, dialogs: Dialogs) -> None:
        self.ctx, self.doc, self.dialogs = ctx, doc, dialogs

    @property
    def full_name(self) -> str:
        if not self.doc.hasLocation():
            return str(self.doc.Title)
        import uno

        return str(uno.fileUrlToSystemPath(self.doc.Location))

    @property
    def name(self) -> str:
        return Path(self.full_name).name

    # --- the store's side ---------------------------------------------------------------

    def storage(self) -> UnoGateway:
        return UnoGateway(self.doc)

    def journal_view(self) -> CalcWindow:
        return self

    # --- the journal's view: Window -----------------------------------------------------

    def file(self) -> Path | None:
        if not self.doc.hasLocation():
            return None
        path = Path(self.full_name)
        return path if path.suffix.lower() in JOURNALED and path.is_file() else None

    def on_disk(self) -> Path | None:
        if not self.doc.hasLocation():
            return None
        path = Path(self.full_name)
        return path if path.is_file() else None

    def unavailable(self) -> str:
        return NO_FILE

    def save(self) -> None:
        self.doc.store()

    def modified(self) -> bool:
        return bool(self.doc.isModified())

    def reopen(self, between: Callable[[], None]) -> Any:
        doc = self.doc
        frame = doc.getCurrentController().getFrame()
        url = doc.getURL()
        hidden = any(a.Name == "Hidden" and a.Value for a in doc.getArgs())
        between()
        shown = frame.loadComponentFromURL(
            url, "_self", 0, properties(Hidden=True) if hidden else ()
        )
        if shown is None:
            raise RuntimeError(f"LibreOffice could not open {self.full_name} again")
        self.doc = shown
        return shown

    # --- the TD's side: selection, opening files ----------------------------------------

    def selection(self) -> Selection | None:
        """The selected cells' sheet and rows (several areas merged), from the controller."""
        try:
            chosen = self.doc.CurrentController.getSelection()
            if chosen.supportsService("com.sun.star.sheet.SheetCellRanges"):
                areas = list(chosen.RangeAddresses)
            else:
                areas = [chosen.RangeAddress]
        except Exception:  # a shape, a chart, no controller (a hidden document)
            return None
        if not areas:
            return None
        rows: set[int] = set()
        for area in areas:
            if not (area.StartRow == 0 and area.EndRow >= MAX_ROW):
                rows.update(range(area.StartRow + 1, area.EndRow + 2))
        sheet = self.doc.Sheets.getByIndex(areas[0].Sheet).Name
        return Selection(sheet, tuple(sorted(rows))) if rows else None

    def select(self, request: SelectRows) -> bool:
        """Select the rows (their first ``columns`` cells) on their sheet, in the document's
        own controller: one range, or a set of ranges for rows apart."""
        try:
            sheet = self.doc.Sheets.getByName(request.sheet)
            ranges = self.doc.createInstance("com.sun.star.sheet.SheetCellRanges")
            for first, last in _runs(request.rows):
                cells = sheet.getCellRangeByPosition(0, first - 1, request.columns - 1, last - 1)
                ranges.addRangeAddress(cells.RangeAddress, False)
            controller = self.doc.CurrentController
            controller.setActiveSheet(sheet)
            chosen = ranges if len(ranges.RangeAddresses) > 1 else cells
            return bool(controller.select(chosen))
        except Exception:  # selecting is a convenience: the answer stands without it
            return False

    def open_workbook(self, path: Path) -> bool:
        """Open a workbook in a new Calc window (``New tournament`` does)."""
        try:
            import uno

            desktop = self.ctx.ServiceManager.createInstanceWithContext(
                "com.sun.star.frame.Desktop", self.ctx
            )
            desktop.loadComponentFromURL(uno.systemPathToFileUrl(str(path)), "_blank", 0, ())
        except Exception:
            return False
        return True

    def show_file(self, path: Path) -> None:
        show_file(path)

    def report_folder(self) -> Path:
        return report_folder(beside(self.full_name) if self.doc.hasLocation() else None)


MAX_ROW = 1048575
"""The last row index Calc has (a whole column selected spans it)."""


def _runs(rows: tuple[int, ...]) -> list[tuple[int, int]]:
    """Runs of consecutive rows: (5, 6, 7, 9) gives (5, 7) and (9, 9)."""
    runs: list[tuple[int, int]] = []
    for r in sorted(set(rows)):
        if runs and r == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], r)
        else:
            runs.append((r, r))
    return runs


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
    window = CalcWindow(ctx, doc, dialogs or CalcDialogs(ctx, doc))
    return shared_dispatch(control_id, window, params, yes=yes)
