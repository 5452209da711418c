"""What the pre-registration form gave each player, as the Log records it.

``preregister`` writes one Log line per player whose form had an email; the AGA report
compares the Players row's email with it (``addin.core.membership_updates``): the form's
own email is not news for the membership office, one the desk typed or changed is. The Log
is the record because it is what the import wrote, never what the desk typed later; a Log
line the TD deleted only makes that email count as the desk's (sent, as before).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from addin.core.model import PlayerId

FORM_EMAIL = "Email from the pre-registration form, AGA # "
"""Log text before ``12345: ann@example.org``."""

_LINE = re.compile(re.escape(FORM_EMAIL) + r"(\d{1,5}): (.*)", re.S)


def form_email_line(pid: PlayerId, email: str) -> str:
    return f"{FORM_EMAIL}{int(pid)}: {email.strip()}"


def form_emails(log: Iterable[tuple[str, str]]) -> dict[PlayerId, str]:
    """The email the form gave each player (the last import's, when imported again)."""
    found: dict[PlayerId, str] = {}
    for _, message in log:
        if message.startswith(FORM_EMAIL) and (match := _LINE.fullmatch(message)):
            found[PlayerId(int(match.group(1)))] = match.group(2)
    return found
