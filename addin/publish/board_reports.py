"""Results reported from the board: players' reports, kept beside the workbook, never in it.

Two small files live in a folder beside the workbook (``NAME.phones/``), which the server
never serves:

* ``desk.json``, written by ``publish``: the round in play, its boards with their players,
  result codes, and the results the TD has already typed;
* ``reports.json``, written by the server alone: every report kept, at most one per board
  and colour, with who reported (the colour), from which address and when;
* ``serve.lock``, held by the one server that keeps this workbook's reports (a second
  ``serve`` of the same workbook is refused: two servers would each keep their own list and
  the last to write would drop the other's reports).

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
import sys
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
    event: str = ""
    """The event's name, as the site's pages show it (the server's answer pages too)."""

    def to_json(self) -> str:
        boards = [asdict(b) for _, b in sorted(self.boards.items())]
        return json.dumps(
            {"format": FORMAT, "round": self.round, "event": self.event, "boards": boards},
            indent=1,
        )

    @staticmethod
    def from_json(text: str) -> Desk:
        """The desk ``publish`` wrote; ``ValueError`` for anything else (a hand-edited or
        damaged file), so the server never answers a player from it."""
        data = _json(text)
        if not isinstance(data, dict) or not isinstance(data.get("boards"), list):
            raise ValueError("expected an object with a list of boards")
        boards = [_checked(Board, b, f"board {i + 1}") for i, b in enumerate(data["boards"])]
        event = data.get("event", "")
        if not isinstance(event, str):
            raise ValueError(f"event {_shown(event)} is not a text")
        return Desk(_whole(data.get("round"), "round"), {b.board: b for b in boards}, event)


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
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Flush the folder's entry for a file renamed into it (POSIX: the rename itself is on
    disk only then); nothing to do where a folder cannot be opened (Windows)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


LOCK_FILE = "serve.lock"


class StoreBusy(Exception):
    """Another server keeps this workbook's reports; the message names it in one line."""


class StoreLock:
    """The one server keeping a workbook's reports: an exclusive lock on ``serve.lock`` in
    the reports folder, held while the server runs and let go by the system when its
    process ends however it ends (``kill -9`` too), so no stale lock is left behind.

    Two servers on one workbook would each hold their own list of reports and rewrite the
    file from it: the last to write would drop the other's. So the second is refused."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / LOCK_FILE
        self.fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            _lock(self.fd)
        except OSError:
            held = self._holder()
            os.close(self.fd)
            self.fd = None
            raise StoreBusy(
                f"another serve keeps the results reported for this workbook ({held}): "
                "players' reports must reach one server; stop that one first (Ctrl-C in "
                "its window, or Serve on Wi-Fi again in Excel)"
            ) from None
        self.note()

    def note(self, url: str = "") -> None:
        """Say who holds the lock (read by a second server to name this one)."""
        if self.fd is None:
            return
        since = datetime.now().strftime("%H:%M")
        said = f"process {os.getpid()}" + (f", serving {url}" if url else "") + f", since {since}"
        data = said.encode("utf-8")[:200]
        with contextlib.suppress(OSError):
            os.lseek(self.fd, _HOLDER_AT, os.SEEK_SET)
            os.write(self.fd, data.ljust(200))

    def _holder(self) -> str:
        try:
            with open(self.path, "rb") as f:
                f.seek(_HOLDER_AT)
                said = f.read(200).decode("utf-8", "replace").strip()
        except OSError:
            said = ""
        return said or "another process"

    def release(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                _unlock(self.fd)
            os.close(self.fd)
            self.fd = None


_HOLDER_AT = 16
"""Where the holder's line starts in the lock file: past the byte Windows locks (a locked
range cannot be read by another process there)."""


def _lock(fd: int) -> None:
    """Lock ``fd`` exclusively without waiting; ``OSError`` when another holds it."""
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _unlock(fd: int) -> None:
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_UN)


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


# --- a board's report state, as the players' pages show it ---------------------------------

STATES = ("white", "black", "agree", "disputed", "taken")
"""A board's report state: one colour alone has reported (``white``, ``black``), both agree,
they disagree, or the board's result is in the Round sheet (the TD took it in)."""


def board_state(sides: Mapping[str, Report], typed: str = "") -> str:
    """The state of one game's reports (``sides``: colour -> report); ``typed``: the result
    in the Round sheet ("" none). "" when nobody has reported."""
    if not sides:
        return ""
    if typed:
        return "taken"
    if len(sides) < len(SIDES):
        return next(iter(sides))
    return "agree" if agreed(sides) else "disputed"


