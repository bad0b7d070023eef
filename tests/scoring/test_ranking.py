"""The pure ranking core: tie-break precedence and shared places."""

from hypothesis import given
from hypothesis import strategies as st

from scoring.ranking import METRICS, StandingRow, rank, rank_columns, series_sums
from tournaments.models import DEFAULT_TIEBREAK, Tiebreak


def row(key: int, *series: int | None) -> StandingRow:
    return StandingRow(key, tuple(series), sum(p or 0 for p in series))


def test_total_points_first() -> None:
    ranked = rank([row(1, 10, 5), row(2, 30, 0), row(3, -5, 2)])
    assert [(r.place, r.row.key) for r in ranked] == [(1, 2), (2, 1), (3, 3)]


def test_best_series_breaks_a_tie_then_last_series() -> None:
    a, b, c = row(1, 20, 0, 10), row(2, 10, 10, 10), row(3, 0, 20, 10)
    ranked = rank([a, b, c], ("best_series", "last_series"))
    # a and c both have best 20 and last 10: shared place 1; b has best 10: place 3
    assert [(r.place, r.shared, r.row.key) for r in ranked] == [
        (1, True, 1), (1, True, 3), (3, False, 2),
    ]  # fmt: skip


def test_precedence_is_configurable() -> None:
    a, b = row(1, 5, 25), row(2, 27, 3)
    assert rank([a, b], ("last_series",))[0].row.key == 1
    assert rank([a, b], ("best_series",))[0].row.key == 2
    assert [r.place for r in rank([a, b], ())] == [1, 1]


@given(st.lists(st.lists(st.integers(-60, 60), min_size=1, max_size=4), max_size=30))
def test_places_are_consistent(series_lists: list[list[int]]) -> None:
    rows = [row(i, *points) for i, points in enumerate(series_lists)]
    ranked = rank(rows)
    totals = [r.row.total for r in ranked]
    assert totals == sorted(totals, reverse=True)
    for i, r in enumerate(ranked):
        assert 1 <= r.place <= i + 1
        if i and r.place != ranked[i - 1].place:
            assert r.place == i + 1


def test_the_ranking_computes_every_tie_break_a_tournament_can_choose() -> None:
    """One vocabulary: the choices of the form and the API are the keys of the core."""
    assert set(METRICS) - {"total"} == set(Tiebreak.values)
    assert set(DEFAULT_TIEBREAK) <= set(Tiebreak.values)


def _by_definition(
    rows: list[StandingRow], tiebreak: tuple[str, ...]
) -> list[tuple[int, bool, int]]:
    """(place, shared, index) straight from the definition: best metrics first, then the
    row key, then the given order; the place is one more than the rows strictly better."""
    metrics = [METRICS["total"]] + [METRICS[k] for k in tiebreak]
    values = [tuple(m.value(r) for m in metrics) for r in rows]
    order = sorted(range(len(rows)), key=lambda i: ([-v for v in values[i]], rows[i].key, i))
    return [
        (
            1 + sum(v > values[i] for v in values),
            sum(v == values[i] for v in values) > 1,
            i,
        )
        for i in order
    ]


@given(
    st.lists(
        st.tuples(
            st.integers(0, 5),  # keys may repeat: equal rows keep their order
            st.lists(st.none() | st.integers(-30, 30), min_size=3, max_size=3),
        ),
        max_size=40,
    ),
    st.lists(st.sampled_from(sorted(Tiebreak.values)), max_size=2, unique=True),
)
def test_the_order_and_places_are_those_of_the_definition(
    players: list[tuple[int, list[int | None]]], tiebreak: list[str]
) -> None:
    rows = [row(key, *points) for key, points in players]
    ranked = rank(rows, tuple(tiebreak))
    expected = _by_definition(rows, tuple(tiebreak))
    assert [(r.place, r.shared, r.row) for r in ranked] == [
        (place, shared, rows[i]) for place, shared, i in expected
    ]
    assert [id(r.row) for r in ranked] == [id(rows[i]) for _, _, i in expected]


@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.lists(st.integers(-30, 30), min_size=3, max_size=3)),
        max_size=40,
    ),
    st.lists(st.sampled_from(sorted(Tiebreak.values)), max_size=2, unique=True),
)
def test_a_table_known_complete_ranks_as_any_other(
    players: list[tuple[int, list[int]]], tiebreak: list[str]
) -> None:
    """The standings tell the core when every player has every series (then its metrics
    run in C): the same order, places and sums as without the hint."""
    keys = [key for key, _ in players]
    points = [points for _, points in players]
    assert series_sums(points, True) == series_sums(points) == [sum(p) for p in points]
    totals = series_sums(points)
    assert rank_columns(keys, points, totals, tiebreak, complete=True) == rank_columns(
        keys, points, totals, tiebreak
    )
