"""Calc's own dialogs: message boxes, OK/Cancel questions, an input box and file pickers.

Message boxes come from the toolkit (``createMessageBox``) over the document's window,
so they are Calc's native dialogs; the input box is a small dialog built at run time;
files are chosen with LibreOffice's file picker.
"""

from __future__ import annotations

from typing import Any

from addin.door.dialogs import TITLE

OK, CANCEL = 1, 0
"""What ``execute()`` returns (com.sun.star.awt.MessageBoxResults)."""
BUTTONS_OK, BUTTONS_OK_CANCEL = 1, 2
"""com.sun.star.awt.MessageBoxButtons."""
OPEN, SAVE = 0, 10
"""com.sun.star.ui.dialogs.TemplateDescription: FILEOPEN_SIMPLE and FILESAVE_AUTOEXTENSION."""


class CalcDialogs:
    """The ``Dialogs`` of ``addin.door.dialogs``, in the Calc window that runs ``doc``."""

    def __init__(self, ctx: Any, doc: Any) -> None:
        self.ctx = ctx
        self.doc = doc

    def _service(self, name: str) -> Any:
        return self.ctx.ServiceManager.createInstanceWithContext(name, self.ctx)

    def _box(self, kind: str, buttons: int, message: str, title: str) -> int:
        import uno

        window = self.doc.CurrentController.Frame.ContainerWindow
        box_type = uno.Enum("com.sun.star.awt.MessageBoxType", kind)
        toolkit = self._service("com.sun.star.awt.Toolkit")
        return int(toolkit.createMessageBox(window, box_type, buttons, title, message).execute())

    def alert(self, message: str, *, title: str = TITLE, error: bool = False) -> None:
        self._box("ERRORBOX" if error else "INFOBOX", BUTTONS_OK, message, title)

    def confirm(self, message: str, *, title: str = TITLE) -> bool:
        return self._box("QUERYBOX", BUTTONS_OK_CANCEL, message, title) == OK

    def ask_text(self, prompt: str, default: str = "", *, title: str = TITLE) -> str | None:
        """A dialog with the prompt, a text field and OK/Cancel."""
        model = self._service("com.sun.star.awt.UnoControlDialogModel")
        lines = max(1, prompt.count("\n") + 1 + len(prompt) // 60)
        height = 12 * lines
        model.setPropertyValues(
            ("Height", "PositionX", "PositionY", "Title", "Width"),
            (height + 50, 60, 60, title, 240),
        )
        parts = (
            ("label", "FixedText", (8, 6, 224, height), {"Label": prompt, "MultiLine": True}),
            ("field", "Edit", (8, height + 10, 224, 14), {"Text": default}),
            ("ok", "Button", (120, height + 30, 54, 14), {"Label": "OK", "PushButtonType": 1}),
            ("no", "Button", (178, height + 30, 54, 14), {"Label": "Cancel", "PushButtonType": 2}),
        )
        for name, kind, (x, y, w, h), props in parts:
            part = model.createInstance(f"com.sun.star.awt.UnoControl{kind}Model")
            part.PositionX, part.PositionY, part.Width, part.Height = x, y, w, h
            for key, value in props.items():
                setattr(part, key, value)
            model.insertByName(name, part)
        dialog = self._service("com.sun.star.awt.UnoControlDialog")
        dialog.setModel(model)
        dialog.createPeer(self._service("com.sun.star.awt.Toolkit"), None)
        try:
            if dialog.execute() != OK:
                return None
            return str(dialog.getControl("field").Text)
        finally:
            dialog.dispose()

    def _pick(self, template: int, prompt: str, title: str, default: str = "") -> str | None:
        import uno

        picker = self._service("com.sun.star.ui.dialogs.FilePicker")
        picker.initialize((template,))
        picker.setTitle(f"{title}: {prompt}")
        if default:
            picker.setDefaultName(default)
        if picker.execute() != OK or not picker.SelectedFiles:
            return None
        return str(uno.fileUrlToSystemPath(picker.SelectedFiles[0]))

    def ask_open_file(self, prompt: str, *, title: str = TITLE) -> str | None:
        return self._pick(OPEN, prompt, title)

    def ask_save_file(self, prompt: str, default: str, *, title: str = TITLE) -> str | None:
        return self._pick(SAVE, prompt, title, default)


class AcceptAll:
    """Dialogs for a door with no one to ask (headless): alerts kept, questions answered."""

    def __init__(self, answer: bool = True) -> None:
        self.answer = answer
        self.shown: list[tuple[str, str, bool]] = []

    def alert(self, message: str, *, title: str = TITLE, error: bool = False) -> None:
        self.shown.append((title, message, error))

    def confirm(self, message: str, *, title: str = TITLE) -> bool:
        self.shown.append((title, message, False))
        return self.answer

    def ask_text(self, prompt: str, default: str = "", *, title: str = TITLE) -> str | None:
        from addin.door.dialogs import CannotAsk

        raise CannotAsk(prompt)

    def ask_open_file(self, prompt: str, *, title: str = TITLE) -> str | None:
        return self.ask_text(prompt, title=title)

    def ask_save_file(self, prompt: str, default: str, *, title: str = TITLE) -> str | None:
        return self.ask_text(prompt, title=title)
