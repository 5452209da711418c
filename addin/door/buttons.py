"""The ribbon's buttons: one per registered action that asks for one.

The ribbon XML and the dispatcher both come from ``buttons()``, so a button can never
name an action the dispatcher does not know. A newly registered action gets a button
the next time the add-in is built, in the group its id suggests (or "More").
"""

from __future__ import annotations

from dataclasses import dataclass

from addin.actions.registry import Action, Param, ParamKind, load_all

CONTROL_PREFIX = "aga_"
"""Ribbon control ids must be unique across every add-in Excel has loaded."""
MENU_SEPARATOR = "__"
"""A report menu item's id: ``aga_report__pairings__alphabetical``."""
MENU = "report"
"""The action whose button is a menu, one item per report and sort order, nothing asked."""

GROUPS: dict[str, str] = {
    "before": "Before",
    "desk": "Desk",
    "round": "Round",
    "after": "After",
    "more": "More",
}
"""The ribbon's groups follow a TD's day: set up, the registration desk, each round, the end."""

LARGE = "large"
SMALL = "normal"
PLACES: dict[str, tuple[str, str, str]] = {
    # action id: (group, size, imageMso); this order is the order on the ribbon. Every
    # imageMso is in each of Microsoft's Excel control lists (tests/data/office): a name
    # from another application's list draws no icon in Excel.
    "new": ("before", LARGE, "FileNew"),
    "download-list": ("before", LARGE, "GetExternalDataFromWeb"),
    "import-tdlista": ("before", LARGE, "GetExternalDataFromText"),
    "import-egd-list": ("before", SMALL, "GetExternalDataFromOtherSources"),
    "preregister": ("before", SMALL, "GetExternalDataImportClassic"),
    "import-aga-xml": ("before", SMALL, "XmlImport"),
    "import-aga-text": ("before", SMALL, "FileOpen"),
    "import-opengotha": ("before", SMALL, "XmlSource"),
    "rules": ("before", SMALL, "ReviewShareWorkbook"),
    "bands": ("before", LARGE, "SortDialog"),
    "lookup": ("desk", LARGE, "FindDialogExcel"),
    "register": ("desk", LARGE, "SheetRowsInsert"),
    "checkin": ("desk", SMALL, "FileCheckIn"),
    "drop": ("desk", SMALL, "SheetRowsDelete"),
    "readmit": ("desk", SMALL, "TableRowsInsertBelowExcel"),
    "bye": ("desk", SMALL, "ShapeStar"),
    "volunteer": ("desk", SMALL, "ReviewNewComment"),
    "set-rating": ("desk", SMALL, "SortAscendingExcel"),
    "set-band": ("desk", SMALL, "OutlineGroup"),
    "replace-id": ("desk", SMALL, "ReplaceDialog"),
    "pair": ("round", LARGE, "MacroPlay"),
    "result": ("round", LARGE, "ReviewAcceptOrRejectChangeDialog"),
    "accept-results": ("round", SMALL, "RefreshAll"),
    "take-entries": ("round", SMALL, "CompareAndMergeWorkbooks"),
    "unpair": ("round", SMALL, "SheetDelete"),
    "break-pair": ("round", SMALL, "CellsDelete"),
    "make-pair": ("round", SMALL, "CellsInsertDialog"),
    "set-game": ("round", SMALL, "DataValidation"),
    "force": ("round", SMALL, "HyperlinkInsert"),
    "prohibit": ("round", SMALL, "Lock"),
    "standings": ("after", LARGE, "Refresh"),
    "report": ("after", LARGE, "FilePrintPreview"),
    "check-aga": ("after", SMALL, "ErrorChecking"),
    "publish": ("after", LARGE, "WebPagePreview"),
    "export-aga": ("after", LARGE, "XmlExport"),
    "ratings": ("after", SMALL, "ChartTrendline"),
    "check-egd": ("after", SMALL, "FileCompatibilityChecker"),
    "export-egd": ("after", SMALL, "TableExportMenu"),
    "check": ("after", LARGE, "TraceError"),
    "serve": ("after", SMALL, "FileSendAsAttachment"),
    "history": ("after", SMALL, "ReviewTrackChangesMenu"),
    "undo": ("after", SMALL, "Undo"),
    "redo": ("after", SMALL, "Redo"),
}
DEFAULT_PLACE = ("more", SMALL, "MacroRecord")
"""A newly registered action lands in "More" until it is given a place here."""

