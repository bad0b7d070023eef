"""Seasons' use cases (create, change, attach, detach: owner only, logged) and the ranking
read from the kept totals: hand-computed lines, places from the tournaments' standings,
constant queries whatever the number of tournaments."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase as HypothesisTestCase

from common.services import Refusal, ServiceError
from seasons.models import Season, SeasonChange
from seasons.permissions import visible_seasons
from seasons.services import (
    SeasonData,
    attach_tournament,
    change_season,
    create_season,
    detach_tournament,
)
from seasons.standings import player_line, player_seasons, season_ranking
from tests.factories import make_tournament, make_user
from tests.seasons.helpers import organizer, played, player, season_of

pytestmark = pytest.mark.django_db


def test_creating_a_season_makes_a_slug_and_logs_it(alice: User) -> None:
    season = create_season(
        SeasonData(name="Münsterland-Cup 2026", preset="best_n"), actor=organizer(alice)
    )
    assert season.slug == "muensterland-cup-2026"
    assert season.owner == alice
    change = SeasonChange.objects.get(season=season)
    assert change.action == "seasons.season.created"
    assert change.user == alice and change.via == "organizer alice"
    assert change.after["preset"] == "best_n"
    again = create_season(SeasonData(name="Münsterland-Cup 2026"), actor=organizer(alice))
    assert again.slug == "muensterland-cup-2026-2"


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"min_series": -1}, "min_series"),
        ({"min_series": "36"}, "min_series"),
        ({"min_series": True}, "min_series"),
        ({"window_months": 0}, "window_months"),
        ({"best_n": 2.5}, "best_n"),
        ({"placement_points": [10, 20]}, "placement_points"),
        ({"placement_points": []}, "placement_points"),
        ({"placement_points": "25,20"}, "placement_points"),
        ({"tiebreak": ["series", "series"]}, "tiebreak"),
        ({"tiebreak": ["luck"]}, "tiebreak"),
        ({"colour": "red"}, "rule_overrides"),
    ],
)
def test_overrides_are_refused_on_their_field(
    alice: User, overrides: dict[str, object], field: str
) -> None:
    with pytest.raises(ServiceError) as caught:
        create_season(SeasonData(name="Cup", rule_overrides=overrides), actor=organizer(alice))
    assert caught.value.field == field
    assert caught.value.refusal is Refusal.INVALID
    assert not Season.objects.exists()


def test_unknown_preset_and_bad_slug_are_refused(alice: User) -> None:
    with pytest.raises(ServiceError) as caught:
        create_season(SeasonData(name="Cup", preset="elo"), actor=organizer(alice))
    assert caught.value.field == "preset"
    with pytest.raises(ServiceError) as caught:
        create_season(SeasonData(name="Cup", slug="a b/c"), actor=organizer(alice))
    assert caught.value.field == "slug"
    season_of(alice, slug="cup")
    with pytest.raises(ServiceError) as caught:
        create_season(SeasonData(name="Cup", slug="cup"), actor=organizer(alice))
    assert caught.value.code == "slug_taken"


def test_only_the_owner_changes_a_season(alice: User, bob: User) -> None:
    season = season_of(alice, name="Cup")
    with pytest.raises(ServiceError) as caught:
        change_season(season, SeasonData(name="Bobs Cup"), actor=organizer(bob))
    assert caught.value.refusal is Refusal.FORBIDDEN
    changed = change_season(
        season, SeasonData(name="Cup", slug=season.slug, preset="best_n"), actor=organizer(alice)
    )
    assert changed.preset == "best_n"
    log = SeasonChange.objects.get(season=season, action="seasons.season.changed")
    assert (log.before["preset"], log.after["preset"]) == ("ddv_rangliste", "best_n")


def test_another_organizer_cannot_attach_my_tournament(
    alice: User, bob: User, tournament, other_tournament
) -> None:
    mine = season_of(alice)
    his = season_of(bob)
    with pytest.raises(ServiceError) as caught:
        attach_tournament(his, tournament, actor=organizer(bob))
    assert caught.value.code == "not_own_tournament"
    with pytest.raises(ServiceError) as caught:  # nor attach to my season
        attach_tournament(mine, other_tournament, actor=organizer(bob))
    assert caught.value.refusal is Refusal.FORBIDDEN
    with pytest.raises(ServiceError):  # nor I his tournament to mine
        attach_tournament(mine, other_tournament, actor=organizer(alice))
    assert attach_tournament(mine, tournament, actor=organizer(alice)) is True
    assert attach_tournament(mine, tournament, actor=organizer(alice)) is False
    with pytest.raises(ServiceError):
        detach_tournament(mine, tournament, actor=organizer(bob))
    assert detach_tournament(mine, tournament, actor=organizer(alice)) is True
    assert detach_tournament(mine, tournament, actor=organizer(alice)) is False
    actions = list(SeasonChange.objects.filter(season=mine).values_list("action", flat=True))
    assert actions.count("seasons.tournament.attached") == 1
    assert actions.count("seasons.tournament.detached") == 1


def test_a_season_takes_the_tournaments_of_its_club(alice: User, bob: User) -> None:
    """Alice co-organizes Bob's tournament: she is an organizer of his club. A season of
    that club (hers to create there) takes it; her personal club's season does not."""
    shared = make_tournament("gemeinsam", organizers=[bob, alice])
    with pytest.raises(ServiceError) as caught:
        attach_tournament(season_of(alice), shared, actor=organizer(alice))
    assert caught.value.code == "not_own_tournament"
    data = SeasonData(name="Vereinssaison", slug="", preset="ddv_rangliste")
    club_season = create_season(data, actor=organizer(alice), club=shared.club)
    assert club_season.club == shared.club and club_season.owner == alice
    assert attach_tournament(club_season, shared, actor=organizer(alice))