def state_text(state: str, side: str = "") -> str:
    """What a page says of a board's state; ``side``: the colour of the player whose own
    page it is ("" on a page for everyone)."""
    if state in SIDES:
        other = "black" if state == "white" else "white"
        if side == state:
            return "You have reported: waiting for your opponent's report."
        if side:
            return "Your opponent has reported: please report too."
        return f"{state.capitalize()} has reported: waiting for {other.capitalize()}."
    return {
        "agree": "Both players agree: waiting for the TD to take the result in.",
        "disputed": "The players disagree: please see the TD.",
        "taken": "The TD has taken the result in.",
    }.get(state, "")


def state_texts() -> dict[str, dict[str, str]]:
    """Every state's text for each reader (the site's script says the same as the pages)."""
    return {s: {k: state_text(s, k) for k in ("", *SIDES)} for s in STATES}


def game_reports(reports: list[Report], number: int, board: Board) -> dict[str, Report]:
    """The reports of the game on ``board`` in round ``number``: colour -> report. Only this
    game's: a board paired again (unpair, pair) is another game, and a report for the old
    one neither blocks nor agrees with this one's players."""
    return {
        r.side: r
        for r in reports
        if (r.round, r.board, r.white, r.black) == (number, board.board, board.white, board.black)
    }


def desk_states(desk: Desk, reports: list[Report]) -> dict[int, str]:
    """Board -> report state for the round in play (boards without a report left out)."""
    states = {
        number: board_state(game_reports(reports, desk.round, board), board.result)
        for number, board in desk.boards.items()
    }
    return {b: s for b, s in states.items() if s}


def names_of(board: Board) -> str:
    """``White: Lee, Ann; Black: Kim, Bo``: who plays on the board, as an answer names them."""
    return f"White: {board.white_name}; Black: {board.black_name}"


