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
import functools
import typing
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # the change (and the workbook code it brings) only when an action runs
    from addin.actions.change import Change, Snapshot
    from addin.workbook.layout import Section


class ParamKind(enum.Enum):
    TEXT = "text"
    INT = "int"
    FILE_IN = "file to read"
    FILE_OUT = "file to write"
    CHOICE = "choice"
    FLAG = "flag"
    DATE = "date"
    FOLDER = "folder"


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
    bare: str | None = None
    """The value of the option given without one (``--download`` alone: the AGA's
    address); on the command line the option's value is then optional."""
    alternative: str | None = None
    """Another parameter that may be given instead of this required one (``--download``
    for the TDListA file): the command line takes either, the action says when neither
    came; a button asks for this one."""


@dataclass(frozen=True)
class InputFile:
    """A file the TD named for an action to read (a TDListA, a report to import): read
    where the door parses the parameters, so an action never opens a file itself."""

    path: Path
    data: bytes

    @property
    def name(self) -> str:
        return self.path.name

    def __str__(self) -> str:
        return str(self.path)


MAX_INPUT_BYTES = 100 * 1024 * 1024
"""The largest file an action reads (the whole AGA membership list is 1.4 MB)."""


class NoParams:
    """The parameters of an action that takes none."""


P = TypeVar("P")
Run = Callable[["Snapshot", Any], "Change"]
"""An action: what it reads and its parameters (an instance of its parameter class) to the
change it makes."""


def param(
    help: str,
    kind: ParamKind | None = None,
    *,
    required: bool = False,
    default: object = None,
    choices: tuple[str, ...] = (),
    positional: bool = False,
    asked: bool = True,
    bounds: tuple[int, int] | None = None,
    option: str | None = None,
    metavar: str | None = None,
    bare: str | None = None,
    alternative: str | None = None,
) -> Any:
    """A field of an action's parameter class: how a door asks for it and checks it. Its
    kind, where not given, follows the field's type (``int``: a whole number, ``bool``: a
    flag, ``date``, ``InputFile``: a file to read, ``Path``: a file to write, else text).
    ``required`` with an ``alternative``: one of the two is needed, and the action says so
    when neither came (the field is None then)."""
    spec = {
        "help": help,
        "kind": kind,
        "required": required,
        "choices": choices,
        "positional": positional,
        "asked": asked,
        "bounds": bounds,
        "option": option,
        "metavar": metavar,
        "bare": bare,
        "alternative": alternative,
    }
    if required and alternative is None:
        return field(metadata={"param": spec})
    return field(default=False if kind is ParamKind.FLAG else default, metadata={"param": spec})


_KIND_OF_TYPE: dict[object, ParamKind] = {
    int: ParamKind.INT,
    bool: ParamKind.FLAG,
    date: ParamKind.DATE,
    InputFile: ParamKind.FILE_IN,
    Path: ParamKind.FILE_OUT,
}


def _kind_of(annotation: object, spec: Mapping[str, object]) -> ParamKind:
    given = spec["kind"]
    if isinstance(given, ParamKind):
        return given
    if spec["choices"]:
        return ParamKind.CHOICE
    found = [
        _KIND_OF_TYPE[a] for a in typing.get_args(annotation) or (annotation,) if a in _KIND_OF_TYPE
    ]
    return found[0] if found else ParamKind.TEXT


def params_of(parameters: type) -> tuple[Param, ...]:
    """How the doors see a parameter class: one ``Param`` a field, in order."""
    if parameters is NoParams:
        return ()
    hints = typing.get_type_hints(parameters)
    found = []
    for f in fields(parameters):
        if "param" not in f.metadata:  # an answer to the action's own question
            continue
        spec = f.metadata["param"]
        found.append(
            Param(
                f.name,
                str(spec["help"]),
                _kind_of(hints[f.name], spec),
                bool(spec["required"]),
                tuple(spec["choices"]),
                bool(spec["positional"]),
                bool(spec["asked"]),
                spec["bounds"],
                spec["option"],
                spec["metavar"],
                spec["bare"],
                spec["alternative"],
            )
        )
    return tuple(found)


