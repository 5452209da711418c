"""A hall of phones on loopback: ``python benchmarks/bench_phones.py [--seconds 60]``.

A 300-player demo tournament (round 3 paired again, with its result codes) is published and
served by the real ``python -m addin serve --bind 127.0.0.1``. For ``--seconds`` (a minute),
each of ``--phones`` phones opens the pairings and its player's page (two tabs; each with
the style sheet and the script), then asks for each page's own stamp file
(``index.stamp.js``, ``p12345.stamp.js``) and the server's ``report-state.js`` every
``--poll`` seconds as the site's script does, and loads a page again when its stamp changes.
``--reports`` reports (both players of half as many boards) are posted at random moments,
each from an address of its own (127.0.x.y: Linux answers the whole of 127/8), a tenth of
them sent twice: as the site's script sends them (JSON), or with ``--form`` as a phone
without JavaScript does (a plain form POST, answered with a page). ``--one-address`` sends
everything from 127.0.0.1, as a hall behind one NAT address would. Meanwhile the TD runs
``publish``, ``result`` and ``standings`` on the command line.

It prints the requests, the p50/p95/max response times (whole answer read), the reports kept
(each exactly once?), the TD's commands' exit codes and times, and ``check`` on the workbook
afterwards. Loopback only; it stops itself (server ended, threads joined) after the time.
Exit code 1 when a report was lost or kept twice, a request failed, the workbook is not
sound, or the p95 is over ``--p95-ms``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import gzip
import heapq
import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SERVE = ("--bind", "127.0.0.1", "--port", "0", "--loopback")
ADDRESS = re.compile(r"^Serving .+ at http://[\d.]+:(?P<port>\d+)/")


def addin(*args: object, timeout: float = 600) -> tuple[int, float, str]:
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


def source(n: int, one_address: bool = False) -> str:
    """The n-th phone's own loopback address (127.0.0.1 for all, behind one NAT address)."""
    return "127.0.0.1" if one_address else f"127.0.{1 + n // 250}.{1 + n % 250}"


