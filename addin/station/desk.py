"""The stations' side of the server: registration and results desks working through the
server the TD started for phones (``serve``), on pages of their own under ``/station/``.

A station signs in with the stations' password (the TD's console shows it; the poster's
staff page has it in a QR code) and a name for itself ("Desk 2"), which the Log shows
beside each of its entries. It looks members up, and sends entries: register, check in,
a bye request, a drop, a result from a slip. An entry is kept on disk (appended and
flushed: ``station_queue``) before the station hears "kept"; the writer
(``addin.station``, a process of its own) runs it through the same action as every door
and records what became of it, which the station's page shows and updates.

Security: the pages answer only a signed-in station (a cookie signed with the password,
``SameSite=Strict``); every form carries a token tied to that cookie, and a request from
another site (its ``Origin`` or ``Sec-Fetch-Site`` says so) is refused; five wrong
passwords from one address in ten minutes shut it out for ten. Nothing of this is
reachable from the players' pages, which are static files.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from datetime import date
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, parse_qsl, urlsplit

from addin.core.lookup import (
    SHOWN,
    MemberIndex,
    fold,
    is_lapsed,
    is_number_query,
    more_text,
    name_matches,
)
from addin.core.model import Tournament
from addin.core.ratings import rank_of
from addin.core.scoring import last_round
from addin.reports.text import clean
from addin.station.entries import (
    ANSWERED,
    ASKS,
    DECLINED,
    STATION_ACTIONS,
    Entry,
    EntryQueue,
    new_id,
    now,
    stations_folder,
)
from addin.station.pages import (
    REGISTRATION,
    RESULTS,
    RESULTS_DESK,
    ROLES,
    Board,
    Dropping,
    Found,
    Sent,
    StationScreen,
    banner,
    boards_table,
    login_page,
    main_page,
    page_address,
    questions,
    sent_list,
)
from addin.workbook.saving import file_identity, target_of

PATH = "/station"
COOKIE = "aga_station"
ROLE_COOKIE = "aga_desk"
"""What the desk does (registration or results): only the page's order, so not signed."""
MAX_BODY = 4096
"""Bytes of a station's form: a few hundred at most."""
FIELDS: dict[str, tuple[str, ...]] = {
    "register": ("aga", "name", "rank"),
    "checkin": ("player",),
    "bye": ("player", "round"),
    "drop": ("player",),
    "result": ("round", "board", "result", "if_blank"),
}
"""What each entry takes from its form: the action's own parameters, as typed (the action
checks them, as it checks a command's)."""
assert set(FIELDS) == STATION_ACTIONS
SHOWN_ENTRIES = 15
"""Entries of its own a station's page lists, newest first."""
VIEW_SECONDS = 1.0
"""At most this often the pages read the workbook again (when it changed)."""
MEMBERS_SECONDS = 60.0
"""At most this often the look-up reads the TDListA again (when the workbook changed)."""


