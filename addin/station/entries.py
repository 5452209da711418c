"""The stations' entries, kept beside the workbook until the workbook holds them.

A folder ``NAME.stations/`` beside ``NAME.xlsx`` (never served, never in the site folder):

* ``entries.jsonl``: every entry a station sent, one JSON object a line, appended and
  flushed to disk (``fsync``) before the station is told it is kept. An entry names its
  id (made by the station's page, so a form sent twice is kept once), the station, the
  action and its parameters, and the station's answers to questions it was asked.
* ``outcomes.jsonl``: what became of each entry, one line each time it changes, appended
  the same way: ``waiting`` (with why), ``written``, ``refused`` (why, and what stands),
  ``asks`` (a question for the station), ``declined`` and ``answered`` (the station said no,
  or sent its answer as a new entry). The last line of an entry says where it stands.
* ``key``: the stations' password, made once (only the owner may read it).

Whether an entry is *in the workbook* is decided by the workbook itself: the store writes
the entry's id in a Log line with the change, in one save (``addin.store.Signed``). These
files only say what the stations were told; a writer killed at any moment finds, on
restart, each entry either in the workbook or still to write.

Two processes use the folder: the server (it appends entries, and the stations' answers)
and its writer (it appends outcomes). Each line is one ``write`` to a file opened for
appending, so lines never interleave; a line cut short by a crash is ended on the next
open and skipped when read.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import threading
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

from addin.workbook.saving import target_of

ENTRIES_FILE = "entries.jsonl"
OUTCOMES_FILE = "outcomes.jsonl"
KEY_FILE = "key"
ENTRY_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
"""What an entry's id may be: made by the page (``new_id``), checked on the way in."""
MAX_TEXT = 2000
"""Characters kept of an outcome's message or question (the Log has the rest)."""
MAX_LINE = 16_384
"""Bytes of one entry's line: a station's entry is a few hundred."""

WAITING, WRITTEN, REFUSED, ASKS, DECLINED, ANSWERED = (
    "waiting",
    "written",
    "refused",
    "asks",
    "declined",
    "answered",
)
FINAL = frozenset({WRITTEN, REFUSED, DECLINED, ANSWERED})
"""An entry in one of these states is done with: the writer never runs it again."""
SETTLED = FINAL | {ASKS}
"""The writer does not run these (an entry that asks waits for its station's answer)."""

STATION_ACTIONS = frozenset({"register", "checkin", "bye", "drop", "result"})
"""The actions a station may send: nothing else in an entry is ever run."""


def stations_folder(book: Path) -> Path:
    """``NAME.stations/`` beside the workbook (a symbolic link followed)."""
    book = target_of(Path(book))
    return book.with_name(f"{book.stem}.stations")


def new_id() -> str:
    """A fresh entry id: 16 random bytes, URL-safe."""
    return secrets.token_urlsafe(16)


def now() -> str:
    return datetime.now().replace(microsecond=0).isoformat(sep=" ")


@dataclass(frozen=True)
class Entry:
    id: str
    station: str
    action: str
    params: dict[str, object]
    answers: dict[str, bool] = field(default_factory=dict)
    time: str = ""
    answering: str = ""
    """The entry this one answers (its question, accepted), if any."""


@dataclass(frozen=True)
class Outcome:
    id: str
    state: str
    message: str = ""
    question: str = ""
    time: str = ""


