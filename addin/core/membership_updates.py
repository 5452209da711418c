"""What is news for the AGA's membership records about a member: MEMBERSHIP UPDATES.

A member (not a temporary number) is listed under MEMBERSHIP UPDATES when

* a membership fee was taken (a renewal: the record carries what the desk has);
* the Players row's chapter, state or membership type differs from the TDListA (the member
  moved, joined another club, renewed as another type). A blank cell is no change: the desk
  leaves cells empty far more often than a member leaves a club. Case and spacing do not
  count (``nygc`` is ``NYGC``);
* the desk collected a mailing address, phone, citizenship or birth date: the TDListA holds
  none of them, and the pre-registration form asks for none of them;
* the email is not the one the pre-registration form gave (the desk typed or changed it).
  The form's own email is not news: an online form asks every player for one, and the AGA
  has its members' from their own membership. What the form gave is recorded in the Log
  when the pre-registration is imported (``addin.actions.form_details``).

The record, when it goes, carries everything the desk has (the email too).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from addin.core.limits import MAX_SHOWN, shown
from addin.core.model import Player, PlayerId

LISTED_FIELDS: tuple[tuple[str, str], ...] = (
    ("chapter", "Club"),
    ("state", "State"),
    ("membership_type", "Membership Type"),
)
"""(Player attribute, the report's name for it) of the TDListA data the desk can change."""


@dataclass(frozen=True)
class Listed:
    """A member's data as the TDListA gives it."""

    chapter: str = ""
    state: str = ""
    membership_type: str = ""


@dataclass(frozen=True)
class Change:
    field: str
    """The report's name for it: Club, State, Membership Type."""
    listed: str
    now: str

    def __str__(self) -> str:
        return f"{self.field} {self.listed or '(blank)'} -> {_named(self.now)}"


def _named(value: str) -> str:
    """A typed value as a message shows it: plain when it is a plain short word."""
    return value if value.isprintable() and len(value) <= MAX_SHOWN else shown(value)


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def changes(player: Player, listed: Listed) -> tuple[Change, ...]:
    """The TDListA fields the Players row changes for this member (blank: unchanged)."""
    found = []
    for attribute, name in LISTED_FIELDS:
        now, before = getattr(player, attribute).strip(), getattr(listed, attribute).strip()
        if now and not _same(now, before):
            found.append(Change(name, before, now))
    return tuple(found)


@dataclass(frozen=True)
class Collected:
    """Something the desk collected that the TDListA does not hold: why a record goes."""

    field: str
    """The report's name for it: AGA Fee, Home Email, Phone Number, ..."""
    why: str

    def __str__(self) -> str:
        return self.why


Reason = Change | Collected

_DETAILS: tuple[tuple[str, str, str], ...] = (
    ("address", "Address 1", "a mailing address"),
    ("phone", "Phone Number", "a phone number"),
    ("citizenship", "Citizenship", "a citizenship"),
)
"""(Player attribute, the report's name, what it is) of the contact details only a desk
collects (the pre-registration form asks for none of them)."""

FEE = "AGA Fee"
EMAIL = "Home Email"
KINDS = (
    ("a fee taken", lambda r: r.field == FEE),
    ("a changed club, state or membership type", lambda r: isinstance(r, Change)),
    ("contact details from the desk", lambda r: isinstance(r, Collected) and r.field != FEE),
)
"""How the summary groups the reasons."""


def collected(player: Player, form_email: str | None = None) -> tuple[Collected, ...]:
    """What the desk collected for ``player``; ``form_email``: the email the pre-registration
    form gave (None: the form gave none, or the player did not come through it)."""
    found = []
    if player.aga_fee:
        fee = player.aga_fee
        amount = f"{fee:.0f}" if float(fee).is_integer() else f"{fee:.2f}"
        found.append(Collected(FEE, f"a fee of ${amount} taken"))
    for attribute, name, what in _DETAILS:
        if getattr(player, attribute).strip():
            found.append(Collected(name, f"{what} collected"))
    if player.birth_date is not None:
        found.append(Collected("Birthday", "a birth date collected"))
    email = player.email.strip()
    if email and (form_email is None or not _same(email, form_email)):
        said = "typed at the desk" if form_email is None else "changed at the desk"
        found.append(Collected(EMAIL, f"an email {said}"))
    return tuple(found)


def updates(
    players: Mapping[PlayerId, Player],
    listed: Mapping[PlayerId, Listed],
    form_emails: Mapping[PlayerId, str] | None = None,
    temporary: Callable[[PlayerId], bool] = lambda _: False,
) -> dict[PlayerId, tuple[Reason, ...]]:
    """Every member whose record is news for the membership office, with why; ``listed``:
    the TDListA's data of the members it lists; ``form_emails``: the emails the
    pre-registration form gave; ``temporary``: new members (their record goes anyway, under
    NEW REGISTRATIONS)."""
    form_emails = form_emails or {}
    found: dict[PlayerId, tuple[Reason, ...]] = {}
    for pid, player in players.items():
        if temporary(pid):
            continue
        member = listed.get(pid)
        what: tuple[Reason, ...] = (
            *collected(player, form_emails.get(pid)),
            *changes(player, member or Listed()),
        )
        if member is None:  # nothing to compare the chapter, state and type with
            what = tuple(r for r in what if not isinstance(r, Change))
        if what:
            found[pid] = what
    return found


def form_emails_only(
    players: Mapping[PlayerId, Player],
    found: Mapping[PlayerId, Sequence[Reason]],
    form_emails: Mapping[PlayerId, str],
    temporary: Callable[[PlayerId], bool] = lambda _: False,
) -> int:
    """Members with an email, the form's, and nothing else to send: left out of the report
    (a new member's record goes anyway, with the email)."""
    return sum(
        1
        for pid, p in players.items()
        if pid not in found and not temporary(pid) and p.email.strip() and pid in form_emails
    )


def summary(new: int, found: Mapping[PlayerId, Sequence[Reason]], left_out: int) -> str:
    """One line for the TD: how many membership records go, and why."""
    kinds = [
        f"{n} with {kind}"
        for kind, has in KINDS
        if (n := sum(any(has(r) for r in why) for why in found.values()))
    ]
    updates_text = f"{len(found)} membership update{'s' if len(found) != 1 else ''}"
    if kinds:
        updates_text += f" ({', '.join(kinds)})"
    text = (
        f"Membership records: {new} new registration{'s' if new != 1 else ''} "
        f"(temporary numbers), {updates_text}"
    )
    if left_out:
        text += (
            f"; {left_out} email{'s' if left_out != 1 else ''} from the pre-registration form "
            "not sent as membership updates (not news for the membership office; the XML "
            "report still gives each player's email)"
        )
    return text
