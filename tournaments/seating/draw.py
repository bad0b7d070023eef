"""The seating draw: players and history in, a plan out.

Internally players are indices 0..n-1 in the order of their ids; the public functions take and
return ids. Everything random comes from one ``random.Random`` built from the seed.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Sequence
from functools import lru_cache

from .apart import normalize_pairs, reasons, relabel, separate, together
from .construct import affine_plane_16, layered_design, prime_power, spread_design_32
from .data import (
    ALGORITHM_VERSION,
    History,
    Plan,
    SeatingError,
    SeatingOptions,
    SeatingPlayer,
    TournamentPlan,
)
from .pairs import Pair, count_repeats, repeat_lower_bound
from .search import CostRows, Tables, greedy_series, repair_plan, series_cost, tabu_series
from .seats import SeatStats, order_seats, record_seats
from .sizes import table_sizes

#: Steps of the tabu search for one series, and the budget of the whole-plan repair. Changing
#: them changes plans: bump ALGORITHM_VERSION.
SERIES_STEPS = 1500
REPAIR_STEPS = 100
REPAIR_ROUNDS = 150
#: The first whole-plan repair only runs for up to this many players (above it the
#: series-by-series search nearly always reaches zero repeats by itself); the fair second
#: attempt repairs for every count.
REPAIR_MAX_PLAYERS = 64
#: The fair second attempt only runs from this many players on: there the strict search
#: nearly always reaches zero repeats and the rotation is promised; below, it rarely helps
#: and would double the time of the plans that need the relaxed search or the layered design.
FAIR_RETRY_MIN_PLAYERS = 40
#: Improving moves of the look-ahead that prepares the last players of a five-table round.
LOOKAHEAD_STEPS = 60


def draw_tournament(n_players: int, n_series: int, seed: int) -> TournamentPlan:
    """A complete plan for players numbered 1..n_players (what ``manage.py seating`` prints)."""
    players = [SeatingPlayer(id=i) for i in range(1, n_players + 1)]
    return draw_plan(players, n_series, SeatingOptions(seed=seed))


def draw_plan(
    players: Sequence[SeatingPlayer], n_series: int, options: SeatingOptions
) -> TournamentPlan:
    """A complete plan of ``n_series`` series for ``players`` (all present in every series)."""
    ids, clubs = _index_players(players)
    if n_series < 1:
        raise SeatingError(
            "invalid_series_count", "A plan needs at least one series.", series=n_series
        )
    table_sizes(len(ids))  # refuses impossible counts before any work
    index = {player: i for i, player in enumerate(ids)}
    apart = tuple((index[a], index[b]) for a, b in normalize_pairs(options.keep_apart, present=ids))
    plan = _draw_plan_cached(
        tuple(ids), tuple(clubs), n_series, options.seed, options.keep_clubs_apart, apart
    )
    return copy.deepcopy(plan)  # the cached plan must not be changed by callers


def plan_next_series(
    players: Sequence[SeatingPlayer], history: History, options: SeatingOptions
) -> Plan:
    """Draw the next series (number ``len(history) + 1``) for the present ``players``.

    ``history`` holds the earlier series of this tournament, tables in seat order; players
    in it who are no longer present are ignored. With ``options.planned_series`` and a
    history that this algorithm drew with the same seed, the series comes from the
    full-tournament plan (so the zero-repeat plan stays intact); otherwise it is searched
    against the history.
    """
    ids, _ = _index_players(players)
    sizes = table_sizes(len(ids))
    number = len(history) + 1
    apart_ids = normalize_pairs(options.keep_apart, present=ids)
    if options.mode == "standings":
        return _draw_by_standings(ids, sizes, history, options, apart_ids)
    if options.mode != "random":
        raise SeatingError("unknown_mode", f"Unknown draw mode {options.mode!r}.")
    planned = options.planned_series
    if not history or (planned is not None and planned >= number):
        full = draw_plan(players, max(planned or 1, number), options)
        if all(
            _composition(drawn) == _composition(full.series[s].tables)
            for s, drawn in enumerate(history)
        ):
            return full.series[number - 1]
    rng = random.Random(f"{options.seed}/{number}")
    index = {player: i for i, player in enumerate(ids)}
    past = [[[index[p] for p in table if p in index] for table in series] for series in history]
    met = _meetings(len(ids), past)
    fives = [0] * len(ids)
    for series in history:
        for table in series:
            if len(table) == 5:
                for p in table:
                    if p in index:
                        fives[index[p]] += 1
    tables = _solve_series(sizes, met, fives, rng, SERIES_STEPS)
    apart = [(index[a], index[b]) for a, b in apart_ids]
    if apart and together(tables, apart):
        tables = _separate_series(
            tables, apart, met, fives, random.Random(f"{options.seed}/{number}/apart")
        )
    stats: SeatStats = {}
    for series in history:
        record_seats(stats, series)
    id_tables = [[ids[p] for p in table] for table in tables]
    seated = order_seats(id_tables, stats, rng)
    return Plan(
        series=number,
        tables=seated,
        repeats=count_repeats(seated, history),
        seed=options.seed,
        version=ALGORITHM_VERSION,
        unhonoured=tuple(reasons(seated, apart_ids, number)),
    )


def clear_cache() -> None:
    """Forget cached full plans (plan_next_series re-derives them; benchmarks time fresh ones)."""
    _draw_plan_cached.cache_clear()


def _index_players(players: Sequence[SeatingPlayer]) -> tuple[list[int], list[str | None]]:
    ordered = sorted(players, key=lambda player: player.id)
    ids = [player.id for player in ordered]
    for a, b in itertools.pairwise(ids):
        if a == b:
            raise SeatingError("duplicate_player", f"Player {a} is listed twice.", player=a)
    return ids, [player.club or None for player in ordered]


def _composition(tables: Sequence[Sequence[int]]) -> list[list[int]]:
    return sorted(sorted(table) for table in tables)


def _meetings(n: int, series_list: Sequence[Sequence[Sequence[int]]]) -> CostRows:
    met: CostRows = [{} for _ in range(n)]
    for tables in series_list:
        for table in tables:
            for p in table:
                row = met[p]
                for q in table:
                    if q != p:
                        row[q] = row.get(q, 0) + 1
    return met


def _five_flags(
    fives: Sequence[int], need: int, rng: random.Random
) -> tuple[list[bool], list[bool]]:
    """Who sits at a table of five: the fewest five-player tables so far first.

    Returns the initial choice and, per player, whether they may trade places between a
    table of four and a table of five (only players on the level that is split).
    """
    n = len(fives)
    order = sorted(range(n), key=lambda p: (fives[p], rng.random()))
    at_five = [False] * n
    for p in order[:need]:
        at_five[p] = True
    movable = [False] * n
    if 0 < need < n:
        level = fives[order[need - 1]]
        if fives[order[need]] == level:
            movable = [count == level for count in fives]
    return at_five, movable


def _solve_series(
    sizes: Sequence[int],
    met: CostRows,
    fives: Sequence[int],
    rng: random.Random,
    steps: int,
    *,
    soft: bool = True,
    lookahead: bool = False,
) -> Tables:
    need = sum(size for size in sizes if size == 5)
    at_five, movable = _five_flags(fives, need, rng)
    tables = greedy_series(sizes, met, at_five, rng)
    if series_cost(tables, met):
        tables, cost = tabu_series(tables, met, movable, movable, rng, steps)
        if cost and soft:
            # Repeats first, then fairness: let anyone change between tables of four and
            # five, a player with more five-player tables than the fewest paying
            # 4^(difference) for another one, far below the price of one repeated pair.
            low = min(fives)
            price = [4 ** min(count - low, 12) for count in fives]
            tables, _ = tabu_series(tables, met, movable, movable, rng, steps, five_price=price)
    if lookahead and not soft:
        tables = _prepare_round_end(tables, met, fives, need, rng)
    return tables


def _separate_series(
    tables: Tables,
    apart: Sequence[Pair],
    met: CostRows,
    fives: Sequence[int],
    rng: random.Random,
) -> Tables:
    """Keep the pairs of ``apart`` at different tables at the least cost in repeats
    (``met``: meetings in the other series). Between a table of four and one of five only
    players with as many five-player tables so far swap, which keeps the rotation."""
    size = {p: len(table) for table in tables for p in table}

    def may_swap(x: int, y: int) -> bool:
        return size[x] == size[y] or fives[x] == fives[y]

    def bias(x: int, y: int) -> int:
        return 0 if size[x] == size[y] else 1

    return separate(
        tables, apart, rng, met=lambda p, q: met[p].get(q, 0), may_swap=may_swap, bias=bias
    )


def _keep_pairs_apart(
    plan: list[Tables], n: int, apart: Sequence[Pair], rng: random.Random
) -> list[Tables]:
    """Keep the pairs apart: first by exchanging whole schedules (free: repeats and the
    five-table rotation stay), then series by series, each against all the other series."""
    label = relabel(plan, apart)
    plan = [[[label[p] for p in table] for table in tables] for tables in plan]
    for s, tables in enumerate(plan):
        if not together(tables, apart):
            continue
        met = _meetings(n, plan[:s] + plan[s + 1 :])
        fives = [0] * n
        for earlier in plan[:s]:
            for table in earlier:
                if len(table) == 5:
                    for p in table:
                        fives[p] += 1
        plan[s] = _separate_series(tables, apart, met, fives, rng)
    return plan


def _prepare_round_end(
    tables: Tables, met: CostRows, fives: Sequence[int], need: int, rng: random.Random
) -> Tables:
    """Choose who of the fewest-fives level is left for the next series' tables of five.

    When fewer than ``2 * need`` players of the lowest level stay at tables of four, the
    next series must seat (nearly) all of them at the tables of five: the rotation leaves no
    choice there, and players who already met cannot be split up any more. So among the
    players of that level, exchange one at a table of five with one at a table of four
    (which keeps the rotation exact and adds no repeat) while that lowers the number of
    pairs among the players left over who already met, or sit together now.
    """
    if not need:
        return tables
    low = min(fives)
    level = [p for p, count in enumerate(fives) if count == low]
    left = len(level) - need
    if not 0 < left < 2 * need:
        return tables
    tables = [list(table) for table in tables]
    where = {p: t for t, table in enumerate(tables) for p in table}
    at_five = [p for p in level if len(tables[where[p]]) == 5]
    rest = {p for p in level if len(tables[where[p]]) == 4}

    def price(p: int, table: int, without: int) -> int:
        row = met[p]
        return sum(row.get(x, 0) for x in tables[table] if x != without and x != p)

    def clashes(p: int, table: int, without: int) -> int:
        row = met[p]
        return sum(1 for y in rest if y != without and (y in row or where[y] == table))

    for _ in range(LOOKAHEAD_STEPS):
        best = 0
        choices: list[tuple[int, int]] = []
        for p in at_five:
            a = where[p]
            for q in sorted(rest):
                b = where[q]
                repeats = price(p, b, q) - price(p, a, p) + price(q, a, p) - price(q, b, q)
                if repeats > 0:
                    continue
                delta = repeats * 4 * need * need + clashes(p, b, q) - clashes(q, b, q)
                if delta < best:
                    best, choices = delta, [(p, q)]
                elif delta == best and choices:
                    choices.append((p, q))
        if not choices:
            break
        p, q = choices[0] if len(choices) == 1 else rng.choice(choices)
        a, b = where[p], where[q]
        tables[a][tables[a].index(p)] = q
        tables[b][tables[b].index(q)] = p
        where[p], where[q] = b, a
        at_five[at_five.index(p)] = q
        rest.remove(q)
        rest.add(p)
    return tables


@lru_cache(maxsize=16)
def _draw_plan_cached(
    ids: tuple[int, ...],
    clubs: tuple[str | None, ...],
    n_series: int,
    seed: int,
    keep_clubs_apart: bool,
    apart: tuple[Pair, ...] = (),
) -> TournamentPlan:
    n = len(ids)
    sizes = table_sizes(n)
    rng = random.Random(seed)
    base = _base_design(n, n_series, rng)
    # Strict fairness first; only if repeats remain, let repeats outrank the five-table
    # rotation (the order of goals): a search with the relaxed rotation, then the
    # layered design where one exists (no repeats for up to q series; the search continues
    # it beyond). The plan with fewer repeats is kept, so no plan has more repeats than in
    # version 1, and every plan version 1 drew without repeats is unchanged.
    plan, repeats = _search_plan(base, n, sizes, n_series, rng, soft=False)
    if repeats and 5 in sizes and n >= FAIR_RETRY_MIN_PLAYERS:
        # Version 3: before bending the rotation, a second strict attempt that prepares the
        # end of every five-table round and repairs the whole plan for any count.
        other, other_repeats = _search_plan(
            base,
            n,
            sizes,
            n_series,
            random.Random(f"{seed}/fair"),
            soft=False,
            lookahead=True,
            repair_max=None,
        )
        if other_repeats < repeats:
            plan, repeats = other, other_repeats
    if repeats and 5 in sizes:
        other, other_repeats = _search_plan(
            base, n, sizes, n_series, random.Random(f"{seed}/soft"), soft=True
        )
        if other_repeats < repeats:
            plan, repeats = other, other_repeats
    layered = _layered_plan(n, n_series, random.Random(f"{seed}/layered")) if repeats else None
    if layered is not None:
        if len(layered) == n_series:
            plan, repeats = layered, 0
        else:
            other, other_repeats = _search_plan(
                layered, n, sizes, n_series, random.Random(f"{seed}/layered-search"), soft=False
            )
            if other_repeats < repeats:
                plan, repeats = other, other_repeats
    if keep_clubs_apart:
        plan = _keep_clubs_apart(plan, clubs, rng)
    if apart:
        # Hard, after the (soft) clubs; its own generator, so plans without pairs stay the same.
        plan = _keep_pairs_apart(plan, n, apart, random.Random(f"{seed}/apart"))
    apart_ids = [(ids[a], ids[b]) for a, b in apart]
    series_plans: list[Plan] = []
    stats: SeatStats = {}
    earlier: list[list[list[int]]] = []
    for number, tables in enumerate(plan, start=1):
        ordered = sorted(tables, key=len)  # tables of four first, as table_sizes says
        id_tables = [[ids[p] for p in table] for table in ordered]
        seated = order_seats(id_tables, stats, rng)
        record_seats(stats, seated)
        series_plans.append(
            Plan(
                series=number,
                tables=seated,
                repeats=count_repeats(seated, earlier),
                seed=seed,
                version=ALGORITHM_VERSION,
                unhonoured=tuple(reasons(seated, apart_ids, number)),
            )
        )
        earlier.append(seated)
    return TournamentPlan(seed=seed, series=series_plans, version=ALGORITHM_VERSION)


def _search_plan(
    base: list[Tables],
    n: int,
    sizes: Sequence[int],
    n_series: int,
    rng: random.Random,
    *,
    soft: bool,
    lookahead: bool = False,
    repair_max: int | None = REPAIR_MAX_PLAYERS,
) -> tuple[list[Tables], int]:
    """Series by series after the base design, then (up to ``repair_max`` players, None for
    any count) the whole-plan repair."""
    plan = [[list(table) for table in tables] for tables in base]
    for _ in range(len(plan), n_series):
        met = _meetings(n, plan)
        fives = [0] * n
        for tables in plan:
            for table in tables:
                if len(table) == 5:
                    for p in table:
                        fives[p] += 1
        plan.append(
            _solve_series(sizes, met, fives, rng, SERIES_STEPS, soft=soft, lookahead=lookahead)
        )
    floor = repeat_lower_bound(n, [sizes] * n_series)
    repeats = repair_plan(plan, n, rng, rounds=0, steps_per_round=0)
    if repeats > floor and (repair_max is None or n <= repair_max):
        repeats = repair_plan(
            plan, n, rng, rounds=REPAIR_ROUNDS, steps_per_round=REPAIR_STEPS, floor=floor
        )
    return plan, repeats


def _base_design(n: int, n_series: int, rng: random.Random) -> list[Tables]:
    """A known zero-repeat design for n players, relabelled at random, or nothing."""
    if n == 16:
        base = affine_plane_16()
    elif n == 32:
        base = spread_design_32()
    else:
        return []
    rng.shuffle(base)
    labels = list(range(n))
    rng.shuffle(labels)
    plan = []
    for tables in base[:n_series]:
        relabelled = [[labels[p] for p in table] for table in tables]
        rng.shuffle(relabelled)
        plan.append(relabelled)
    return plan


def _layered_plan(n: int, n_series: int, rng: random.Random) -> list[Tables] | None:
    """The first min(q, n_series) series of ``layered_design`` (no repeats), relabelled at
    random, or None.

    It exists for n = 4q + k with q = n // 4 >= 4 a prime power (q >= 5 when k > 0). Its k extra
    players sit at a table of five in every series, every other player at most k times:
    zero repeats come first, the five-table rotation second.
    """
    q, extras = divmod(n, 4)
    if q < 4 or prime_power(q) is None or (extras and q < 5):
        return None
    design = layered_design(q, extras)
    rng.shuffle(design)
    labels = list(range(n))
    rng.shuffle(labels)
    plan = []
    for tables in design[:n_series]:
        relabelled = [[labels[p] for p in table] for table in tables]
        rng.shuffle(relabelled)
        plan.append(relabelled)
    return plan


def _keep_clubs_apart(
    plan: list[Tables], clubs: Sequence[str | None], rng: random.Random
) -> list[Tables]:
    """Relabel players so that club mates sit apart in series 1.

    Exchanging two players' whole schedules changes neither repeats nor the five-table
    rotation, so this only touches the club conflicts of series 1.
    """
    n = len(clubs)
    members: dict[str, list[int]] = {}
    for p, club in enumerate(clubs):
        if club:
            members.setdefault(club.strip().casefold(), []).append(p)
    cost: CostRows = [{} for _ in range(n)]
    for group in members.values():
        for p in group:
            cost[p] = {q: 1 for q in group if q != p}
    first = plan[0]
    if not series_cost(first, cost):
        return plan
    anyone = [True] * n
    improved, _ = tabu_series(first, cost, anyone, anyone, rng, SERIES_STEPS)
    # The search swaps players slot by slot, so matching the slots gives the relabelling.
    label = list(range(n))
    for old, new in zip(first, improved, strict=True):
        for p, q in zip(old, new, strict=True):
            label[p] = q
    return [[[label[p] for p in table] for table in tables] for tables in plan]


def _draw_by_standings(
    ids: list[int],
    sizes: Sequence[int],
    history: History,
    options: SeatingOptions,
    apart: Sequence[Pair] = (),
) -> Plan:
    """Swiss style: tables cut from the standings, leaders together.

    The tables of five go where they are fairest: the blocks of five are placed so that the
    players with the fewest five-player tables so far take them (a small dynamic programme).
    """
    present = set(ids)
    order = [p for p in dict.fromkeys(options.standings) if p in present]
    listed = set(order)
    order += [p for p in ids if p not in listed]
    fives: dict[int, int] = {}
    for series in history:
        for table in series:
            if len(table) == 5:
                for p in table:
                    fives[p] = fives.get(p, 0) + 1
    n_tables = len(sizes)
    n_five = sum(1 for size in sizes if size == 5)
    base = 5 * n_five + 1
    weight = [base ** fives.get(p, 0) for p in order]
    # best[i][j]: (cost, tables sizes) of the first i tables with j tables of five.
    inf = None
    best: list[list[tuple[int, list[int]] | None]] = [
        [inf] * (n_five + 1) for _ in range(n_tables + 1)
    ]
    best[0][0] = (0, [])
    for i in range(n_tables):
        for j in range(n_five + 1):
            entry = best[i][j]
            if entry is None:
                continue
            start = 4 * i + j
            cost, chosen = entry
            if j + 1 <= n_five:
                extra = sum(weight[start : start + 5])
                candidate = (cost + extra, [*chosen, 5])
                target = best[i + 1][j + 1]
                if target is None or candidate[0] < target[0]:
                    best[i + 1][j + 1] = candidate
            candidate = (cost, [*chosen, 4])
            target = best[i + 1][j]
            if target is None or candidate[0] < target[0]:
                best[i + 1][j] = candidate
    final = best[n_tables][n_five]
    assert final is not None
    tables: list[list[int]] = []
    start = 0
    for size in final[1]:
        tables.append(order[start : start + size])
        start += size
    number = len(history) + 1
    rng = random.Random(f"{options.seed}/{number}/standings")
    if apart and together(tables, apart):
        # The player nearest in the standings at another table takes the place, at a table
        # of the same size if possible (repeats are reported, not avoided, in this mode).
        rank = {p: i for i, p in enumerate(order)}
        size_of = {p: len(table) for table in tables for p in table}
        tables = separate(
            tables,
            apart,
            random.Random(f"{options.seed}/{number}/standings/apart"),
            met=lambda p, q: 0,
            may_swap=lambda x, y: True,
            bias=lambda x, y: (
                abs(rank[x] - rank[y]) + (0 if size_of[x] == size_of[y] else len(ids))
            ),
        )
    stats: SeatStats = {}
    for series in history:
        record_seats(stats, series)
    seated = order_seats(tables, stats, rng)
    return Plan(
        series=number,
        tables=seated,
        repeats=count_repeats(seated, history),
        seed=options.seed,
        version=ALGORITHM_VERSION,
        unhonoured=tuple(reasons(seated, apart, number)),
    )