class ReportBox:
    """The server's side: a report checked against the desk and kept once, atomically. It
    holds the store's lock (:class:`StoreLock`) from its making to :meth:`close`."""

    def __init__(self, folder: Path, warn: Callable[[str], None] = lambda _: None) -> None:
        self.folder = folder
        self.warn = warn
        self.lock = threading.Lock()
        self.store = StoreLock(folder)
        try:
            self.reports = read_reports(folder)
        except BaseException:
            self.store.release()
            raise
        self._desk: Desk | None = None
        self._desk_seen: tuple[int, int] | None = None
        self._states: tuple[object, bytes] | None = None

    def close(self) -> None:
        """Let another server keep this workbook's reports."""
        self.store.release()

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

    def states_script(self, callback: str) -> bytes:
        """``callback({"round": 3, "boards": {"4": "white", ...}})``: the round in play's
        report states as a script the pages load (made again only when a report is kept or
        the desk changes)."""
        with self.lock:
            desk = self.desk()
            version = (self._desk_seen, len(self.reports))
            if self._states is None or self._states[0] != version:
                data = {
                    "round": desk.round if desk else 0,
                    "boards": {str(b): s for b, s in desk_states(desk, self.reports).items()}
                    if desk
                    else {},
                }
                text = f"window.{callback} && window.{callback}({json.dumps(data)});\n"
                self._states = (version, text.encode("utf-8"))
            return self._states[1]

    def current_desk(self) -> Desk | None:
        with self.lock:
            return self.desk()

    def board_of(self, fields: Mapping[str, str]) -> Board | None:
        """The board a report names, in the round in play (None: no such board, or no desk)."""
        desk = self.current_desk()
        try:
            number = _number(fields, "board")
        except Refused:
            return None
        return desk.boards.get(number) if desk is not None else None

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
                raise Refused(
                    403,
                    f"That is not board {board_no}'s result code: see your result slip or "
                    "pairing card.",
                )
            if board.result:
                raise Refused(409, f"Board {board_no} already has its result: {board.result}.")
            sides = game_reports(self.reports, desk.round, board)
            mine = sides.get(side)
            if mine is not None:
                if mine.result == result:
                    return "again", f"Board {board_no}: your report was already kept."
                who = board.white_name if side == "white" else board.black_name
                raise Refused(
                    409,
                    f"Board {board_no}: a report for {side.capitalize()} ({who}) is already "
                    f"kept: {RESULTS[mine.result]}. If that was not you, or it was wrong, "
                    "tell the TD.",
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
        said = (
            f"Board {board_no} ({names_of(board)}): {RESULTS[result]}, reported by "
            f"{side.capitalize()}"
        )
        if len(sides) < len(SIDES):
            return "kept", f"{said}. Waiting for your opponent's report."
        if agreed(sides):
            return "ready", f"{said}. Both players agree: the TD will take it in."
        other = "black" if side == "white" else "white"
        self.warn(
            f"warning: round {desk.round}, board {board_no} ({names_of(board)}): White and "
            f"Black disagree ({side}: {RESULTS[result]}, {other}: "
            f"{RESULTS[sides[other].result]}); see the players"
        )
        return "disagree", f"{said}. Your opponent reported otherwise: please see the TD."

    def _keep(self, report: Report) -> None:
        kept = [*self.reports, report]
        text = json.dumps({"format": FORMAT, "reports": [asdict(r) for r in kept]}, indent=0)
        write_atomically(self.folder / REPORTS_FILE, text)
        self.reports = kept


def _number(fields: Mapping[str, str], key: str) -> int:
    """A whole number typed in ASCII digits ("²" and "٣" are digits to Python, not here)."""
    value = fields.get(key, "").strip()
    if not (value.isascii() and value.isdecimal()) or len(value) > 6:
        raise Refused(400, f"The {key} is a number.")
    return int(value)


class Limiter:
    """How often a report may be tried: limits per board, so that a hall behind one NAT
    address (every phone with the same address) is never held back as one phone.

    * A report naming a board: after ``failures`` wrong codes for that board from one
      address within ten minutes, that board takes no report from that address for ten
      minutes (guessing one board's code: five tries in 130,321).
    * One address, all boards: after ``spread`` wrong codes within ten minutes, nothing
      from that address for ten minutes (one phone guessing many boards' codes).
    * One address: at most ``per_minute`` reports a minute, a guard against a flood only
      (every report kept is written to disk); a whole hall's round ends well within it.
    """

    def __init__(self, per_minute: int = 600, failures: int = 5, spread: int = 50) -> None:
        self.per_minute = per_minute
        self.failures = failures
        self.spread = spread
        self.lock = threading.Lock()
        self.recent: dict[str, list[float]] = {}
        self.failed: dict[tuple[str, int], list[float]] = {}
        self.failed_anywhere: dict[str, list[float]] = {}

    def allow(self, address: str) -> bool:
        """Whether ``address`` may send a report now (the flood guard, and one phone
        guessing many boards)."""
        now = time.monotonic()
        with self.lock:
            if len(self._fresh(self.failed_anywhere, address, now)) >= self.spread:
                return False
            recent = [t for t in self.recent.get(address, []) if now - t < 60]
            if len(recent) >= self.per_minute:
                self.recent[address] = recent
                return False
            self.recent[address] = [*recent, now]
            if len(self.recent) > 10_000:  # bounded: forget the addresses quiet for a minute
                self.recent = {a: ts for a, ts in self.recent.items() if now - ts[-1] < 60}
            return True

    def closed(self, address: str, board: int) -> bool:
        """Whether ``board`` takes no report from ``address`` now (too many wrong codes)."""
        now = time.monotonic()
        with self.lock:
            return len(self._fresh(self.failed, (address, board), now)) >= self.failures

    def wrong_code(self, address: str, board: int) -> str:
        """Count a wrong code; the warning for the TD when it closes something, else ""."""
        now = time.monotonic()
        with self.lock:
            here = self._fresh(self.failed, (address, board), now)
            anywhere = self._fresh(self.failed_anywhere, address, now)
            self.failed[(address, board)] = [*here, now]
            self.failed_anywhere[address] = [*anywhere, now]
            if len(self.failed) > 10_000:
                self.failed = {k: ts for k, ts in self.failed.items() if now - ts[-1] < 600}
            if len(anywhere) + 1 == self.spread:
                return (
                    f"warning: {address} sent {self.spread} wrong result codes in ten minutes "
                    "(for many boards): refused for ten minutes"
                )
            if len(here) + 1 == self.failures:
                return (
                    f"warning: {address} sent {self.failures} wrong result codes for board "
                    f"{board}: that board takes no report from it for ten minutes"
                )
            return ""

    @staticmethod
    def _fresh(table: dict[Any, list[float]], key: object, now: float) -> list[float]:
        """The times of ``key`` within the last ten minutes (the older ones forgotten)."""
        if key not in table:
            return []
        kept = [t for t in table[key] if now - t < 600]
        table[key] = kept
        return kept
