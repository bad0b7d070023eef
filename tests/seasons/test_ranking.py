"""Season rankings (pure): the DDV-Rangliste's window and minimum, best N, placement points,
ties; every line explains which results count."""

from __future__ import annotations

import dataclasses
import datetime
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from seasons.ranking import (
    BEST_N,
    DDV_RANGLISTE,
    PLACEMENT_POINTS,
    TIEBREAKS,
    Basis,
    Line,
    RankingRule,
    Result,
    Why,
    final,
    in_window,
    months_before,
    order,
    rank_season,
    standing,
    unplaced_lines,
)
from tests.seasons import reference_ranking

REFERENCE = datetime.date(2026, 11, 28)


def day(text: str) -> datetime.date:
    return datetime.date.fromisoformat(text)


def result(
    player: int, tournament: int, held_on: str, *points: int, place: int | None = None
) -> Result:
    return Result(player, tournament, day(held_on), tuple(points), place)


def test_months_before_clamps_to_the_end_of_a_shorter_month() -> None:
    assert months_before(day("2026-11-28"), 24) == day("2024-11-28")
    assert months_before(day("2026-03-31"), 1) == day("2026-02-28")
    assert months_before(day("2028-03-31"), 1) == day("2028-02-29")
    assert months_before(day("2026-01-15"), 13) == day("2024-12-15")


def test_the_window_keeps_24_months_up_to_the_reference_date() -> None:
    assert in_window(DDV_RANGLISTE, day("2024-11-29"), REFERENCE)
    assert not in_window(DDV_RANGLISTE, day("2024-11-28"), REFERENCE)
    assert in_window(DDV_RANGLISTE, REFERENCE, REFERENCE)
    assert not in_window(DDV_RANGLISTE, day("2026-11-29"), REFERENCE)  # not held yet
    assert in_window(BEST_N, day("1990-01-01"), REFERENCE)  # no window


def test_ddv_rangliste_averages_the_series_in_the_window() -> None:
    rule = dataclasses.replace(DDV_RANGLISTE, min_series=3)
    lines = rank_season(
        rule,
        [
            result(1, 10, "2026-10-01", 40, 20),  # 2 series, 60
            result(1, 11, "2025-06-01", 10),  # 1 series, 10 -> 70 / 3
            result(1, 12, "2024-11-28", 500, 500),  # the window's first day is past: dropped
            result(2, 10, "2026-10-01", 30, 30),
            result(2, 11, "2025-06-01", 0, 0),  # 60 / 4 = 15
            result(3, 10, "2026-10-01", 90, 90),  # 2 series: one short of the minimum
        ],
        REFERENCE,
    )
    first, second, short = lines
    assert (first.player, first.place, first.value, first.series) == (1, 1, Fraction(70, 3), 3)
    assert [e.why for e in first.entries] == [Why.COUNTED, Why.COUNTED, Why.OUTSIDE_WINDOW]
    assert (second.player, second.place, second.value) == (2, 2, Fraction(15))
    assert (short.player, short.ranked, short.missing_series, short.value) == (3, False, 1, 90)


def test_best_n_counts_the_best_three_and_strikes_the_rest() -> None:
    lines = rank_season(
        BEST_N,
        [
            result(1, 1, "2026-01-10", 50),
            result(1, 2, "2026-02-10", 10),
            result(1, 3, "2026-03-10", 70),
            result(1, 4, "2026-04-10", 30),
            result(2, 1, "2026-01-10", 149),
        ],
        REFERENCE,
    )
    first, second = lines
    assert (first.player, first.value, first.place) == (1, 150, 1)
    dropped = [e.result.tournament for e in first.entries if e.why is Why.DROPPED]
    assert dropped == [2]
    assert (second.player, second.value, second.place) == (2, 149, 2)


def test_among_equal_results_the_newer_counts() -> None:
    rule = dataclasses.replace(BEST_N, best_n=1)
    (line,) = rank_season(
        rule, [result(1, 1, "2026-01-10", 40), result(1, 2, "2026-05-10", 40)], REFERENCE
    )
    assert [(e.result.tournament, e.why) for e in line.entries] == [
        (2, Why.COUNTED),
        (1, Why.DROPPED),
    ]


