"""Test helper: EGF tournament tables (".h9") read independently, and two of them compared.

``read_h9`` reads a table the way the EGD's format describes it, with nothing from the
program's writer: a line a player, ``;`` starting a comment, the entries the last tokens of
each line (their number is the same for every player), ``|PIN`` at the end. Tied players may
have no place (OpenGotha leaves it blank): a line's number is its position.

``compare`` holds our table against OpenGotha's for the same event, player by player (by
name: line numbers differ where the order does), and sorts every difference into a reason
it can name (``REASONS``) or ``UNEXPLAINED``. The reasons come from the two programs' rules,
each written in docs/opengotha.md ("The EGD's table beside OpenGotha's"); what they explain
is checked from the tables and from our own record of each round (``our_record``), never
assumed. ``build_event`` makes the workbook of each event compared.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import openpyxl

from addin.core.european import Sleeping
from addin.core.scoring import player_records
from addin.formats.egd_h9 import name_part
from addin.workbook.book import read_book
from addin.workbook.openpyxl_gateway import OpenpyxlGateway
from tests.helpers import Finished, run

ENTRY = re.compile(r"(\d+)([-+=?])(?:[/!]([wb?])(\d*))?", re.IGNORECASE)
GRADE = re.compile(r"\d{1,2}[kdp]", re.IGNORECASE)
HEADER = re.compile(r";\s*([A-Z]{2})\[([^\]]*)\]")
NAME_WIDTH = 30
"""OpenGotha's name column: it cuts a longer name."""


@dataclass(frozen=True)
class Entry:
    opponent: int
    """The opponent's line; 0 for a free round."""
    result: str
    colour: str = ""
    handicap: int | None = None

    @property
    def free(self) -> bool:
        return self.opponent == 0


@dataclass(frozen=True)
class Line:
    number: int
    place: int
    """The printed place, or the line above's when blank (a tie)."""
    family: str
    given: str
    grade: str
    country: str
    club: str
    scores: tuple[str, ...]
    entries: tuple[Entry, ...]
    pin: str = ""

    @property
    def key(self) -> str:
        return name_key(self.family, self.given)


@dataclass(frozen=True)
class H9:
    header: dict[str, str]
    lines: tuple[Line, ...]

    def by_key(self) -> dict[str, Line]:
        return {line.key: line for line in self.lines}


def name_key(family: str, given: str) -> str:
    """A player's identity across the two tables: letters only, no accents, any case (a
    missing given name is OpenGotha's ``-``)."""
    given = "" if given == "-" else given
    text = unicodedata.normalize("NFD", f"{family}{given}")
    return "".join(c for c in text if c.isalnum()).casefold()


def read_h9(data: bytes, encoding: str = "iso-8859-15") -> H9:
    text = data.decode(encoding)
    header: dict[str, str] = {}
    rows: list[tuple[bool, list[str], str]] = []
    for raw in text.splitlines():
        for m in HEADER.finditer(raw):
            header.setdefault(m.group(1), m.group(2))
        body = raw.split(";", 1)[0]
        if not body.strip():
            continue
        pin = ""
        if "|" in body:
            body, pin = body.split("|", 1)
        tokens = body.split()
        rows.append((tokens[0].isdigit(), tokens, pin.strip()))
    rounds = min(_trailing_entries(tokens) for _, tokens, _ in rows) if rows else 0
    lines = []
    place = 0
    for number, (placed, tokens, pin) in enumerate(rows, start=1):
        if placed:
            place = int(tokens[0])
            tokens = tokens[1:]
        grade_at = next(i for i, t in enumerate(tokens) if GRADE.fullmatch(t))
        names = tokens[:grade_at]
        country, club = tokens[grade_at + 1], tokens[grade_at + 2]
        scores = tuple(tokens[grade_at + 3 : len(tokens) - rounds])
        entries = tuple(_entry(t) for t in tokens[len(tokens) - rounds :])
        lines.append(
            Line(
                number,
                place,
                names[0],
                "_".join(names[1:]),
                tokens[grade_at].lower(),
                country,
                club,
                scores,
                entries,
                pin,
            )
        )
    return H9(header, tuple(lines))


