"""The McMahon rules preset: AGA, BGA or EGF, with every setting that goes with it at once."""

from __future__ import annotations

from dataclasses import dataclass

from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.registry import action, param
from addin.actions.sections import TOURNAMENT
from addin.core.european import PRESET_SETTINGS, McMahonRules, Options
from addin.workbook import book, settings_table
from addin.workbook.layout import Section
from addin.workbook.settings_table import shown as _shown

EUROPEAN_KEYS = tuple(f for f in Options.__dataclass_fields__)
"""The European options' Settings keys: applying a preset blanks them, so they follow it."""


@dataclass(frozen=True, kw_only=True)
class RulesParams:
    preset: str | None = param(
        "AGA, BGA or EGF (default: the Tournament sheet's McMahon rules)",
        choices=tuple(r.value for r in McMahonRules),
        asked=False,
    )


@action(
    "rules",
    "McMahon rules",
    "apply the McMahon rules preset chosen on the Tournament sheet (or --preset): its handicap "
    "and avoidance rows, and every European option blank so that it follows the preset (each "
    "may be typed over afterwards)",
    RulesParams,
    reads=TOURNAMENT,
    writes={Section.SETTINGS},
)
def rules(snapshot: Snapshot, params: RulesParams) -> Change:
    draft = Draft(snapshot)
    b = book.read_book(draft)
    if b.settings.problems:
        raise ActionError("the Tournament sheet has problems to fix first", b.settings.problems)
    asked = params.preset
    preset = McMahonRules(str(asked)) if asked else b.tournament.settings.mcmahon_rules
    wanted: dict[str, object] = {"mcmahon_rules": preset.value, **PRESET_SETTINGS[preset]}
    wanted |= {key: None for key in EUROPEAN_KEYS}
    old = b.settings.values
    changes = [
        f"{settings_table.label(key)}: {_shown(key, old.get(key))} -> {_shown(key, value)}"
        for key, value in wanted.items()
        if _shown(key, old.get(key)) != _shown(key, value)
    ]
    if b.tournament.rounds and changes:
        last = max(r.number for r in b.tournament.rounds)
        draft.warn(
            [
                f"round {last} is already paired: the {preset.value} rules apply from the next "
                "pairing (run bands again for a new McMahon scale or supergroup)"
            ]
        )
    values = {**old, **wanted}
    try:
        book.settings_from_values(values)
    except ValueError as err:  # cannot happen: the presets are valid settings
        raise ActionError(f"the {preset.value} preset cannot be applied: {err}") from err
    settings_table.write_settings(draft, values)
    draft.done(
        f"McMahon rules {preset.value}: "
        + ("; ".join(changes) if changes else "every setting already as the preset has it")
    )
    return draft.change