def test_placement_points_per_place_and_zero_beyond_the_table() -> None:
    lines = rank_season(
        PLACEMENT_POINTS,
        [
            result(1, 1, "2026-01-10", 0, place=1),  # 25
            result(1, 2, "2026-02-10", 0, place=16),  # 0
            result(2, 1, "2026-01-10", 0, place=2),  # 20
            result(2, 2, "2026-02-10", 0, place=3),  # 16 -> 36
            result(3, 1, "2026-01-10", 0, place=None),  # withdrawn: 0
        ],
        REFERENCE,
    )
    assert [(ln.player, ln.place, ln.value) for ln in lines] == [(2, 1, 36), (1, 2, 25), (3, 3, 0)]


def test_players_equal_on_everything_share_a_place_and_the_next_is_skipped() -> None:
    rule = dataclasses.replace(BEST_N, tiebreak=())
    lines = rank_season(
        rule,
        [
            result(7, 1, "2026-01-10", 30),
            result(5, 1, "2026-01-10", 30),
            result(6, 1, "2026-01-10", 10),
        ],
        REFERENCE,
    )
    assert [(ln.player, ln.place, ln.shared) for ln in lines] == [
        (5, 1, True),
        (7, 1, True),
        (6, 3, False),
    ]


def test_a_tie_break_separates_equal_values() -> None:
    """Equal best-three totals: the better single tournament decides."""
    lines = rank_season(
        BEST_N,
        [
            result(1, 1, "2026-01-10", 50),
            result(1, 2, "2026-02-10", 50),
            result(2, 1, "2026-01-10", 90),
            result(2, 2, "2026-02-10", 10),
        ],
        REFERENCE,
    )
    assert [(ln.player, ln.place, ln.shared) for ln in lines] == [(2, 1, False), (1, 2, False)]


results_strategy = st.lists(
    st.builds(
        Result,
        player=st.integers(1, 6),
        tournament=st.integers(1, 30),
        held_on=st.dates(day("2023-01-01"), day("2027-01-01")),
        series_points=st.lists(st.integers(-150, 250), min_size=1, max_size=4).map(tuple),
        place=st.none() | st.integers(1, 40),
        open_points=st.just(()) | st.lists(st.integers(-150, 250), max_size=2).map(tuple),
        complete=st.booleans(),
    ),
    max_size=30,
    unique_by=lambda r: (r.player, r.tournament),  # one result per player and tournament
)
rules = st.sampled_from([DDV_RANGLISTE, BEST_N, PLACEMENT_POINTS]).flatmap(
    lambda rule: st.builds(
        dataclasses.replace,
        st.just(rule),
        min_series=st.integers(0, 6),
        best_n=st.none() if rule is DDV_RANGLISTE else st.none() | st.integers(1, 4),
    )
)


@given(
    best_n=st.integers(1, 4),
    results=results_strategy,
    points=st.lists(st.integers(-150, 250), min_size=1, max_size=4),
    place=st.integers(1, 20),
)
def test_adding_a_result_in_the_window_never_lowers_a_best_n_total(
    best_n: int, results: list[Result], points: list[int], place: int
) -> None:
    """Once a player has N results, another one can only replace a worse one; with
    placement points (never negative) it holds from the first result on."""
    added = Result(1, 99, day("2026-06-01"), tuple(points), place)
    for rule in (
        dataclasses.replace(BEST_N, best_n=best_n),
        dataclasses.replace(PLACEMENT_POINTS, best_n=best_n),
    ):
        before = {ln.player: ln for ln in rank_season(rule, results, REFERENCE)}
        after = {ln.player: ln for ln in rank_season(rule, [*results, added], REFERENCE)}
        old = before.get(1)
        if old is not None and (len(old.counted) >= best_n or rule.basis is Basis.PLACEMENT_POINTS):
            assert after[1].value >= old.value


def key(line: Line, rule: RankingRule) -> tuple[object, ...]:
    return (line.value, *(TIEBREAKS[k](line) for k in rule.tiebreak))


