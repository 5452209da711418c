"""A whole tournament in one command, run as a TD would run it.

``python -m addin demo OUT.xlsx [--players 60] [--rounds 5] [--seed 1]`` creates the
workbook, imports a TDListA, registers a field (members, new members, bye requests, a bye
volunteer), builds bands, then for each round pairs it, plays it and updates the standings;
a late arrival joins after round 1 and a player drops after round 2. It ends with the
in-tournament reports and both AGA reports beside the workbook.

Every step is the real action a TD would run (``addin.actions``), on one workbook held in
memory and saved once at the end; warnings are accepted as a TD would and logged.

Results are simulated from each player's *true* strength, which differs from the entry
rating by a random error (sd 0.5 stone for members, 1.5 for new members who state a rank).
The win-probability model: White wins with probability

    P = 1 / (1 + exp(-(s_white - s_black - e)))

where s are true strengths in stones and e is the game's advantage to Black in stones:
handicap N >= 2 gives N - 0.5 (N stones, no komi), a one-stone game 0.5, an even game 0.
A one-stone edge thus wins about 73% of games. Jigo never happens.
"""

from __future__ import annotations

import csv
import io
import math
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from importlib import resources
from pathlib import Path

from addin.actions import aga_reports, bands, director, pairing, registration, reports, standings
from addin.actions.session import Session
from addin.core.model import PlayerId, Result, Tournament
from addin.core.scoring import score_history
from addin.formats.tdlista import Member, parse_tdlista
from addin.workbook import book, template
from addin.workbook.layout import games_table
from addin.workbook.openpyxl_gateway import OpenpyxlGateway

START = date(2018, 9, 1)
"""The sample list is a 2018 snapshot: a tournament then finds most members current."""


@dataclass
class Summary:
    workbook: Path
    players: int
    rounds: int
    seconds_per_round: list[float] = field(default_factory=list)
    total_error: float = 0.0
    mms_squared: float = 0.0
    files: list[Path] = field(default_factory=list)

    def lines(self) -> list[str]:
        per_round = ", ".join(f"{s:.1f}" for s in self.seconds_per_round)
        return [
            f"Demo tournament: {self.players} players, {self.rounds} rounds -> {self.workbook}",
            f"Seconds per round (pair + play + standings): {per_round}",
            f"Pairing quality: total error (Vuorinen 2010, eq. 7.1) {self.total_error:.4f}; "
            f"sum of squared McMahon differences {self.mms_squared:g}",
            "Files: " + ", ".join(str(f) for f in self.files),
        ]


def sample_tdlista() -> tuple[str, bytes]:
    """The shipped sample (2,803 rated members of the 2018 snapshot)."""
    data = resources.files("addin.data").joinpath("tdlista-sample.txt").read_bytes()
    return "tdlista-sample.txt", data


def win_probability(white: float, black: float, handicap: int) -> float:
    edge = 0.0 if handicap == 0 else (0.5 if handicap == 1 else handicap - 0.5)
    return 1.0 / (1.0 + math.exp(-(white - black - edge)))


def total_error(t: Tournament, strength: dict[PlayerId, float]) -> float:
    """Vuorinen's eq. 7.1 with RS(n) the player's place in true strength (0 = weakest)."""
    order = sorted(strength, key=lambda p: strength[p])
    rs = {pid: i for i, pid in enumerate(order)}
    squares = 0.0
    for rnd in t.rounds:
        for g in rnd.games:
            if g.white in rs and g.black in rs:
                squares += 2 * (rs[g.white] - rs[g.black]) ** 2
    n, k = len(rs), len(t.rounds)
    return math.sqrt(squares) / (2 * k * n) if n and k else 0.0


def mms_squared_differences(t: Tournament) -> float:
    history = score_history(t)
    total = 0.0
    for rnd in t.rounds:
        for g in rnd.games:
            before = rnd.number - 1
            total += (history[g.white][before] - history[g.black][before]) ** 2
    return total


