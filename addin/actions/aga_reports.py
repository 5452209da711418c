"""The AGA's external reports: export both formats, and import one to continue a tournament."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from addin.actions import aga_check, director, intake
from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.imported_bands import imported_bands
from addin.actions.intake import with_paired_round_problems
from addin.actions.registry import InputFile, action, param
from addin.actions.sections import EVERYTHING, SETTLED, TOURNAMENT
from addin.core.aga_limits import european_limits
from addin.core.limits import MAX_ROUNDS
from addin.core.model import Round, Settings, Tournament
from addin.core.participants import no_show_text, reported
from addin.core.tiebreaks import TiebreakError, resolve
from addin.formats.aga_text import AGAReportError, read_aga_text_file, write_aga_text
from addin.formats.aga_xml import read_aga_xml_report, validate_aga_xml, write_aga_xml
from addin.formats.eggplant import eggplant_limits
from addin.workbook import book, players_sheet, round_sheets, settings_table
from addin.workbook.bands_sheet import write_bands
from addin.workbook.gateway import LogEntry
from addin.workbook.round_sheets import remove_rounds, write_codes

SOFTWARE = "addin (AGA Swiss McMahon for Excel)"


@dataclass(frozen=True, kw_only=True)
class ExportAgaParams:
    text: Path | None = param("the text report to write (.txt)")
    xml: Path | None = param("the XML report to write (.xml)")


@action(
    "export-aga",
    "Export AGA reports",
    "check the tournament as the AGA rating office will, then write the AGA text report "
    "and/or the AGA XML report",
    ExportAgaParams,
    reads=SETTLED,
)
def export_aga(snapshot: Snapshot, params: ExportAgaParams) -> Change:
    draft = Draft(snapshot)
    text_path, xml_path = params.text, params.xml
    if not text_path and not xml_path:
        raise ActionError("export-aga needs --text FILE.txt and/or --xml FILE.xml")
    b = with_paired_round_problems(book.read_book(draft), draft)
    read_warnings = intake.screen(draft, b, aga_check.EXPORT_NEEDS)
    t = b.tournament
    listing = aga_check.listed_members(draft, b)
    warnings = [*aga_check.screen_for_export(draft, b, listing), *read_warnings]
    if xml_path:
        if stops := aga_check.xml_problems(b):
            raise ActionError(f"{stops[0]}; nothing was exported")
        warnings += [f"XML report for Eggplant: {w}" for w in eggplant_limits(t)]
    warnings += [f"AGA report: {w}" for w in european_limits(t)]
    draft.warn(warnings)
    updated = aga_check.desk_updates(draft, b, listing)
    try:
        outputs: list[tuple[Path, bytes]] = []
        if text_path:
            text = write_aga_text(t, updated)
            outputs.append((text_path, text.encode("utf-8")))
        if xml_path:
            xml = write_aga_xml(t, software=SOFTWARE, updated=updated.keys())
            problems = validate_aga_xml(xml)
            if problems:
                raise ActionError("the XML report does not validate: " + "; ".join(problems))
            outputs.append((xml_path, xml))
    except (AGAReportError, ValueError) as err:
        raise ActionError(f"cannot write the AGA report: {err}") from err
    for path, content in outputs:
        draft.output(path, content)
    games = sum(len(r.games) for r in t.rounds)
    names = " and ".join(str(p) for p, _ in outputs)
    listed = reported(t).players
    sent = {pid: why for pid, why in updated.items() if pid in listed}
    draft.done(f"Exported {len(listed)} players and {games} games to {names}")
    if apart := no_show_text(t, "not reported"):
        draft.done(apart)
    draft.change.messages.append(aga_check.records_summary(draft, b, sent))
    draft.change.messages += aga_check.update_lines(b, sent)
    return draft.change


def _import(draft: Draft, report_file: InputFile, kind: str) -> None:
    path, data = report_file.path, report_file.data
    notes: tuple[str, ...] = ()
    given: frozenset[str] | None = None
    try:
        if kind == "xml":
            report = read_aga_xml_report(data, path.name)
            imported, notes, given = report.tournament, report.notes, report.settings_given
        else:
            imported = read_aga_text_file(data, path.name)
    except AGAReportError as err:
        raise ActionError(str(err)) from err
    b = book_to_replace(draft)
    imported.settings = _known_tiebreaks(draft, imported.settings)
    imported.rounds = with_boards(played_rounds(imported.rounds))
    fill_workbook(draft, b, imported, given)
    for note in notes:
        draft.say(note)
        draft.change.log.append(LogEntry("Note", draft.action, note))
    # The imported rounds are history as reported, not hand edits.
    director.stamp_pairings(draft, imported.rounds, director.log_lines(draft))
    games = sum(len(r.games) for r in imported.rounds)
    draft.done(
        f"Imported {len(imported.players)} players and {len(imported.rounds)} rounds "
        f"({games} games) from {path.name}"
    )


def book_to_replace(draft: Draft) -> book.Book:
    """The workbook an import fills; replacing a tournament it holds is an active warning."""
    b = book.read_book(draft)
    t = b.tournament
    if t.players or t.rounds:
        draft.warn(
            [
                f"{draft.source} already has {len(t.players)} players and "
                f"{len(t.rounds)} rounds: the import replaces them"
            ]
        )
    return b


def _known_tiebreaks(draft: Draft, settings: Settings) -> Settings:
    """Keep the report's tiebreaks this program computes; MMS is the score itself."""
    kept, dropped = [], []
    for name in settings.tiebreaks:
        try:
            kept.append(resolve(name).name)
        except TiebreakError:
            dropped.append(name)
    if dropped:
        draft.say(f"Tiebreaks not carried over: {', '.join(dropped)}")
    return replace(settings, tiebreaks=tuple(kept) or Settings().tiebreaks)