TIPS: dict[str, str] = {
    "new": "Start a new tournament workbook from the template and open it.",
    "download-list": "Download the newest rating list and import it: the AGA's TDListA, or "
    "for a BGA or EGF event the EGD's list of players. A copy is kept beside the workbook.",
    "import-tdlista": "Fill the TDListA sheet from the AGA membership list you downloaded.",
    "import-egd-list": "Fill the EGD list sheet from the European Go Database's list of "
    "players (allworld_lp) you downloaded; then register players by PIN.",
    "preregister": "Add the players of a pre-registration CSV file to the Players sheet.",
    "import-aga-xml": "Fill this workbook from an AGA XML tournament report.",
    "import-aga-text": "Fill this workbook from an AGA text tournament report.",
    "import-opengotha": "Fill this workbook from an OpenGotha tournament file (.xml): players, "
    "rounds, byes and settings; then pair the next round.",
    "rules": "Choose McMahon rules (AGA, BGA, EGF) on the Tournament sheet, then click: the "
    "preset's handicap and avoidance rows are set, and its European options follow it.",
    "bands": "Propose McMahon bands and initial scores; your edits in the Bands sheet are kept.",
    "lookup": "Find members in the TDListA sheet by name (either order) or AGA number, current "
    "members first and lapsed ones marked, and players in the EGD list sheet by name or PIN.",
    "register": "Select members' rows in the TDListA sheet, or players' rows in the EGD list "
    "sheet (filter it to find them), then click to add them to Players. With nothing selected "
    "there, type a new player.",
    "checkin": "Select pre-registered players' rows (Status Not arrived) on the Players sheet, "
    "then click: they have arrived and are paired from the next round.",
    "drop": "Select player rows on the Players sheet, then click: they are not paired again.",
    "readmit": "Select dropped players' rows on the Players sheet, then click to bring them back.",
    "bye": "Select player rows on the Players sheet, then click and say which round.",
    "volunteer": "Select player rows, then click: they take the bye of that round if needed.",
    "set-rating": "Select player rows, then click and type each new entry rating.",
    "set-band": "Select player rows, then click and type the band to place each one in.",
    "replace-id": "Select a player row with a temporary number, then click and type the "
    "player's real AGA number: every sheet follows.",
    "pair": "Pair the next round by the AGA Swiss McMahon rules and write its Round sheet.",
    "result": "Select board rows on a Round sheet, then click and type each result.",
    "accept-results": "Take in the results both players of a board reported from their "
    "phones (served site); a result you typed is never replaced.",
    "take-entries": "Take in what the registration and results stations sent while the "
    "workbook was open here: each entry is checked as if typed here, its station named in "
    "the Log.",
    "unpair": "Remove the pairing of the last round paired.",
    "break-pair": "Select board rows on a Round sheet, then click: both players become unpaired.",
    "make-pair": "Select two unpaired players' rows (White first), then click to pair them.",
    "set-game": "Select board rows, then click to change handicap, komi or colours.",
    "force": "Select two players' rows, then click: the next pairing pairs them.",
    "prohibit": "Select two players' rows, then click: they are never paired together.",
    "standings": "Recompute scores, tiebreaks and the Standings and Cross Table sheets.",
    "report": "Print-ready reports: each writes a sheet and a PDF beside the workbook.",
    "check-aga": "List what the AGA rating office would reject or question in the report: "
    "temporary numbers, lapsed memberships, missing results; changes nothing.",
    "publish": "Write the pairings, standings and a page per player as a small web site for "
    "players' phones, in a folder beside the workbook; open pages refresh themselves.",
    "export-aga": "Check the tournament, then write the AGA results report (text and XML) "
    "to send to the AGA.",
    "ratings": "Project each player's AGA rating after the rated games so far, by the AGA's "
    "published method (unofficial), and write it to a CSV file.",
    "check-egd": "List what the European Go Database would reject or question in the EGF "
    "tournament table: missing results, time limits below class C, names, countries, PINs; "
    "changes nothing.",
    "export-egd": "Check the tournament, then write the EGF tournament table (.h9) to send to "
    "the European Go Database.",
    "check": "Read every sheet and list each problem with its cell; changes nothing.",
    "serve": "Let players open the published site on their phones over the hall's Wi-Fi, "
    "and write a poster with its QR code. Click again to stop serving.",
    "history": "List the journal: every action that changed this workbook, newest last.",
    "undo": "Take back the last action in the journal: the workbook shows the state before it.",
    "redo": "Take back the last Undo: the actions it took back come back.",
}
"""What each button does, in a TD's words (the ribbon's tooltip)."""