def test_a_private_season_is_seen_by_its_owner_only(alice: User, bob: User) -> None:
    private = season_of(alice, is_public=False, name="Geheim")
    public = season_of(alice, name="Offen")
    assert set(visible_seasons(bob)) == {public}
    assert set(visible_seasons(alice)) == {public, private}
    from django.contrib.auth.models import AnonymousUser

    assert set(visible_seasons(AnonymousUser())) == {public}


# --- The ranking -------------------------------------------------------------------------


def test_best_n_drops_the_worst_result(alice: User) -> None:
    tournaments = [
        played(alice, "t1", "2026-01-10", {"Anna Albers": [10, 0], "Bernd Bäcker": [5, 5]}),
        played(alice, "t2", "2026-02-10", {"Anna Albers": [20, 10], "Bernd Bäcker": [30, 0]}),
        played(alice, "t3", "2026-03-10", {"Anna Albers": [5, 15], "Bernd Bäcker": [-5, 0]}),
        played(alice, "t4", "2026-04-10", {"Anna Albers": [2, 3], "Bernd Bäcker": [1, 1]}),
    ]
    ranking = season_ranking(season_of(alice, tournaments, preset="best_n"))
    anna, bernd = ranking.ranked
    # Anna: 10, 30, 20, 5 -> 10 + 30 + 20 = 60; Bernd: 10, 30, -5, 2 -> 42
    assert (anna.name, anna.place, anna.value, anna.tournaments) == ("Anna Albers", 1, 60, 3)
    assert (bernd.place, bernd.value) == (2, 42)
    assert [(r.tournament.slug, r.score, r.why) for r in anna.results] == [
        ("t4", 5, "dropped"),
        ("t3", 20, "counted"),
        ("t2", 30, "counted"),
        ("t1", 10, "counted"),
    ]
    assert not ranking.unranked


def test_ddv_rangliste_window_minimum_and_average(alice: User) -> None:
    old = played(alice, "alt", "2024-12-31", {"Anna Albers": [100, 100], "Carla Czerwinski": [9]})
    new = played(
        alice,
        "neu",
        "2026-06-01",
        {"Anna Albers": [10, 20, 31], "Bernd Bäcker": [3, 4, 5], "Carla Czerwinski": [50, None, 1]},
    )
    ranking = season_ranking(season_of(alice, [old, new], overrides={"min_series": 3}))
    assert ranking.window_opens == datetime.date(2024, 12, 31)  # 2024-12-31 is outside
    (anna, bernd) = ranking.ranked
    # Anna: (10 + 20 + 31) / 3 = 20.333 -> 20.33; the old tournament is outside the window
    assert (anna.place, anna.value, anna.series, anna.total) == (1, Decimal("20.33"), 3, 61)
    assert [r.why for r in anna.results] == ["counted", "outside_window"]
    assert (bernd.place, bernd.value) == (2, Decimal("4.00"))
    (carla,) = ranking.unranked
    assert (carla.series, carla.missing_series, carla.place) == (2, 1, None)


def test_placement_points_use_the_tournaments_standings_order(alice: User) -> None:
    first = played(
        alice,
        "eins",
        "2026-01-10",
        # Bernd and Carla have 30 each; Bernd's best series (25) wins the tie-break
        {"Anna Albers": [40, 0], "Bernd Bäcker": [25, 5], "Carla Czerwinski": [15, 15]},
    )
    second = played(alice, "zwei", "2026-02-10", {"Carla Czerwinski": [50], "Anna Albers": [-10]})
    ranking = season_ranking(
        season_of(
            alice,
            [first, second],
            preset="placement_points",
            overrides={"placement_points": [10, 6, 3]},
        )
    )
    by_name = {line.name: line for line in ranking.lines}
    assert [(r.tournament.slug, r.place, r.score) for r in by_name["Anna Albers"].results] == [
        ("zwei", 2, 6),
        ("eins", 1, 10),
    ]
    assert by_name["Bernd Bäcker"].results[0].place == 2
    assert by_name["Carla Czerwinski"].results[1].place == 3
    # Anna 10 + 6 = 16, Carla 3 + 10 = 13, Bernd 6
    assert [(ln.name, ln.place, ln.value) for ln in ranking.ranked] == [
        ("Anna Albers", 1, 16),
        ("Carla Czerwinski", 2, 13),
        ("Bernd Bäcker", 3, 6),
    ]