@dataclass(frozen=True)
class Action:
    id: str
    """The CLI subcommand and the Excel button id."""
    label: str
    """The button's caption."""
    help: str
    run: Run
    parameters: type = NoParams
    """The action's parameter class (a dataclass of ``param`` fields)."""
    reads: frozenset[Section] = frozenset()
    """The sections of the workbook the action reads: the store loads these and no other
    (tests/test_declared_access.py holds every action to them)."""
    writes: frozenset[Section] = frozenset()
    """The sections it may write (the Log aside: every action may add Log lines)."""
    button: bool = True
    """Whether the ribbon shows it (lookup and check only read)."""
    creates: bool = False
    """The action creates its workbook (``new``): nothing is opened; its ``book`` parameter
    is the file to create, and the store saves and journals what it made."""
    journal: bool = False
    """The action works on the journal beside the workbook (``history``, ``undo``): no
    sheet is opened; the store gives it the journal."""
    changes: bool = True
    """Whether the action may change the workbook; False: a refusal does not say that the
    workbook is unchanged (``history``); no Log line is written either (``lookup``)."""

    @functools.cached_property
    def params(self) -> tuple[Param, ...]:
        return params_of(self.parameters)

    @property
    def reads_only(self) -> bool:
        """It changes nothing in the workbook: it may read a workbook another program
        holds open, and the file is read, never opened for writing."""
        return not self.changes


ACTIONS: dict[str, Action] = {}


def action(
    id: str,
    label: str,
    help: str,
    parameters: type = NoParams,
    *,
    reads: Collection[Section] = (),
    writes: Collection[Section] = (),
    button: bool = True,
    creates: bool = False,
    journal: bool = False,
    changes: bool = True,
) -> Callable[[Callable[[Snapshot, P], Change]], Callable[[Snapshot, P], Change]]:
    """Declare ``fn`` as the TD action ``id``."""

    def register(fn: Callable[[Snapshot, P], Change]) -> Callable[[Snapshot, P], Change]:
        if id in ACTIONS:
            raise ValueError(f"action {id!r} declared twice")
        ACTIONS[id] = Action(
            id,
            label,
            help,
            fn,
            parameters,
            frozenset(reads),
            frozenset(writes),
            button,
            creates,
            journal,
            changes,
        )
        return fn

    return register


def parse(spec: Action, given: Mapping[str, object]) -> Any:
    """The action's parameters from what a door was given (typed by the door or text);
    checked once, here. Raises ``ParamError`` naming the parameter and the value."""
    from addin.actions.change import ParamError
    from addin.core.limits import shown

    values: dict[str, object] = {}
    for p in spec.params:
        raw = given.get(p.name)
        try:
            value = _typed(p, raw)
        except (TypeError, ValueError) as err:
            raise ParamError(f"{p.help}: {shown(raw)} {err}") from None
        if value is None:
            if p.required and p.alternative is None:
                raise ParamError(f"{spec.id} needs {p.help}")
            continue
        values[p.name] = value
    return spec.parameters(**values)


def _typed(p: Param, raw: object) -> object:
    """``raw`` as the parameter's type; None for blank. ValueError says what is wrong."""
    if p.kind is ParamKind.FLAG:
        if isinstance(raw, str):
            return raw.strip().casefold() in {"1", "y", "yes", "true", "on", "x"}
        return bool(raw)
    if p.kind is ParamKind.TEXT and p.required and isinstance(raw, str):
        return raw  # blank says something here (``result``: blank clears it)
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if p.kind is ParamKind.INT:
        if isinstance(raw, bool):
            raise ValueError("is not a whole number")
        number = _whole(raw)
        if p.bounds and not p.bounds[0] <= number <= p.bounds[1]:
            raise ValueError(f"is not between {p.bounds[0]} and {p.bounds[1]}")
        if not -LARGEST_WHOLE <= number <= LARGEST_WHOLE:
            raise ValueError(f"is past {LARGEST_WHOLE:,}, the largest whole number taken here")
        return number
    if p.kind is ParamKind.DATE:
        if isinstance(raw, date):
            return raw
        try:
            return date.fromisoformat(str(raw).strip())
        except ValueError:
            raise ValueError("is not a date (YYYY-MM-DD)") from None
    if p.kind is ParamKind.FILE_IN:
        return raw if isinstance(raw, InputFile) else read_input(Path(str(raw).strip()))
    if p.kind in (ParamKind.FILE_OUT, ParamKind.FOLDER):
        return Path(str(raw).strip()) if not isinstance(raw, Path) else raw
    text = str(raw).strip() if p.kind is ParamKind.CHOICE else str(raw)
    if p.choices:
        for choice in p.choices:
            if choice.casefold() == text.casefold():
                return choice
        raise ValueError(f"is not one of {', '.join(p.choices)}")
    return text