@given(rule=rules, results=results_strategy)
def test_the_order_is_total_and_places_follow_it(rule: RankingRule, results: list[Result]) -> None:
    lines = rank_season(rule, results, REFERENCE)
    assert sorted(ln.player for ln in lines) == sorted({r.player for r in results})
    ranked = [ln for ln in lines if ln.ranked]
    assert list(lines[: len(ranked)]) == ranked  # the ranked players come first
    for line in ranked:
        better = sum(1 for other in ranked if key(other, rule) > key(line, rule))
        equal = sum(1 for other in ranked if key(other, rule) == key(line, rule))
        assert line.place == better + 1
        assert line.shared == (equal > 1)
    keys = [key(ln, rule) for ln in ranked]
    assert keys == sorted(keys, reverse=True)
    for line in lines:
        assert line.ranked == (bool(line.counted) and line.missing_series == 0)
        assert line.series == sum(len(e.result.series_points) for e in line.counted)
        assert all(final(rule, e.result) for e in line.counted)
        if rule.best_n is not None:
            assert len(line.counted) <= rule.best_n
    # The same results in another order give the same ranking.
    assert rank_season(rule, list(reversed(results)), REFERENCE) == lines


# Averages that differ by less than a float can tell apart (10^17 and 10^17 + 1/2 are one
# float), and equal averages of different series (1/2 = 2/4).
BIG = 10**17
close_results = st.lists(
    st.builds(
        Result,
        player=st.integers(1, 8),
        tournament=st.integers(1, 12),
        held_on=st.dates(day("2024-12-01"), day("2026-11-28")),
        series_points=st.sampled_from(
            [(BIG,), (BIG, BIG + 1), (BIG + 1, BIG), (0, 1), (1, 0, 1, 0), (1,), (-1,), (2, -1)]
        )
        | st.lists(st.integers(-150, 250), min_size=1, max_size=4).map(tuple),
        place=st.none() | st.integers(1, 20),
    ),
    max_size=40,
    unique_by=lambda r: (r.player, r.tournament),
)


@given(rule=rules, results=results_strategy | close_results)
def test_the_fast_ranking_gives_the_lines_of_the_plain_one(
    rule: RankingRule, results: list[Result]
) -> None:
    """``rank_season`` is written for speed (floats before exact values, one pass per
    player); ``tests.seasons.reference_ranking`` says the same plainly."""
    assert rank_season(rule, results, REFERENCE) == reference_ranking.rank_season(
        rule, results, REFERENCE
    )


pending_results = st.lists(
    st.builds(
        Result,
        player=st.integers(1, 8),
        tournament=st.integers(100, 120),
        held_on=st.dates(day("2025-01-01"), day("2026-11-28")),
        series_points=st.just(()),
        place=st.none() | st.integers(1, 3),
        open_points=st.lists(st.integers(-150, 250), min_size=1, max_size=3).map(tuple),
        complete=st.just(False),
    ),
    max_size=10,
    unique_by=lambda r: (r.player, r.tournament),
)


@given(rule=rules, results=results_strategy, pending=pending_results)
def test_results_not_final_change_no_counted_figure(
    rule: RankingRule, results: list[Result], pending: list[Result]
) -> None:
    """A tournament with nothing closed (its series running or planned) changes nobody's
    place, value, series or total: its lines are listed as pending and count for nothing."""
    finals = [dataclasses.replace(r, open_points=(), complete=True) for r in results]
    before = rank_season(rule, finals, REFERENCE)
    after = rank_season(rule, [*finals, *pending], REFERENCE)

    def figures(lines: tuple[Line, ...]) -> list[tuple[object, ...]]:
        return [(ln.player, ln.place, ln.value, ln.series, ln.total) for ln in lines if ln.counted]

    assert figures(after) == figures(before)
    for line in after:
        for entry in line.entries:
            if entry.result.tournament >= 100 and entry.why is not Why.OUTSIDE_WINDOW:
                assert entry.why is Why.PENDING


def test_placement_points_wait_for_the_last_series() -> None:
    """The defect: one of three series played gave "place 1 → 25 ranking points"."""
    running = Result(1, 1, day("2026-05-01"), (40,), place=1, complete=False)
    (line,) = rank_season(PLACEMENT_POINTS, [running], REFERENCE)
    assert (line.ranked, line.value, line.entries[0].why) == (False, 0, Why.PENDING)
    done = dataclasses.replace(running, complete=True)
    (line,) = rank_season(PLACEMENT_POINTS, [done], REFERENCE)
    assert (line.place, line.value, line.entries[0].why) == (1, 25, Why.COUNTED)


