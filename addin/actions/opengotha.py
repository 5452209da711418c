"""Import an OpenGotha tournament file and carry on here (docs/opengotha.md)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from addin.actions import director, intake
from addin.actions.aga_reports import book_to_replace, fill_workbook, with_boards
from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.registry import InputFile, action, param
from addin.actions.sections import EVERYTHING, SETTLED, TOURNAMENT
from addin.core.european import PRESETS
from addin.formats.opengotha import GIVEN, OpenGothaError, read_opengotha_event
from addin.formats.opengotha_write import write_opengotha
from addin.workbook.gateway import LogEntry


@dataclass(frozen=True, kw_only=True)
class ImportOpengothaParams:
    file: InputFile = param("the OpenGotha tournament file (.xml)", required=True, positional=True)


@action(
    "import-opengotha",
    "Import OpenGotha",
    "fill the workbook from an OpenGotha tournament file: players, rounds, byes, settings",
    ImportOpengothaParams,
    reads=TOURNAMENT,
    writes=EVERYTHING,
)
def import_opengotha(snapshot: Snapshot, params: ImportOpengothaParams) -> Change:
    draft = Draft(snapshot)
    path, data = params.file.path, params.file.data
    try:
        event = read_opengotha_event(data, path.name)
    except OpenGothaError as err:
        raise ActionError(str(err)) from err
    b = book_to_replace(draft)
    t = b.tournament
    imported = event.tournament
    settings = imported.settings
    # The file names the director only: the TD's address, phone and email stay.
    director_contact = replace(t.settings.director, name=settings.director.name)
    # The file's Sleeping players, typed only where the workbook's McMahon rules say otherwise:
    # an AGA workbook keeps a blank cell for an OpenGotha event that scores absences 0.
    wanted = settings.options.sleeping
    typed = None if PRESETS[t.settings.mcmahon_rules].sleeping is wanted else wanted
    imported.settings = replace(
        settings,
        director=director_contact,
        typed_options=replace(settings.typed_options, sleeping=typed),
    )
    imported.rounds = with_boards(imported.rounds)
    # OpenGotha's Number of rounds is the event's: it replaces the workbook's.
    values = {**b.settings.values, "rounds": settings.rounds}
    fill_workbook(draft, replace(b, settings=replace(b.settings, values=values)), imported, GIVEN)
    lines = list(event.notes)
    if event.assigned:
        lines.append(
            f"{len(event.assigned)} players without an AGA number in the file got temporary "
            f"numbers {min(event.assigned)}-{max(event.assigned)}"
        )
    if event.not_carried:
        lines.append("Not carried over (no counterpart here): " + "; ".join(event.not_carried))
    for line in lines:
        draft.say(line)
        draft.change.log.append(LogEntry("Note", draft.action, line))
    # The imported rounds are history as OpenGotha recorded them, not hand edits.
    director.stamp_pairings(draft, imported.rounds, director.log_lines(draft))
    games = sum(len(r.games) for r in imported.rounds)
    byes = sum(len(r.byes) for r in imported.rounds)
    draft.done(
        f"Imported {len(imported.players)} players, {len(imported.rounds)} rounds ({games} "
        f"games, {byes} byes) and {settings.pairing_format} settings from {path.name}"
    )
    return draft.change


@dataclass(frozen=True, kw_only=True)
class ExportOpengothaParams:
    out: Path = param("the OpenGotha file to write (.xml)", required=True, positional=True)


@action(
    "export-opengotha",
    "Export OpenGotha",
    "write the tournament as an OpenGotha file (.xml), for a TD who carries on in OpenGotha",
    ExportOpengothaParams,
    reads=SETTLED,
    button=False,
)
def export_opengotha(snapshot: Snapshot, params: ExportOpengothaParams) -> Change:
    draft = Draft(snapshot)
    t = intake.read_for(draft, intake.carried_elsewhere()).tournament
    try:
        written = write_opengotha(t)
    except ValueError as err:
        raise ActionError(f"cannot write the OpenGotha file: {err}") from err
    draft.warn([f"OpenGotha cannot hold: {line}" for line in written.lost])
    out = params.out
    draft.output(out, written.data)
    if written.shift:
        draft.say(
            f"OpenGotha shows every McMahon score {written.shift:+g} (its scores start from "
            "30k); the differences, and so the pairings, are the same"
        )
    games = sum(len(r.games) for r in t.rounds)
    draft.done(
        f"Exported {len(t.players)} players and {len(t.rounds)} rounds ({games} games) to {out}"
    )
    return draft.change