def test_withdrawn_players_keep_what_they_played(alice: User) -> None:
    t = played(alice, "t", "2026-05-01", {"Anna Albers": [7, None], "Bernd Bäcker": [1, 2]})
    t.registrations.filter(start_number=1).update(withdrawn_from_series=2)
    ranking = season_ranking(season_of(alice, [t], preset="best_n"))
    assert [(ln.name, ln.value) for ln in ranking.ranked] == [
        ("Anna Albers", 7),
        ("Bernd Bäcker", 3),
    ]


def test_the_club_filter_keeps_the_season_places(alice: User) -> None:
    clubs = {"Anna Albers": "Füchse", "Bernd Bäcker": "Damen", "Carla Czerwinski": "Füchse"}
    t = played(
        alice,
        "t",
        "2026-05-01",
        {"Anna Albers": [1], "Bernd Bäcker": [9], "Carla Czerwinski": [5]},
        clubs=clubs,
    )
    season = season_of(alice, [t], preset="best_n")
    ranking = season_ranking(season, club="Füchse")
    assert [(ln.name, ln.place) for ln in ranking.ranked] == [
        ("Carla Czerwinski", 2),
        ("Anna Albers", 3),
    ]
    assert ranking.clubs == ("Damen", "Füchse")
    assert season_ranking(season, club="\x00<junk>").lines == ()


def test_the_ranking_reads_a_constant_number_of_statements(alice: User) -> None:
    def statements(season: Season) -> int:
        with CaptureQueriesContext(connection) as queries:
            season_ranking(season)
        return len(queries)

    few = [played(alice, f"a{i}", f"2026-0{i + 1}-01", {"Anna Albers": [i, 1]}) for i in range(2)]
    many = [
        played(alice, f"b{i}", f"2026-0{i + 1}-02", {"Anna Albers": [i], f"X{i} Y{i}": [2, 3]})
        for i in range(6)
    ]
    assert statements(season_of(alice, few)) == statements(season_of(alice, many)) == 2


def test_player_seasons_lists_his_line_in_each_public_season(alice: User) -> None:
    t1 = played(alice, "t1", "2026-03-01", {"Anna Albers": [10], "Bernd Bäcker": [20]})
    t2 = played(alice, "t2", "2026-04-01", {"Anna Albers": [5]})
    season_of(alice, [t1, t2], preset="best_n", name="B-Cup")
    season_of(alice, [t2], preset="best_n", name="A-Cup")
    season_of(alice, [t1], preset="best_n", name="Geheim", is_public=False)
    season_of(alice, [], name="Leer")
    anna = player(alice, "Anna Albers")
    with CaptureQueriesContext(connection) as queries:
        found = player_seasons(anna)
    assert [(s.name, line.place, line.value) for s, line in found] == [
        ("A-Cup", 1, 5),
        ("B-Cup", 2, 15),
    ]
    assert len(queries) == 1  # his stored lines, with their seasons
    bernd = player(alice, "Bernd Bäcker")
    assert [(s.name, ln.place) for s, ln in player_seasons(bernd)] == [("B-Cup", 1)]


class TestClubFilterProperty(HypothesisTestCase):
    """Filtering by a club shows exactly that club's lines of the whole ranking, unchanged."""

    @settings(max_examples=15)
    @given(
        st.lists(
            st.tuples(
                st.sampled_from(["A", "B", ""]),
                st.lists(st.integers(-50, 50), min_size=1, max_size=3),
            ),
            min_size=1,
            max_size=6,
        ),
        st.sampled_from(["A", "B", "", "C"]),
    )
    def test_filter_is_a_subset(self, rows: list[tuple[str, list[int]]], club: str) -> None:
        owner = make_user("owner")
        results = {f"P{i} Q{i}": points for i, (_c, points) in enumerate(rows)}
        clubs = {f"P{i} Q{i}": c for i, (c, _p) in enumerate(rows)}
        t = played(owner, "t", "2026-05-01", results, clubs=clubs)
        season = season_of(owner, [t], preset="best_n")
        whole = season_ranking(season).lines
        assert season_ranking(season, club=club).lines == tuple(
            ln for ln in whole if ln.club == club
        )
        assert player_line(season_ranking(season), whole[0].player) == whole[0]
