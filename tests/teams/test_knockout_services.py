"""The knockout stored and played (issue #29 item 1): started from a final group stage,
matches as group tournaments, who advances by each group's result, byes, a tie at the cut
held until the league decides it, the champion; the league table stays the group stage's.
Brackets computed by hand from the tables below (``tests.teams.knockouts``)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from common.services import ServiceError
from teams import knockout as core
from teams.bracket import knockout_bracket
from teams.demo import decide_ties_by_seed
from teams.knockout_services import advance_knockout, decide_tie
from teams.models import Group, Knockout, LeagueChange, MatchDay, Team
from teams.services import make_match_days
from teams.standings import league_table, team_page
from tests.teams.helpers import organizer
from tests.teams.knockouts import give_result, group_stage_done, names, round_groups, start

pytestmark = pytest.mark.django_db

# 8 teams, one match day (schedule seed 1): T0 T2 T3 T4 | T1 T5 T6 T7, T0 scoring 100, T1 90,
# … T7 30. Table: T0 T1 (4 victory points) T2 T5 (3) T3 T6 (2) T4 T7 (1): the seeds 1 to 8.
SEEDS_8 = ["T0", "T1", "T2", "T5", "T3", "T6", "T4", "T7"]


def _by_name(teams: list[Team]) -> dict[str, Team]:
    return {team.name: team for team in teams}


def _table(league: object) -> list[tuple[str, int, object, int]]:
    return [
        (line.team.name, line.place, line.victory_points, line.points)
        for line in league_table(league).teams  # type: ignore[arg-type]
    ]


def test_eight_teams_two_matches_then_the_final_then_the_champion(alice: User) -> None:
    league, teams, squads = group_stage_done(alice, 8)
    table_before = _table(league)
    knockout = start(alice, league)
    named = _by_name(teams)
    assert [Team.objects.get(pk=pk).name for pk in knockout.seeds] == SEEDS_8
    assert knockout.byes == []
    first = round_groups(league, 1)
    # Snake by seed: 1 4 5 8 | 2 3 6 7.
    assert [names(g) for g in first] == [["T0", "T5", "T3", "T7"], ["T1", "T2", "T6", "T4"]]
    day = first[0].match_day
    assert (day.stage, day.knockout_round, day.number) == (MatchDay.Stage.KNOCKOUT, 1, 2)
    assert first[0].tournament.series_count == league.series_per_day
    assert first[0].tournament.club_id == league.club_id
    give_result(first[0], {"T5": 100, "T0": 80, "T3": 50, "T7": 10}, squads, alice)
    with pytest.raises(ServiceError) as undecided:
        advance_knockout(league, actor=organizer(alice))
    assert undecided.value.code == "round_undecided"
    give_result(first[1], {"T6": 90, "T1": 70, "T2": 60, "T4": 0}, squads, alice)
    bracket = knockout_bracket(league)
    assert bracket is not None
    advancing = [
        [line.team.name for line in m.lines if line.advancing] for m in bracket.rounds[0].matches
    ]
    assert advancing == [["T5", "T0"], ["T6", "T1"]]
    advance_knockout(league, actor=organizer(alice))
    (final,) = round_groups(league, 2)
    assert names(final) == ["T0", "T1", "T5", "T6"]  # reseeded: seeds 1, 2, 4, 6
    assert final.match_day.number == 3
    give_result(final, {"T6": 50, "T0": 40, "T1": 30, "T5": 20}, squads, alice)
    done = advance_knockout(league, actor=organizer(alice))
    assert done.champion == named["T6"]
    knockout.refresh_from_db()
    assert knockout.champion == named["T6"] and knockout.finished_at is not None
    with pytest.raises(ServiceError) as again:
        advance_knockout(league, actor=organizer(alice))
    assert again.value.code == "knockout_finished"
    actions = list(
        LeagueChange.objects.filter(league=league, action__startswith="teams.knockout")
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == [
        "teams.knockout.started",
        "teams.knockout.round_made",
        "teams.knockout.finished",
    ]
    # The knockout changes nothing of the league: its table, its team pages.
    assert _table(league) == table_before
    assert len(team_page(named["T6"]).days) == 1


def test_twelve_teams_the_best_four_have_a_bye(alice: User) -> None:
    league, _teams, squads = group_stage_done(alice, 12)
    knockout = start(alice, league)
    seeds = [Team.objects.get(pk=pk).name for pk in knockout.seeds]
    assert seeds == ["T0", "T1", "T3", "T2", "T4", "T6", "T5", "T7", "T9", "T8", "T10", "T11"]
    assert [Team.objects.get(pk=pk).name for pk in knockout.byes] == ["T0", "T1", "T3", "T2"]
    first = round_groups(league, 1)
    assert [names(g) for g in first] == [["T4", "T7", "T9", "T11"], ["T6", "T5", "T8", "T10"]]
    give_result(first[0], {"T4": 10, "T7": 40, "T9": 30, "T11": 0}, squads, alice)
    give_result(first[1], {"T6": 10, "T5": 40, "T8": 30, "T10": 0}, squads, alice)
    advance_knockout(league, actor=organizer(alice))
    second = round_groups(league, 2)
    # Seeds 1 to 4 and the winners (seeds 7, 8, 9, 10), dealt as a snake into two matches.
    assert [names(g) for g in second] == [["T0", "T2", "T5", "T8"], ["T1", "T3", "T7", "T9"]]
    bracket = knockout_bracket(league)
    assert bracket is not None and len(bracket.rounds) == 3
    assert [t.name for t in bracket.rounds[0].byes] == ["T0", "T1", "T3", "T2"]


def test_a_tie_at_the_cut_waits_for_the_leagues_decision(alice: User, bob: User) -> None:
    league, teams, squads = group_stage_done(alice, 8)
    start(alice, league)
    named = _by_name(teams)
    first = round_groups(league, 1)
    give_result(first[0], {"T0": 50, "T5": 30, "T3": 30, "T7": 0}, squads, alice)
    give_result(first[1], {"T6": 90, "T1": 70, "T2": 60, "T4": 0}, squads, alice)
    bracket = knockout_bracket(league)
    assert bracket is not None
    match = bracket.rounds[0].matches[0]
    assert match.tie_at_cut and {t.name for t in match.tied_teams} == {"T3", "T5"}
    marks = {line.team.name: (line.advancing, line.tied, line.out) for line in match.lines}
    assert marks["T0"] == (True, False, False)  # above the tie: goes on whatever is decided
    assert marks["T7"] == (False, False, True)
    with pytest.raises(ServiceError) as held:
        advance_knockout(league, actor=organizer(alice))
    assert held.value.code == "round_undecided" and "1" in held.value.message
    with pytest.raises(ServiceError) as wrong:
        decide_tie(first[0], [named["T3"].pk, named["T0"].pk], actor=organizer(alice))
    assert (wrong.value.code, wrong.value.field) == ("wrong_order", "order")
    with pytest.raises(ServiceError) as stranger:
        decide_tie(first[0], [named["T3"].pk, named["T5"].pk], actor=organizer(bob))
    assert stranger.value.code == "not_league_owner"
    with pytest.raises(ServiceError) as nothing:
        decide_tie(first[1], [named["T1"].pk], actor=organizer(alice))
    assert nothing.value.code == "no_tie_at_cut"
    decision = decide_tie(first[0], [named["T3"].pk, named["T5"].pk], actor=organizer(alice))
    assert decision.ranking == [
        [named["T0"].pk],
        [named["T3"].pk],
        [named["T5"].pk],
        [named["T7"].pk],
    ]
    assert LeagueChange.objects.filter(action="teams.knockout.decided").count() == 1
    advance_knockout(league, actor=organizer(alice))
    (final,) = round_groups(league, 2)
    assert names(final) == ["T0", "T1", "T3", "T6"]
    with pytest.raises(ServiceError) as closed:
        decide_tie(first[0], [named["T5"].pk, named["T3"].pk], actor=organizer(alice))
    assert closed.value.code == "round_closed"


def test_a_shared_first_place_of_the_final_needs_a_decision(alice: User) -> None:
    league, teams, squads = group_stage_done(alice, 4)
    start(alice, league)
    (final,) = round_groups(league, 1)
    give_result(final, {"T0": 40, "T1": 40, "T2": 0, "T3": -80}, squads, alice)
    bracket = knockout_bracket(league)
    assert bracket is not None and bracket.rounds[0].matches[0].tie_at_cut
    named = _by_name(teams)
    decide_tie(final, [named["T1"].pk, named["T0"].pk], actor=organizer(alice))
    assert advance_knockout(league, actor=organizer(alice)).champion == named["T1"]


def test_drawn_seeds_come_again_with_the_same_seed(alice: User) -> None:
    orders = []
    for name in ("A", "B"):
        league, _teams, _squads = group_stage_done(alice, 8, name=name)
        knockout = start(alice, league, seeding="draw", seed=7)
        assert knockout.seeding == Knockout.Seeding.DRAW and knockout.seed == 7
        orders.append([Team.objects.get(pk=pk).name for pk in knockout.seeds])
        positions = sorted(Team.objects.filter(league=league).values_list("pk", flat=True))
        assert knockout.seeds == list(core.seeds_by_draw(positions, 7))
    assert orders[0] == orders[1]
    assert orders[0] != SEEDS_8


def test_refusals(alice: User, bob: User) -> None:
    league, _teams, squads = group_stage_done(alice, 8)
    group = Group.objects.filter(match_day__league=league).first()
    assert group is not None
    give_result(
        group, {t.name: 0 for t in Team.objects.filter(league=league)}, squads, alice, final=False
    )
    with pytest.raises(ServiceError) as unfinished:
        start(alice, league)
    assert unfinished.value.code == "group_stage_unfinished"
    with pytest.raises(ServiceError) as not_started:
        advance_knockout(league, actor=organizer(alice))
    assert not_started.value.code == "knockout_not_started"
    give_result(group, {t.name: 0 for t in Team.objects.filter(league=league)}, squads, alice)
    with pytest.raises(ServiceError) as stranger:
        start(bob, league)
    assert stranger.value.code == "not_league_owner"
    with pytest.raises(ServiceError) as bad:
        start(alice, league, match_size=4, advance=3)
    assert (bad.value.code, bad.value.field) == ("invalid_advance", "advance")
    with pytest.raises(ServiceError) as size:
        start(alice, league, match_size=3)
    assert size.value.field == "match_size"
    start(alice, league, match_size=2, advance=1)
    with pytest.raises(ServiceError) as twice:
        start(alice, league)
    assert twice.value.code == "knockout_started"
    assert len(round_groups(league, 1)) == 4  # pairs: 8 teams, 4 matches
    with pytest.raises(ServiceError) as remade:
        make_match_days(league, actor=organizer(alice))
    assert remade.value.code == "knockout_started"


def test_a_corrected_result_without_the_tie_decides_by_itself(alice: User) -> None:
    league, teams, squads = group_stage_done(alice, 4)
    start(alice, league)
    (final,) = round_groups(league, 1)
    named = _by_name(teams)
    give_result(final, {"T0": 40, "T1": 40, "T2": 0, "T3": -80}, squads, alice)
    decide_tie(final, [named["T1"].pk, named["T0"].pk], actor=organizer(alice))
    bracket = knockout_bracket(league)
    assert bracket is not None and bracket.champion == named["T1"]
    assert bracket.rounds[0].matches[0].decided_by_league
    give_result(final, {"T0": 50, "T1": 40, "T2": 0, "T3": -90}, squads, alice)  # corrected
    bracket = knockout_bracket(league)
    assert bracket is not None and bracket.champion == named["T0"]
    assert not bracket.rounds[0].matches[0].decided_by_league


def test_the_demo_decides_a_tie_at_the_cut_by_the_seeds(alice: User) -> None:
    """The demo's games are drawn anew on each build; a tie at the cut must not stop it."""
    league, _teams, squads = group_stage_done(alice, 8)
    start(alice, league)
    first = round_groups(league, 1)
    give_result(first[0], {"T0": 50, "T5": 30, "T3": 30, "T7": 0}, squads, alice)
    give_result(first[1], {"T6": 90, "T1": 70, "T2": 60, "T4": 0}, squads, alice)
    bracket = knockout_bracket(league)
    assert bracket is not None
    seeds = {line.team.name: line.seed for line in bracket.rounds[0].matches[0].lines}
    better, worse = sorted(("T3", "T5"), key=seeds.__getitem__)
    decide_ties_by_seed(league, organizer(alice))
    advance_knockout(league, actor=organizer(alice))
    (final,) = round_groups(league, 2)
    assert better in names(final) and worse not in names(final)
