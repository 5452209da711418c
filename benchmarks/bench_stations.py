"""Stations at a big event, on loopback: ``python benchmarks/bench_stations.py [--kill]``.

The event: a workbook holding the real 22,410-member TDListA (tests/data), Check-in on, a
first field (``--field``, 200) checked in and paired in round 1, and ``--players`` (600)
more: half pre-registered and Not arrived, half walk-ins. The real ``python -m addin serve
BOOK --bind 127.0.0.1`` serves it, with its writer process. Then, all at once:

* ``--stations`` (4) registration stations work through their share of the 600: a look-up by
  family name (``GET /station/?q=``), then an entry (``POST /station/entry``): check in a
  pre-registered player, or register a walk-in; a question (a lapsed membership, a late
  arrival's band) is answered yes, as the desk would. A tenth of the entries are sent twice
  (a connection dropped, the browser sent it again), and 2% of the walk-ins are registered by
  two stations at once (the second must be told it stands);
* ``--results`` (2) results stations enter round 1's results from the slips, a few boards by
  both stations with different results (the second must be told the first stands);
* ``--phones`` (300) phones poll the published site as its script does;
* the TD runs ``standings`` on the command line every 30 seconds.

With ``--kill`` the server (with its writer: the whole process group) is killed with
SIGKILL at random moments and started again, and a TD's command now and then too;
stations whose request failed send it again with the same entry id, as a browser does.

What it measures. *Acknowledgement*: a station's ``POST`` until its answer is read: the entry
is then on disk (appended and flushed), never later. *Written*: from that acknowledgement
until the writer has recorded the entry's outcome (written, refused, or a question for the
station), seen on disk by this script every 50 ms. *Look-up*: the search page. Then it
reads the workbook: every acknowledged entry the writer says it wrote has exactly one Log
line with its id, every other none (0 lost, 0 doubled), every walk-in is registered once,
every pre-registered player checked in, every board has its result, and ``check`` passes.
Exit code 1 when an entry is lost or doubled, the workbook is not sound, or the
acknowledgement's p95 is over ``--p95-ms`` (500).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import http.client
import json
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TDLISTA = ROOT / "tests" / "data" / "tdlista" / "tdlista-snapshot.txt"
FINAL = {"written", "refused", "declined", "answered"}
"""Outcomes after which the writer is done with an entry (``asks`` waits for its station)."""
MAX_SECONDS = 3600


def addin(*args: object, timeout: float = 900) -> tuple[int, float, str]:
    """``python -m addin ARGS`` in a process of its own: exit code, seconds, stderr."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "addin", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    return done.returncode, time.monotonic() - started, done.stderr.strip()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] if ordered else 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- the event ------------------------------------------------------------------------------


def members(count: int) -> list[tuple[int, str, str, float]]:
    """(AGA #, family, given, rating) of the real list's rated members with plain names."""
    from addin.formats.tdlista import parse_tdlista

    found = [
        (m.aga_id, m.family_name, m.given_name, m.rating)
        for m in parse_tdlista(TDLISTA.read_bytes()).members
        if m.rating is not None and m.given_name and m.family_name.isascii()
        and m.given_name.isascii() and "," not in m.given_name
    ]  # fmt: skip
    random.Random(44).shuffle(found)
    if len(found) < count:
        raise SystemExit(f"the list has {len(found)} such members, fewer than {count}")
    return found[:count]


def csv_of(path: Path, people: list[tuple[int, str, str, float]]) -> Path:
    def rank(rating: float) -> str:
        return f"{int(rating)}d" if rating > 0 else f"{int(-rating)}k"

    lines = ["Name,AGA #,Rank"] + [f'"{f}, {g}",{a},{rank(r)}' for a, f, g, r in people]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def set_check_in(book: Path, value: str) -> None:
    import openpyxl

    wb = openpyxl.load_workbook(book)
    for row in wb["Tournament"].iter_rows():
        if row[0].value == "Check-in":
            row[1].value = value
    wb.save(book)


