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

from addin import store
from addin.actions.change import ActionError, Change, Draft, Snapshot
from addin.actions.registry import Action
from addin.core.european import McMahonRules
from addin.core.ghost import ghost_games
from addin.core.member import Member
from addin.core.model import Player, PlayerId, Result, Tournament
from addin.core.scoring import score_history
from addin.formats.tdlista import parse_tdlista
from addin.workbook import book, settings_table
from addin.workbook.book import read_log
from addin.workbook.layout import Section
from addin.workbook.round_results import record_results

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
    failures: list[str] = field(default_factory=list)
    """One line per output that could not be written (the others and the workbook were)."""
    european: list[str] = field(default_factory=list)
    """With --rules bga|egf: what the European options did (supergroup, ghost games, ...)."""

    def lines(self) -> list[str]:
        per_round = ", ".join(f"{s:.1f}" for s in self.seconds_per_round)
        return [
            f"Demo tournament: {self.players} players, {self.rounds} rounds -> {self.workbook}",
            f"Seconds per round (pair + play + standings): {per_round}",
            f"Pairing quality: total error (Vuorinen 2010, eq. 7.1) {self.total_error:.4f}; "
            f"sum of squared McMahon differences {self.mms_squared:g}",
            *self.european,
            "Files: " + ", ".join(str(f) for f in self.files),
        ]

    def failure(self) -> str:
        """The one line for a demo whose outputs did not all get written ("" when all did)."""
        if not self.failures:
            return ""
        return f"{self.workbook} and the files listed were written, but not " + "; ".join(
            self.failures
        )


def _rating(p: Player) -> float:
    return p.rating if p.rating is not None else 0.0


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


@dataclass(frozen=True)
class Play:
    """The parameters of a round's simulated play: who wins each game."""

    round: int
    decide: Callable[[int, int, int], Result]


def play(snapshot: Snapshot, params: Play) -> Change:
    """The round's results, as the boards would report them (simulated)."""
    draft = Draft(snapshot)
    record_results(draft, params.round, params.decide)
    draft.done(f"Played round {params.round} (simulated results)")
    return draft.change


@dataclass(frozen=True)
class Ghost:
    player: PlayerId


def name_ghost(snapshot: Snapshot, params: Ghost) -> Change:
    """The ghost player's AGA # in the Tournament sheet (BGA/EGF: no byes)."""
    draft = Draft(snapshot)
    t = book.read_book(draft).tournament
    values = book.settings_values(t.settings) | {"ghost_player": params.player}
    settings_table.write_settings(draft, values)
    draft.done(f"The ghost player is {t.players[params.player].name}")
    return draft.change


PLAY = Action(
    "play",
    "Play a round",
    "the demo's simulated results",
    play,
    Play,
    frozenset({Section.ROUNDS}),
    frozenset({Section.ROUNDS}),
    button=False,
)
GHOST = Action(
    "ghost",
    "Name the ghost player",
    "the demo's ghost player",
    name_ghost,
    Ghost,
    frozenset({Section.SETTINGS, Section.PLAYERS, Section.BANDS, Section.REQUESTS, Section.ROUNDS}),
    frozenset({Section.SETTINGS}),
    button=False,
)
"""The demo's own steps: not TD actions (no command, no button), run through the store."""