def _trailing_entries(tokens: Sequence[str]) -> int:
    n = 0
    for token in reversed(tokens):
        if not ENTRY.fullmatch(token):
            break
        n += 1
    return n


def _entry(token: str) -> Entry:
    m = ENTRY.fullmatch(token)
    assert m is not None, token
    handicap = int(m.group(4)) if m.group(4) else (0 if m.group(3) else None)
    return Entry(int(m.group(1)), m.group(2), (m.group(3) or "").lower(), handicap)


# --------------------------------------------------------------------------- comparing

UNEXPLAINED = "unexplained"
REASONS = {
    "name cut": "a name longer than 30 characters: OpenGotha cuts it there, ours is whole",
    "pro grade": "a professional grade: OpenGotha has none above 9d (1p-3p read as 7d)",
    "tie kept": "players OpenGotha leaves tied (it has no random draw, and face to face "
    "breaks no tie there that it does here) are ordered by our Tiebreak order",
    "tiebreak": "the same score, ordered by a tiebreak the two compute differently (SOS and "
    "SODOS under the AGA's phantom rules; OpenGotha's SOSM counts a missed round otherwise)",
    "sleeping": "a round missed with Sleeping players on: OpenGotha's table writes its "
    "absence value (½ a round, 0=) and counts it in its score; ours gives the standings' "
    "nothing (0-)",
    "forfeit": "a game won or lost by forfeit: OpenGotha drops it as 0= (its Publish window's "
    "'No' to keeping results by default); ours writes the point the standings give, 0+ or 0-",
    "double forfeit": "a double forfeit: OpenGotha writes a game both lost; ours a free "
    "round for both (0-), the game was not played",
    "unplayed round": "a round of the event not paired yet: OpenGotha writes every round of "
    "its Number of rounds, ours the rounds paired",
}
"""Why OpenGotha's table and ours may differ, by the name ``compare`` gives each."""


@dataclass
class Comparison:
    """What matched and why the rest differs, field by field."""

    name: str
    players: int = 0
    only_ours: list[str] = field(default_factory=list)
    only_theirs: list[str] = field(default_factory=list)
    equal: Counter[str] = field(default_factory=Counter)
    """Matching values by field: grade, place, entry, header."""
    differences: dict[str, Counter[str]] = field(default_factory=dict)
    """By field, how many differ for each reason."""
    unexplained: list[str] = field(default_factory=list)

    def differ(self, what: str, reason: str, detail: str) -> None:
        self.differences.setdefault(what, Counter())[reason] += 1
        if reason == UNEXPLAINED:
            self.unexplained.append(f"{what}: {detail}")


Outcomes = Mapping[str, Sequence[str]]
"""By name key, what each round was for the player in our record (``Outcome`` names:
WIN, FORFEIT_WIN, VOLUNTARY_BYE...)."""


def compare(name: str, ours: H9, theirs: H9, outcomes: Outcomes, sleeping: bool) -> Comparison:
    """Our table against OpenGotha's for one event; ``sleeping``: the event's Sleeping
    players option gives a missed round points for the pairing (OpenGotha's absence value)."""
    c = Comparison(name)
    mine, other = ours.by_key(), _cut_names(c, ours.by_key(), theirs.by_key())
    c.only_ours = sorted(set(mine) - set(other))
    c.only_theirs = sorted(set(other) - set(mine))
    both = [k for k in mine if k in other]
    c.players = len(both)
    _headers(c, ours, theirs)
    by_line = {id(line): key for key, line in other.items()}
    keys = ([x.key for x in ours.lines], [by_line.get(id(x), x.key) for x in theirs.lines])
    sleepers = set()
    for key in both:
        if _entries(c, key, mine[key], other[key], keys, outcomes.get(key, ()), sleeping):
            sleepers.add(key)
        a, b = mine[key].grade, other[key].grade
        if a == b:
            c.equal["grade"] += 1
        elif a.endswith("p") and b in ("7d", "8d", "9d"):
            c.differ("grade", "pro grade", f"{key} {a} / {b}")
        else:
            c.differ("grade", UNEXPLAINED, f"{key} {a} / {b}")
    _places(c, both, mine, other, sleepers)
    return c


