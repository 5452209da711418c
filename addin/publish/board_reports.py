"""Results reported from the board: players' reports, kept beside the workbook, never in it.

Two small files live in a folder beside the workbook (``NAME.phones/``), which the server
never serves:

* ``desk.json``, written by ``publish``: the round in play, its boards with their players,
  result codes, and the results the TD has already typed;
* ``reports.json``, written by the server alone: every report kept, at most one per board
  and colour, with who reported (the colour), from which address and when.

A report names the round, the board, its code, the reporter's colour and the result. Both
players' agreeing reports make a board *ready*; ``accept-results`` takes the ready boards
into the Round sheet through the normal result path. A report never goes over a result the
TD typed. This module imports only the standard library and the codes' rules
(``addin.core.codes``): the server runs on any Python.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hmac
import json
import os
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from addin.core.codes import normal_code

FORMAT = 1
DESK_FILE = "desk.json"
REPORTS_FILE = "reports.json"
MAX_BODY = 512
"""Bytes of a report's body; a report is some forty."""
RESULTS = {"white": "White wins", "black": "Black wins", "jigo": "Jigo"}
"""What a player may report (forfeits and the like are the TD's)."""
SIDES = ("white", "black")


class Refused(Exception):
    """A report not kept: the HTTP status and one line for the player."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class Board:
    board: int
    white: int
    black: int
    white_name: str
    black_name: str
    code: str
    result: str = ""
    """The result already in the Round sheet ("": none yet)."""


@dataclass(frozen=True)
class Desk:
    round: int
    boards: dict[int, Board]

    def to_json(self) -> str:
        boards = [asdict(b) for _, b in sorted(self.boards.items())]
        return json.dumps({"format": FORMAT, "round": self.round, "boards": boards}, indent=1)

    @staticmethod
    def from_json(text: str) -> Desk:
        """The desk ``publish`` wrote; ``ValueError`` for anything else (a hand-edited or
        damaged file), so the server never answers a player from it."""
        data = _json(text)
        if not isinstance(data, dict) or not isinstance(data.get("boards"), list):
            raise ValueError("expected an object with a list of boards")
        boards = [_checked(Board, b, f"board {i + 1}") for i, b in enumerate(data["boards"])]
        return Desk(_whole(data.get("round"), "round"), {b.board: b for b in boards})


@dataclass(frozen=True)
class Report:
    round: int
    board: int
    side: str
    result: str
    """A key of :data:`RESULTS`."""
    time: str
    address: str
    white: int = 0
    black: int = 0
    """The board's players when it was reported (a board paired again is another game)."""
    code: str = ""
    """The board's code it was reported with: a board keeps its code while its game exists,
    so a player given a real AGA number since (``replace-id``) is still this game's."""


def write_atomically(path: Path, text: str) -> None:
    """Write beside ``path``, flush to disk, rename over it: a reader sees old or new."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


def read_reports(folder: Path) -> list[Report]:
    """Every report kept in ``folder`` ([] when none). Raises ``ValueError`` naming the file
    when it cannot be read."""
    path = folder / REPORTS_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except OSError as err:
        raise ValueError(f"cannot read {path}: {err.strerror or err}") from err
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a reports file this program wrote: not UTF-8") from None
    try:
        data = _json(text)
        if not isinstance(data, dict) or not isinstance(data.get("reports"), list):
            raise ValueError("expected an object with a list of reports")
        reports = [_checked(Report, r, f"report {i + 1}") for i, r in enumerate(data["reports"])]
    except ValueError as err:
        raise ValueError(f"{path} is not a reports file this program wrote: {err}") from err
    for i, r in enumerate(reports):
        if r.side not in SIDES or r.result not in RESULTS:
            raise ValueError(
                f"{path} is not a reports file this program wrote: report {i + 1}: "
                f"side {_shown(r.side)} or result {_shown(r.result)} is not one a player sends"
            )
    return reports


def _json(text: str) -> object:
    """``json.loads``, its every failure a ``ValueError`` (too deep, 1e999, NaN)."""

    def refuse(constant: str) -> float:
        raise ValueError(f"{constant} is not a number this program writes")

    try:
        return json.loads(text, parse_constant=refuse)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def _shown(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def _whole(value: object, name: str) -> int:
    if type(value) is not int or not 0 <= value < 10**9:
        raise ValueError(f"{name} {_shown(value)} is not a whole number")
    return value


def _checked(kind: type, value: object, where: str) -> Any:
    """``kind(**value)`` with every field of the type it is declared (int or str)."""
    if not isinstance(value, dict):
        raise ValueError(f"{where}: expected an object, found {_shown(value)}")
    fields = {f.name: f for f in dataclasses.fields(kind)}
    for key, item in value.items():
        field = fields.get(key)
        if field is None:
            raise ValueError(f"{where}: {_shown(key)} is no field of it")
        if field.type == "int":
            _whole(item, f"{where}: {key}")
        elif not isinstance(item, str) or len(item) > 200:
            raise ValueError(f"{where}: {key} {_shown(item)} is not a short text")
    try:
        return kind(**value)
    except TypeError:
        needed = {n for n, f in fields.items() if f.default is dataclasses.MISSING}
        missing = sorted(needed - set(value))
        raise ValueError(f"{where}: {', '.join(missing)} missing") from None


def by_board(reports: list[Report], number: int) -> dict[int, dict[str, Report]]:
    """Round ``number``'s reports: board -> colour -> report."""
    found: dict[int, dict[str, Report]] = {}
    for r in reports:
        if r.round == number:
            found.setdefault(r.board, {})[r.side] = r
    return found


def agreed(sides: Mapping[str, Report]) -> str | None:
    """The result both players reported, or None (one report, or two that differ)."""
    if set(sides) != set(SIDES):
        return None
    white, black = sides["white"].result, sides["black"].result
    return white if white == black else None


