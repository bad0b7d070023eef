"""Local search on player indices 0..n-1 (the draw modules translate ids to indices).

A cost matrix is a list of sparse rows: ``cost[p][q]`` is the price of seating p and q at one
table in the series being drawn (symmetric, no diagonal). Two flags per player guard the fair
rotation of five-player tables: in a swap between a table of five and a table of four, the
player who leaves the table of five needs ``leave_five``, the one who takes the seat needs
``join_five``.

Every budget is a number of steps, never a time limit, so a seed always gives the same plan.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

CostRows = list[dict[int, int]]
Tables = list[list[int]]

#: Above every delta a swap can have: the best delta before any swap was looked at.
_UNSET = 1 << 62


def series_cost(tables: Sequence[Sequence[int]], cost: CostRows) -> int:
    """The cost of one series: the sum of ``cost`` over all pairs at one table."""
    total = 0
    for table in tables:
        for i, p in enumerate(table):
            row = cost[p]
            if row:
                for q in table[i + 1 :]:
                    total += row.get(q, 0)
    return total


def greedy_series(
    sizes: Sequence[int],
    cost: CostRows,
    at_five: Sequence[bool],
    rng: random.Random,
) -> Tables:
    """Seat players one by one at the open table where they add the least cost.

    Players with ``at_five[p]`` go to tables of five, the others to tables of four.
    """
    n = len(cost)
    m = len(sizes)
    order = list(range(n))
    rng.shuffle(order)
    # Those bound for five-player tables first: there are few of them and few such tables.
    order.sort(key=lambda p: not at_five[p])
    added = [[0] * m for _ in range(n)]
    tables: Tables = [[] for _ in range(m)]
    for p in order:
        wanted = 5 if at_five[p] else 4
        row = added[p]
        best_value = -1
        candidates: list[int] = []
        for t in range(m):
            if sizes[t] != wanted or len(tables[t]) >= sizes[t]:
                continue
            value = row[t]
            if best_value < 0 or value < best_value:
                best_value = value
                candidates = [t]
            elif value == best_value:
                candidates.append(t)
        t = candidates[0] if len(candidates) == 1 else rng.choice(candidates)
        tables[t].append(p)
        for q, w in cost[p].items():
            added[q][t] += w
    return tables


def tabu_series(
    start: Sequence[Sequence[int]],
    cost: CostRows,
    leave_five: Sequence[bool],
    join_five: Sequence[bool],
    rng: random.Random,
    max_steps: int,
    *,
    eval_budget: int = 4000,
    patience: int = 400,
    five_price: Sequence[int] | None = None,
) -> tuple[Tables, int]:
    """Improve one series by swapping two players of different tables (tabu search).

    With ``five_price`` the flags are ignored: anyone may move between tables of four and
    five, and the price of the players at tables of five is added to the cost, far below the
    price of one repeated pair (repeats first, then fairness).

    Returns the best tables found and their cost (pairs only); stops early at cost 0.
    """
    m = len(start)
    tables: Tables = [list(t) for t in start]
    n = sum(len(t) for t in tables)
    sizes = [len(t) for t in tables]
    if five_price is None:
        price = [0] * n
        leave_ok = list(leave_five)
        join_ok = list(join_five)
    else:
        price = list(five_price)
        leave_ok = join_ok = [True] * n
    weight = n * (max(price) + 1)
    unary = sum(price[p] for table in tables if len(table) == 5 for p in table)
    where = [0] * n
    for t, table in enumerate(tables):
        for p in table:
            where[p] = t
    # load[p][t]: what p would pay at table t (with the current members of t).
    load = [[0] * m for _ in range(n)]
    for p in range(n):
        row = load[p]
        for q, w in cost[p].items():
            row[where[q]] += w
    total = sum(load[p][where[p]] for p in range(n)) // 2
    best = total * weight + unary
    best_total = total
    best_tables = [list(t) for t in tables]
    if total == 0:
        return best_tables, 0
    tabu_until = [[0] * m for _ in range(n)]
    last_improvement = 0
    for step in range(1, max_steps + 1):
        conflicted = [p for p in range(n) if load[p][where[p]]]
        if len(conflicted) * n > eval_budget:
            conflicted = rng.sample(conflicted, max(1, eval_budget // n))
        best_delta = _UNSET  # the first admissible swap is taken, however bad
        choice: tuple[int, int] | None = None
        ties = 0
        for p in conflicted:
            a = where[p]
            load_p = load[p]
            cost_p = cost[p]
            stay_p = load_p[a]
            size_a = sizes[a]
            p_may_cross = leave_ok[p] if size_a == 5 else join_ok[p]
            q_may_cross = join_ok if size_a == 5 else leave_ok
            sign = -1 if size_a == 5 else 1
            price_p = price[p]
            base = total * weight + unary
            tabu_p = tabu_until[p]
            for b in range(m):
                if b == a:
                    continue
                cross = sizes[b] != size_a
                if cross and not p_may_cross:
                    continue
                move_p = load_p[b] - stay_p
                p_is_tabu = tabu_p[b] > step
                for q in tables[b]:
                    if cross and not q_may_cross[q]:
                        continue
                    load_q = load[q]
                    delta = (move_p + load_q[a] - load_q[b] - 2 * cost_p.get(q, 0)) * weight
                    if cross:
                        delta += sign * (price_p - price[q])
                    # A swap worse than the best so far is never taken: no need to ask
                    # whether it is tabu.
                    if delta > best_delta:
                        continue
                    if (p_is_tabu or tabu_until[q][a] > step) and base + delta >= best:
                        continue
                    if delta < best_delta:
                        best_delta = delta
                        choice = (p, q)
                        ties = 1
                    else:  # as good as the best so far
                        ties += 1
                        if rng.randrange(ties) == 0:
                            choice = (p, q)
        if choice is None or step - last_improvement > patience:
            # Stuck: shake the series with a few random swaps and carry on.
            for _ in range(max(2, n // 16)):
                p, q = rng.sample(range(n), 2)
                if where[p] != where[q] and sizes[where[p]] == sizes[where[q]]:
                    total += _swap(p, q, tables, where, load, cost)
            last_improvement = step
            continue
        p, q = choice
        a, b = where[p], where[q]
        total += _swap(p, q, tables, where, load, cost)
        if sizes[a] != sizes[b]:
            # Whoever left a table of five may come back, and the other may leave again.
            leaver, joiner = (p, q) if sizes[a] == 5 else (q, p)
            join_ok[leaver] = True
            leave_ok[joiner] = True
            unary += price[joiner] - price[leaver]
        tenure = 4 + rng.randrange(8)
        tabu_until[p][a] = step + tenure
        tabu_until[q][b] = step + tenure
        objective = total * weight + unary
        if objective <= best:
            if objective < best:
                last_improvement = step
            best = objective
            best_total = total
            best_tables = [list(t) for t in tables]
            if total == 0:
                break
    return best_tables, best_total


def _swap(
    p: int, q: int, tables: Tables, where: list[int], load: list[list[int]], cost: CostRows
) -> int:
    """Swap p and q (at different tables); update the loads; return the change of cost."""
    a, b = where[p], where[q]
    load_p, load_q = load[p], load[q]
    delta = load_p[b] - load_p[a] + load_q[a] - load_q[b] - 2 * cost[p].get(q, 0)
    table_a, table_b = tables[a], tables[b]
    table_a[table_a.index(p)] = q
    table_b[table_b.index(q)] = p
    where[p], where[q] = b, a
    for r, w in cost[p].items():
        load[r][a] -= w
        load[r][b] += w
    for r, w in cost[q].items():
        load[r][b] -= w
        load[r][a] += w
    return delta


def repair_plan(
    plan: list[Tables],
    n: int,
    rng: random.Random,
    *,
    rounds: int,
    steps_per_round: int,
    floor: int = 0,
) -> int:
    """Lower the repeats of a whole plan in place, one series at a time.

    Each round picks a series with repeats and re-optimizes it against all the other series
    (earlier and later). A player only leaves or takes a seat at a table of five when the
    five-table counts stay balanced after every series (max - min <= 1), so the fair
    rotation of five-player tables is kept. Returns the repeats of the plan (pairs counted
    once for every meeting after the first).
    """
    together = [[0] * n for _ in range(n)]
    for tables in plan:
        _add_pairs(together, tables, 1)
    n_series = len(plan)
    at_five = [[False] * n for _ in plan]
    for s, tables in enumerate(plan):
        for table in tables:
            if len(table) == 5:
                for p in table:
                    at_five[s][p] = True
    seats = sum(len(t) for t in plan[0] if len(t) == 5) if plan else 0
    # After series t (0-based) every count must lie in [low[t], high[t]].
    low = [(t + 1) * seats // n for t in range(n_series)]
    high = [-((t + 1) * seats // -n) for t in range(n_series)]
    repeats = _plan_repeats(together, n)
    for _ in range(rounds):
        if repeats <= floor:
            break
        conflicts = [_series_conflicts(together, tables) for tables in plan]
        candidates = [s for s, c in enumerate(conflicts) if c]
        s = rng.choice(candidates)
        tables = plan[s]
        _add_pairs(together, tables, -1)
        cost: CostRows = [
            {q: 1 for q, met in enumerate(together[p]) if met and q != p} for p in range(n)
        ]
        leave_five = [True] * n
        join_five = [True] * n
        for p in range(n):
            count = 0
            for t in range(n_series):
                count += at_five[t][p]
                if t >= s:
                    leave_five[p] = leave_five[p] and count - 1 >= low[t]
                    join_five[p] = join_five[p] and count + 1 <= high[t]
        new_tables, _ = tabu_series(
            tables, cost, leave_five, join_five, rng, steps_per_round, patience=60
        )
        plan[s] = new_tables
        _add_pairs(together, new_tables, 1)
        for table in new_tables:
            for p in table:
                at_five[s][p] = len(table) == 5
        repeats = _plan_repeats(together, n)
    return repeats


def _add_pairs(together: list[list[int]], tables: Sequence[Sequence[int]], sign: int) -> None:
    for table in tables:
        for p in table:
            row = together[p]
            for q in table:
                if q != p:
                    row[q] += sign


def _series_conflicts(together: list[list[int]], tables: Sequence[Sequence[int]]) -> int:
    conflicts = 0
    for table in tables:
        for i, p in enumerate(table):
            row = together[p]
            for q in table[i + 1 :]:
                if row[q] > 1:
                    conflicts += 1
    return conflicts


def _plan_repeats(together: list[list[int]], n: int) -> int:
    return sum(max(0, together[p][q] - 1) for p in range(n) for q in range(p + 1, n))