class Hall:
    """The phones' requests, scheduled on a heap and sent by a pool of workers."""

    def __init__(self, port: int, seconds: float, workers: int, one_address: bool) -> None:
        self.port = port
        self.one_address = one_address
        self.deadline = time.monotonic() + seconds
        self.heap: list[tuple[float, int, Callable[[], None]]] = []
        self.order = 0
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = defaultdict(list)
        self.failures: list[str] = []
        self.received = 0
        """Bytes of the answers as sent (gzipped where the server gzips)."""
        self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers)

    def at(self, when: float, job: Callable[[], None]) -> None:
        with self.lock:
            self.order += 1
            heapq.heappush(self.heap, (when, self.order, job))

    def request(
        self,
        kind: str,
        phone: int,
        method: str,
        path: str,
        body: bytes | None = None,
        content_type: str = "application/json",
    ) -> tuple[int, bytes]:
        headers = {"Content-Type": content_type} if body is not None else {}
        headers["Accept-Encoding"] = "gzip"  # as every phone's browser asks
        started = time.monotonic()
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=10, source_address=(source(phone, self.one_address), 0)
        )
        try:
            connection.request(method, path, body, headers)
            answer = connection.getresponse()
            data = answer.read()
            status = answer.status
        except OSError as err:
            with self.lock:
                self.failures.append(f"{kind} {path}: {err}")
            return 0, b""
        finally:
            connection.close()
        with self.lock:
            self.times[kind].append(time.monotonic() - started)
            self.received += len(data)
        if answer.getheader("Content-Encoding") == "gzip":
            data = gzip.decompress(data)
        return status, data

    def run(self) -> None:
        """Send every job when it is due, until the deadline; then wait for the last."""
        pending: set[concurrent.futures.Future[None]] = set()
        while True:
            now = time.monotonic()
            with self.lock:
                due = self.heap[0][0] if self.heap else None
                job = heapq.heappop(self.heap)[2] if due is not None and due <= now else None
            if job is not None:
                pending.add(self.pool.submit(job))
                continue
            if now >= self.deadline:
                break
            time.sleep(min(0.005, max(0.0, (due or now + 0.005) - now)))
            pending = {f for f in pending if not f.done()}
        concurrent.futures.wait(pending, timeout=30)
        self.pool.shutdown(wait=True, cancel_futures=True)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--reports", type=int, default=150)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--poll", type=float, default=10.0, help="the site's refresh period")
    parser.add_argument("--workers", type=int, default=48)
    parser.add_argument("--p95-ms", type=float, default=200.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--form", action="store_true", help="send reports as a plain form, as without JavaScript"
    )
    parser.add_argument(
        "--one-address", action="store_true", help="every phone from one address (a NAT hall)"
    )
    args = parser.parse_args(argv)
    if args.seconds > 600 or args.phones > 5000:
        parser.error("at most 600 seconds and 5,000 phones: it is a benchmark, not a siege")
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        book = Path(folder) / "hall.xlsx"
        for step in (
            ("demo", book, "--players", args.players, "--rounds", 3, "--seed", args.seed),
            ("unpair", book, "--yes"),
            ("pair", book, "--yes"),
            ("publish", book),
        ):
            code, _, err = addin(*step)
            if code != 0:
                print(f"setup failed at {step[0]}: {err}", file=sys.stderr)
                return 1
        desk = json.loads((book.with_name("hall.phones") / "desk.json").read_text())
        boards = desk["boards"]
        players = sorted(int(p.stem[1:]) for p in book.with_name("hall-site").glob("p*.html"))
        server = subprocess.Popen(
            [sys.executable, "-m", "addin", "serve", str(book), *SERVE],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        try:
            port = 0
            assert server.stdout is not None
            for line in server.stdout:
                match = ADDRESS.match(line)
                if match:
                    port = int(match["port"])
                    break
            if not port:
                print(f"serve did not start: {server.stderr.read() if server.stderr else ''}")
                return 1
            return _load(args, rng, port, book, boards, players, server)
        finally:
            if server.poll() is None:
                server.terminate()
                server.wait(timeout=30)


def _load(
    args: argparse.Namespace,
    rng: random.Random,
    port: int,
    book: Path,
    boards: list[dict],
    players: list[int],
    server: subprocess.Popen[str],
) -> int:
    hall = Hall(port, args.seconds, args.workers, args.one_address)
    start = time.monotonic()
    stamps: dict[tuple[int, str], str] = {}
    reloads: list[str] = []

    def open_page(phone: int, page: str) -> None:
        for path in (f"/{page}", "/site.css", "/site.js"):
            hall.request("page", phone, "GET", path)

    def pages_of(phone: int) -> tuple[str, str]:
        return "index.html", f"p{players[phone % len(players)]}.html"

    def phone_job(phone: int) -> Callable[[], None]:
        def job() -> None:
            for page in pages_of(phone):
                own = page.replace(".html", ".stamp.js")
                status, data = hall.request("poll", phone, "GET", f"/{own}?t={time.time()}")
                if status == 200:
                    found = re.search(rb'"([0-9a-f]+)"', data)
                    stamp = found.group(1).decode() if found else ""
                    if stamps.get((phone, page)) not in (None, stamp):
                        open_page(phone, page)
                        with hall.lock:
                            reloads.append(page)
                    stamps[(phone, page)] = stamp
                hall.request("states", phone, "GET", f"/report-state.js?t={time.time()}")
            hall.at(time.monotonic() + args.poll, phone_job(phone))

        return job

    def first_job(phone: int) -> Callable[[], None]:
        def job() -> None:
            for page in pages_of(phone):
                open_page(phone, page)
            phone_job(phone)()

        return job

    for phone in range(args.phones):
        hall.at(start + rng.uniform(0, args.poll), first_job(phone))

    plan: list[tuple[dict, str, str]] = []
    for board in boards[: (args.reports + 1) // 2]:
        result = rng.choice(("white", "black"))
        plan += [(board, "white", result), (board, "black", result)]
    plan = plan[: args.reports]
    answers: list[tuple[int, str]] = []

    def report_job(n: int, board: dict, side: str, result: str) -> Callable[[], None]:
        fields = {"round": "3", "board": str(board["board"]), "code": board["code"]}
        fields |= {"side": side, "result": result}
        if args.form:  # a phone without JavaScript: the form as the browser sends it
            body = urllib.parse.urlencode(fields).encode()
            kind = "application/x-www-form-urlencoded"
        else:
            body, kind = json.dumps(fields).encode(), "application/json"

        def job() -> None:
            status, data = hall.request("report", 1000 + n, "POST", "/report", body, kind)
            if args.form:
                found = re.search(rb'data-state="(\w+)"', data)
                state = found.group(1).decode() if found else ""
            else:
                state = json.loads(data).get("state", "") if data else ""
            with hall.lock:
                answers.append((status, state))

        return job

    window = args.seconds * 0.8
    for n, (board, side, result) in enumerate(plan):
        when = start + rng.uniform(1, window)
        hall.at(when, report_job(n, board, side, result))
        if n % 10 == 0:  # a phone sending the same report again (a double tap, a retry)
            hall.at(when + rng.uniform(0.5, 3), report_job(n, board, side, result))

    td: list[tuple[str, int, float, str]] = []
    last = boards[-1]["board"]

    def td_desk() -> None:
        for at, step in (
            (0.3, ("publish", book)),
            (0.5, ("result", book, "--board", last, "--result", "W")),
            (0.6, ("standings", book)),
            (0.7, ("publish", book)),
        ):
            time.sleep(max(0.0, start + at * args.seconds - time.monotonic()))
            code, seconds, err = addin(*step)
            td.append((step[0], code, seconds, err))

    desk_thread = threading.Thread(target=td_desk)
    desk_thread.start()
    hall.run()
    desk_thread.join(timeout=600)

    kept = json.loads((book.with_name("hall.phones") / "reports.json").read_text())["reports"]
    keys = [(r["board"], r["side"]) for r in kept]
    expected = {(b["board"], s) for b, s, _ in plan}
    exactly_once = len(keys) == len(set(keys)) and set(keys) == expected
    check_code, _, check_err = addin("check", book)
    accept_code, _, accept_err = addin("accept-results", book, "--yes")

    everything = [t for ts in hall.times.values() for t in ts]
    how = "plain form POSTs (no JavaScript)" if args.form else "JSON (the site's script)"
    where = "all from one address" if args.one_address else "each phone from its own address"
    print(
        f"{args.phones} phones, {len(plan)} reports as {how}, {where}, {args.seconds:g} s, "
        f"poll {args.poll:g} s"
    )
    print(f"{'requests':<10}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}")
    for kind in ("page", "poll", "states", "report", "all"):
        ts = everything if kind == "all" else hall.times.get(kind, [])
        if ts:
            print(
                f"{kind:<10}{len(ts):>7}{statistics.median(ts) * 1000:>9.1f}"
                f"{percentile(ts, 95) * 1000:>9.1f}{max(ts) * 1000:>9.1f}"
            )
    states: defaultdict[str, int] = defaultdict(int)
    for status, state in answers:
        states[f"{status} {state}"] += 1
    print("report answers:", dict(sorted(states.items())))
    print(f"bytes sent to the phones: {hall.received / 1e6:.1f} MB")
    again: defaultdict[str, int] = defaultdict(int)
    for page in reloads:
        again["pairings" if page == "index.html" else "player pages"] += 1
    print(f"pages loaded again after a publication: {dict(sorted(again.items()))}")
    print(f"reports kept: {len(kept)} of {len(plan)}, each exactly once: {exactly_once}")
    for name, code, seconds, err in td:
        print(f"TD: {name:<10} exit {code}  {seconds:.1f} s" + (f"  ({err})" if code else ""))
    print(f"check afterwards: exit {check_code}" + (f" ({check_err})" if check_code else ""))
    print(f"accept-results afterwards: exit {accept_code}")
    print(f"failed requests: {len(hall.failures)}", *hall.failures[:5], sep="\n  ")
    p95 = percentile(everything, 95) * 1000 if everything else float("inf")
    answered = all(status == 200 for status, _ in answers) and len(answers) == len(plan) + len(
        range(0, len(plan), 10)
    )
    print(f"every report answered 200: {answered}")
    sound = (
        exactly_once
        and answered
        and not hall.failures
        and check_code == 0
        and accept_code == 0
        and all(code == 0 for _, code, _, _ in td)
        and server.poll() is None
    )
    if accept_err and accept_code:
        print(accept_err)
    if p95 > args.p95_ms:
        print(f"p95 {p95:.0f} ms is over {args.p95_ms:g} ms")
    return 0 if sound and p95 <= args.p95_ms else 1


if __name__ == "__main__":
    sys.exit(main())
