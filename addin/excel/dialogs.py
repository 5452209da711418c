"""The dialogs the add-in shows: messages, OK/Cancel confirmations, input boxes, file pickers.

Messages and confirmations go through xlwings' ``app.alert``, which every engine has
(a message box on Windows, a dialog on macOS, an ``alert`` action on the remote
engine). xlwings has no input box or file dialog, so those use Excel's own through
its COM object on Windows and the StandardAdditions dialogs on macOS. The remote
engine cannot ask anything: parameters must be given (``CannotAsk``).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Protocol

from addin.door.dialogs import TITLE, CannotAsk, Dialogs

if TYPE_CHECKING:
    import xlwings as xw

ALL_FILES = "All files (*.*),*.*"
TEXT_FILES = f"Text files (*.txt;*.tsv;*.csv;*.xml),*.txt;*.tsv;*.csv;*.xml,{ALL_FILES}"
WORKBOOKS = "Excel workbook (*.xlsx),*.xlsx"
INPUT_BOX_LIMIT = 255
__all__ = ["TITLE", "CannotAsk", "Dialogs", "ExcelDialogs"]


class ExcelDialogs:
    """Dialogs in the Excel that runs the workbook (or alert actions on the remote engine)."""

    def __init__(self, app: xw.App) -> None:
        self.app = app
        self.engine = str(app.engine.name)

    def alert(self, message: str, *, title: str = TITLE, error: bool = False) -> None:
        self.app.alert(message, title=title, buttons="ok", mode="critical" if error else "info")

    def confirm(self, message: str, *, title: str = TITLE) -> bool:
        """A question, with the question icon where Windows offers one (xlwings' alert has
        only the information and warning icons); elsewhere the information icon."""
        if self.engine == "excel" and sys.platform.startswith("win"):
            import win32api  # pywin32 comes with xlwings on Windows
            import win32con

            style = win32con.MB_OKCANCEL | win32con.MB_ICONQUESTION
            return bool(win32api.MessageBox(self.app.hwnd, message, title, style) == 1)
        answer = self.app.alert(message, title=title, buttons="ok_cancel", mode="info")
        return answer == "ok"  # the remote engine cannot answer: None, not confirmed

    def ask_text(self, prompt: str, default: str = "", *, title: str = TITLE) -> str | None:
        if self.engine == "excel" and sys.platform.startswith("win"):
            if len(prompt) > INPUT_BOX_LIMIT:  # Excel's InputBox shows no more
                prompt = prompt[: INPUT_BOX_LIMIT - 3] + "..."
            answer = self.app.api.InputBox(prompt, title, default)
            return None if answer is False else str(answer)
        if self.engine == "excel" and sys.platform == "darwin":
            return _mac_ask_text(self.app, prompt, default, title)
        raise CannotAsk(prompt)

    def ask_open_file(self, prompt: str, *, title: str = TITLE) -> str | None:
        if self.engine == "excel" and sys.platform.startswith("win"):
            answer = self.app.api.GetOpenFilename(TEXT_FILES, 1, f"{title}: {prompt}")
            return None if answer is False else str(answer)
        if self.engine == "excel" and sys.platform == "darwin":
            return _mac_choose(self.app, "choose_file", with_prompt=prompt)
        raise CannotAsk(prompt)

    def ask_save_file(self, prompt: str, default: str, *, title: str = TITLE) -> str | None:
        if self.engine == "excel" and sys.platform.startswith("win"):
            kinds = WORKBOOKS if default.endswith(".xlsx") else ALL_FILES
            answer = self.app.api.GetSaveAsFilename(default, kinds, 1, f"{title}: {prompt}")
            return None if answer is False else str(answer)
        if self.engine == "excel" and sys.platform == "darwin":
            return _mac_choose(
                self.app, "choose_file_name", with_prompt=prompt, default_name=default
            )
        raise CannotAsk(prompt)


class _StandardAdditions(Protocol):
    """What the dialogs call of macOS's StandardAdditions (``choose_file``... by name)."""

    def activate(self) -> None: ...

    def display_dialog(self, prompt: str, **options: object) -> Any:
        """The answer: a record, ``answer[k.text_returned]`` the text typed."""
        ...


def _mac_additions(app: xw.App) -> _StandardAdditions:
    """StandardAdditions in front of Excel, as xlwings' own ``app.alert`` uses on macOS."""
    import osax  # installed with xlwings on macOS

    additions: _StandardAdditions = osax.OSAX(pid=app.pid)
    additions.activate()
    return additions


def _mac_ask_text(app: xw.App, prompt: str, default: str, title: str) -> str | None:
    from appscript import k

    try:
        answer = _mac_additions(app).display_dialog(
            prompt,
            default_answer=default,
            with_title=title,
            buttons=["Cancel", "OK"],
            default_button="OK",
            cancel_button="Cancel",
        )
    except Exception:  # the Cancel button raises (error -128)
        return None
    return str(answer[k.text_returned])


def _mac_choose(app: xw.App, command: str, **kwargs: str) -> str | None:
    try:
        chosen = getattr(_mac_additions(app), command)(**kwargs)
    except Exception:  # the Cancel button raises (error -128)
        return None
    return str(getattr(chosen, "path", chosen))