class StationDesk:
    """The stations of one workbook: sign-in, pages, entries, and the writer's process."""

    def __init__(self, book: Path) -> None:
        self.book = target_of(Path(book)).absolute()
        self.queue = EntryQueue(stations_folder(self.book))
        self.key = self.queue.key()
        self.view = WorkbookView(self.book)
        self.failures = Failures()
        self.writer: subprocess.Popen[bytes] | None = None

    # --- the writer ---------------------------------------------------------------------

    def start(self) -> None:
        """Start the writer (``python -m addin.station``), which stops when this process does."""
        root = str(Path(__file__).resolve().parents[2])
        rest = os.environ.get("PYTHONPATH", "")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, rest]) if rest else root}
        command = [sys.executable, "-m", "addin.station", str(self.book)]
        command += ["--parent", str(os.getpid())]
        self.writer = subprocess.Popen(command, stdin=subprocess.DEVNULL, env=env)
        threading.Thread(target=self.view.warm, daemon=True).start()

    def stop(self) -> None:
        writer, self.writer = self.writer, None
        if writer is None:
            return
        writer.terminate()
        try:
            writer.wait(timeout=15)
        except subprocess.TimeoutExpired:
            writer.kill()

    # --- requests -------------------------------------------------------------------------

    def handle(self, h: Any, method: str) -> None:
        """Answer a request under ``/station`` (``h``: the server's request handler)."""
        parts = urlsplit(h.path)
        path, query = parts.path, parse_qs(parts.query, max_num_fields=10)
        address = str(h.client_address[0])
        station = self._signed_in(h)
        if method == "POST":
            if not _same_origin(h):
                _send(h, 403, "text/plain", "Refused: this form was not sent from this site.")
                return
            if self.failures.shut_out(address):
                _send(h, 429, "text/plain", "Too many wrong attempts: wait ten minutes.")
                return
            form = _form(h)
            if form is None:
                _send(h, 400, "text/plain", "That is not a station's form.")
                return
            if path == f"{PATH}/login":
                self._login(h, form, address)
                return
            if station is None or not hmac.compare_digest(form.get("csrf", ""), self._csrf(h)):
                self.failures.count(address)
                _send(h, 403, "text/plain", "Refused: sign in again (the page was stale).")
                return
            if path == f"{PATH}/logout":
                _redirect(h, f"{PATH}/", f"{COOKIE}=; Path={PATH}; Max-Age=0; SameSite=Strict")
            elif path == f"{PATH}/entry":
                self._entry(h, station, form)
            elif path == f"{PATH}/answer":
                self._answer(h, station, form)
            elif path == f"{PATH}/desk":
                _redirect(h, f"{PATH}/", _role_cookie(form.get("role", "")))
            else:
                _send(h, 404, "text/plain", "No such station form.")
            return
        if station is None:
            key = _one(query, "key")
            _send(h, 200, "text/html", login_page(self.view.event(), key))
            return
        if path in (PATH, f"{PATH}/"):
            _send(h, 200, "text/html", main_page(self._screen(h, station, query)))
        elif path == f"{PATH}/api/sent":
            screen = self._screen(h, station, query)
            fragment = questions(screen) + banner(screen) + sent_list(screen)
            fragment += boards_table(screen)
            _send(h, 200, "text/html", fragment)
        elif path == f"{PATH}/api/state":
            outcome = self.queue.outcome(_one(query, "entry"))
            kept = self.queue.entry(outcome.id) is not None
            state = outcome.state if kept else "unknown"
            data = {"state": state, "message": outcome.message, "question": outcome.question}
            _send(h, 200, "application/json", json.dumps(data))
        else:
            _send(h, 404, "text/plain", "No such station page.")

    # --- signing in -----------------------------------------------------------------------

    def _login(self, h: Any, form: Mapping[str, str], address: str) -> None:
        given = form.get("key", "").strip().upper()
        station = clean(form.get("station", ""), 30).strip()
        if not hmac.compare_digest(given.encode(), self.key.encode()):
            if self.failures.count(address):
                print(
                    f"warning: {address}: five wrong station passwords; shut out for ten minutes",
                    flush=True,
                )
            page = login_page(self.view.event(), "", station, "That is not the password.")
            _send(h, 403, "text/html", page)
            return
        if not station:
            _send(
                h, 400, "text/html", login_page(self.view.event(), given, "", "Name the station.")
            )
            return
        cookie = self._cookie(station)
        _redirect(
            h,
            f"{PATH}/",
            f"{COOKIE}={cookie}; Path={PATH}; HttpOnly; SameSite=Strict",
            _role_cookie(form.get("role", "")),
        )

    def _cookie(self, station: str) -> str:
        name = station.encode("utf-8").hex()
        return f"{name}.{self._sign('station|' + name)}"

    def _sign(self, text: str) -> str:
        return hmac.new(self.key.encode(), text.encode(), hashlib.sha256).hexdigest()[:40]

    def _signed_in(self, h: Any) -> str | None:
        value = _cookie_value(h)
        if value is None or "." not in value:
            return None
        name, signature = value.split(".", 1)
        if not hmac.compare_digest(signature, self._sign("station|" + name)):
            return None
        try:
            return bytes.fromhex(name).decode("utf-8")
        except ValueError:
            return None

    def _csrf(self, h: Any) -> str:
        return self._sign("form|" + (_cookie_value(h) or ""))

    # --- entries --------------------------------------------------------------------------

    def _entry(self, h: Any, station: str, form: Mapping[str, str]) -> None:
        action = form.get("action", "")
        if action not in FIELDS:
            _send(h, 400, "text/plain", "That is not an entry a station sends.")
            return
        params: dict[str, object] = {
            k: form[k][:200] for k in FIELDS[action] if form.get(k, "").strip()
        }
        entry = Entry(form.get("id", ""), station, action, params, time=now())
        self._keep(h, entry, form.get("next", ""), form.get("q", ""))

    def _answer(self, h: Any, station: str, form: Mapping[str, str]) -> None:
        sent = self.queue.entry(form.get("id", ""))
        if sent is not None and sent.station == station:  # the answer sent again: kept once
            _redirect(h, page_address(sent.id))
            return
        asked = self.queue.entry(form.get("entry", ""))
        outcome = self.queue.outcome(form.get("entry", ""))
        if asked is None or asked.station != station:
            _send(h, 404, "text/plain", "No such entry from this station.")
            return
        if outcome.state != ASKS:
            _redirect(h, page_address(asked.id))
            return
        if form.get("answer") != "yes":
            self.queue.record(asked.id, DECLINED, "not written: the station said no")
            _redirect(h, page_address(asked.id))
            return
        answers = {**asked.answers, outcome.question: True}
        entry = Entry(
            form.get("id", ""),
            station,
            asked.action,
            asked.params,
            answers,
            now(),
            answering=asked.id,
        )
        self._keep(h, entry, "", "")
        self.queue.record(asked.id, ANSWERED, "sent again with the station's answer")

    def _keep(self, h: Any, entry: Entry, after: str, query: str) -> None:
        try:
            kept, _ = self.queue.submit(entry)
        except ValueError as err:
            _send(h, 400, "text/plain", str(err))
            return
        except OSError as err:
            _send(h, 503, "text/plain", f"Not kept, see the TD: {err.strerror or err}")
            return
        if "json" in h.headers.get("Accept", ""):
            _send(h, 200, "application/json", json.dumps({"id": kept.id, "state": "kept"}))
            return
        _redirect(h, page_address(kept.id, after, query))

    # --- the page -------------------------------------------------------------------------

    def _screen(self, h: Any, station: str, query: Mapping[str, list[str]]) -> StationScreen:
        t = self.view.tournament()
        q = _one(query, "q")[:80]
        shown_id = _one(query, "entry")
        mine = [e for e in self.queue.entries() if e.station == station]
        latest = {e.id for e in mine[-SHOWN_ENTRIES:]}
        outcomes = self.queue.outcomes()
        wanted = [  # the latest, the one just sent, and every one waiting for an answer
            self._sent(e, t)
            for e in mine
            if e.id in latest
            or e.id == shown_id
            or (e.id in outcomes and outcomes[e.id].state == ASKS)
        ]
        sent = [e for e in reversed(wanted) if e.id in latest]
        shown = next((e for e in wanted if e.id == shown_id), None)
        rnd = t.round(last_round(t)) if t is not None and t.rounds else None
        role = _role(h)
        dropping = _dropping(_one(query, "drop"), t)
        focus = _one(query, "next") or ("result" if role == RESULTS_DESK else "search")
        found, more = self.view.search(q) if q.strip() else ([], "")
        screen = StationScreen(
            event=self.view.event(),
            station=station,
            csrf=self._csrf(h),
            new_id=new_id,
            query=q,
            found=found,
            more=more,
            searched=bool(q.strip()),
            round=rnd.number if rnd else None,
            boards=self.view.boards(),
            sent=sent,
            shown=shown,
            focus="confirm" if dropping is not None else focus,
            note=self.view.note(),
            role=role,
            questions=[e for e in wanted if e.state == ASKS],
            dropping=dropping,
        )
        return screen

    def _sent(self, e: Entry, t: Tournament | None) -> Sent:
        outcome = self.queue.outcome(e.id)
        return Sent(e.id, describe(e, t), outcome.state, outcome.message, outcome.question, e.time)


