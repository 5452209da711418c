"""Every TD action, declared once for every door.

The command line builds a subcommand from each ``Action`` (its parameters become
options), and the window doors' dispatcher looks a button's id up here and asks the TD
for the parameters (an input box, a file dialog). Every door runs an action through the
one runner (:mod:`addin.actions.runner`), which reads what it needs to know of an action
here (what it reads, whether it creates its file or works on the journal): no door names
an action. Adding an action means adding it here; the ribbon and the CLI follow.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a session (and the workbook code it brings) only when an action runs
    from addin.actions.session import Session


class ParamKind(enum.Enum):
    TEXT = "text"
    INT = "int"
    FILE_IN = "file to read"
    FILE_OUT = "file to write"
    CHOICE = "choice"
    FLAG = "flag"
    DATE = "date"


@dataclass(frozen=True)
class Param:
    name: str
    help: str
    kind: ParamKind = ParamKind.TEXT
    required: bool = False
    choices: tuple[str, ...] = ()
    positional: bool = False
    """On the command line: a positional argument after the workbook."""
    asked: bool = True
    """Whether a button asks for it; False: the command line's option only (its default
    serves the button, e.g. ``publish`` writes beside the workbook)."""
    bounds: tuple[int, int] | None = None
    """The lowest and highest whole number allowed (outside: a usage error)."""
    option: str | None = None
    """The command line's option when it is not the name's (``--start`` for ``start_date``)."""
    metavar: str | None = None
    """How the command line's help shows the value (default: the option's name)."""


Run = Callable[["Session", Mapping[str, object]], None]


@dataclass(frozen=True)
class Action:
    id: str
    """The CLI subcommand and the Excel button id."""
    label: str
    """The button's caption."""
    help: str
    run: Run
    params: tuple[Param, ...] = ()
    button: bool = True
    """Whether the ribbon shows it (lookup and check only read)."""
    reads_only: tuple[str, ...] | None = None
    """The sheets an action that never writes reads, and nothing else (``lookup``: the
    TDListA); the command line then reads just those, with python-calamine. None: the
    action may read and write anything (the whole workbook is opened)."""
    creates: bool = False
    """The action creates its workbook (``new``): nothing is opened; its ``book`` parameter
    is the file to create, and the runner saves and journals what it made."""
    journal: bool = False
    """The action works on the journal beside the workbook (``history``, ``undo``): no
    sheet is opened; it reaches the file through ``session.window``."""
    changes: bool = True
    """Whether the action may change the workbook; False: a refusal does not say that the
    workbook is unchanged (``history``)."""


ACTIONS: dict[str, Action] = {}


def action(
    id: str,
    label: str,
    help: str,
    *params: Param,
    button: bool = True,
    reads_only: tuple[str, ...] | None = None,
    creates: bool = False,
    journal: bool = False,
    changes: bool = True,
) -> Callable[[Run], Run]:
    """Declare ``fn`` as the TD action ``id``."""

    def register(fn: Run) -> Run:
        if id in ACTIONS:
            raise ValueError(f"action {id!r} declared twice")
        ACTIONS[id] = Action(
            id, label, help, fn, params, button, reads_only, creates, journal, changes
        )
        return fn

    return register


MODULES: dict[str, str] = {
    "new": "addin.actions.basic",
    "check": "addin.actions.basic",
    "select-matches": "addin.actions.basic",
    "history": "addin.actions.history",
    "undo": "addin.actions.history",
    "redo": "addin.actions.history",
    "import-tdlista": "addin.actions.registration",
    "lookup": "addin.actions.member_lookup",
    "register": "addin.actions.registration",
    "preregister": "addin.actions.registration",
    "bands": "addin.actions.bands",
    "pair": "addin.actions.pairing",
    "unpair": "addin.actions.pairing",
    "standings": "addin.actions.standings",
    "report": "addin.actions.reports",
    "publish": "addin.actions.publish",
    "export-aga": "addin.actions.aga_reports",
    "import-aga-xml": "addin.actions.aga_reports",
    "import-aga-text": "addin.actions.aga_reports",
    "import-opengotha": "addin.actions.opengotha",
    "export-opengotha": "addin.actions.opengotha",
    "rules": "addin.actions.rules",
    "check-aga": "addin.actions.aga_check",
    "check-egd": "addin.actions.egd",
    "export-egd": "addin.actions.egd",
    "break-pair": "addin.actions.director.paired_round",
    "make-pair": "addin.actions.director.paired_round",
    "set-game": "addin.actions.director.paired_round",
    "result": "addin.actions.director.paired_round",
    "bye": "addin.actions.director.attendance",
    "volunteer": "addin.actions.director.attendance",
    "drop": "addin.actions.director.attendance",
    "readmit": "addin.actions.director.attendance",
    "force": "addin.actions.director.pair_requests",
    "prohibit": "addin.actions.director.pair_requests",
    "set-rating": "addin.actions.director.rating_and_band",
    "set-band": "addin.actions.director.rating_and_band",
    "replace-id": "addin.actions.replace_id",
    "accept-results": "addin.actions.accept_results",
    "serve": "addin.actions.serve",
}
"""Where each action is declared: a command imports only its own module (start-up costs
what that action needs). An action missing here still runs, after every module loads;
tests/test_startup.py holds the table to the declarations."""


FOLLOW_UPS: dict[str, str] = {"lookup": "select-matches"}
"""What a door that can select runs after an action, with its session and parameters:
the look-up's matches are selected, ready for Register player. A follow-up is a
convenience: when it fails, the action's answer stands without it. It is no command."""


def is_follow_up(action_id: str) -> bool:
    return action_id in FOLLOW_UPS.values()


def load_one(action_id: str) -> Action | None:
    """The action ``action_id``, importing only the module that declares it; None when
    the table does not name it."""
    import importlib

    module = MODULES.get(action_id)
    if module is None:
        return None
    importlib.import_module(module)
    return ACTIONS.get(action_id)


DAY_ORDER = (
    "new", "import-tdlista", "lookup", "register", "preregister", "bands", "pair", "unpair",
    "standings", "report", "publish", "export-aga", "import-aga-xml", "import-aga-text",
    "import-opengotha",
)  # fmt: skip
"""The order of a TD's day, for help texts and the ribbon; other actions follow."""


def load_all() -> dict[str, Action]:
    """Every action, in the order of a TD's day."""
    import importlib

    from addin.actions import all_actions  # noqa: F401

    for module in dict.fromkeys(MODULES.values()):
        importlib.import_module(module)

    def position(action_id: str) -> int:
        return DAY_ORDER.index(action_id) if action_id in DAY_ORDER else len(DAY_ORDER)

    return {a: ACTIONS[a] for a in sorted(ACTIONS, key=position)}