def played_rounds(rounds: Sequence[Round]) -> list[Round]:
    """Without the empty rounds at the end (Eggplant writes every round, paired or not)."""
    kept = list(rounds)
    while kept and not (kept[-1].games or kept[-1].byes):
        kept.pop()
    return kept


def with_boards(rounds: Iterable[Round]) -> list[Round]:
    """Board numbers in file order (reports list the top score first) where none are given."""
    return [
        replace(
            rnd,
            games=tuple(
                g if g.board is not None else replace(g, board=n)
                for n, g in enumerate(rnd.games, start=1)
            ),
        )
        for rnd in rounds
    ]


def fill_workbook(
    draft: Draft, b: book.Book, t: Tournament, given: frozenset[str] | None = None
) -> None:
    """Replace the book's players and rounds with ``t``'s, and the settings the report gives.

    ``given``: the :class:`Settings` fields the report gives (None: all); the TD's other
    settings (avoid same club, band parameter, ...) stay. Number of rounds is never lowered
    below the workbook's: the TD's 10 stays 10 when the report was written after round 3.
    """
    gw = draft
    played = max((r.number for r in t.rounds), default=0)
    imported = book.settings_values(t.settings)
    if given is not None:
        imported = {k: v for k, v in imported.items() if _setting_field(k) in given}
    values = {**b.settings.values, **imported}
    workbook_rounds = _whole(b.settings.values.get("rounds"))
    report_rounds = t.settings.rounds if given is None or "rounds" in given else 0
    values["rounds"] = max(workbook_rounds, report_rounds, played, 1)
    if report_rounds and values["rounds"] != report_rounds:
        note = (
            f"Number of rounds: {values['rounds']} (the workbook said {workbook_rounds}, "
            f"the report {report_rounds}, rounds played {played}); never lowered by an import"
        )
        draft.say(note)
        draft.change.log.append(LogEntry("Note", draft.action, note))
    rounds = _whole(values["rounds"])
    if rounds > MAX_ROUNDS:
        raise ActionError(f"the report has {rounds} rounds; a tournament has at most {MAX_ROUNDS}")
    try:
        settings = book.settings_from_values(values)  # komi, dates: what the sheet allows
    except ValueError as err:
        raise ActionError(f"the report's settings cannot be used: {err}") from err
    banded = imported_bands(replace(t, settings=settings))
    if banded.settings is not None:
        changed = book.settings_values(banded.settings)
        values.update({k: v for k, v in changed.items() if k in banded.changed})
    settings_table.write_settings(gw, values)
    players_sheet.write_players(gw, banded.players.values(), rounds)
    write_bands(gw, banded.bands, banded.counts)
    if banded.note:
        draft.say(banded.note)
        draft.change.log.append(LogEntry("Note", draft.action, banded.note))
    remove_rounds(gw)
    for rnd in t.rounds:
        round_sheets.write_round(gw, rnd, t.players)
    if t.rounds:  # the round in play: its players report results from the board, as if paired
        write_codes(gw, max(t.rounds, key=lambda r: r.number))


def _setting_field(key: str) -> str:
    """The :class:`Settings` field a Settings-table key comes from."""
    prefix = key.split("_", 1)[0]
    if prefix in ("director", "sponsor", "convener"):
        return prefix
    return "top_band_separation_one" if key == "top_band_separation" else key


def _whole(value: object) -> int:
    """A whole number the report gave (a count), 0 where it gave none."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return 0
    try:
        return int(value)
    except ValueError:
        return 0


@dataclass(frozen=True, kw_only=True)
class ReportFileParams:
    report: InputFile = param("the AGA report file", required=True, positional=True)


@action(
    "import-aga-xml",
    "Import AGA report",
    "fill the workbook from an AGA XML report",
    ReportFileParams,
    reads=TOURNAMENT,
    writes=EVERYTHING,
)
def import_aga_xml(snapshot: Snapshot, params: ReportFileParams) -> Change:
    draft = Draft(snapshot)
    _import(draft, params.report, "xml")
    return draft.change


@action(
    "import-aga-text",
    "Import AGA text report",
    "fill the workbook from an AGA text report",
    ReportFileParams,
    reads=TOURNAMENT,
    writes=EVERYTHING,
    button=False,
)
def import_aga_text(snapshot: Snapshot, params: ReportFileParams) -> Change:
    draft = Draft(snapshot)
    _import(draft, params.report, "text")
    return draft.change
