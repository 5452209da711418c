"""The journal's one error."""

from __future__ import annotations


class JournalError(RuntimeError):
    """The journal or one of its states cannot be used; nothing was changed."""
