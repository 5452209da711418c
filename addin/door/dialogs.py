"""What a door's dialogs can do: messages, OK/Cancel confirmations, input boxes, file pickers.

Each window door has its own (``addin.excel.dialogs``, ``addin.calc.dialogs``).
"""

from __future__ import annotations

from typing import Protocol

TITLE = "AGA Swiss McMahon"


class CannotAsk(RuntimeError):
    """This engine has no way to ask the TD; the parameter must be passed in."""


class Dialogs(Protocol):
    def alert(self, message: str, *, title: str = TITLE, error: bool = False) -> None: ...

    def confirm(self, message: str, *, title: str = TITLE) -> bool:
        """OK/Cancel: True for OK."""
        ...

    def ask_text(self, prompt: str, default: str = "", *, title: str = TITLE) -> str | None:
        """The text typed, or None when the TD cancelled."""
        ...

    def ask_open_file(self, prompt: str, *, title: str = TITLE) -> str | None: ...

    def ask_save_file(self, prompt: str, default: str, *, title: str = TITLE) -> str | None: ...