def _cut_names(c: Comparison, mine: Mapping[str, Line], other: dict[str, Line]) -> dict[str, Line]:
    """OpenGotha's lines by our name keys: a name it cut at its 30 characters is the one
    ours begins with (when only one does)."""
    keyed = {}
    for key, line in other.items():
        if key not in mine:
            longer = [k for k in mine if k.startswith(key) and k not in other]
            if len(longer) == 1 and len(f"{line.family} {line.given}") >= NAME_WIDTH:
                c.differ("name", "name cut", f"{longer[0]} / {key}")
                key = longer[0]
        keyed[key] = line
    return keyed


def _headers(c: Comparison, ours: H9, theirs: H9) -> None:
    for key in ("CL", "EV", "DT", "KM", "TM", "HA"):
        a, b = ours.header.get(key), theirs.header.get(key)
        if a == b:
            c.equal["header"] += 1
        elif key == "HA" and a == "h0" and b is None:
            c.equal["header"] += 1  # OpenGotha leaves out HA[h0], full handicap
        else:
            c.differ("header", UNEXPLAINED, f"{key} {a!r} / {b!r}")


def _entries(
    c: Comparison,
    key: str,
    a_line: Line,
    b_line: Line,
    keys: tuple[Sequence[str], Sequence[str]],
    outcomes: Sequence[str],
    sleeping: bool,
) -> bool:
    """Compare one player's rounds (opponents by the name keys of each table's lines); True
    when a round differs because they slept."""
    slept = False
    keys_a, keys_b = keys
    if len(a_line.entries) > len(b_line.entries):
        c.differ("entry", UNEXPLAINED, f"{key}: more rounds in ours")
    for r, b in enumerate(b_line.entries, start=1):
        if r > len(a_line.entries):
            if b.free and b.result in "-=":
                c.differ("entry", "unplayed round", f"{key} round {r}")
                slept |= sleeping and b.result == "="  # OpenGotha's score counts it
            else:
                c.differ("entry", UNEXPLAINED, f"{key} round {r}: none / {b}")
            continue
        a = a_line.entries[r - 1]
        same = (a.free and b.free and a.result == b.result) or (
            not a.free
            and not b.free
            and keys_a[a.opponent - 1] == keys_b[b.opponent - 1]
            and (a.result, a.colour, a.handicap) == (b.result, b.colour, b.handicap)
        )
        if same:
            c.equal["entry"] += 1
            continue
        outcome = outcomes[r - 1] if r <= len(outcomes) else ""
        reason = _entry_reason(outcome, a, b, sleeping)
        slept |= reason == "sleeping"
        c.differ("entry", reason, f"{key} round {r}: {a} / {b} ({outcome})")
    return slept


def _entry_reason(outcome: str, a: Entry, b: Entry, sleeping: bool) -> str:
    if outcome in ("FORFEIT_WIN", "FORFEIT_LOSS") and a.free and b.free and b.result == "=":
        return "forfeit"
    if outcome == "DOUBLE_FORFEIT" and a.free and a.result == "-" and b.result == "-":
        return "double forfeit"
    if outcome == "VOLUNTARY_BYE" and sleeping and a.free and b.free and b.result == "=":
        return "sleeping"
    return UNEXPLAINED