LARGEST_WHOLE = 2**53
"""The largest whole number a parameter takes: what a spreadsheet cell (a double) holds
exactly. Past it a number is refused by name, never rounded to another (a 23-digit AGA #
once became 99999999999999991611392)."""


def _whole(raw: object) -> int:
    """``raw`` as a whole number, exactly: ``"5845"`` and a cell's ``5845.0`` alike;
    ValueError for anything else (``"²"``, ``"12x"``, ``1.5``, ``inf``)."""
    if isinstance(raw, int):
        return raw
    if isinstance(raw, float):
        if not raw.is_integer():
            raise ValueError("is not a whole number")
        return int(raw)
    text = str(raw).strip()
    try:
        return int(text)  # exact, however long (a number past the limit is named)
    except ValueError:
        pass
    try:
        number = float(text)  # "5845.0", "1e3", as a spreadsheet may give them
    except ValueError:
        raise ValueError("is not a whole number") from None
    if not number.is_integer():
        raise ValueError("is not a whole number")
    return int(number)


def read_input(path: Path) -> InputFile:
    """The file the TD named, read; ``ActionError`` saying why not (too big, missing): the
    command is right, the file is not (exit 1, not a usage error)."""
    from addin.actions.change import ActionError

    try:
        size = path.stat().st_size
        if size > MAX_INPUT_BYTES:
            raise ActionError(
                f"{path}: {size:,} bytes is more than the {MAX_INPUT_BYTES // 2**20} MB "
                "this reads; is it the right file?"
            )
        return InputFile(path, path.read_bytes())
    except OSError as err:
        raise ActionError(f"cannot read {path}: {err.strerror}") from err


def arguments(params: object) -> dict[str, object]:
    """The parameters as the journal keeps them: by name, files by their path."""
    if isinstance(params, NoParams) or not is_dataclass(params):
        return {}
    return {
        f.name: (value.path if isinstance(value, InputFile) else value)
        for f in fields(params)
        if "param" in f.metadata and (value := getattr(params, f.name)) is not None
    }


MODULES: dict[str, str] = {
    "new": "addin.actions.basic",
    "check": "addin.actions.basic",
    "select-matches": "addin.actions.basic",
    "history": "addin.actions.history",
    "undo": "addin.actions.history",
    "redo": "addin.actions.history",
    "import-tdlista": "addin.actions.registration",
    "import-egd-list": "addin.actions.egd_list",
    "download-list": "addin.actions.download_list",
    "lookup": "addin.actions.member_lookup",
    "register": "addin.actions.registration",
    "preregister": "addin.actions.registration",
    "bands": "addin.actions.bands",
    "pair": "addin.actions.pairing",
    "unpair": "addin.actions.pairing",
    "standings": "addin.actions.standings",
    "ratings": "addin.actions.ratings",
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
    "checkin": "addin.actions.director.attendance",
    "drop": "addin.actions.director.attendance",
    "readmit": "addin.actions.director.attendance",
    "force": "addin.actions.director.pair_requests",
    "prohibit": "addin.actions.director.pair_requests",
    "set-rating": "addin.actions.director.rating_and_band",
    "set-band": "addin.actions.director.rating_and_band",
    "replace-id": "addin.actions.replace_id",
    "accept-results": "addin.actions.accept_results",
    "take-entries": "addin.actions.take_entries",
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
    "new", "download-list", "import-tdlista", "import-egd-list", "lookup", "register",
    "preregister", "bands", "pair", "unpair", "standings", "report", "publish", "export-aga",
    "import-aga-xml", "import-aga-text", "import-opengotha",
)  # fmt: skip
"""The order of a TD's day, for help texts and the ribbon; other actions follow."""


def load_all() -> dict[str, Action]:
    """Every action, in the order of a TD's day."""
    import importlib

    for module in dict.fromkeys(MODULES.values()):
        importlib.import_module(module)

    def position(action_id: str) -> int:
        return DAY_ORDER.index(action_id) if action_id in DAY_ORDER else len(DAY_ORDER)

    return {a: ACTIONS[a] for a in sorted(ACTIONS, key=position)}
