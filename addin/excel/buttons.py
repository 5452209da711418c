"""The ribbon's buttons: one per registered action that asks for one, plus the add-in's own.

The ribbon XML and the dispatcher both come from ``buttons()``, so a button can never
name an action the dispatcher does not know. A newly registered action gets a button
the next time the add-in is built, in the group its id suggests (or "More").
"""

from __future__ import annotations

from dataclasses import dataclass

from addin.actions.registry import ACTIONS, Param, ParamKind, load_all

CONTROL_PREFIX = "aga_"
"""Ribbon control ids must be unique across every add-in Excel has loaded."""

GROUPS: dict[str, str] = {
    "setup": "Tournament",
    "players": "Players",
    "rounds": "Rounds",
    "adjust": "Adjust a round",
    "results": "Results and reports",
    "workbook": "Workbook",
    "more": "More",
}

LARGE = "large"
SMALL = "normal"
PLACES: dict[str, tuple[str, str, str]] = {
    # action id: (group, size, imageMso); this order is the order on the ribbon
    "new": ("setup", LARGE, "FileNew"),
    "import-tdlista": ("setup", LARGE, "ImportTextFile"),
    "register": ("setup", LARGE, "FindDialog"),
    "lookup": ("setup", LARGE, "FindDialog"),
    "preregister": ("setup", SMALL, ""),
    "drop": ("players", SMALL, ""),
    "readmit": ("players", SMALL, ""),
    "bye": ("players", SMALL, ""),
    "volunteer": ("players", SMALL, ""),
    "set-rating": ("players", SMALL, ""),
    "set-band": ("players", SMALL, ""),
    "bands": ("rounds", LARGE, "MacroPlay"),
    "pair": ("rounds", LARGE, "MacroPlay"),
    "unpair": ("rounds", LARGE, "Undo"),
    "result": ("adjust", SMALL, ""),
    "make-pair": ("adjust", SMALL, ""),
    "break-pair": ("adjust", SMALL, ""),
    "set-game": ("adjust", SMALL, ""),
    "force": ("adjust", SMALL, ""),
    "prohibit": ("adjust", SMALL, ""),
    "standings": ("results", LARGE, "Refresh"),
    "report": ("results", LARGE, "FilePrintPreview"),
    "export-aga": ("results", LARGE, "ExportTextFile"),
    "import-aga-xml": ("results", LARGE, "FileOpen"),
    "import-aga-text": ("results", SMALL, ""),
    "check": ("workbook", LARGE, "MacroPlay"),
}
DEFAULT_PLACE = ("more", SMALL, "")
"""A newly registered action lands in "More" until it is given a place here."""


@dataclass(frozen=True)
class Button:
    action: str
    """The action id: the CLI subcommand, or one of the add-in's own (``BUILTIN``)."""
    label: str
    help: str
    params: tuple[Param, ...] = ()
    builtin: bool = False

    @property
    def control_id(self) -> str:
        return CONTROL_PREFIX + self.action

    @property
    def group(self) -> str:
        return PLACES.get(self.action, DEFAULT_PLACE)[0]

    @property
    def size(self) -> str:
        return PLACES.get(self.action, DEFAULT_PLACE)[1]

    @property
    def image(self) -> str:
        """An Office icon (imageMso) for a large button; small ones show their label only."""
        return PLACES.get(self.action, DEFAULT_PLACE)[2]


BUILTIN: dict[str, Button] = {
    "new": Button(
        "new",
        "New tournament",
        "Create a new tournament workbook from the template and open it",
        (
            Param("book", "Save the new tournament workbook as", ParamKind.FILE_OUT, True),
            Param("name", "Tournament name"),
            Param("rounds", "Number of rounds (default 5)", ParamKind.INT),
        ),
        builtin=True,
    ),
    "check": Button(
        "check",
        "Check workbook",
        "Read every sheet and list each problem with its cell; changes nothing",
        builtin=True,
    ),
}
"""Buttons the add-in runs itself: they do not act on an open tournament through a
Session (``new`` makes a file) or are not registered actions (``check``)."""


def buttons() -> list[Button]:
    """Every ribbon button, in ribbon order."""
    actions = load_all()
    found: dict[str, Button] = {
        a.id: Button(a.id, a.label, a.help, a.params) for a in actions.values() if a.button
    }
    for key, button in BUILTIN.items():
        if key not in ACTIONS:
            found.setdefault(key, button)
    order = list(PLACES)
    return sorted(
        found.values(),
        key=lambda b: (
            list(GROUPS).index(b.group),
            order.index(b.action) if b.action in order else len(order),
        ),
    )


def resolve(control_id: str) -> Button | None:
    """What a ribbon control id (or a bare action id) runs: any registered action,
    shown on the ribbon or not, else one of the add-in's own."""
    action = control_id.removeprefix(CONTROL_PREFIX)
    spec = load_all().get(action)
    if spec is not None:
        return Button(spec.id, spec.label, spec.help, spec.params)
    return BUILTIN.get(action)


def buttons_table() -> str:
    """The buttons table of docs/excel-install.md; ``python -m addin.excel.buttons`` prints it."""
    lines = ["| group | button | what it does | asks for |", "|---|---|---|---|"]
    for b in buttons():
        asks = "; ".join(
            p.help + ("" if p.required or p.kind is ParamKind.FLAG else " (optional)")
            for p in b.params
        )
        help_ = b.help[:1].upper() + b.help[1:]
        lines.append(f"| {GROUPS[b.group]} | **{b.label}** | {help_} | {asks or '-'} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(buttons_table())
