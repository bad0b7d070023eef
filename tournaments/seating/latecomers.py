"""Seating latecomers into a drawn series without redrawing it (no Django, no ORM).

Order of goals: nobody already seated moves unless a new table is needed, and then as few as
possible (at most three); a latecomer joins a table of four (making it five) where possible;
then the fewest repeats (pairs at one table who sat together in an earlier series); then
five-player tables go to players who had fewer of them; remaining ties by table order and
start number. See docs/seating.md.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from .apart import ALREADY_SEATED_TOGETHER, LATECOMER_NO_OTHER_TABLE, normalize_pairs, together
from .data import History, SeatingError, Unhonoured
from .pairs import Pair, five_table_counts, pair_counts, table_pairs
from .seats import SeatStats, order_seats, record_seats
from .sizes import is_valid_count, table_sizes

#: Which latecomers form a new table is searched exhaustively up to this many choices (only
#: when some latecomers join tables of four and others need a new table).
CHOICE_LIMIT = 64
#: Improvement rounds of the search for moved players and new tables.
IMPROVE_ROUNDS = 50
#: The price of a keep-apart pair at one table, above any number of repeats.
APART_PRICE = 1000

Score = tuple[int, int]  # (repeats, five-player tables of those who get one)


@dataclass(frozen=True)
class Move:
    """Where a latecomer (``from_table`` None) or a moved player now sits. ``table`` and
    ``from_table`` index ``LatecomerPlan.tables``; ``seat`` is 1-based."""

    player: int
    table: int
    seat: int
    from_table: int | None = None


@dataclass(frozen=True)
class LatecomerPlan:
    """The series after seating the latecomers.

    ``tables`` keeps the drawn tables in their order (a latecomer takes the last seat of a
    table of four; a moved player's table closes up), new tables follow. ``repeat_pairs`` are
    the pairs this change seats together who already sat together earlier: its cost.
    ``repeats`` counts the repeats of the whole series afterwards.
    """

    tables: list[list[int]]
    moves: list[Move] = field(default_factory=list)
    new_tables: int = 0
    repeats: int = 0
    repeat_pairs: list[Pair] = field(default_factory=list)
    unhonoured: list[Unhonoured] = field(default_factory=list)


def seat_latecomers(
    tables: Sequence[Sequence[int]],
    history: History,
    latecomers: Sequence[int],
    seed: int = 0,
    keep_apart: Sequence[Sequence[int]] = (),
    series: int = 0,
) -> LatecomerPlan:
    """Seat ``latecomers`` into the drawn ``tables`` (player ids in seat order).

    ``keep_apart`` pairs are not seated together where the choice of tables allows it
    (before any repeat); a pair left at one table is reported in ``unhonoured`` (for
    ``series``): a latecomer whose only place is at his partner's table, or a pair already
    seated together in the drawn tables (nobody seated moves for it).

    Raises ``SeatingError`` with code ``invalid_table`` (a drawn table without 4 or 5
    players), ``duplicate_player``, ``already_seated`` or ``no_table_split`` (the new total
    cannot be split into tables of four and five; ``params`` name the nearest valid counts).
    """
    drawn = [list(table) for table in tables]
    _check(drawn, latecomers)
    late = sorted(latecomers)
    everyone = [p for table in drawn for p in table] + late
    apart = frozenset(normalize_pairs(keep_apart, present=everyone))
    if not late:
        return LatecomerPlan(
            tables=drawn,
            repeats=_count(drawn, pair_counts(history)),
            unhonoured=_unhonoured(drawn, apart, set(), series),
        )
    total = sum(len(table) for table in drawn) + len(late)
    table_sizes(total)  # refuses a total that has no split
    fours = [i for i, table in enumerate(drawn) if len(table) == 4]
    fives = [i for i, table in enumerate(drawn) if len(table) == 5]
    filled, moved = _shape(len(late), len(fours), len(fives))
    ctx = _Context(met=pair_counts(history), five_counts=five_table_counts(history), apart=apart)

    best: tuple[Score, dict[int, int], _NewPart] | None = None
    for joining in _choices(late, filled):
        rest = [p for p in late if p not in joining]
        fill, fill_score = _fill(list(joining), fours, drawn, ctx)
        part = _new_part(rest, moved, fives, drawn, ctx)
        score = _add(fill_score, part.score)
        if best is None or score < best[0]:
            best = (score, fill, part)
    assert best is not None  # _choices yields at least one choice
    _, fill, part = best
    plan = _result(drawn, history, fill, part, ctx, seed)
    plan.unhonoured.extend(_unhonoured(plan.tables, apart, set(late), series))
    return plan


def _unhonoured(
    tables: Sequence[Sequence[int]], apart: frozenset[Pair], late: set[int], series: int
) -> list[Unhonoured]:
    return [
        Unhonoured(
            series=series,
            pair=pair,
            reason=LATECOMER_NO_OTHER_TABLE
            if pair[0] in late or pair[1] in late
            else ALREADY_SEATED_TOGETHER,
        )
        for pair in together(tables, apart)
    ]


def _check(tables: list[list[int]], latecomers: Sequence[int]) -> None:
    seated: set[int] = set()
    for table in tables:
        if len(table) not in (4, 5):
            raise SeatingError(
                "invalid_table", f"A drawn table has {len(table)} players.", size=len(table)
            )
        for player in table:
            if player in seated:
                raise SeatingError(
                    "duplicate_player", f"Player {player} is seated twice.", player=player
                )
            seated.add(player)
    for player, count in Counter(latecomers).items():
        if count > 1:
            raise SeatingError(
                "duplicate_player", f"Player {player} is listed twice.", player=player
            )
        if player in seated:
            raise SeatingError(
                "already_seated", f"Player {player} already has a seat.", player=player
            )


def _shape(late: int, fours: int, fives: int) -> tuple[int, int]:
    """How many latecomers join tables of four, and how many seated players move to new
    tables (one from each of that many tables of five): fewest moves first, then the most
    latecomers at tables of four."""
    options = []
    for filled in range(min(late, fours), -1, -1):
        rest = late - filled
        # At most three moves: the next valid count is never more than three above.
        moved = next(m for m in range(4) if rest + m == 0 or is_valid_count(rest + m))
        if moved <= fives:
            options.append((moved, -filled))
    if not options:  # only when the total has no split, which the caller refused already
        raise SeatingError("no_table_split", "The players cannot be split into tables.")
    moved, filled = min(options)
    return -filled, moved


def _choices(late: list[int], filled: int) -> list[tuple[int, ...]]:
    """Candidate sets of latecomers who join tables of four, in order of start number."""
    if filled in (0, len(late)):
        return [tuple(late[:filled])]
    return list(itertools.islice(itertools.combinations(late, filled), CHOICE_LIMIT))


@dataclass
class _Context:
    met: Counter[Pair]
    five_counts: Counter[int]
    apart: frozenset[Pair] = frozenset()

    def score(self, table: Sequence[int]) -> Score:
        repeats = sum(
            APART_PRICE if pair in self.apart else 1
            for pair in table_pairs(table)
            if self.met[pair] or pair in self.apart
        )
        burden = sum(self.five_counts[p] for p in table) if len(table) == 5 else 0
        return repeats, burden


def _add(a: Score, b: Score) -> Score:
    return a[0] + b[0], a[1] + b[1]


def _sub(a: Score, b: Score) -> Score:
    return a[0] - b[0], a[1] - b[1]


def _fill(
    joining: list[int], fours: list[int], tables: list[list[int]], ctx: _Context
) -> tuple[dict[int, int], Score]:
    """The best assignment of latecomers to distinct tables of four (exact)."""
    if not joining:
        return {}, (0, 0)
    deltas = [
        [_sub(ctx.score([*tables[t], p]), ctx.score(tables[t])) for t in fours] for p in joining
    ]
    # One integer per cell, ordered like (repeats, five-table burden, table order).
    burden_span = 1 + len(joining) * max(d[1] for row in deltas for d in row)
    index_span = 1 + len(joining) * len(fours)
    costs = [
        [(d[0] * burden_span + d[1]) * index_span + j for j, d in enumerate(row)] for row in deltas
    ]
    columns = _assign(costs)
    fill = {joining[i]: fours[j] for i, j in enumerate(columns)}
    score = (0, 0)
    for i, j in enumerate(columns):
        score = _add(score, deltas[i][j])
    return fill, score


def _assign(costs: list[list[int]]) -> list[int]:
    """Minimum-cost assignment of every row to a distinct column (rows <= columns), by the
    Hungarian method with potentials, O(rows² · columns)."""
    rows, cols = len(costs), len(costs[0])
    # Above every reduced cost: potentials never exceed the sum of all costs.
    infinity = 10 * (1 + sum(abs(c) for row in costs for c in row))
    u = [0] * (rows + 1)
    v = [0] * (cols + 1)
    owner = [0] * (cols + 1)  # owner[j]: the row (1-based) holding column j; 0 = free
    way = [0] * (cols + 1)
    for row in range(1, rows + 1):
        owner[0] = row
        col = 0
        slack = [infinity] * (cols + 1)
        used = [False] * (cols + 1)
        while owner[col]:
            used[col] = True
            current, delta, nxt = owner[col], infinity, 0
            for j in range(1, cols + 1):
                if used[j]:
                    continue
                reduced = costs[current - 1][j - 1] - u[current] - v[j]
                if reduced < slack[j]:
                    slack[j], way[j] = reduced, col
                if slack[j] < delta:
                    delta, nxt = slack[j], j
            for j in range(cols + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    slack[j] -= delta
            col = nxt
        while col:
            previous = way[col]
            owner[col] = owner[previous]
            col = previous
    result = [0] * rows
    for j in range(1, cols + 1):
        if owner[j]:
            result[owner[j] - 1] = j - 1
    return result


@dataclass
class _NewPart:
    """New tables (player ids, unordered) and who moves to them from which table."""

    groups: list[list[int]]
    donors: list[tuple[int, int]]  # (table index, player)
    score: Score


def _part_score(
    groups: list[list[int]], donors: list[tuple[int, int]], tables: list[list[int]], ctx: _Context
) -> Score:
    score = (0, 0)
    for group in groups:
        score = _add(score, ctx.score(group))
    for t, player in donors:
        left = [p for p in tables[t] if p != player]
        score = _add(score, _sub(ctx.score(left), ctx.score(tables[t])))
    return score


def _new_part(
    rest: list[int], moved: int, fives: list[int], tables: list[list[int]], ctx: _Context
) -> _NewPart:
    """New tables for ``rest`` plus ``moved`` players taken one each from tables of five:
    a greedy choice, then the best improving replacement of a moved player or exchange of
    two players between new tables, until none improves."""
    if not rest and not moved:
        return _NewPart([], [], (0, 0))
    sizes = table_sizes(len(rest) + moved)
    candidates = [(t, p) for t in fives for p in sorted(tables[t])]
    donors: list[tuple[int, int]] = []
    for _ in range(moved):
        used = {t for t, _p in donors}
        members = rest + [p for _t, p in donors]
        donors.append(
            min(
                (c for c in candidates if c[0] not in used),
                key=lambda c: _part_score([[*members, c[1]]], [*donors, c], tables, ctx),
            )
        )

    def split(donors: list[tuple[int, int]]) -> list[list[int]]:
        members = rest + [p for _t, p in donors]
        groups, start = [], 0
        for size in sizes:
            groups.append(members[start : start + size])
            start += size
        return groups

    groups = split(donors)
    score = _part_score(groups, donors, tables, ctx)
    for _ in range(IMPROVE_ROUNDS):
        best: tuple[Score, list[list[int]], list[tuple[int, int]]] | None = None
        for neighbour_groups, neighbour_donors in _neighbours(groups, donors, candidates):
            value = _part_score(neighbour_groups, neighbour_donors, tables, ctx)
            if value < score and (best is None or value < best[0]):
                best = (value, neighbour_groups, neighbour_donors)
        if best is None:
            break
        score, groups, donors = best
    return _NewPart(groups, donors, score)


def _neighbours(
    groups: list[list[int]], donors: list[tuple[int, int]], candidates: list[tuple[int, int]]
) -> list[tuple[list[list[int]], list[tuple[int, int]]]]:
    result = []
    for k, (table, player) in enumerate(donors):
        others = {t for i, (t, _p) in enumerate(donors) if i != k}
        for candidate in candidates:
            if candidate[0] in others or candidate == (table, player):
                continue
            new_donors = [*donors[:k], candidate, *donors[k + 1 :]]
            new_groups = [[candidate[1] if p == player else p for p in g] for g in groups]
            result.append((new_groups, new_donors))
    for a, b in itertools.combinations(range(len(groups)), 2):
        for i, j in itertools.product(range(len(groups[a])), range(len(groups[b]))):
            new_groups = [list(g) for g in groups]
            new_groups[a][i], new_groups[b][j] = groups[b][j], groups[a][i]
            result.append((new_groups, donors))
    return result


def _result(
    drawn: list[list[int]],
    history: History,
    fill: dict[int, int],
    part: _NewPart,
    ctx: _Context,
    seed: int,
) -> LatecomerPlan:
    tables = [list(table) for table in drawn]
    moved_from = {player: t for t, player in part.donors}
    for t, player in part.donors:
        tables[t].remove(player)
    for player, t in sorted(fill.items(), key=lambda item: item[1]):
        tables[t].append(player)  # the last seat: nobody already seated changes seat
    stats: SeatStats = {}
    for series in history:
        record_seats(stats, series)
    rng = random.Random(f"{seed}/latecomers")
    tables += order_seats(part.groups, stats, rng)
    moves = [
        Move(player=p, table=t, seat=seat, from_table=moved_from.get(p))
        for t, table in enumerate(tables)
        for seat, p in enumerate(table, start=1)
        if p in fill or p in moved_from or t >= len(drawn)
    ]
    before = {pair for table in drawn for pair in table_pairs(table)}
    repeat_pairs = sorted(
        pair
        for table in tables
        for pair in table_pairs(table)
        if ctx.met[pair] and pair not in before
    )
    return LatecomerPlan(
        tables=tables,
        moves=moves,
        new_tables=len(part.groups),
        repeats=_count(tables, ctx.met),
        repeat_pairs=repeat_pairs,
    )


def _count(tables: Sequence[Sequence[int]], met: Counter[Pair]) -> int:
    return sum(1 for table in tables for pair in table_pairs(table) if met[pair])