def make_event(folder: Path, field_size: int, players: int) -> tuple[Path, dict[str, list]]:
    book = folder / "congress.xlsx"
    people = members(field_size + players)
    field_, rest = people[:field_size], people[field_size:]
    expected, walk_ins = rest[: players // 2], rest[players // 2 :]
    steps: list[tuple[object, ...]] = [
        ("new", book, "--name", "Station Congress", "--start", "2026-07-04", "--rounds", "6"),
        ("import-tdlista", book, TDLISTA),
        ("preregister", book, csv_of(folder / "field.csv", field_), "--yes"),
    ]
    for step in steps:
        _must(step)
    set_check_in(book, "Yes")
    for step in (
        ("preregister", book, csv_of(folder / "expected.csv", expected), "--yes"),
        ("bands", book, "--yes"),
        ("pair", book, "--yes"),
        ("publish", book),
    ):
        _must(step)
    desk = json.loads((book.with_name(f"{book.stem}.phones") / "desk.json").read_text())
    return book, {"expected": expected, "walk_ins": walk_ins, "boards": desk["boards"]}


def _must(step: tuple[object, ...]) -> None:
    code, _, err = addin(*step)
    if code != 0:
        raise SystemExit(f"setup failed at {step[0]}: {err}")


# --- the server -----------------------------------------------------------------------------


class Server:
    """``python -m addin serve`` in a process group of its own (its writer is in it)."""

    def __init__(self, book: Path, port: int) -> None:
        self.book, self.port = book, port
        self.process: subprocess.Popen[bytes] | None = None
        self.lock = threading.Lock()
        self.kills = 0

    def start(self) -> None:
        command = [sys.executable, "-m", "addin", "serve", str(self.book), "--bind", "127.0.0.1"]
        command += ["--port", str(self.port), "--loopback"]
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5),
            ):
                return
            time.sleep(0.1)
        raise SystemExit("serve did not start")

    def kill(self) -> None:
        """SIGKILL to the server and its writer at once, then start it again."""
        with self.lock:
            assert self.process is not None
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.kills += 1
            self.start()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=60)


# --- a station ------------------------------------------------------------------------------


@dataclass
class Sent:
    id: str
    station: str
    kind: str
    params: dict[str, str]
    acked_at: float = 0.0
    decided_at: float = 0.0
    state: str = ""
    question: str = ""
    expect: str = ""
    """What this entry should come to (``written``, or ``refused``: the second of a pair)."""


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    sent: dict[str, Sent] = field(default_factory=dict)
    retries: int = 0
    resent: int = 0
    failures: list[str] = field(default_factory=list)

    def time(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.times[kind].append(seconds)


class Station:
    """A station's browser: one keep-alive connection, its cookie and its form token."""

    def __init__(self, port: int, name: str, key: str, tally: Tally) -> None:
        self.port, self.name, self.tally = port, name, tally
        self.cookie = ""
        self.csrf = ""
        self.connection: http.client.HTTPConnection | None = None
        self.key = key

    def _request(
        self, method: str, path: str, body: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], str]:
        """One request, sent again (as a browser's reload does) until the server answers."""
        data = urllib.parse.urlencode(body).encode() if body is not None else None
        headers = {"Cookie": self.cookie, "Origin": f"http://127.0.0.1:{self.port}"}
        if data is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in range(600):
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                self.connection.request(method, path, data, headers)
                answer = self.connection.getresponse()
                text = answer.read().decode("utf-8")
                said = dict(answer.getheaders())
                cookies = [v for k, v in answer.getheaders() if k.lower() == "set-cookie"]
                if cookies:  # the sign-in sets two (the desk's and its role): keep both
                    said["Set-Cookie"] = "\n".join(cookies)
                return answer.status, said, text
            except (OSError, http.client.HTTPException):
                if self.connection is not None:
                    self.connection.close()
                self.connection = None
                if attempt:
                    with self.tally.lock:
                        self.tally.retries += 1
                time.sleep(0.2)
        raise RuntimeError(f"{self.name}: {path}: no answer for two minutes")

    def sign_in(self) -> None:
        status, headers, _ = self._request(
            "POST", "/station/login", {"key": self.key, "station": self.name}
        )
        assert status == 303, status
        cookies = headers["Set-Cookie"].split("\n")
        self.cookie = "; ".join(c.split(";", 1)[0] for c in cookies)
        _, _, page = self._request("GET", "/station/")
        found = re.search(r'name="csrf" value="([^"]+)"', page)
        assert found, page[:300]
        self.csrf = found.group(1)

    def look_up(self, query: str) -> str:
        started = time.monotonic()
        status, _, page = self._request("GET", f"/station/?q={urllib.parse.quote(query)}")
        self.tally.time("look-up", time.monotonic() - started)
        assert status == 200, status
        return page

    def send(self, kind: str, params: dict[str, str], expect: str = "written",
             answering: Sent | None = None, again: bool = False) -> Sent:  # fmt: skip
        entry = Sent(secrets.token_urlsafe(16), self.name, kind, params, expect=expect)
        with self.tally.lock:
            self.tally.sent[entry.id] = entry
        for _ in range(2 if again else 1):
            started = time.monotonic()
            if answering is None:
                body = {"csrf": self.csrf, "id": entry.id, "action": kind, **params}
                status, headers, _ = self._request("POST", "/station/entry", body)
            else:
                body = {"csrf": self.csrf, "entry": answering.id, "id": entry.id, "answer": "yes"}
                status, headers, _ = self._request("POST", "/station/answer", body)
            elapsed = time.monotonic() - started
            if status != 303 or f"entry={entry.id}" not in headers.get("Location", ""):
                with self.tally.lock:
                    self.tally.failures.append(f"{self.name} {kind}: {status}")
                return entry
            self.tally.time("acknowledgement", elapsed)
            if entry.acked_at:
                with self.tally.lock:
                    self.tally.resent += 1
            else:
                entry.acked_at = time.monotonic()
        return entry

    def state(self, entry: Sent) -> dict[str, str]:
        _, _, text = self._request("GET", f"/station/api/state?entry={entry.id}")
        return dict(json.loads(text))