class EntryQueue:
    """One folder's entries and outcomes, as this process last read them."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.lock = threading.Lock()
        self._entries: dict[str, Entry] = {}
        self._order: list[str] = []
        self._outcomes: dict[str, Outcome] = {}
        self._read_at = {ENTRIES_FILE: 0, OUTCOMES_FILE: 0}
        self._ended: set[str] = set()
        """The files whose last line this process has made sure is ended."""
        self._synced: set[str] = set()
        """The files whose name this process has made durable (the folder synced)."""

    # --- reading ----------------------------------------------------------------------

    def refresh(self) -> None:
        """Read what was appended since the last read (by this process or the other)."""
        with self.lock:
            for line in self._new_lines(ENTRIES_FILE):
                entry = _entry(line)
                if entry is not None and entry.id not in self._entries:
                    self._entries[entry.id] = entry
                    self._order.append(entry.id)
            for line in self._new_lines(OUTCOMES_FILE):
                outcome = _outcome(line)
                if outcome is not None:
                    self._outcomes[outcome.id] = outcome

    def _new_lines(self, name: str) -> Iterator[str]:
        path = self.folder / name
        try:
            with open(path, "rb") as f:
                f.seek(self._read_at[name])
                data = f.read()
        except FileNotFoundError:
            return
        end = data.rfind(b"\n") + 1  # a line still being written is read next time
        self._read_at[name] += end
        for line in data[:end].split(b"\n"):
            if line.strip():
                yield line.decode("utf-8", "replace")

    def entries(self) -> list[Entry]:
        self.refresh()
        with self.lock:
            return [self._entries[i] for i in self._order]

    def entry(self, entry_id: str) -> Entry | None:
        self.refresh()
        with self.lock:
            return self._entries.get(entry_id)

    def outcome(self, entry_id: str) -> Outcome:
        """Where the entry stands (``waiting`` when nothing was recorded yet)."""
        self.refresh()
        with self.lock:
            return self._outcomes.get(entry_id) or Outcome(entry_id, WAITING)

    def outcomes(self) -> dict[str, Outcome]:
        """Where each entry stands that has an outcome recorded (one reading for many)."""
        self.refresh()
        with self.lock:
            return dict(self._outcomes)

    def pending(self) -> list[Entry]:
        """The entries the writer still has to run, oldest first."""
        self.refresh()
        with self.lock:
            return [
                self._entries[i]
                for i in self._order
                if self._outcomes.get(i, Outcome(i, WAITING)).state not in SETTLED
            ]

    def waiting_count(self) -> int:
        return len(self.pending())

    # --- writing ----------------------------------------------------------------------

    def submit(self, entry: Entry) -> tuple[Entry, bool]:
        """Keep ``entry`` on disk (appended, flushed); the entry kept and whether it is new.
        An id kept before is not kept again (a form sent twice): the first stands."""
        if not ENTRY_ID.fullmatch(entry.id):
            raise ValueError(f"{entry.id[:70]!r} is not an entry id")
        self.refresh()
        with self.lock:
            kept = self._entries.get(entry.id)
            if kept is not None:
                return kept, False
            line = json.dumps(asdict(entry), ensure_ascii=False, separators=(",", ":"))
            if len(line.encode("utf-8")) > MAX_LINE:
                raise ValueError("that entry is far longer than a station's entry")
            self._append(ENTRIES_FILE, line)
            self._entries[entry.id] = entry
            self._order.append(entry.id)
            return entry, True

    def record(self, entry_id: str, state: str, message: str = "", question: str = "") -> None:
        """Say where an entry stands now (appended, flushed)."""
        outcome = Outcome(entry_id, state, message[:MAX_TEXT], question[:MAX_TEXT], now())
        line = json.dumps(asdict(outcome), ensure_ascii=False, separators=(",", ":"))
        with self.lock:
            self._append(OUTCOMES_FILE, line)
            self._outcomes[entry_id] = outcome

    def _append(self, name: str, line: str) -> None:
        """One line, in one write, flushed to disk before this returns."""
        new_folder = not self.folder.is_dir()
        self.folder.mkdir(parents=True, exist_ok=True)
        if new_folder:
            _sync_folder(self.folder.parent)
        path = self.folder / name
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            data = line.encode("utf-8") + b"\n"
            if name not in self._ended:  # a line a crash cut short is ended, once
                size = os.fstat(fd).st_size
                if size and _last_byte(path, size) != b"\n":
                    data = b"\n" + data
                self._ended.add(name)
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        if new_folder or name not in self._synced:
            _sync_folder(self.folder)
            self._synced.add(name)

    # --- the stations' password --------------------------------------------------------

    def key(self) -> str:
        """The stations' password: made once, kept in ``key`` (owner-only)."""
        path = self.folder / KEY_FILE
        with contextlib.suppress(FileNotFoundError):
            text = path.read_text(encoding="ascii").strip()
            if re.fullmatch(r"[A-Z0-9]{4}(-[A-Z0-9]{4}){2}", text):
                return text
        self.folder.mkdir(parents=True, exist_ok=True)
        key = "-".join("".join(secrets.choice(KEY_ALPHABET) for _ in range(4)) for _ in range(3))
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(key + "\n")
            f.flush()
            os.fsync(f.fileno())
        return key


KEY_ALPHABET = "ACEFHJKMNPRTWXY3479"
"""No look-alikes (the result codes' alphabet): a password typed from a sheet of paper."""


def _last_byte(path: Path, size: int) -> bytes:
    with open(path, "rb") as f:
        f.seek(size - 1)
        return f.read(1)


def _sync_folder(folder: Path) -> None:
    """Make a new file's name durable too (POSIX; elsewhere there is nothing to do)."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _entry(line: str) -> Entry | None:
    """An entry line as kept; None for a line cut short by a crash or not ours."""
    data = _object(line)
    if data is None:
        return None
    params, answers = data.get("params"), data.get("answers", {})
    texts = [data.get(k, "") for k in ("id", "station", "action", "time", "answering")]
    if not all(isinstance(t, str) for t in texts) or not isinstance(params, dict):
        return None
    if not isinstance(answers, dict) or not ENTRY_ID.fullmatch(str(data.get("id"))):
        return None
    return Entry(
        str(data["id"]),
        str(data["station"]),
        str(data["action"]),
        {str(k): v for k, v in params.items()},
        {str(k): bool(v) for k, v in answers.items()},
        str(data.get("time", "")),
        str(data.get("answering", "")),
    )


def _outcome(line: str) -> Outcome | None:
    data = _object(line)
    if data is None:
        return None
    values = [data.get(k, "") for k in ("id", "state", "message", "question", "time")]
    if not all(isinstance(v, str) for v in values) or not values[0]:
        return None
    return Outcome(*(str(v) for v in values))


def _object(line: str) -> Mapping[str, object] | None:
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None