class Demo:
    def __init__(
        self,
        out: Path,
        players: int,
        rounds: int,
        seed: int,
        progress: Callable[[str, float], None],
    ) -> None:
        self.out, self.n, self.rounds, self.seed = out, players, rounds, seed
        self.rng = random.Random(seed)
        self.progress = progress
        self.strength: dict[PlayerId, float] = {}
        values = book.default_values() | {
            "name": f"Demo Open {START.year}", "venue": "Seattle Go Center",
            "venue_address": "700 NE 45th St, Seattle, WA 98105",
            "start_date": START, "end_date": START + timedelta(days=1),
            "director_name": "Dana Director", "director_phone": "206-555-0100",
            "director_email": "td@example.org", "basic_time_minutes": 60,
            "overtime_conditions": "5 periods of 30 seconds", "rounds": rounds,
            "seed": seed,
        }  # fmt: skip
        self.gw = OpenpyxlGateway(template.build(values), out, confirm=lambda message: True)
        self.summary = Summary(out, players, rounds)

    def act(
        self,
        name: str,
        fn: Callable[[Session, dict], None],
        /,
        force: bool = False,
        **params: object,
    ) -> Session:
        session = Session(self.gw, name, force=force)
        fn(session, params)
        self.gw.append_log(session.log)
        return session

    def run(self) -> Summary:
        self.progress("importing the TDListA", 0.02)
        members = self.import_list()
        self.progress("registering players", 0.06)
        self.register(members)
        self.act("bands", bands.bands)
        for number in range(1, self.rounds + 1):
            started = time.perf_counter()
            self.progress(f"round {number}: pairing", 0.1 + 0.8 * (number - 1) / self.rounds)
            self.act("pair", pairing.pair)
            self.play(number)
            self.act("standings", standings.update_standings)
            self.summary.seconds_per_round.append(time.perf_counter() - started)
            self.between_rounds(number)
        self.progress("writing reports", 0.92)
        self.write_outputs()
        t = book.read_book(self.gw).tournament
        self.summary.total_error = total_error(t, self.strength)
        self.summary.mms_squared = mms_squared_differences(t)
        self.progress("saving", 0.98)
        self.gw.save()
        self.progress("done", 1.0)
        return self.summary

    def import_list(self) -> list[Member]:
        name, data = sample_tdlista()
        path = self.out.with_name(name)
        path.write_bytes(data)
        self.summary.files.append(path)
        self.act("import-tdlista", registration.import_tdlista, tdlista=path)
        members = parse_tdlista(path.read_bytes()).members
        return [m for m in members if m.rating is not None]

    def register(self, members: list[Member]) -> None:
        current = [m for m in members if m.expiry and m.expiry >= START]
        lapsed = [m for m in members if not (m.expiry and m.expiry >= START)]
        lapsed = lapsed[: max(1, self.n // 50)]
        new = max(1, self.n // 20)
        chosen = self.rng.sample(current, min(len(current), self.n - new - len(lapsed)))
        rows = io.StringIO()
        writer = csv.writer(rows)
        writer.writerow(["Name", "AGA #", "Rank", "Club", "Email", "Bye requests"])
        for m in [*chosen, *lapsed]:
            byes = str(self.rng.randint(1, self.rounds)) if self.rng.random() < 0.05 else ""
            writer.writerow([m.name, m.aga_id, "", "", "", byes])
            self.strength[m.aga_id] = float(m.rating or 0) + self.rng.gauss(0, 0.5)
        for i in range(new):
            rank = f"{self.rng.randint(5, 25)}k"
            writer.writerow([f"Newcomer{i:03d}, Sam", "", rank, "", f"new{i}@example.org", ""])
        csv_path = self.out.with_name(f"{self.out.stem}-preregistration.csv")
        csv_path.write_text(rows.getvalue(), encoding="utf-8")
        self.act("preregister", registration.preregister, csv=csv_path)
        t = book.read_book(self.gw).tournament
        for pid, p in t.players.items():
            if pid not in self.strength:
                self.strength[pid] = float(p.rating or -20) + self.rng.gauss(0, 1.5)
        volunteer = min(t.players.values(), key=lambda p: p.rating or 0)
        self.act("volunteer", director.volunteer, player=volunteer.aga_id, round=1)
        self.summary.files.append(csv_path)

    def play(self, number: int) -> None:
        table = games_table(number)
        data = self.gw.read_table(table)
        for row in data.rows:
            white, black = int(row["white"]), int(row["black"])  # type: ignore[call-overload]
            stones = int(row.get("handicap", 0))  # type: ignore[call-overload]
            p = win_probability(self.strength[white], self.strength[black], stones)
            row.values["result"] = Result.WHITE_WINS if self.rng.random() < p else Result.BLACK_WINS
        self.gw.write_table(table, data.rows)

    def between_rounds(self, number: int) -> None:
        if number == 1 and self.rounds > 1:
            self.act("register", registration.register, name="Latecomer, Lee", rank="30k", aga=None)
            t = book.read_book(self.gw).tournament
            late = max(pid for pid in t.players if t.players[pid].family_name == "Latecomer")
            self.strength[late] = -30.0 + self.rng.gauss(0, 1.5)
            self.act("bands", bands.bands)
        if number == 2 and self.rounds > 2:
            t = book.read_book(self.gw).tournament
            leaving = self.rng.choice(sorted(t.players))
            self.act("drop", director.drop, player=leaving)

    def write_outputs(self) -> None:
        last = self.rounds
        stem = self.out.with_suffix("")
        outputs = [
            ("pairings", "board", f"{stem}-pairings.pdf"),
            ("crosstable", "standing", f"{stem}-crosstable.html"),
            ("cards", None, f"{stem}-cards.pdf"),
            ("registration", None, f"{stem}-registration.txt"),
        ]
        for kind, sort, path in outputs:
            self.act(
                "report",
                reports.report,
                kind=kind,
                sort=sort,
                round=last,
                out=Path(path),
                sheet=False,
            )
            self.summary.files.append(Path(path))
        text, xml = Path(f"{stem}-aga.txt"), Path(f"{stem}-aga.xml")
        # The demo keeps its newcomers' temporary numbers and a lapsed member: the export goes
        # on as with --force, and the Log says what the AGA would reject.
        self.act("export-aga", aga_reports.export_aga, force=True, text=text, xml=xml)
        self.summary.files += [text, xml]


def text_progress(stream: io.TextIOBase | None = None) -> Callable[[str, float], None]:
    out = stream or sys.stderr

    def show(step: str, fraction: float) -> None:
        filled = int(30 * fraction)
        out.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {fraction:4.0%} {step:<28}")
        if fraction >= 1.0:
            out.write("\n")
        out.flush()

    return show


def run_demo(
    out: Path,
    players: int = 60,
    rounds: int = 5,
    seed: int = 1,
    progress: Callable[[str, float], None] | None = None,
) -> Summary:
    return Demo(out, players, rounds, seed, progress or text_progress()).run()