# --- the run ----------------------------------------------------------------------------------


def watch_outcomes(folder: Path, tally: Tally, stop: threading.Event) -> None:
    """When each entry's outcome reaches the disk (read every 50 ms)."""
    path = folder / "outcomes.jsonl"
    offset = 0
    while not stop.is_set():
        with contextlib.suppress(FileNotFoundError), open(path, "rb") as f:
            f.seek(offset)
            data = f.read()
            end = data.rfind(b"\n") + 1
            offset += end
            now = time.monotonic()
            for line in data[:end].splitlines():
                with contextlib.suppress(ValueError):
                    outcome = json.loads(line)
                    with tally.lock:
                        sent = tally.sent.get(outcome.get("id", ""))
                        if sent is not None and outcome["state"] != "waiting":
                            if not sent.decided_at:
                                sent.decided_at = now
                            sent.state, sent.question = outcome["state"], outcome["question"]
        time.sleep(0.05)


def registration_desk(
    station: Station, tasks: list[tuple[str, tuple]], rng: random.Random, pace: float
) -> None:
    station.sign_in()
    for kind, (aga, family, _given, _rating), expect in tasks:
        time.sleep(rng.uniform(0.5, 1.5) * pace)  # the player at the desk
        station.look_up(family.lower())
        params = {"player": str(aga)} if kind == "checkin" else {"aga": str(aga)}
        station.send(kind, params, expect, again=rng.random() < 0.1)


def results_desk(station: Station, slips: list[tuple[int, str, str]], pace: float) -> None:
    station.sign_in()
    rng = random.Random(station.name)
    for board, result, expect in slips:
        time.sleep(rng.uniform(0.5, 1.5) * pace)  # the next slip
        params = {"round": "1", "board": str(board), "result": result, "if_blank": "yes"}
        station.send("result", params, expect)


def answer_questions(stations: dict[str, Station], tally: Tally, until: float) -> None:
    """Each station says yes to the questions its entries raise, as the desk would."""
    answered: set[str] = set()
    while time.monotonic() < until:
        with tally.lock:
            asking = [s for s in tally.sent.values() if s.state == "asks" and s.id not in answered]
        for entry in asking:
            answered.add(entry.id)
            stations[entry.station].send(entry.kind, entry.params, entry.expect, answering=entry)
        if not asking:
            time.sleep(0.2)