def test_the_series_average_counts_closed_series_only() -> None:
    """The defect: a running series with half its games counted as a full series."""
    rule = dataclasses.replace(DDV_RANGLISTE, min_series=0)
    half = Result(1, 1, day("2026-05-01"), (30,), open_points=(10,), complete=False)
    (line,) = rank_season(rule, [half], REFERENCE)
    assert (line.value, line.series, line.entries[0].why) == (30, 1, Why.COUNTED)
    nothing_closed = Result(1, 1, day("2026-05-01"), (), open_points=(10,), complete=False)
    (line,) = rank_season(rule, [nothing_closed], REFERENCE)
    assert (line.ranked, line.series, line.entries[0].why) == (False, 0, Why.PENDING)


def test_a_running_tournament_takes_no_slot_among_the_best_n() -> None:
    rule = dataclasses.replace(BEST_N, best_n=1)
    old = Result(1, 1, day("2026-01-01"), (5,))
    running = Result(1, 2, day("2026-05-01"), (90,), complete=False)
    (line,) = rank_season(rule, [old, running], REFERENCE)
    assert [e.why for e in line.entries] == [Why.PENDING, Why.COUNTED]
    assert line.value == 5


def test_averages_closer_than_a_float_are_told_apart() -> None:
    """10^17 and 10^17 + 1/2 are one float: the exact value decides."""
    rule = dataclasses.replace(DDV_RANGLISTE, min_series=0, tiebreak=())
    lines = rank_season(
        rule,
        [
            result(1, 1, "2026-01-10", BIG),
            result(2, 1, "2026-01-10", BIG, BIG + 1),
            result(3, 1, "2026-01-10", BIG + 1, BIG),
        ],
        REFERENCE,
    )
    assert [(ln.player, ln.place, ln.shared) for ln in lines] == [
        (2, 1, True),
        (3, 1, True),
        (1, 3, False),
    ]


@given(
    rule=rules,
    results=results_strategy,
    registered=st.sets(st.integers(1, 9), max_size=6),
    changed=st.lists(
        st.builds(
            Result,
            player=st.integers(1, 9),
            tournament=st.just(7),
            held_on=st.dates(day("2024-06-01"), day("2026-11-28")),
            series_points=st.lists(st.integers(-150, 250), max_size=4).map(tuple),
            place=st.none() | st.integers(1, 20),
            open_points=st.just(()) | st.lists(st.integers(-150, 250), max_size=2).map(tuple),
            complete=st.booleans(),
        ),
        max_size=6,
        unique_by=lambda r: r.player,
    ),
)
def test_ranking_only_the_changed_tournaments_players_again_gives_the_whole_ranking(
    rule: RankingRule, results: list[Result], registered: set[int], changed: list[Result]
) -> None:
    """Tournament 7's results change (its registered players' results, some of them none
    now): their lines computed again and ordered with the others' lines as they were (what
    a stored ranking keeps of them) give the ranking of every result."""
    registered |= {r.player for r in results if r.tournament == 7}  # they stay registered
    held_on = changed[0].held_on if changed else day("2026-01-01")
    mine = [dataclasses.replace(r, held_on=held_on) for r in changed if r.player in registered]
    after = [*(r for r in results if r.tournament != 7), *mine]
    whole = rank_season(rule, after, REFERENCE)
    before = rank_season(rule, results, REFERENCE)
    kept = [standing(ln) for ln in before if ln.player not in registered]
    again = unplaced_lines(rule, [r for r in after if r.player in registered], REFERENCE)
    ordered = order(rule, [*kept, *map(standing, again.values())])
    assert [(s.player, place, shared) for s, place, shared in ordered] == [
        (ln.player, ln.place, ln.shared) for ln in whole
    ]
    assert all(again[ln.player] == dataclasses.replace(ln, place=None, shared=False)
               for ln in whole if ln.player in registered)  # fmt: skip