def _places(
    c: Comparison,
    both: Sequence[str],
    mine: Mapping[str, Line],
    other: Mapping[str, Line],
    sleepers: set[str],
) -> None:
    """A place differs for a reason when the scores put the two in the same order (then a
    tiebreak decides), or when a sleeper's score differs (OpenGotha counts the rounds)."""
    score_a = {k: _score(mine[k]) for k in both}
    score_b = {k: _score(other[k]) for k in both}
    place_b = {k: other[k].place for k in both}
    for key in both:
        if mine[key].place == place_b[key]:
            c.equal["place"] += 1
            continue
        disagree = [
            q for q in both if _sign(score_a[key] - score_a[q]) != _sign(score_b[key] - score_b[q])
        ]
        tied_there = sum(1 for q in both if q != key and place_b[q] == place_b[key])
        if not disagree and place_b[key] < mine[key].place <= place_b[key] + tied_there:
            c.differ("place", "tie kept", f"{key} {mine[key].place} / {place_b[key]}=")
        elif not disagree:
            c.differ("place", "tiebreak", f"{key} {mine[key].place} / {place_b[key]}")
        elif all(q in sleepers or key in sleepers for q in disagree):
            c.differ("place", "sleeping", f"{key} {mine[key].place} / {place_b[key]}")
        else:
            c.differ(
                "place", UNEXPLAINED, f"{key} {mine[key].place} / {place_b[key]} vs {disagree}"
            )


def _score(line: Line) -> float:
    text = line.scores[0].replace("½", ".5").rstrip("?")
    return float(text) + (0.5 if line.scores[0].endswith(("½", "?")) else 0.0)


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def markdown_row(c: Comparison) -> str:
    """One row of the docs' table: matches, then the differences by field and reason."""

    def field_cell(what: str) -> str:
        differences = c.differences.get(what, Counter())
        text = f"{c.equal[what]} equal"
        if differences:
            text += "; " + ", ".join(f"{n} {reason}" for reason, n in sorted(differences.items()))
        return text

    players = f"{c.players}"
    if c.only_ours or c.only_theirs:
        players += f" (+{len(c.only_ours)} ours, +{len(c.only_theirs)} OpenGotha's)"
    for reason, n in sorted(c.differences.get("name", Counter()).items()):
        players += f"; {n} {reason}"
    cells = [c.name, players, *(field_cell(w) for w in ("grade", "place", "entry", "header"))]
    return "| " + " | ".join(cells) + " |"


# --------------------------------------------------------------------------- the events

DATA = Path(__file__).resolve().parent / "data"
OPENGOTHA_FILES = sorted((DATA / "opengotha").glob("*.xml"))
KEPT = DATA / "egd"
"""OpenGotha's own tables of the events, as benchmarks/compare_egd.py keeps them."""
DEMO = "demo-egf"
DEMO_RESULTS = "demo-egf-results"
CHANGED_RESULTS = (
    (5, 1, "White wins by forfeit"),
    (5, 2, "Double forfeit"),
    (5, 3, "No result"),
    (5, 4, "Jigo"),
    (4, 5, "Black wins by forfeit"),
)
"""The demo with every kind of result a game can have (the demo plays every game out)."""
EVENTS = (*(p.stem for p in OPENGOTHA_FILES), DEMO, DEMO_RESULTS)


def build_event(name: str, folder: Path) -> Path:
    """The workbook of one event compared: an OpenGotha file of tests/data imported, or the
    demo's EGF event (``demo --rules egf``), as it is or with changed results."""
    book = folder / f"{name}.xlsx"
    if name in (DEMO, DEMO_RESULTS):
        _ok(run("demo", book, "--rules", "egf"))
        if name == DEMO_RESULTS:
            for number, board, result in CHANGED_RESULTS:
                _ok(
                    run(
                        "result",
                        book,
                        "--round",
                        number,
                        "--board",
                        board,
                        "--result",
                        result,
                        "--yes",
                    )
                )
    else:
        _ok(run("new", book))
        _ok(run("import-opengotha", book, DATA / "opengotha" / f"{name}.xml", "--yes"))
    return book


def _ok(done: Finished) -> None:
    assert done.returncode == 0, done.stderr


def our_record(book: Path) -> tuple[Outcomes, bool]:
    """What each round was for each player (by name key), and whether Sleeping players gives
    a missed round points: what ``compare`` explains differences with."""
    gw = OpenpyxlGateway(openpyxl.load_workbook(book), book)
    t = read_book(gw).tournament
    outcomes = {
        name_key(name_part(t.players[p].family_name), name_part(t.players[p].given_name)): [
            r.outcome.name for r in records
        ]
        for p, records in player_records(t).items()
        if p in t.players
    }
    return outcomes, t.settings.options.sleeping is not Sleeping.NOTHING
