"""Team competitions' use cases and reads: squads (one team per player and league, also as a
database rule; the squad limit), match days, line-ups and substitutions, the team draw
(team-mates apart, no repeats over the day), hand-computed team days (a tie, a group of
five) and the league table in a constant number of queries."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from clubs.services import personal_club
from common.services import Refusal, ServiceError
from teams.individual_standings import individual_ranking
from teams.models import Group, LeagueChange, LineUp, MatchDay, SquadMember
from teams.rules import OVERRIDES, team_scoring
from teams.services import (
    LeagueData,
    add_squad_member,
    change_league,
    draw_team_series,
    make_match_days,
    remove_squad_member,
    set_line_up,
    substitutions,
)
from teams.standings import group_result, league_table, team_page
from tests.factories import make_user, play, set_status
from tests.teams.helpers import (
    league_with_teams,
    line_up_all,
    organizer,
    play_re,
    tables_of,
    team_of_seat,
)
from tournaments.models import Player, Series
from tournaments.services.draw import seat_series
from tournaments.services.latecomers import unseated_players
from tournaments.services.lifecycle import start_series

pytestmark = pytest.mark.django_db


def only_group(league) -> Group:  # type: ignore[no-untyped-def]
    return Group.objects.get(match_day__league=league, match_day__number=1)


# -- squads ---------------------------------------------------------------------------------


def test_a_player_plays_for_one_team_per_league(alice: User) -> None:
    _league, teams, players = league_with_teams(alice, 2, squad=1)
    with pytest.raises(ServiceError) as info:
        add_squad_member(teams[1], players[0][0], actor=organizer(alice))
    assert info.value.code == "player_in_other_team" and info.value.field == "player"
    # In another league he may play.
    _other, other_teams, _players = league_with_teams(alice, 1, squad=0, name="Pokal")
    add_squad_member(other_teams[0], players[0][0], actor=organizer(alice))
    assert SquadMember.objects.filter(player=players[0][0]).count() == 2


def test_the_database_refuses_a_player_in_two_teams_of_a_league(alice: User) -> None:
    league, teams, players = league_with_teams(alice, 2, squad=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        SquadMember.objects.create(team=teams[1], league=league, player=players[0][0])


def test_a_full_squad_takes_nobody_more(alice: User) -> None:
    _league, teams, _players = league_with_teams(alice, 1, squad=4, squad_max=4)
    extra = Player.objects.create(
        owner=alice, registry_club=personal_club(alice), first_name="Ersatz", last_name="Mann"
    )
    with pytest.raises(ServiceError) as info:
        add_squad_member(teams[0], extra, actor=organizer(alice))
    assert info.value.code == "squad_full"


def test_only_the_owner_and_only_his_registry(alice: User, bob: User) -> None:
    _league, teams, _players = league_with_teams(alice, 1, squad=0)
    bobs = Player.objects.create(
        owner=bob, registry_club=personal_club(bob), first_name="Bobs", last_name="Spieler"
    )
    with pytest.raises(ServiceError) as info:
        add_squad_member(teams[0], bobs, actor=organizer(alice))
    assert info.value.refusal is Refusal.NOT_FOUND
    alices = Player.objects.create(
        owner=alice, registry_club=personal_club(alice), first_name="Alices", last_name="Spieler"
    )
    with pytest.raises(ServiceError) as info:
        add_squad_member(teams[0], alices, actor=organizer(bob))
    assert info.value.refusal is Refusal.FORBIDDEN


def test_a_lined_up_player_stays_in_the_squad(alice: User) -> None:
    league, teams, players = league_with_teams(alice, 4, days=1, series_per_day=1)
    make_match_days(league, actor=organizer(alice))
    group = only_group(league)
    line_up_all(group, teams, players, 1, alice)
    member = SquadMember.objects.get(player=players[0][0])
    with pytest.raises(ServiceError) as info:
        remove_squad_member(member, actor=organizer(alice))
    assert info.value.code == "player_lined_up"
    spare = Player.objects.create(
        owner=alice, registry_club=personal_club(alice), first_name="Spare", last_name="Player"
    )
    spare_member = add_squad_member(teams[0], spare, actor=organizer(alice))
    remove_squad_member(spare_member, actor=organizer(alice))
    assert not SquadMember.objects.filter(player=spare).exists()
    actions = set(LeagueChange.objects.values_list("action", flat=True))
    assert {"teams.squad.added", "teams.squad.removed", "teams.line_up.set"} <= actions


# -- settings -----------------------------------------------------------------------------


def test_scoring_overrides_are_checked_key_by_key() -> None:
    assert OVERRIDES.problems({"victory_points": [[4, 3, 2, 1], [6, 4, 3, 2, 1]]}) == {}
    problems = OVERRIDES.problems(
        {"victory_points": [[1, 2, 3, 4]], "tie_rule": "coin", "tiebreak": ["x"], "y": 1}
    )
    assert set(problems) == {"victory_points", "tie_rule", "tiebreak", "scoring_overrides"}
    assert set(OVERRIDES.problems([1])) == {"scoring_overrides"}


def test_a_league_with_overrides_scores_by_them(alice: User) -> None:
    league, _teams, _players = league_with_teams(
        alice, 0, scoring_overrides={"tie_rule": "best_place", "tiebreak": ["best_day"]}
    )
    scoring = team_scoring(league)
    assert scoring.tie_rule == "best_place" and scoring.tiebreak == ("best_day",)


def test_the_schedule_fixes_days_series_and_team_size(alice: User) -> None:
    league, _teams, _players = league_with_teams(alice, 4, days=1, series_per_day=2)
    make_match_days(league, actor=organizer(alice))
    with pytest.raises(ServiceError) as info:
        change_league(
            league, LeagueData(name="Liga", days=1, series_per_day=3), actor=organizer(alice)
        )
    assert info.value.field == "series_per_day"
    change_league(
        league, LeagueData(name="Liga neu", days=1, series_per_day=2), actor=organizer(alice)
    )


# -- match days ---------------------------------------------------------------------------


def test_sixteen_teams_meet_each_other_exactly_once_in_five_days(alice: User) -> None:
    league, _teams, _players = league_with_teams(alice, 16, squad=0, days=5, series_per_day=2)
    schedule = make_match_days(league, actor=organizer(alice))
    assert schedule.repeats == 0
    meetings: Counter[tuple[int, int]] = Counter()
    groups = Group.objects.filter(match_day__league=league).prefetch_related("group_teams")
    assert groups.count() == 20
    for group in groups:
        assert group.tournament.series.count() == 2
        assert group.tournament.organizers.get() == alice
        members = sorted(entry.team_id for entry in group.group_teams.all())
        assert len(members) == 4
        meetings.update(itertools.combinations(members, 2))
    assert len(meetings) == 16 * 15 // 2 and set(meetings.values()) == {1}
    assert MatchDay.objects.filter(league=league).count() == 5


def test_a_league_of_seven_teams_has_no_groups(alice: User) -> None:
    league, _teams, _players = league_with_teams(alice, 7, squad=0)
    with pytest.raises(ServiceError) as info, translation.override("en"):
        make_match_days(league, actor=organizer(alice))
    assert info.value.code == "no_group_split"
    assert "5 or 8" in info.value.message
    assert not MatchDay.objects.exists()


def test_match_days_stay_once_a_group_has_drawn(alice: User) -> None:
    league, teams, players = league_with_teams(alice, 4, days=1, series_per_day=1)
    make_match_days(league, actor=organizer(alice))
    make_match_days(league, actor=organizer(alice))  # again: nothing drawn yet
    group = only_group(league)
    line_up_all(group, teams, players, 1, alice)
    draw_team_series(group.tournament.series.get(number=1))
    with pytest.raises(ServiceError) as info:
        make_match_days(league, actor=organizer(alice))
    assert info.value.code == "series_drawn"


# -- line-ups and the team draw -----------------------------------------------------------


def test_line_ups_register_players_and_substitutions_are_listed(alice: User) -> None:
    league, teams, players = league_with_teams(alice, 4, squad=5, days=1, series_per_day=2)
    make_match_days(league, actor=organizer(alice))
    group = only_group(league)
    p = players[0]
    set_line_up(group, teams[0], 1, p[:4], actor=organizer(alice))
    set_line_up(group, teams[0], 2, [p[0], p[1], p[2], p[4]], actor=organizer(alice))
    registered = group.tournament.registrations.filter(checked_in=True)
    assert set(registered.values_list("player_id", flat=True)) == {x.pk for x in p}
    [change] = substitutions(group, teams[0])
    assert (change.series_number, change.went_out, change.came_in) == (2, (p[3],), (p[4],))
    with pytest.raises(ServiceError) as info:
        set_line_up(group, teams[0], 1, p[:2], actor=organizer(alice))
    assert info.value.code == "line_up_size"
    with pytest.raises(ServiceError) as info:
        set_line_up(group, teams[0], 1, [*p[:3], players[1][0]], actor=organizer(alice))
    assert info.value.code == "not_in_squad"


def test_an_incomplete_line_up_stops_the_draw_naming_the_team(alice: User) -> None:
    league, teams, players = league_with_teams(alice, 4, days=1, series_per_day=1)
    make_match_days(league, actor=organizer(alice))
    group = only_group(league)
    for team, members in zip(teams[:3], players[:3], strict=True):
        set_line_up(group, team, 1, members, actor=organizer(alice))
    with pytest.raises(ServiceError) as info:
        draw_team_series(group.tournament.series.get(number=1))
    assert info.value.code == "line_up_missing" and "T3" in info.value.message


def test_team_draw_keeps_team_mates_apart_and_repeats_nobody_over_the_day(alice: User) -> None:
    league, teams, players = league_with_teams(alice, 4, days=1, series_per_day=4)
    make_match_days(league, actor=organizer(alice))
    group = only_group(league)
    met: Counter[frozenset[int]] = Counter()
    for number in range(1, 5):
        line_up_all(group, teams, players, number, alice)
        series = group.tournament.series.get(number=number)
        # The tournament's own draw is routed to the team draw.
        plan = seat_series(series)
        series.refresh_from_db()
        assert (series.draw_mode, series.status, plan.repeats) == ("teams", "drawn", 0)
        tables = tables_of(series)
        assert len(tables) == 4
        for table in tables:
            seats = team_of_seat(table, teams)
            assert sorted(seats.values()) == [0, 1, 2, 3]
            ids = list(table.seats.values_list("registration__player_id", flat=True))
            met.update(frozenset(pair) for pair in itertools.combinations(ids, 2))
    assert set(met.values()) == {1} and len(met) == 4 * 4 * 6


@pytest.mark.parametrize("shift", [1, 3])
def test_the_same_players_in_another_order_each_series_meet_nobody_twice(
    alice: User, shift: int
) -> None:
    """Line-ups rotated by ``shift`` places each series (the page and the API take any
    order): seated by their place, a group of four met 16 times more than once."""
    league, teams, players = league_with_teams(alice, 4, days=1, series_per_day=4)
    make_match_days(league, actor=organizer(alice))
    group = only_group(league)
    met: Counter[frozenset[int]] = Counter()
    for number in range(1, 5):
        for team, members in zip(teams, players, strict=True):
            order = [members[(i + shift * number) % 4] for i in range(4)]
            set_line_up(group, team, number, order, actor=organizer(alice))
        series = group.tournament.series.get(number=number)
        assert draw_team_series(series, seed=7).repeats == 0
        for table in tables_of(series):
            ids = list(table.seats.values_list("registration__player_id", flat=True))
            met.update(frozenset(pair) for pair in itertools.combinations(ids, 2))
    assert set(met.values()) == {1} and len(met) == 4 * 4 * 6


def test_a_missing_player_makes_tables_of_five(alice: User) -> None:
    league, teams, players = league_with_teams(alice, 4, days=1, series_per_day=1)
    make_match_days(league, actor=organizer(alice))
    group = only_group(league)
    line_up_all(group, teams[:3], players[:3], 1, alice)
    set_line_up(group, teams[3], 1, players[3][:3], actor=organizer(alice))
    series = group.tournament.series.get(number=1)
    draw_team_series(series)
    tables = tables_of(series)
    assert [t.seats.count() for t in tables] == [5, 5, 5]
    for table in tables:  # five players of four teams: one pair of team-mates, no more
        counts = Counter(team_of_seat(table, teams).values())
        assert sorted(counts.values()) == [1, 1, 1, 2]


# -- team results -------------------------------------------------------------------------


def play_day(league, teams, players, owner, day: int, re_teams) -> Group:  # type: ignore[no-untyped-def]
    group = Group.objects.get(match_day__league=league, match_day__number=day)
    line_up_all(group, teams, players, 1, owner)
    series = group.tournament.series.get(number=1)
    draw_team_series(series)
    play_re(series, teams, re_teams)
    return group


def test_hand_computed_days_with_ties_and_the_league_table(alice: User) -> None:
    league, teams, players = league_with_teams(alice, 4, days=2, series_per_day=1)
    make_match_days(league, actor=organizer(alice))
    # Day 1: Re = T0 with T1, T2, T3, T1 at tables 1-4: T0 +4; T1 +1-1-1+1 = 0;
    # T2 -1+1-1-1 = -2; T3 -1-1+1-1 = -2. Places 1, 2, 3, 3: 4, 3 and (2 + 1) / 2 each.
    day1 = play_day(league, teams, players, alice, 1, [(0, 1), (0, 2), (0, 3), (0, 1)])
    result = group_result(day1)
    assert result.played
    assert [
        (line.team.name, line.points, line.place, line.victory_points) for line in result.lines
    ] == [
        ("T0", 4, 1, 4),
        ("T1", 0, 2, 3),
        ("T2", -2, 3, Fraction(3, 2)),
        ("T3", -2, 3, Fraction(3, 2)),
    ]
    assert result.lines[0].series_points == (4,)
    # Day 2: Re = T0 with T1 everywhere: T0, T1 +4 (tied first: 3.5 each), T2, T3 -4 (1.5).
    day2 = play_day(league, teams, players, alice, 2, [(0, 1)] * 4)
    assert [(line.points, line.place, line.shared) for line in group_result(day2).lines] == [
        (4, 1, True),
        (4, 1, True),
        (-4, 3, True),
        (-4, 3, True),
    ]
    table = league_table(league)
    # T0: 4 + 3.5 = 7.5, 8 points; T1: 3 + 3.5 = 6.5, 4; T2 and T3: 1.5 + 1.5 = 3, -6 each,
    # tied also head-to-head (tied on both days) and in days won (none): place 3 shared.
    assert [
        (line.team.name, line.place, line.victory_points, line.points, line.shared)
        for line in table.teams
    ] == [
        ("T0", 1, Fraction(15, 2), 8, False),
        ("T1", 2, Fraction(13, 2), 4, False),
        ("T2", 3, 3, -6, True),
        ("T3", 3, 3, -6, True),
    ]
    assert [day.number for day, _line in table.teams[0].days] == [1, 2]
    # Individually: T0's four players won both games (2 each), so did T1's two at tables
    # 1 and 4 of day 1; T1's other two (-1, then +1), one of T2 and one of T3 (+1, then
    # -1) have 0, the last series breaking their tie; six have -2.
    lines = individual_ranking(league).lines
    points = [(line.figures.place, line.figures.total, line.figures.series) for line in lines]
    assert points == [(1, 2, 2)] * 6 + [(7, 0, 2)] * 2 + [(9, 0, 2)] * 2 + [(11, -2, 2)] * 6
    assert sorted(line.player.first_name for line in lines[:6]) == ["T0"] * 4 + ["T1"] * 2
    assert [line.player.first_name for line in lines[6:8]] == ["T1"] * 2
    page = team_page(teams[0])
    assert [len(day.line_ups) for day in page.days] == [1, 1]
    assert [day.result.victory_points for day in page.days if day.result] == [4, Fraction(7, 2)]
    assert len(page.squad) == 4


def test_a_group_of_five_plays_at_tables_of_five(alice: User) -> None:
    league, teams, players = league_with_teams(alice, 5, squad=5, days=1, series_per_day=1)
    make_match_days(league, actor=organizer(alice))
    group = only_group(league)
    line_up_all(group, teams, players, 1, alice, size=5)
    series = group.tournament.series.get(number=1)
    draw_team_series(series)
    tables = tables_of(series)
    assert [t.seats.count() for t in tables] == [5] * 5
    for table in tables:
        assert sorted(team_of_seat(table, teams).values()) == [0, 1, 2, 3, 4]
    # At every table seat 1 deals and sits out (0); Re are the players of T0 and T1 unless
    # one of them deals, then T0 (or T1) with T2's player. Expected points from the seats:
    expected = Counter[int]()
    games = []
    for table in tables:
        seats = team_of_seat(table, teams)
        playing = {position: team for position, team in seats.items() if position != 1}
        wanted = [t for t in (0, 1, 2) if t in playing.values()][:2]
        re = sorted(position for position, team in playing.items() if team in wanted)
        for position, team in playing.items():
            expected[team] += 1 if position in re else -1
        games.append(re)
    set_status(series, Series.Status.RUNNING)
    for table, re in zip(tables, games, strict=True):
        play(table, [{"contract": "normal", "re": re, "re_points": 130}])
    result = group_result(group)
    assert {line.team.position: line.points for line in result.lines} == {
        t: expected[t] for t in range(5)
    }
    assert sum(line.victory_points for line in result.lines) == 15  # 5 + 4 + 3 + 2 + 1
    assert sum(line.points for line in result.lines) == 0


def test_league_table_reads_in_constant_queries(alice: User) -> None:
    league, teams, players = league_with_teams(alice, 4, days=2, series_per_day=1)
    make_match_days(league, actor=organizer(alice))
    play_day(league, teams, players, alice, 1, [(0, 1)] * 4)
    with CaptureQueriesContext(connection) as one_day:
        league_table(league)
    play_day(league, teams, players, alice, 2, [(2, 3)] * 4)
    with CaptureQueriesContext(connection) as two_days:
        table = league_table(league)
    assert len(one_day) == len(two_days) == 5
    assert [line.victory_points for line in table.teams] == [5, 5, 5, 5]
    with CaptureQueriesContext(connection) as page:
        team_page(teams[0])
    assert len(page) == 6
    second = Group.objects.get(match_day__league=league, match_day__number=2)
    with CaptureQueriesContext(connection) as group:
        group_result(second)
    assert len(group) == 4


def test_no_line_up_without_the_owner(alice: User) -> None:
    league, teams, players = league_with_teams(alice, 4, days=1, series_per_day=1)
    make_match_days(league, actor=organizer(alice))
    with pytest.raises(ServiceError) as info:
        set_line_up(only_group(league), teams[0], 1, players[0], actor=organizer(make_user("eve")))
    assert info.value.refusal is Refusal.FORBIDDEN
    assert not LineUp.objects.exists()


def test_a_substitute_sits_out_and_the_series_starts(alice: User) -> None:
    """Five in the squad, four in the line-up: the fifth is registered (he played or will
    play another series) but sits this one out by choice, not by oversight."""
    league, teams, players = league_with_teams(alice, 4, squad=5, days=1, series_per_day=2)
    make_match_days(league, actor=organizer(alice))
    group = only_group(league)
    line_up_all(group, teams, players, 1, alice)
    p = players[0]
    set_line_up(group, teams[0], 2, [p[4], *p[1:4]], actor=organizer(alice))
    series = group.tournament.series.get(number=1)
    seat_series(series)
    series.refresh_from_db()
    assert group.tournament.registrations.filter(checked_in=True).count() == 17
    assert unseated_players(series) == []
    assert start_series(series).status == Series.Status.RUNNING
