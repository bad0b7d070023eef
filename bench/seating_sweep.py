"""Sweep of the seating draw's guarantees over many (N, seed) pairs (a check, not a test).

Run: .venv/bin/python bench/seating_sweep.py [--players 40-400] [--seeds 0-10] [--series 8]
     [--random-seeds 0] [--jobs 2]

For every valid N in the range (counts with tables of five; N = 4a has none) and every seed
it draws a full plan of R series and checks the guarantees of docs/seating.md: zero repeats,
and the fair rotation of five-player tables (after every series, max - min of the counts
over all players is at most 1). ``--random-seeds K`` adds K seeds per N drawn at random
from 0..2^31 (from a fixed generator, so the sweep itself is repeatable). Prints every
violation and a summary; exits with status 1 if there was one.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import ALGORITHM_VERSION, draw_tournament, is_valid_count
from tournaments.seating import draw as seating_draw


def unfair_series(series: list[list[list[int]]], n: int) -> int:
    """The first series after which the five-table counts differ by more than one, or 0."""
    counts: Counter[int] = Counter()
    for number, tables in enumerate(series, start=1):
        for table in tables:
            if len(table) == 5:
                counts.update(table)
        values = [counts[p] for p in range(1, n + 1)]
        if max(values) - min(values) > 1:
            return number
    return 0


def check(job: tuple[int, int, int]) -> tuple[int, int, int, int, float]:
    n, n_series, seed = job
    seating_draw.clear_cache()
    start = time.perf_counter()
    plan = draw_tournament(n, n_series, seed)
    elapsed = time.perf_counter() - start
    series = [s.tables for s in plan.series]
    return n, seed, plan.repeats, unfair_series(series, n), elapsed


def span(text: str) -> range:
    low, _, high = text.partition("-")
    return range(int(low), int(high or low) + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="40-400")
    parser.add_argument("--seeds", default="0-9")
    parser.add_argument("--random-seeds", type=int, default=0)
    parser.add_argument("--series", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    counts = [n for n in span(args.players) if is_valid_count(n) and n % 4]
    pick = random.Random(20240601)
    jobs = []
    for n in counts:
        seeds = list(span(args.seeds)) + [pick.randrange(2**31) for _ in range(args.random_seeds)]
        jobs += [(n, args.series, seed) for seed in seeds]
    start = time.perf_counter()
    with Pool(args.jobs) as pool:
        results = pool.map(check, jobs, chunksize=8)
    repeated = [r for r in results if r[2]]
    unfair = [r for r in results if r[3]]
    for n, seed, repeats, series, _ in sorted(set(repeated + unfair)):
        print(f"N={n} seed={seed}: repeats {repeats}, unfair after series {series or '-'}")
    slowest = max(results, key=lambda r: r[4])
    print(
        f"algorithm version {ALGORITHM_VERSION}, R={args.series}: {len(results)} plans "
        f"({len(counts)} counts), {len(repeated)} with repeats, {len(unfair)} unfair; "
        f"slowest {slowest[4]:.2f}s (N={slowest[0]}, seed={slowest[1]}); "
        f"wall {time.perf_counter() - start:.0f}s"
    )
    sys.exit(1 if repeated or unfair else 0)


if __name__ == "__main__":
    main()