class ReportBox:
    """The server's side: a report checked against the desk and kept once, atomically."""

    def __init__(self, folder: Path, warn: Callable[[str], None] = lambda _: None) -> None:
        self.folder = folder
        self.warn = warn
        self.lock = threading.Lock()
        self.reports = read_reports(folder)
        self._desk: Desk | None = None
        self._desk_seen: tuple[int, int] | None = None

    def desk(self) -> Desk | None:
        """The desk ``publish`` wrote last (read again when the file changes)."""
        path = self.folder / DESK_FILE
        try:
            st = path.stat()
        except OSError:
            return None
        seen = (st.st_mtime_ns, st.st_size)
        if seen != self._desk_seen:
            try:
                self._desk = Desk.from_json(path.read_text(encoding="utf-8"))
            except (OSError, ValueError, KeyError, TypeError):
                self._desk = None
            self._desk_seen = seen
        return self._desk

    def submit(self, fields: Mapping[str, str], address: str) -> tuple[str, str]:
        """Keep one report; (state, message). State: ``kept``, ``ready``, ``disagree`` or
        ``again`` (the same report sent twice: kept once). Raises :class:`Refused`."""
        with self.lock:
            desk = self.desk()
            if desk is None:
                raise Refused(503, "Reporting is not open: the TD has not published the round.")
            number = _number(fields, "round")
            board_no = _number(fields, "board")
            side = fields.get("side", "")
            result = fields.get("result", "")
            if side not in SIDES:
                raise Refused(400, "Say which colour you played: white or black.")
            if result not in RESULTS:
                raise Refused(400, "The result is white, black or jigo.")
            if number != desk.round:
                raise Refused(409, f"Round {number} is not the round in play (round {desk.round}).")
            board = desk.boards.get(board_no)
            if board is None:
                raise Refused(404, f"Round {desk.round} has no board {board_no}.")
            if not board.code:  # never compared: an empty code must not match an empty one
                raise Refused(
                    409, f"Board {board_no} has no result code: hand your result to the TD."
                )
            if not hmac.compare_digest(
                normal_code(fields.get("code", "")).encode(), board.code.encode()
            ):
                raise Refused(403, f"That is not board {board_no}'s code: see your pairing slip.")
            if board.result:
                raise Refused(409, f"Board {board_no} already has its result: {board.result}.")
            # Only this game's reports: a board paired again (unpair, pair) is another game,
            # and a report for the old one neither blocks nor agrees with this one's players.
            sides = {
                r.side: r
                for r in self.reports
                if (r.round, r.board, r.white, r.black)
                == (desk.round, board_no, board.white, board.black)
            }
            mine = sides.get(side)
            if mine is not None:
                if mine.result == result:
                    return "again", f"Board {board_no}: your report was already kept."
                raise Refused(
                    409,
                    f"Board {board_no}: you already reported {RESULTS[mine.result]}; "
                    "tell the TD if it was wrong.",
                )
            report = Report(
                desk.round,
                board_no,
                side,
                result,
                datetime.now().replace(microsecond=0).isoformat(sep=" "),
                address,
                board.white,
                board.black,
                board.code,
            )
            self._keep(report)
            sides = {**sides, side: report}
        said = f"Board {board_no}: {RESULTS[result]} reported by {side.capitalize()}"
        if len(sides) < len(SIDES):
            return "kept", f"{said}. Waiting for your opponent's report."
        if agreed(sides):
            return "ready", f"{said}. Both players agree: the TD will take it in."
        other = "black" if side == "white" else "white"
        self.warn(
            f"warning: round {desk.round}, board {board_no}: White and Black disagree "
            f"({side}: {RESULTS[result]}, {other}: {RESULTS[sides[other].result]}); "
            "see the players"
        )
        return "disagree", f"{said}. Your opponent reported otherwise: please see the TD."

    def _keep(self, report: Report) -> None:
        kept = [*self.reports, report]
        text = json.dumps({"format": FORMAT, "reports": [asdict(r) for r in kept]}, indent=0)
        write_atomically(self.folder / REPORTS_FILE, text)
        self.reports = kept


def _number(fields: Mapping[str, str], key: str) -> int:
    value = fields.get(key, "").strip()
    if not value.isdigit() or len(value) > 6:
        raise Refused(400, f"The {key} is a number.")
    return int(value)


class Limiter:
    """Attempts per address: at most ``per_minute`` reports a minute, and after
    ``failures`` wrong codes in ten minutes nothing more from that address for ten."""

    def __init__(self, per_minute: int = 30, failures: int = 5) -> None:
        self.per_minute = per_minute
        self.failures = failures
        self.lock = threading.Lock()
        self.recent: dict[str, list[float]] = {}
        self.failed: dict[str, list[float]] = {}

    def allow(self, address: str) -> bool:
        now = time.monotonic()
        with self.lock:
            failed = [t for t in self.failed.get(address, []) if now - t < 600]
            self.failed[address] = failed
            recent = [t for t in self.recent.get(address, []) if now - t < 60]
            if len(failed) >= self.failures or len(recent) >= self.per_minute:
                self.recent[address] = recent
                return False
            self.recent[address] = [*recent, now]
            if len(self.recent) > 10_000:  # bounded: forget the addresses quiet for a minute
                self.recent = {a: ts for a, ts in self.recent.items() if now - ts[-1] < 60}
            return True

    def wrong_code(self, address: str) -> bool:
        """Count a wrong code; True when it is the one that stops the address."""
        now = time.monotonic()
        with self.lock:
            failed = [t for t in self.failed.get(address, []) if now - t < 600]
            self.failed[address] = [*failed, now]
            return len(failed) + 1 == self.failures