def phones(port: int, count: int, poll: float, stop: threading.Event, tally: Tally) -> None:
    """``count`` phones polling the pairings page's stamp as the site's script does."""

    def one(n: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            started = time.monotonic()
            connection.request("GET", f"/index.stamp.js?t={n}-{started}")
            connection.getresponse().read()
            tally.time("phone poll", time.monotonic() - started)
        except (OSError, http.client.HTTPException):
            pass  # the server is down (--kill): the phone tries again at its next poll
        finally:
            connection.close()

    with concurrent.futures.ThreadPoolExecutor(max_workers=24) as pool:
        rng = random.Random(7)
        due = [(time.monotonic() + rng.uniform(0, poll), n) for n in range(count)]
        while not stop.is_set():
            due.sort()
            when, n = due[0]
            time.sleep(max(0.0, min(when - time.monotonic(), 0.05)))
            if time.monotonic() >= when:
                pool.submit(one, n)
                due[0] = (when + poll, n)


def the_td(
    book: Path, stop: threading.Event, kill: bool, rng: random.Random, out: list[str]
) -> None:
    """``standings`` every 30 s; with ``--kill``, now and then killed mid-command."""
    while not stop.wait(30):
        process = subprocess.Popen(
            [sys.executable, "-m", "addin", "standings", str(book)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        if kill and rng.random() < 0.5:
            time.sleep(rng.uniform(0.2, 3.0))
            process.send_signal(signal.SIGKILL)
            process.wait()
            out.append("killed")
        else:
            _, err = process.communicate(timeout=900)
            out.append(
                f"exit {process.returncode}"
                + (f" ({err.decode()[:200]})" if process.returncode else "")
            )


CRASHED: list[str] = []
"""Threads an exception stopped (a desk that cannot sign in sends nothing: not sound)."""


def main(argv: list[str] | None = None) -> int:
    threading.excepthook = lambda hook: CRASHED.append(repr(hook.exc_value))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=600)
    parser.add_argument("--field", type=int, default=200, help="players already in round 1")
    parser.add_argument("--stations", type=int, default=4)
    parser.add_argument("--results", type=int, default=2)
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--poll", type=float, default=10.0)
    parser.add_argument(
        "--pace",
        type=float,
        default=0.0,
        help="seconds a station spends on each player or slip, on average (0: none, a "
        "stress test: every entry is sent at once and the writer catches up)",
    )
    parser.add_argument("--kill", action="store_true", help="kill -9 the server at random")
    parser.add_argument("--seconds", type=float, default=1800, help="the most it runs")
    parser.add_argument("--p95-ms", type=float, default=500.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.seconds > MAX_SECONDS:
        parser.error(f"at most {MAX_SECONDS} seconds")
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        started = time.monotonic()
        book, event = make_event(Path(tmp), args.field, args.players)
        setup = time.monotonic() - started
        server = Server(book, free_port())
        server.start()
        try:
            return _run(args, rng, book, event, server, setup)
        finally:
            server.stop()


def _run(args: argparse.Namespace, rng: random.Random, book: Path, event: dict[str, list],
         server: Server, setup: float) -> int:  # fmt: skip
    from addin.station.entries import stations_folder

    key = (stations_folder(book) / "key").read_text().strip()
    tally = Tally()
    deadline = time.monotonic() + args.seconds
    # The registration desks' share: check-ins and walk-ins dealt round; 2% of the walk-ins
    # are registered by the next desk too (the second must be refused).
    tasks: list[list[tuple]] = [[] for _ in range(args.stations)]
    jobs = [("checkin", p) for p in event["expected"]] + [
        ("register", p) for p in event["walk_ins"]
    ]
    rng.shuffle(jobs)
    doubled = set(rng.sample(range(len(event["walk_ins"])), max(1, len(event["walk_ins"]) // 50)))
    for n, (kind, person) in enumerate(jobs):
        tasks[n % args.stations].append((kind, person, "written"))
    for n in doubled:
        person = event["walk_ins"][n]
        holder = next(i for i, t in enumerate(tasks) if any(p is person for _, p, _ in t))
        tasks[(holder + 1) % args.stations].append(("register", person, "refused"))
    # The results desks: every board once, a few by both (different results).
    boards = [b["board"] for b in event["boards"]]
    slips: list[list[tuple[int, str, str]]] = [[] for _ in range(args.results)]
    for n, board in enumerate(boards):
        slips[n % args.results].append((board, rng.choice("WB"), "written"))
    for board in boards[:: max(1, len(boards) // 5)][:5]:
        first = next(s for s in slips if any(b == board for b, _, _ in s))
        result = next(r for b, r, _ in first if b == board)
        other = slips[(slips.index(first) + 1) % len(slips)]
        other.append((board, "B" if result == "W" else "W", "refused"))

    stop = threading.Event()
    watcher = threading.Thread(target=watch_outcomes, args=(stations_folder(book), tally, stop))
    watcher.start()
    desks = {
        f"Desk {i + 1}": Station(server.port, f"Desk {i + 1}", key, tally)
        for i in range(args.stations)
    }
    tables = {
        f"Results {i + 1}": Station(server.port, f"Results {i + 1}", key, tally)
        for i in range(args.results)
    }
    everyone = {**desks, **tables}
    td_log: list[str] = []
    background = [
        threading.Thread(target=phones, args=(server.port, args.phones, args.poll, stop, tally)),
        threading.Thread(target=the_td, args=(book, stop, args.kill, random.Random(3), td_log)),
    ]
    for t in background:
        t.daemon = True
        t.start()
    if args.kill:

        def killer() -> None:
            while not stop.is_set() and time.monotonic() < deadline:
                time.sleep(rng.uniform(4, 15))
                if not stop.is_set():
                    server.kill()

        threading.Thread(target=killer, daemon=True).start()
    workers = [
        threading.Thread(
            target=registration_desk, args=(desks[name], tasks[i], random.Random(i), args.pace)
        )
        for i, name in enumerate(desks)
    ] + [
        threading.Thread(target=results_desk, args=(tables[name], slips[i], args.pace))
        for i, name in enumerate(tables)
    ]
    sending = time.monotonic()
    for w in workers:
        w.start()
    answerer = threading.Thread(
        target=answer_questions, args=(everyone, tally, deadline), daemon=True
    )
    answerer.start()
    for w in workers:
        w.join()
    sent_for = time.monotonic() - sending
    while time.monotonic() < deadline:  # until the writer is done with every entry
        with tally.lock:
            open_ = [s for s in tally.sent.values() if s.acked_at and s.state not in FINAL]
        if not open_:
            break
        time.sleep(0.5)
    stop.set()
    finished = time.monotonic() - sending
    watcher.join()
    for t in background:
        t.join(timeout=900)
    server.stop()
    return report(args, book, tally, setup, sent_for, finished, server.kills, td_log)


def report(args: argparse.Namespace, book: Path, tally: Tally, setup: float, sent_for: float,
           finished: float, kills: int, td_log: list[str]) -> int:  # fmt: skip
    import openpyxl

    wb = openpyxl.load_workbook(book, read_only=True)
    in_log = Counter(
        str(r[3]).split(" ")[1]
        for r in wb["Log"].iter_rows(min_row=2, values_only=True)
        if r[3] and str(r[3]).startswith("Entry ") and " from " in str(r[3])
    )
    players = _rows(wb["Players"])
    games = [g for g in _rows(wb["Round 1"]) if g.get("Board")]
    wb.close()
    acked = [s for s in tally.sent.values() if s.acked_at]
    states = Counter(s.state or "never decided" for s in acked)
    lost = [
        s for s in acked if s.state not in FINAL or (s.state == "written" and in_log[s.id] != 1)
    ]
    doubled = [i for i, n in in_log.items() if n > 1]
    stray = [s for s in acked if s.state != "written" and in_log[s.id]]
    # Each subject (a member registered, a player checked in, a board's result) is written
    # once, and every other entry about it is refused: told what stands.
    subjects: defaultdict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for s in acked:
        if s.state in ("written", "refused"):
            subject = s.params.get("aga") or s.params.get("player") or s.params.get("board", "")
            subjects[(s.kind, subject)][s.state] += 1
    unsettled = {k: dict(v) for k, v in subjects.items() if v["written"] != 1}
    told = sum(v["refused"] for v in subjects.values())
    statuses = Counter(str(p.get("Status")) for p in players)
    numbers = Counter(p.get("AGA #") for p in players)
    results = sum(1 for g in games if g.get("Result"))
    check_code, _, check_err = addin("check", book)
    written = [s.decided_at - s.acked_at for s in acked if s.decided_at]

    print(
        f"Stations at a {args.field + args.players}-player event (real TDListA), "
        f"{args.stations} registration and {args.results} results stations, "
        f"{args.phones} phones{', the server killed at random' if args.kill else ''}"
    )
    print(f"setup (new, import-tdlista, preregister, bands, pair, publish): {setup:.0f} s")
    print(
        f"entries acknowledged: {len(acked)} ({dict(Counter(s.kind for s in acked))}); "
        f"sent twice with the same id: {tally.resent}; requests sent again after a failed "
        f"connection: {tally.retries}"
    )
    print(f"outcomes: {dict(states)}")
    print(f"{'time':<34}{'count':>7}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}")
    rows = [("acknowledgement (POST, on disk)", tally.times["acknowledgement"]),
            ("written (acknowledged -> outcome)", written),
            ("look-up page", tally.times["look-up"]),
            ("phone poll", tally.times["phone poll"])]  # fmt: skip
    for name, ts in rows:
        if ts:
            print(f"{name:<34}{len(ts):>7}{statistics.median(ts) * 1000:>10.0f}"
                  f"{percentile(ts, 95) * 1000:>10.0f}{max(ts) * 1000:>10.0f}")  # fmt: skip
    decided = sum(1 for s in acked if s.decided_at)
    print(
        f"stations sent for {sent_for:.0f} s; the writer was done {finished:.0f} s after the "
        f"first entry: {decided / finished:.1f} outcomes a second"
    )
    print(f"server killed (kill -9, writer too): {kills}; TD's standings: {Counter(td_log)}")
    print(
        f"players: {len(players)} ({dict(statuses)}), each AGA # once: "
        f"{max(numbers.values()) == 1}; round 1 results: {results} of {len(games)}"
    )
    print(
        f"lost: {len(lost)}, doubled: {len(doubled)}, in the Log but not written: {len(stray)}; "
        f"collisions: {told} entries told what stands, subjects not written exactly once: "
        f"{len(unsettled)}"
    )
    for s in (lost + stray)[:5]:
        print(f"  {s.station} {s.kind} {s.params}: {s.state}")
    print(f"check afterwards: exit {check_code}" + (f" ({check_err[:300]})" if check_code else ""))
    print(f"failed requests: {len(tally.failures)}", *tally.failures[:5], sep="\n  ")
    p95 = percentile(tally.times["acknowledgement"], 95) * 1000
    sound = (not lost and not doubled and not stray and not unsettled and check_code == 0
             and not tally.failures and max(numbers.values()) == 1
             and bool(acked) and not CRASHED)  # fmt: skip
    if CRASHED or not acked:
        print(f"not sound: {len(CRASHED)} thread(s) stopped by an exception, "
              f"{len(acked)} entries acknowledged")  # fmt: skip
    if p95 > args.p95_ms:
        print(f"acknowledgement p95 {p95:.0f} ms is over {args.p95_ms:g} ms")
    return 0 if sound and p95 <= args.p95_ms else 1


def _rows(sheet: Any) -> list[dict[str, object]]:
    rows = sheet.iter_rows(values_only=True)
    header = next(rows)
    return [dict(zip(header, r, strict=False)) for r in rows if any(v is not None for v in r)]


if __name__ == "__main__":
    sys.exit(main())
