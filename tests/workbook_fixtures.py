"""Workbooks for tests, filled through the real gateway and saved as real .xlsx files."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

from addin.core.model import Bye, ByeKind, Contact, Game, Player, Result, Round, Tournament
from addin.workbook import book, round_sheets, template
from addin.workbook.layout import BANDS, players_table
from addin.workbook.openpyxl_gateway import OpenpyxlGateway

FAMILY = ["Chen", "Smith", "García", "Nguyen", "Kim", "Müller", "O'Brien", "Sato", "Lee", "Brown"]
GIVEN = ["Ann", "Bo", "Carl", "Dana", "Eli", "Fay", "Gus", "Hana", "Ivan", "José"]


def simple_tournament(players: int, rounds: int, seed: int = 1) -> Tournament:
    """A field with ratings, clubs and byes, and ``rounds`` rounds of games with results.

    Pairings are arbitrary (shuffled): this exercises storage, not the pairing rules.
    """
    rng = random.Random(seed)
    t = Tournament()
    for i in range(players):
        rating = round(rng.uniform(-30, 7), 2)
        if -1 < rating < 1:
            rating = 1.5
        t.players[10000 + i] = Player(
            aga_id=10000 + i,
            family_name=f"{rng.choice(FAMILY)}{i}",
            given_name=rng.choice(GIVEN),
            rank="",
            rating=rating,
            membership_type=rng.choice(["Full", "Youth", "Life"]),
            membership_expiry=date(2027, rng.randint(1, 12), 1),
            chapter=rng.choice(["SEAG", "NYGC", "BAGC", ""]),
            state=rng.choice(["WA", "NY", "CA"]),
            bye_requests=frozenset({2}) if i % 17 == 0 else frozenset(),
            email=f"p{i}@example.org",
            birth_date=date(1980 + i % 30, 1 + i % 12, 1 + i % 28),
        )
    ids = list(t.players)
    for n in range(1, rounds + 1):
        rng.shuffle(ids)
        byes = [Bye(pid, ByeKind.VOLUNTARY) for pid in ids if n in t.players[pid].bye_requests]
        playing = [pid for pid in ids if n not in t.players[pid].bye_requests]
        if len(playing) % 2:
            byes.append(Bye(playing.pop(), ByeKind.FORCED))
        games = tuple(
            Game(
                white=playing[i],
                black=playing[i + 1],
                handicap=rng.choice([0, 0, 0, 2, 3]),
                komi=rng.choice([7.5, 0.5]),
                result=rng.choice(list(Result)),
                board=i // 2 + 1,
            )
            for i in range(0, len(playing), 2)
        )
        t.rounds.append(Round(n, games, tuple(byes)))
    return t


def write_workbook(path: Path, t: Tournament, rounds: int | None = None) -> Path:
    """Save ``t`` as a tournament workbook through the openpyxl gateway."""
    rounds = rounds or max(len(t.rounds), 1)
    values = book.settings_values(t.settings) | {"rounds": rounds}
    values["name"] = values["name"] or "Test Open"
    gw = OpenpyxlGateway(template.build(values), path)
    gw.write_table(
        players_table(rounds), [book.player_values(p, rounds) for p in t.players.values()]
    )
    gw.write_table(
        BANDS,
        [
            {
                "number": b.number,
                "label": b.label,
                "min_rating": b.min_rating,
                "separation": b.separation,
                "initial_score": b.initial_score,
            }
            for b in t.bands
        ],
    )
    for rnd in t.rounds:
        round_sheets.write_round(gw, rnd, t.players)
    gw.save()
    return path


def ready_for_aga(t: Tournament, today: date | None = None) -> Tournament:
    """``t`` with what the AGA submission check asks for: the event's name, venue, dates
    (ended today), director, and memberships current past the last day."""
    today = today or date.today()
    settings = replace(
        t.settings,
        name=t.settings.name or "Test Open",
        venue=t.settings.venue or "Seattle Go Center",
        start_date=today - timedelta(days=1),
        end_date=today,
        director=Contact("Dana Director", phone="206-555-0100", email="td@example.org"),
        basic_time_minutes=t.settings.basic_time_minutes or 60,
    )
    players = {
        pid: replace(p, membership_expiry=today + timedelta(days=365))
        for pid, p in t.players.items()
    }
    return replace(t, settings=settings, players=players)
