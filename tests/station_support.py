"""An event with stations, as the tests and the benchmark run it: a real workbook holding the
real 22,410-member TDListA, a real server on the loopback with its writer process, and
stations that sign in and send forms as a browser without JavaScript does."""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import re
import shutil
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from addin.core.member import Member
from addin.formats.tdlista import parse_tdlista
from addin.publish.serve import SiteServer, open_server
from addin.station.desk import StationDesk
from addin.station.entries import stations_folder
from tests.helpers import TDLISTA_SNAPSHOT, run
from tests.typing_helpers import set_setting

MEMBERS = parse_tdlista(TDLISTA_SNAPSHOT.read_bytes()).members


def rated_members(count: int, skip: int = 0, *, current: bool = False) -> list[Member]:
    """Members of the real list with a rating and a plain name (derived, never typed)."""
    found = [
        m
        for m in MEMBERS
        if m.rating is not None
        and m.given_name
        and m.family_name.isascii()
        and "," not in m.given_name
        and (not current or (m.expiry is not None and m.expiry.year >= 2027))
    ]
    return found[skip : skip + count]


def lapsed_member() -> Member:
    """A member of the real list whose membership lapsed years before the event (registering
    them asks the desk first)."""
    return next(
        m
        for m in MEMBERS
        if m.rating is not None
        and m.given_name
        and m.family_name.isascii()
        and m.expiry is not None
        and m.expiry.year < 2020
    )


def preregistration_csv(path: Path, members: list[Member]) -> Path:
    lines = ["Name,AGA #,Rank"]
    lines += [f'"{m.family_name}, {m.given_name}",{m.aga_id},{_rank(m)}' for m in members]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _rank(m: Member) -> str:
    assert m.rating is not None
    return f"{int(m.rating)}d" if m.rating > 0 else f"{int(-m.rating)}k"


def ok(*args: object) -> str:
    done = run(*args)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


def listed_event(folder: Path, name: str = "Station Open") -> Path:
    """A new event with the whole TDListA imported and Check-in set to Yes."""
    book = folder / "event.xlsx"
    ok("new", book, "--name", name, "--start", "2026-11-28", "--rounds", "4")
    ok("import-tdlista", book, TDLISTA_SNAPSHOT)
    set_setting(book, "Check-in", "Yes")
    return book


def event_in_play(folder: Path, playing: list[Member], waiting: list[Member]) -> Path:
    """Round 1 paired for ``playing`` (checked in); ``waiting`` pre-registered, Not arrived."""
    book = listed_event(folder)
    ok("preregister", book, preregistration_csv(folder / "pre.csv", playing + waiting), "--yes")
    for m in playing:
        ok("checkin", book, "--player", m.aga_id)
    ok("bands", book, "--yes")
    ok("pair", book, "--yes")
    ok("publish", book)
    return book


def copied(book: Path, folder: Path) -> Path:
    """The event copied (its site and journal too) into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for part in book.parent.iterdir():
        if part.name.startswith(book.stem):
            target = folder / part.name
            if part.is_dir():
                shutil.copytree(part, target)
            else:
                shutil.copy2(part, target)
    return folder / book.name


@dataclass
class Served:
    book: Path
    server: SiteServer
    desk: StationDesk

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"


@contextlib.contextmanager
def serving(book: Path, *, writer: bool = True) -> Iterator[Served]:
    """``serve`` on the loopback, in this process, with its writer (a process of its own)."""
    desk = StationDesk(book)
    site = book.with_name(f"{book.stem}-site")
    server = open_server(site, 0, "127.0.0.1", book.with_name(f"{book.stem}.phones"), desk)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    if writer:
        desk.start()
    try:
        yield Served(book, server, desk)
    finally:
        server.shutdown()
        server.server_close()
        desk.stop()


class Station:
    """A station's browser without JavaScript: a cookie jar, forms sent as forms."""

    def __init__(self, url: str, name: str) -> None:
        self.url, self.name = url, name
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.page = ""

    def get(self, path: str) -> tuple[int, str]:
        try:
            with self.opener.open(self.url + path, timeout=30) as r:
                self.page = r.read().decode("utf-8")
                return r.status, self.page
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode("utf-8")

    def post(
        self, path: str, fields: dict[str, object], origin: str | None = None
    ) -> tuple[int, str]:
        body = urllib.parse.urlencode({k: str(v) for k, v in fields.items()}).encode()
        headers = {"Origin": origin or self.url}
        request = urllib.request.Request(self.url + path, data=body, headers=headers)
        try:
            with self.opener.open(request, timeout=30) as r:
                self.page = r.read().decode("utf-8")
                return r.status, r.geturl()
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode("utf-8")

    def sign_in(self, key: str) -> None:
        status, where = self.post("/station/login", {"key": key, "station": self.name})
        assert status == 200 and where.endswith("/station/"), (status, where)

    def csrf(self) -> str:
        if 'name="csrf"' not in self.page:
            self.get("/station/")
        found = re.search(r'name="csrf" value="([^"]+)"', self.page)
        assert found is not None, self.page[:500]
        return found.group(1)

    def send(self, action: str, entry: str | None = None, **params: object) -> str:
        """Send an entry as the page's form does; its id."""
        from addin.station.entries import new_id

        entry = entry or new_id()
        fields = {"csrf": self.csrf(), "id": entry, "action": action, **params}
        status, where = self.post("/station/entry", fields)
        assert status == 200 and f"entry={entry}" in where, (status, where)
        return entry

    def state(self, entry: str) -> dict[str, str]:
        status, text = self.get(f"/station/api/state?entry={entry}")
        assert status == 200, text
        return dict(json.loads(text))

    def settled(self, entry: str, timeout: float = 120) -> dict[str, str]:
        """The entry's state once it is no longer waiting."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.state(entry)
            if state["state"] != "waiting" or time.monotonic() > deadline:
                return state
            time.sleep(0.1)

    def answer(self, entry: str, yes: bool) -> str:
        from addin.station.entries import new_id

        answer_id = new_id()
        fields = {
            "csrf": self.csrf(),
            "entry": entry,
            "id": answer_id,
            "answer": "yes" if yes else "no",
        }
        status, _ = self.post("/station/answer", fields)
        assert status == 200
        return answer_id


def key_of(book: Path) -> str:
    return (stations_folder(book) / "key").read_text(encoding="ascii").strip()
