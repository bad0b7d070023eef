"""Seating draw benchmark: repeated pairs and time, our draw next to a plain random draw.

Run: .venv/bin/python bench/seating_bench.py [--seeds 3] [--series 2,4,6,7,8] [--players 33,34]
     .venv/bin/python bench/seating_bench.py --keep-apart [--seeds 3] [--series 2,4,6,8]

For every player count N and number of series R it prints the repeats (pairs sitting together
again, summed over the plan; the mean over the seeds), a simple lower bound, and the time of
one full plan. "random" shuffles the players and cuts them into tables for every series; it
is also the baseline of the same run: "x random" is the time of our plan over the time of a
random plan with its repeats counted (repeated until it takes 20 ms), so it compares between
runs and machines where the seconds do not.
Targets: zero repeats for N = 32..400 with R <= 8; N = 400, R = 8 in under 2 s.

``--keep-apart`` prints, for the same fields, the repeats of the draw without pairs and with
one keep-apart pair per 8 players (N div 8 disjoint pairs of random players, from the seed)
side by side, the pairs left at one table (none where a plan exists) and the time with pairs.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import (
    ALGORITHM_VERSION,
    SeatingOptions,
    SeatingPlayer,
    draw_plan,
    draw_tournament,
    plan_repeats,
    repeat_lower_bound,
    table_sizes,
)
from tournaments.seating import draw as seating_draw

PLAYERS = [16, 20, 24, 28, 31, *range(32, 41), 64, 100, 101, 200, 257, 400]


def random_plan(n_players: int, n_series: int, seed: int) -> list[list[list[int]]]:
    rng = random.Random(seed)
    sizes = table_sizes(n_players)
    plan = []
    for _ in range(n_series):
        players = list(range(1, n_players + 1))
        rng.shuffle(players)
        tables, start = [], 0
        for size in sizes:
            tables.append(players[start : start + size])
            start += size
        plan.append(tables)
    return plan


def random_time(n_players: int, n_series: int, seed: int) -> tuple[int, float]:
    """The repeats of a random plan and the seconds to draw and count one (the mean of as
    many as fit in 20 ms, at least one)."""
    count, start = 0, time.perf_counter()
    while True:
        repeats = plan_repeats(random_plan(n_players, n_series, seed))
        count += 1
        elapsed = time.perf_counter() - start
        if elapsed >= 0.02:
            return repeats, elapsed / count


def couples(n_players: int, seed: int) -> tuple[tuple[int, int], ...]:
    """One keep-apart pair per 8 players: N div 8 disjoint pairs of random players."""
    chosen = random.Random(f"couples/{n_players}/{seed}").sample(
        range(1, n_players + 1), 2 * (n_players // 8)
    )
    return tuple((chosen[i], chosen[i + 1]) for i in range(0, len(chosen), 2))


def keep_apart_table(players: list[int], series_counts: list[int], seeds: range) -> None:
    print(f"keep-apart pairs (one per 8 players), algorithm version {ALGORITHM_VERSION}")
    print(
        f"{'N':>4} {'R':>2} {'pairs':>5} {'without':>7} {'with':>7} {'extra':>6} "
        f"{'worst+':>6} {'left':>4} {'time':>7}"
    )
    for n in players:
        field = [SeatingPlayer(id=i) for i in range(1, n + 1)]
        for r in series_counts:
            without, with_pairs, worst, left, seconds = [], [], 0, 0, 0.0
            for seed in seeds:
                pairs = couples(n, seed)
                seating_draw.clear_cache()
                plain = draw_plan(field, r, SeatingOptions(seed=seed)).repeats
                seating_draw.clear_cache()
                start = time.perf_counter()
                plan = draw_plan(field, r, SeatingOptions(seed=seed, keep_apart=pairs))
                seconds += time.perf_counter() - start
                without.append(plain)
                with_pairs.append(plan.repeats)
                worst = max(worst, plan.repeats - plain)
                left += len(plan.unhonoured)
            k = len(without)
            print(
                f"{n:>4} {r:>2} {n // 8:>5} {sum(without) / k:>7.1f} {sum(with_pairs) / k:>7.1f} "
                f"{(sum(with_pairs) - sum(without)) / k:>6.1f} {worst:>6} {left:>4} "
                f"{seconds / k:>6.2f}s",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--series", default="2,4,6,7,8")
    parser.add_argument("--players", default=",".join(map(str, PLAYERS)))
    parser.add_argument(
        "--keep-apart", action="store_true", help="repeats with and without keep-apart pairs"
    )
    args = parser.parse_args()
    series_counts = [int(r) for r in args.series.split(",")]
    players = [int(n) for n in args.players.split(",")]
    seeds = range(1, args.seeds + 1)
    if args.keep_apart:
        keep_apart_table(players, series_counts, seeds)
        return
    print(f"seating draw, algorithm version {ALGORITHM_VERSION}, seeds {list(seeds)}")
    print(
        f"{'N':>4} {'R':>2} {'bound':>5} {'ours':>7} {'worst':>5} {'time':>7} "
        f"{'random':>7} {'time':>9} {'x random':>9}"
    )
    for n in players:
        for r in series_counts:
            bound = repeat_lower_bound(n, [table_sizes(n)] * r)
            ours, ours_time, worst = [], 0.0, 0
            plain, plain_time = [], 0.0
            for seed in seeds:
                seating_draw.clear_cache()
                start = time.perf_counter()
                plan = draw_tournament(n, r, seed)
                ours_time += time.perf_counter() - start
                ours.append(plan.repeats)
                worst = max(worst, plan.repeats)
                repeats, seconds = random_time(n, r, seed)
                plain_time += seconds
                plain.append(repeats)
            k = len(ours)
            print(
                f"{n:>4} {r:>2} {bound:>5} {sum(ours) / k:>7.1f} {worst:>5} "
                f"{ours_time / k:>6.2f}s {sum(plain) / k:>7.1f} {plain_time / k * 1000:>7.3f}ms"
                f" {ours_time / plain_time:>9.0f}",
                flush=True,
            )
    timings, baseline = [], []
    for seed in seeds:
        seating_draw.clear_cache()
        start = time.perf_counter()
        plan = draw_tournament(400, 8, seed)
        timings.append(time.perf_counter() - start)
        baseline.append(random_time(400, 8, seed)[1])
    print(
        f"N=400, R=8: best {min(timings):.2f}s, worst {max(timings):.2f}s "
        f"(target < 2 s), repeats {plan.repeats}; best {min(timings) / min(baseline):.0f} x random"
    )


if __name__ == "__main__":
    main()
