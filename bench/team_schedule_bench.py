"""League schedule benchmark: repeated meetings and time, our schedule next to a random one.

Run: .venv/bin/python bench/team_schedule_bench.py [--seeds 3] [--teams 12,16,20] [--days 4,5]

For every league size N and number of match days D it prints the repeated meetings (every
meeting of a pair of teams after its first, summed over the schedule; the mean over the
seeds and the worst), the pairs who never meet, the lower bound from counting pairs alone,
and the time of one schedule. "random" shuffles the teams and cuts them into groups for every
day; it is also the baseline of the same run: "x random" is the time of our schedule over
the time of a random one with its repeats counted (repeated until it takes 20 ms), so it
compares between runs and machines where the seconds do not.
Targets: 16 teams, 5 days: no repeat (every pair exactly once), in under 1 s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from teams.schedule import group_sizes, make_schedule
from tournaments.seating import draw as seating_draw
from tournaments.seating import plan_repeats


def random_schedule(teams: int, days: int, seed: int) -> list[list[list[int]]]:
    rng = random.Random(seed)
    sizes = group_sizes(teams)
    schedule = []
    for _ in range(days):
        order = list(range(teams))
        rng.shuffle(order)
        groups, start = [], 0
        for size in sizes:
            groups.append(order[start : start + size])
            start += size
        schedule.append(groups)
    return schedule


def random_time(teams: int, days: int, seed: int) -> tuple[int, float]:
    """The repeats of a random schedule and the seconds to make and count one (the mean of
    as many as fit in 20 ms, at least one)."""
    count, start = 0, time.perf_counter()
    while True:
        repeats = plan_repeats(random_schedule(teams, days, seed))
        count += 1
        elapsed = time.perf_counter() - start
        if elapsed >= 0.02:
            return repeats, elapsed / count


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--teams", default="12,16,20")
    parser.add_argument("--days", default="4,5")
    args = parser.parse_args()
    team_counts = [int(n) for n in args.teams.split(",")]
    day_counts = [int(d) for d in args.days.split(",")]
    seeds = range(1, args.seeds + 1)
    print(f"league schedules, seeds {list(seeds)}")
    print(
        f"{'N':>3} {'D':>2} {'method':>12} {'bound':>5} {'ours':>6} {'worst':>5} {'unmet':>5} "
        f"{'time':>8} {'random':>7} {'unmet':>5} {'time':>9} {'x random':>9}"
    )
    for n in team_counts:
        for d in day_counts:
            ours, unmet, plain, plain_unmet = [], [], [], []
            ours_time = plain_time = 0.0
            method = bound = None
            for seed in seeds:
                seating_draw.clear_cache()  # time a fresh search, not the seating core's cache
                start = time.perf_counter()
                schedule = make_schedule(n, d, seed)
                ours_time += time.perf_counter() - start
                method, bound = schedule.method, schedule.lower_bound
                ours.append(schedule.repeats)
                unmet.append(schedule.unmet_pairs)
                repeats, seconds = random_time(n, d, seed)
                plain.append(repeats)
                plain_time += seconds
                met = {
                    (a, b)
                    for day in random_schedule(n, d, seed)
                    for group in day
                    for a in group
                    for b in group
                    if a < b
                }
                plain_unmet.append(n * (n - 1) // 2 - len(met))
            k = len(ours)
            print(
                f"{n:>3} {d:>2} {method!s:>12} {bound:>5} {sum(ours) / k:>6.1f} {max(ours):>5} "
                f"{sum(unmet) / k:>5.1f} {ours_time / k * 1000:>6.1f}ms {sum(plain) / k:>7.1f} "
                f"{sum(plain_unmet) / k:>5.1f} {plain_time / k * 1000:>7.3f}ms "
                f"{ours_time / plain_time:>9.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