def _dropping(typed: str, t: Tournament | None) -> Dropping | None:
    """A drop asked for by AGA #: whom it names, to show before anything is sent."""
    number = typed.strip().removeprefix("#").strip()[:12]
    if not typed.strip():
        return None
    player = t.players.get(int(number)) if t is not None and number.isdecimal() else None
    if player is None:
        return Dropping(number)
    return Dropping(str(player.aga_id), player.name, player.status.value)


def describe(e: Entry, t: Tournament | None) -> str:
    """An entry in a station's words: "check in Smith, John (12345)"."""
    p = e.params

    def who(key: str) -> str:
        text = str(p.get(key, "?"))
        player = t.players.get(int(text)) if t is not None and text.isdecimal() else None
        return f"{player.name} ({text})" if player is not None else f"AGA # {text}"

    if e.action == "register":
        rank = f", rank {p['rank']}" if p.get("rank") else ""
        return f"register {p['name'] if p.get('name') else who('aga')}{rank}"
    if e.action == "checkin":
        return f"check in {who('player')}"
    if e.action == "bye":
        return f"bye request for {who('player')}, round {p.get('round', '?')}"
    if e.action == "drop":
        return f"drop {who('player')}"
    typed = str(p.get("result", ""))
    words = {v.casefold(): t for v, t in RESULTS}.get(typed.strip().casefold(), typed)
    return f"round {p.get('round', '?')}, board {p.get('board', '?')}: {words}"