class Demo:
    def __init__(
        self,
        out: Path,
        players: int,
        rounds: int,
        seed: int,
        progress: Callable[[str, float], None],
        rules: str = "aga",
    ) -> None:
        self.out, self.n, self.rounds, self.seed = out, players, rounds, seed
        self.rules = rules
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
        self.book = store.HeldBook(store.new_workbook(out, values), out.name)
        self.summary = Summary(out, players, rounds)

    def act(self, action: str | Action, *, force: bool = False, **params: object) -> None:
        """Run an action through the store, accepting its warnings; its refusal stops the
        demo (``ActionError``)."""
        self.book.force = force
        runs = [params["given"]] if "given" in params else [params]
        done = store.run(action, runs, self.book, store.Answering(), warnings_accepted=True)
        self.book.force = False
        if done.status == "failed" and done.error is not None:
            raise done.error
        if done.status != "done":
            raise ActionError("; ".join(done.messages or done.warnings))

    def tournament(self) -> Tournament:
        return book.read_book(self.book.storage).tournament

    def run(self) -> Summary:
        if self.rules != "aga":  # the TD picks the preset and clicks McMahon rules
            self.act("rules", preset=McMahonRules(self.rules.upper()).value)
        self.progress("importing the TDListA", 0.02)
        members = self.import_list()
        self.progress("registering players", 0.06)
        self.register(members)
        if self.rules != "aga":
            self.name_ghost()
        self.act("bands")
        for number in range(1, self.rounds + 1):
            started = time.perf_counter()
            self.progress(f"round {number}: pairing", 0.1 + 0.8 * (number - 1) / self.rounds)
            self.act("pair")
            self.play(number)
            self.act("standings")
            self.summary.seconds_per_round.append(time.perf_counter() - started)
            self.between_rounds(number)
        t = self.tournament()
        self.summary.total_error = total_error(t, self.strength)
        self.summary.mms_squared = mms_squared_differences(t)
        if self.rules != "aga":
            self.summary.european = self.european_lines(t)
        # The tournament is saved before the reports: a report that fails cannot take the
        # rounds played with it. The second save adds the reports' Log lines: a journal
        # entry of its own.
        self.progress("saving", 0.9)
        store.save_held(self.book.storage, self.out, "demo", self.arguments(), door="demo")
        self.progress("writing reports", 0.92)
        self.write_outputs()
        self.progress("saving", 0.98)
        outputs = {"outputs": ", ".join(f.name for f in self.summary.files)}
        store.save_held(self.book.storage, self.out, "demo", outputs, door="demo")
        self.progress("done", 1.0)
        return self.summary

    def arguments(self) -> dict[str, object]:
        return {"players": self.n, "rounds": self.rounds, "seed": self.seed, "rules": self.rules}

    def european_lines(self, t: Tournament) -> list[str]:
        """What the preset's options did, from the Log and the rounds."""
        log = [message for _, message in read_log(self.book.storage)]
        lines = [f"Rules: {t.settings.mcmahon_rules.value} preset"]
        lines += list(dict.fromkeys(m for m in log if m.startswith("Supergroup")))
        by_sos = sum("EGF: seeded by SOS" in g.notes for r in t.rounds for g in r.games)
        if by_sos:
            lines.append(f"Floats seeded by SOS (BGA 6.1.2): {by_sos} games across score groups")
        ghosts = ghost_games(t)
        if ghosts:
            rounds = ", ".join(str(number) for number, _ in ghosts)
            lines.append(f"No byes: the ghost player played in rounds {rounds} (BGA 7.1)")
        return lines

    def name_ghost(self) -> None:
        """BGA/EGF: no byes (spec 7.1). A member a tenth of the way up the field is the
        ghost, who plays only when the field is odd: the bye would go to the lowest group."""
        t = self.tournament()
        members = sorted((p for p in t.players.values() if p.aga_id < 90000), key=_rating)
        self.act(GHOST, given=Ghost(members[len(members) // 10].aga_id))

    def import_list(self) -> list[Member]:
        name, data = sample_tdlista()
        path = self.out.with_name(name)
        path.write_bytes(data)
        self.summary.files.append(path)
        self.act("import-tdlista", tdlista=path)
        members = parse_tdlista(path.read_bytes()).members
        return [m for m in members if m.rating is not None]

    def register(self, members: list[Member]) -> None:
        current = [m for m in members if m.expiry and m.expiry >= START]
        lapsed = [m for m in members if not (m.expiry and m.expiry >= START)]
        lapsed = lapsed[: max(1, self.n // 50)]
        new = max(1, self.n // 20)
        wanted = min(len(current), self.n - new - len(lapsed))
        if self.rules == "egf":  # a European open's strong top: a sixth at 4d and up
            strong = [m for m in current if (m.rating or 0) >= 4.0]
            top = self.rng.sample(strong, min(len(strong), wanted // 6))
            rest = [m for m in current if m not in top]
            chosen = top + self.rng.sample(rest, wanted - len(top))
        else:
            chosen = self.rng.sample(current, wanted)
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
        self.act("preregister", csv=csv_path)
        t = self.tournament()
        for pid, p in t.players.items():
            if pid not in self.strength:
                self.strength[pid] = float(p.rating or -20) + self.rng.gauss(0, 1.5)
        volunteer = min(t.players.values(), key=lambda p: p.rating or 0)
        self.act("volunteer", player=volunteer.aga_id, round=1)
        self.summary.files.append(csv_path)

    def play(self, number: int) -> None:
        def decide(white: int, black: int, stones: int) -> Result:
            p = win_probability(self.strength[white], self.strength[black], stones)
            return Result.WHITE_WINS if self.rng.random() < p else Result.BLACK_WINS

        self.act(PLAY, given=Play(number, decide))

    def between_rounds(self, number: int) -> None:
        if number == 1 and self.rounds > 1:
            self.act("register", name="Latecomer, Lee", rank="30k", aga=None)
            t = self.tournament()
            late = max(pid for pid in t.players if t.players[pid].family_name == "Latecomer")
            self.strength[late] = -30.0 + self.rng.gauss(0, 1.5)
            self.act("bands")
        if number == 2 and self.rounds > 2:
            t = self.tournament()
            leaving = self.rng.choice(sorted(t.players))
            self.act("drop", player=leaving)

    def output(
        self, what: str, path: Path, action: str, /, force: bool = False, **params: object
    ) -> None:
        """Write one output; a failure is named in the summary and the rest go on (the Log
        says so too)."""
        try:
            self.act(action, force=force, **params)
        except (ActionError, OSError, ValueError) as err:
            self.summary.failures.append(f"{what} ({path}): {err}")
            store.note_error(self.book.storage, "demo", f"{what} not written: {err}")
            return
        self.summary.files.append(path)

    def write_outputs(self) -> None:
        last = self.rounds
        stem = self.out.with_suffix("")
        outputs = [
            ("pairings", "board", Path(f"{stem}-pairings.pdf")),
            ("crosstable", "standing", Path(f"{stem}-crosstable.html")),
            ("cards", None, Path(f"{stem}-cards.pdf")),
            ("registration", None, Path(f"{stem}-registration.txt")),
        ]
        for kind, sort, path in outputs:
            self.output(
                f"the {kind} report", path, "report", kind=kind, sort=sort, round=last, out=path
            )
        # The demo keeps its newcomers' temporary numbers and a lapsed member: the export goes
        # on as with --force, and the Log says what the AGA would reject. Each report alone,
        # so that one that fails leaves the other.
        text, xml = Path(f"{stem}-aga.txt"), Path(f"{stem}-aga.xml")
        self.output("the AGA text report", text, "export-aga", True, text=text)
        self.output("the AGA XML report", xml, "export-aga", True, xml=xml)


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
    rules: str = "aga",
) -> Summary:
    return Demo(out, players, rounds, seed, progress or text_progress(), rules).run()
