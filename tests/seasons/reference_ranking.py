"""The season ranking written as plainly as possible: the specification that
``seasons.ranking.rank_season`` (written for speed) must agree with, line for line."""

from __future__ import annotations

import dataclasses
import datetime
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from fractions import Fraction

from seasons.ranking import (
    TIEBREAKS,
    Basis,
    Entry,
    Line,
    RankingRule,
    Result,
    Why,
    final,
    in_window,
    score,
)


def _line(
    rule: RankingRule, player: int, results: Sequence[Result], reference: datetime.date
) -> Line:
    newest_first = sorted(results, key=lambda r: (r.held_on, r.tournament), reverse=True)
    window = [i for i, r in enumerate(newest_first) if in_window(rule, r.held_on, reference)]
    # Only final results may count; the others in the window are pending.
    inside = [i for i in window if final(rule, newest_first[i])]
    counted = set(inside)
    if rule.best_n is not None:
        best = sorted(inside, key=lambda i: -score(rule, newest_first[i]))[: rule.best_n]
        counted = set(best)
    entries = tuple(
        Entry(
            r,
            score(rule, r),
            Why.COUNTED
            if i in counted
            else Why.DROPPED
            if i in inside
            else Why.PENDING
            if i in window
            else Why.OUTSIDE_WINDOW,
        )
        for i, r in enumerate(newest_first)
    )
    chosen = [e.result for e in entries if e.counted]
    series = sum(len(r.series_points) for r in chosen)
    total = sum(sum(r.series_points) for r in chosen)
    if rule.basis is Basis.SERIES_AVERAGE:
        value = Fraction(total, series) if series else Fraction(0)
    else:
        value = Fraction(sum(e.score for e in entries if e.counted))
    missing = max(rule.min_series - series, 0)
    return Line(player, None, False, value, series, total, entries, missing)


def _key(rule: RankingRule, line: Line) -> tuple[Fraction | int, ...]:
    return (line.value, *(TIEBREAKS[k](line) for k in rule.tiebreak if k in TIEBREAKS))


def _best_first(rule: RankingRule, line: Line) -> tuple[Fraction | int, ...]:
    return (*(-v for v in _key(rule, line)), line.player)


def rank_season(
    rule: RankingRule, results: Iterable[Result], reference: datetime.date
) -> tuple[Line, ...]:
    by_player: dict[int, list[Result]] = defaultdict(list)
    for result in results:
        by_player[result.player].append(result)
    lines = [_line(rule, p, rs, reference) for p, rs in by_player.items()]
    ranked = sorted(
        (ln for ln in lines if ln.counted and not ln.missing_series),
        key=lambda ln: _best_first(rule, ln),
    )
    keys = Counter(_key(rule, ln) for ln in ranked)
    placed: list[Line] = []
    for index, line in enumerate(ranked):
        tied = bool(placed) and _key(rule, ranked[index - 1]) == _key(rule, line)
        place = placed[-1].place if tied else index + 1
        placed.append(dataclasses.replace(line, place=place, shared=keys[_key(rule, line)] > 1))
    rest = sorted(
        (ln for ln in lines if not (ln.counted and not ln.missing_series)),
        key=lambda ln: (not ln.counted, *_best_first(rule, ln)),
    )
    return (*placed, *rest)