# --- the workbook as the pages show it -------------------------------------------------------


class WorkbookView:
    """The workbook as last saved, read again when it changed (at most once a second; the
    TDListA once a minute): the players and their status, the round in play, the members."""

    def __init__(self, book: Path) -> None:
        self.book = book
        self.lock = threading.Lock()
        self._t: Tournament | None = None
        self._seen: tuple[int, int, int] | None = None
        self._read_at = 0.0
        self._members: MemberIndex | None = None
        self._members_seen: tuple[int, int, int] | None = None
        self._members_at = 0.0
        self._members_lock = threading.Lock()
        self._problem = ""
        self._tried = False
        """A first reading was made (it may have failed: the page then says why)."""

    def tournament(self) -> Tournament | None:
        identity = file_identity(self.book)
        if not self._tried:  # nothing read yet (serve just started): wait for the reading
            with self.lock:
                if not self._tried:
                    self._read(identity)
            return self._t
        due = identity != self._seen and time.monotonic() - self._read_at >= VIEW_SECONDS
        if due and self.lock.acquire(blocking=False):  # one reads, others go on
            try:
                self._read(identity)
            finally:
                self.lock.release()
        return self._t

    def _read(self, identity: tuple[int, int, int] | None) -> None:
        from addin.workbook.book import read_book
        from addin.workbook.calamine_reader import CalamineReader

        self._read_at = time.monotonic()
        try:
            self._t = read_book(CalamineReader.open(self.book, None)).tournament
            self._problem = ""
        except Exception as err:  # a page shows the last reading, and says why not newer
            self._problem = f"the workbook could not be read just now ({err}); shown as before"
        self._seen = identity
        self._tried = True

    def event(self) -> str:
        t = self.tournament()
        return (t.settings.name if t is not None else "") or self.book.stem

    def note(self) -> str:
        from addin.workbook.saving import held_by

        if self._problem:
            return self._problem
        holder = held_by(self.book)
        if holder:
            return (
                f"{self.book.name} is open in {holder}: entries are checked and wait until "
                "the TD takes them in."
            )
        return ""

    def warm(self) -> None:
        """Read the workbook and index the TDListA before the first station asks."""
        self.tournament()
        self.members()

    def members(self) -> MemberIndex | None:
        """The TDListA indexed; while it is read again, look-ups use the one before."""
        identity = file_identity(self.book)
        stale = identity != self._members_seen
        due = stale and time.monotonic() - self._members_at >= MEMBERS_SECONDS
        if (self._members is None or due) and self._members_lock.acquire(
            blocking=self._members is None
        ):
            try:
                if self._members is None or due:
                    self._read_members(identity)
            finally:
                self._members_lock.release()
        return self._members

    def _read_members(self, identity: tuple[int, int, int] | None) -> None:
        from addin.workbook.calamine_reader import CalamineReader
        from addin.workbook.member_sheet import read_member_index

        self._members_at = time.monotonic()
        with contextlib.suppress(Exception):  # a page shows the list as last read
            index, problems = read_member_index(CalamineReader.open(self.book, None))
            if not problems:
                self._members = index
        self._members_seen = identity

    def search(self, query: str) -> tuple[list[Found], str]:
        """Members of the TDListA and registered players for a look-up, as the command
        line's ``lookup`` finds them (a name in either order, any case, accent or
        apostrophe, or an AGA #), each with its status at the event: current members
        first, lapsed ones marked; the first ``SHOWN`` and a line saying how many more."""
        t = self.tournament()
        players = t.players if t is not None else {}
        day = (t.settings.start_date if t is not None else None) or date.today()
        index = self.members()
        found: dict[int, Found] = {}
        lapsed: set[int] = set()
        for m in index.search(query) if index is not None else []:
            p = players.get(m.aga_id)
            expiry = m.expiry.isoformat() if isinstance(m.expiry, date) else ""
            if is_lapsed(m, day):
                lapsed.add(m.aga_id)
                expiry = f"LAPSED {expiry}"
            found[m.aga_id] = Found(
                m.aga_id,
                m.name,
                _rating(m.rating),
                expiry,
                " ".join(x for x in (m.chapter, m.state) if x),
                p.status.value if p is not None else "",
            )
        number = query.strip().removeprefix("#").strip()
        for pid, p in players.items():
            if pid in found:
                continue
            if str(pid) == number or (
                not is_number_query(query) and name_matches(query, p.family_name, p.given_name)
            ):
                found[pid] = Found(
                    pid,
                    p.name,
                    _rating(p.rating),
                    "",
                    " ".join(x for x in (p.chapter, p.state) if x),
                    p.status.value,
                )
        listed = sorted(found.values(), key=lambda f: (f.aga_id in lapsed, fold(f.name)))
        hidden = [f.aga_id in lapsed for f in listed[SHOWN:]]
        return listed[:SHOWN], more_text(len(hidden), sum(hidden)) if hidden else ""

    def boards(self) -> list[Board]:
        from addin.core.codes import boards

        t = self.tournament()
        if t is None or not t.rounds:
            return []
        rnd = t.round(last_round(t))
        assert rnd is not None

        def name(pid: int) -> str:
            p = t.players.get(pid)
            return f"{p.name} ({pid})" if p is not None else f"AGA # {pid}"

        return [
            Board(b, name(g.white), name(g.black), g.result.value if g.result else "")
            for b, g in boards(rnd)
        ]


