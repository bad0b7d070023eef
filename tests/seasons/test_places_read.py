"""Places computed when the stored ranking is read (``seasons.placed``) are the pure
ranking's (``seasons.ranking.order``): the same order, the same places, the same shared
places, for the whole season, a page of it, a club's lines and one line on its own. The
lines are written directly from generated figures: equal values, ties on every tie-break,
values of the same double that differ, negative figures."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase as HypothesisTestCase

from seasons.models import Season, SeasonEntry
from seasons.placed import placed_entries, with_place
from seasons.ranking import (
    BEST_N,
    DDV_RANGLISTE,
    PLACEMENT_POINTS,
    TIEBREAKS,
    Basis,
    RankingRule,
    Standing,
    order,
)
from seasons.sort_keys import sort_key, sort_keys, value_orders
from seasons.standings import player_seasons, stored_line
from seasons.stored import stored_ranking
from tests.factories import make_user
from tests.seasons.helpers import player, season_of

EVERY_TIEBREAK = RankingRule(
    name="every_tiebreak",
    label="Every tie-break",
    basis=Basis.TOURNAMENT_TOTAL,
    tiebreak=("best_result", "tournaments", "total", "series"),
)
RULES = [DDV_RANGLISTE, BEST_N, PLACEMENT_POINTS, EVERY_TIEBREAK]
BIG = 2**53  # 2**53 and 2**53 + 1 are the same double
THIRD = Fraction(1 / 3)  # the double nearest 1/3, exactly: not 1/3
VALUES = st.one_of(
    st.sampled_from([Fraction(0), Fraction(BIG), Fraction(BIG + 1), Fraction(1, 3), THIRD]),
    st.fractions(min_value=-3, max_value=3, max_denominator=4),
)
FIGURES = st.integers(-2, 2)


@st.composite
def standings(draw: st.DrawFn) -> list[Standing]:
    found = []
    for index in range(draw(st.integers(0, 12))):
        tournaments = draw(st.integers(0, 2))
        found.append(
            Standing(
                player=index,  # replaced by the player's key
                value=draw(VALUES),
                series=draw(st.integers(0, 2)),
                total=draw(FIGURES),
                tournaments=tournaments,
                best_result=draw(FIGURES),
                qualified=tournaments > 0 and draw(st.booleans()),
            )
        )
    return found


def test_keys_sort_as_the_ranking_orders() -> None:
    one = Standing(1, Fraction(BIG), 1, 1, 1, 1, True)
    other = Standing(2, Fraction(BIG + 1), 1, 1, 1, 1, True)
    orders = value_orders([one, other])
    assert orders == {Fraction(BIG): 1, Fraction(BIG + 1): 2}
    assert sort_key(BEST_N, other, 2) > sort_key(BEST_N, one, 1)
    assert sort_key(BEST_N, Standing(3, Fraction(-1), 0, -5, 1, -5, True)) > sort_key(
        BEST_N, Standing(4, Fraction(-2), 9, 9, 1, 9, True)
    )
    assert len(sort_key(EVERY_TIEBREAK, one)) == 1 + 8 + 4 + 8 * len(TIEBREAKS)


@settings(max_examples=300)
@given(
    st.lists(
        st.one_of(VALUES, st.fractions(max_denominator=10**12), st.fractions(-(10**20), 10**20)),
        max_size=12,
    ),
    st.sampled_from(RULES),
)
def test_keys_sort_any_values_as_the_ranking_orders(
    values: list[Fraction], rule: RankingRule
) -> None:
    """Without the database: exact values of every size, doubles shared by different
    values, the keys' order is the ranking's (a larger key first, the smaller player among
    equal keys)."""
    every = [Standing(i, v, 1, 1, 1, 1, True) for i, v in enumerate(values)]
    keys = sort_keys(rule, every)
    by_key = sorted(every, key=lambda one: (keys[one.player], -one.player), reverse=True)
    assert by_key == [one for one, _place, _shared in order(rule, every)]


class TestPlacesAsTheRankingHasThem(HypothesisTestCase):
    @settings(max_examples=40, deadline=None)
    @given(standings(), st.sampled_from(RULES), st.integers(1, 5))
    def test_read_places_are_the_rankings(
        self, generated: list[Standing], rule: RankingRule, size: int
    ) -> None:
        owner = make_user("owner")
        season = season_of(owner, [], preset="best_n")
        players = [
            player(owner, f"Spieler{i} Nachname{i}", club="AB"[i % 2])
            for i in range(len(generated))
        ]
        every = [
            Standing(p.pk, s.value, s.series, s.total, s.tournaments, s.best_result, s.qualified)
            for p, s in zip(players, generated, strict=True)
        ]
        keys = sort_keys(rule, every)
        SeasonEntry.objects.bulk_create(
            SeasonEntry(
                season=season, player_id=s.player, value_numerator=s.value.numerator,
                value_denominator=s.value.denominator, series=s.series, total=s.total,
                tournaments=s.tournaments, missing_series=0, ranked=s.qualified,
                best_result=s.best_result, sort_key=keys[s.player], computed_at=season.created_at,
            )
            for s in every
        )  # fmt: skip
        expected = [(one.player, place, shared) for one, place, shared in order(rule, every)]

        assert [(e.player_id, p, sh) for e, p, sh in placed_entries(season)] == expected
        paged = [
            (line.player, line.place, line.shared)
            for offset in range(0, len(every), size)
            for line in stored_ranking(season, offset=offset, limit=size).lines
        ]
        assert paged == expected
        club = {p.pk: p.club for p in players}
        assert [
            (line.player, line.place, line.shared)
            for line in stored_ranking(season, club="A", limit=100).lines
        ] == [one for one in expected if club[one[0]] == "A"]
        # A search: the lines found in the ranking's order, each with its place in the whole
        # season, page by page, also among a club's players only.
        index = {p.pk: i for i, p in enumerate(players)}
        named = [one for one in expected if str(index[one[0]]).startswith("1")]
        for club_asked in (None, "A"):
            wanted = [one for one in named if club_asked in (None, club[one[0]])]
            searched = [
                stored_ranking(
                    season, query="nachname1", club=club_asked, offset=offset, limit=size
                )
                for offset in range(0, max(len(wanted), 1), size)
            ]
            assert [
                (line.player, line.place, line.shared) for part in searched for line in part.lines
            ] == wanted
            assert {part.count for part in searched} == {len(wanted)}
        one_by_one = {
            entry.player_id: (stored_line(entry).place, stored_line(entry).shared)
            for entry in with_place(SeasonEntry.objects.filter(season=season)).select_related(
                "season"
            )
        }
        assert one_by_one == {player: (place, shared) for player, place, shared in expected}
        if players:
            (_season, line), *_others = player_seasons(players[0])
            assert (line.place, line.shared) == one_by_one[players[0].pk]
        Season.objects.filter(pk=season.pk).delete()
