"""Benchmark of the rules engine; prints its figures (not run as a test).

    .venv/bin/python bench/rules_bench.py [--games 20000] [--series 200]

Figures (best of 15 runs, one process, one core):
- games scored/s, records already parsed (``score`` only)       <- the issue's target figure
- games/s from dicts (``parse_record`` + ``score``)              <- what a service call costs
- games/s through the CLI pipeline in-process (JSON line in -> JSON line out)
- 24-game series validated/s from dicts (parse + sequence + row checks of every game)
- "what comes next?" calls/s on a 23-game series of parsed records

and, in the same run, a baseline of plain Python work on the same data: a deep copy of every
record dict (``copy.deepcopy``). The figures run in turns, one run of each per round, so a
load on the machine falls on all alike; each line's "x copy" is its time per item over the
copy's, comparable between runs and machines where the absolute rates are not.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules import DDV, GameRecord, next_game, parse_record, score, validate_series
from rules.answers import score_line
from rules.cards import max_augen, min_augen
from rules.deck import augen_possible
from rules.testing import series_game

LEVELS = [None, None, None, "ansage", "ansage", "90", "60", "30", "schwarz"]
POSSIBLE_AUGEN = [a for a in range(241) if augen_possible(a)]
SOLOS = ["karo", "herz", "pik", "kreuz", "damen", "buben", "fleischlos"]


def random_record(rng: random.Random) -> dict[str, Any]:
    """A valid record, mostly normal games as at a real table.

    Drawn until the engine accepts it: Augen, tricks and extras drawn independently are not
    always a hand the 48-card deck allows (``rules/deck.py``).
    """
    while True:
        data = _candidate(rng)
        if isinstance(parse_record(data, DDV), GameRecord):
            return data


def _candidate(rng: random.Random) -> dict[str, Any]:
    contract = rng.choices(["normal", "hochzeit", "stille_hochzeit", "solo"], [80, 6, 2, 12])[0]
    five = rng.random() < 0.2
    seats = [1, 2, 3, 4, 5] if five else [1, 2, 3, 4]
    sitting_out = rng.choice(seats) if five else None
    active = [s for s in seats if s != sitting_out]
    partner = rng.choice([None, 1, 1, 2, 3]) if contract == "hochzeit" else None
    solo_like = contract in ("solo", "stille_hochzeit") or (contract == "hochzeit" and not partner)
    re = sorted(rng.sample(active, 1 if solo_like else 2))
    tricks = rng.randint(partner or 3 if contract == "hochzeit" else 0, 12)
    points = rng.randint(min_augen(tricks), max_augen(tricks))
    data: dict[str, Any] = {
        "contract": contract,
        "seats": seats,
        "sitting_out": sitting_out,
        "re": re,
        "announcements": {"re": rng.choice(LEVELS), "kontra": rng.choice(LEVELS)},
        "re_points": points,
        "re_tricks": tricks,
    }
    if contract == "solo":
        data.update(solo=rng.choice(SOLOS), compulsory=rng.random() < 0.5, forced=False)
    if contract == "hochzeit":
        data["hochzeit_partner_trick"] = partner
    if not solo_like and rng.random() < 0.5:
        data["extras"] = {
            "re": {"doppelkopf": rng.randint(0, min(tricks, points // 40))},
            "kontra": {"fuchs": rng.randint(0, 2) if tricks < 12 else 0},
        }
    if rng.random() < 0.05:
        violator = rng.choice(active)
        data["penalties"] = [{"seat": violator, "points": -3}] + [
            {"seat": s, "points": 1} for s in active if s != violator
        ]
    return data


def random_series(rng: random.Random) -> list[dict[str, Any]]:
    """A valid 24-game series at a four-player table, built with ``next_game``."""
    games: list[dict[str, Any]] = []
    records: list[GameRecord] = []
    while True:
        nxt = next_game(records, 4, DDV)
        if nxt.finished:
            return games
        assert nxt.dealer is not None
        if nxt.forced is not None:
            data = series_game(nxt.dealer, soloist=nxt.forced, compulsory=True, forced=True)
        elif nxt.compulsory_allowed and rng.random() < 0.12:
            soloist = rng.choice(nxt.compulsory_allowed)
            data = series_game(nxt.dealer, soloist=soloist, compulsory=True)
        else:
            data = series_game(nxt.dealer)
            data["re"] = sorted(rng.sample([1, 2, 3, 4], 2))
            data["re_points"] = rng.choice(POSSIBLE_AUGEN)
        record = parse_record(data, DDV)
        assert isinstance(record, GameRecord), record
        games.append(data)
        records.append(record)


@dataclass(frozen=True)
class Figure:
    label: str
    unit: str
    n: int
    run: Callable[[], object]


def measure(figures: list[Figure], repeat: int = 15) -> list[float]:
    """Best seconds of each figure's run over ``repeat`` rounds (the least disturbed one:
    other processes share the cores); every round runs each figure once, in turns."""
    best = [float("inf")] * len(figures)
    for _ in range(repeat):
        for i, figure in enumerate(figures):
            start = time.perf_counter()
            figure.run()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--series", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(20260221)
    dicts = [random_record(rng) for _ in range(args.games)]
    parsed = [parse_record(d, DDV) for d in dicts]
    records = [r for r in parsed if isinstance(r, GameRecord)]
    assert len(records) == len(dicts), "generator produced invalid records"
    lines = [json.dumps(d).encode() for d in dicts]
    series = [random_series(rng) for _ in range(args.series)]
    assert all(not validate_series(s, 4, DDV).findings for s in series)
    in_progress = [parse_record(g, DDV) for g in series[0][:23]]
    recs23 = [r for r in in_progress if isinstance(r, GameRecord)]

    print(f"Python {sys.version.split()[0]}, {args.games} games, {args.series} series\n")

    def score_parsed() -> None:
        for record in records:
            score(record, DDV)

    def parse_and_score() -> None:
        for data in dicts:
            record = parse_record(data, DDV)
            if isinstance(record, GameRecord):
                score(record, DDV)

    def cli_pipeline() -> None:
        for line in lines:
            json.dumps(score_line(line, DDV))

    def series_check() -> None:
        for games in series:
            validate_series(games, 4, DDV)

    def whats_next() -> None:
        for _ in range(2000):
            next_game(recs23, 4, DDV)

    def copy_records() -> None:
        for data in dicts:
            copy.deepcopy(data)

    # results are discarded at once, as in a real request (keeping 20,000 results alive
    # would mostly measure the garbage collector)
    figures = [
        Figure("baseline: copy.deepcopy() of the record dicts", "games", len(dicts), copy_records),
        Figure("score() on parsed records", "games", len(records), score_parsed),
        Figure("parse_record() + score() from dicts", "games", len(dicts), parse_and_score),
        Figure("CLI pipeline in-process (JSON line -> JSON line)", "games", len(lines),
               cli_pipeline),
        Figure("validate_series() of 24-game series from dicts", "series", len(series),
               series_check),
        Figure("next_game() after 23 parsed games", "calls", 2000, whats_next),
    ]  # fmt: skip
    best = measure(figures)
    base = best[0] / figures[0].n
    print(f"{'':<58} {'rate':>20} {'each':>10} {'x copy':>7}")
    for figure, seconds in zip(figures, best, strict=True):
        each = seconds / figure.n
        print(
            f"{figure.label:<58} {figure.n / seconds:>12,.0f} {figure.unit:>5}/s"
            f" {each * 1e6:>8.2f}µs {each / base:>7.2f}"
        )


if __name__ == "__main__":
    main()