def _rating(rating: float | None) -> str:
    return "" if rating is None else f"{rating:.2f} ({rank_of(rating)})"


# --- sign-in failures ---------------------------------------------------------------------


class Failures:
    """Wrong passwords (and stale forms) per address: five in ten minutes shut it out for ten."""

    def __init__(self, most: int = 5, seconds: float = 600.0) -> None:
        self.most, self.seconds = most, seconds
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = {}

    def _recent(self, address: str, now: float) -> list[float]:
        return [t for t in self.times.get(address, []) if now - t < self.seconds]

    def shut_out(self, address: str) -> bool:
        with self.lock:
            return len(self._recent(address, time.monotonic())) >= self.most

    def count(self, address: str) -> bool:
        """Count a failure; True when it is the one that shuts the address out."""
        now = time.monotonic()
        with self.lock:
            recent = [*self._recent(address, now), now]
            self.times[address] = recent
            if len(self.times) > 10_000:
                self.times = {a: ts for a, ts in self.times.items() if now - ts[-1] < self.seconds}
            return len(recent) == self.most


# --- HTTP ---------------------------------------------------------------------------------


def _one(query: Mapping[str, list[str]], key: str) -> str:
    values = query.get(key)
    return values[0] if values else ""


def _cookie_value(h: Any, name: str = COOKIE) -> str | None:
    try:
        jar = SimpleCookie(h.headers.get("Cookie", ""))
    except CookieError:
        return None
    morsel = jar.get(name)
    return morsel.value if morsel is not None and morsel.value else None


def _role(h: Any) -> str:
    role = _cookie_value(h, ROLE_COOKIE)
    return role if role in ROLES else REGISTRATION


def _role_cookie(role: str) -> str:
    role = role if role in ROLES else REGISTRATION
    return f"{ROLE_COOKIE}={role}; Path={PATH}; Max-Age=31536000; SameSite=Strict"


def _same_origin(h: Any) -> bool:
    """A form from this site: no ``Origin`` (an old browser) or this very host, and no
    ``Sec-Fetch-Site`` saying another site sent it."""
    if h.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        return False
    origin = h.headers.get("Origin")
    if origin is None:
        return True
    host = h.headers.get("Host", "")
    return urlsplit(origin).netloc == host and bool(host)


def _form(h: Any) -> dict[str, str] | None:
    length = h.headers.get("Content-Length", "")
    if not length.isdecimal() or int(length) > MAX_BODY:
        h.close_connection = True
        return None
    try:
        text = h.rfile.read(int(length)).decode("utf-8")
        return dict(parse_qsl(text, max_num_fields=30))
    except (UnicodeDecodeError, ValueError):
        return None


def _send(h: Any, status: int, kind: str, text: str) -> None:
    data = text.encode("utf-8")
    h.send_response(status)
    h.send_header("Content-Type", f"{kind}; charset=utf-8")
    h.send_header("Content-Length", str(len(data)))
    h.send_header("X-Frame-Options", "DENY")
    h.send_header("Referrer-Policy", "same-origin")
    h.end_headers()
    if h.command != "HEAD":
        h.wfile.write(data)


def _redirect(h: Any, where: str, *cookies: str) -> None:
    h.send_response(303)
    h.send_header("Location", where)
    for cookie in cookies:
        h.send_header("Set-Cookie", cookie)
    h.send_header("Content-Length", "0")
    h.end_headers()