ASKED: dict[str, tuple[str, ...]] = {"serve": ("wifi",)}
"""Buttons that ask for only some of their action's parameters (the rest keep their
defaults): serving from Excel needs only the Wi-Fi name printed on the poster."""


@dataclass(frozen=True)
class Button:
    action: str
    """The action id: the CLI subcommand."""
    label: str
    help: str
    params: tuple[Param, ...] = ()
    preset: tuple[str, str] | None = None
    """A report menu item: the report kind and sort order it writes, with nothing asked."""

    @property
    def tip(self) -> str:
        """The tooltip: plain words, never command-line options."""
        if self.preset:
            return self.help[:1].upper() + self.help[1:] + "; a sheet and a PDF, opened."
        return TIPS.get(self.action, self.help[:1].upper() + self.help[1:])

    @property
    def menu(self) -> bool:
        """The button is a menu of its action's presets (the Reports menu: ``report_items``)."""
        return self.action == MENU and self.preset is None

    @property
    def control_id(self) -> str:
        if self.preset:
            return CONTROL_PREFIX + MENU_SEPARATOR.join((self.action, *self.preset))
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


def buttons() -> list[Button]:
    """Every ribbon button, in ribbon order."""
    actions = load_all()
    found: dict[str, Button] = {
        a.id: Button(a.id, a.label, a.help, _asked(a)) for a in actions.values() if a.button
    }
    order = list(PLACES)
    return sorted(
        found.values(),
        key=lambda b: (
            list(GROUPS).index(b.group),
            order.index(b.action) if b.action in order else len(order),
        ),
    )


def report_items() -> list[Button]:
    """The Reports menu: one item per report and sort order, the wall pairing list first."""
    from addin.reports.kinds import KINDS, sort_word

    spec = load_all()[MENU]
    order = ["pairings", *(k for k in KINDS if k != "pairings")]
    items = []
    for name in order:
        kind = KINDS[name]
        for sort in kind.sorts:
            by = f"by {sort_word(sort)}"
            label = f"{kind.title} {by}" if len(kind.sorts) > 1 else kind.title
            if name == "pairings" and sort == "alphabetical":
                label = "Wall pairing list (by name)"
            items.append(Button(MENU, label, kind.help, spec.params, preset=(name, sort)))
    return items


def resolve(control_id: str) -> Button | None:
    """What a ribbon control id (or a bare action id) runs: any registered action,
    shown on the ribbon or not, or a report menu item."""
    action = control_id.removeprefix(CONTROL_PREFIX)
    if MENU_SEPARATOR in action:
        return next((b for b in report_items() if b.control_id == control_id), None)
    spec = load_all().get(action)
    if spec is None:
        return None
    return Button(spec.id, spec.label, spec.help, _asked(spec))


def _asked(spec: Action) -> tuple[Param, ...]:
    names = ASKED.get(spec.id)
    return spec.params if names is None else tuple(p for p in spec.params if p.name in names)


def buttons_table() -> str:
    """The buttons table of docs/excel-install.md; ``python -m addin.door.buttons`` prints it."""
    lines = ["| group | button | what it does | asks for |", "|---|---|---|---|"]
    from addin.door.selected import ASKS, PLANS

    for b in buttons():
        if b.action in PLANS:
            lines.append(
                f"| {GROUPS[b.group]} | **{b.label}** | {b.tip} | {ASKS[PLANS[b.action]]} |"
            )
            continue
        if b.menu:
            lines.append(
                f"| {GROUPS[b.group]} | **{b.label}** | {b.tip} | the menu item: nothing |"
            )
            continue
        asks = "; ".join(
            p.help + ("" if p.required or p.kind is ParamKind.FLAG else " (optional)")
            for p in b.params
            if p.asked
        )
        lines.append(f"| {GROUPS[b.group]} | **{b.label}** | {b.tip} | {asks or 'nothing'} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(buttons_table())
