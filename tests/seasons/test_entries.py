"""A season's stored ranking (``SeasonEntry``): equal to the live ranking after every change
of results (a game, a correction, a deduction) and of the season; refreshed by a task only
for tournaments in a season, each request at most once; read by a player's page in a number
of statements that does not grow with his seasons."""

from __future__ import annotations

import io
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.services.closing import close_series
from scoring.services.deductions import add_deduction
from scoring.services.entry import save_game
from seasons.entries import refresh_season_entries
from seasons.models import Season, SeasonEntry
from seasons.placed import placed_entries
from seasons.services import SeasonData, change_season, request_refresh
from seasons.standings import season_ranking
from tests.factories import page_client, play, running_table
from tests.seasons.conftest import KONTRA_WINS, RE_WINS, tournament_with_hans
from tests.seasons.helpers import organizer, played, season_of
from tournaments.models import Player, Table, Tournament
from tournaments.services.registry import merge_players

pytestmark = pytest.mark.django_db

OnCommit = Callable[..., AbstractContextManager[Any]]


def stored(season: Season) -> list[tuple[Any, ...]]:
    return sorted(
        (
            e.player_id, place, shared, e.value_numerator, e.value_denominator, e.series,
            e.total, e.tournaments, e.missing_series, e.ranked,
        )
        for e, place, shared in placed_entries(season)
    )  # fmt: skip


def placed(season: Season) -> list[tuple[SeasonEntry, int | None]]:
    """The stored lines in the ranking's order with their places."""
    return [(e, place) for e, place, _shared in placed_entries(season)]


def live(season: Season) -> list[tuple[Any, ...]]:
    return sorted(
        (
            ln.player, ln.place, ln.shared, ln.exact.numerator, ln.exact.denominator, ln.series,
            ln.total, ln.tournaments, ln.missing_series, ln.ranked,
        )
        for ln in season_ranking(season).lines
    )  # fmt: skip


def test_entries_follow_games_corrections_and_deductions(
    alice: User, tournament: Tournament, django_capture_on_commit_callbacks: OnCommit
) -> None:
    table = running_table(tournament)
    season = season_of(alice, [tournament], overrides={"min_series": 0})
    assert stored(season) == live(season) == []  # no results yet
    with django_capture_on_commit_callbacks(execute=True):
        play(table, [RE_WINS, KONTRA_WINS])
    # The series runs: nothing of it is final, nobody ranked, nothing counted.
    assert stored(season) == live(season)
    assert {
        (place, series, total) for _p, place, _s, _n, _d, series, total, *_r in live(season)
    } == {(None, 0, 0)}
    with django_capture_on_commit_callbacks(execute=True):
        close_series(table.series, actor=organizer(alice), past_unfinished=True)
    lines = stored(season)
    assert lines == live(season)
    seat = {s.position: s.registration for s in table.seats.all()}
    # Re (seats 1 and 3) won the first game: 1 point; Kontra won the second, against the
    # old ones: 2 points.
    assert {p: (place, total) for p, place, *_v, total, _t, _m, _r in lines} == {
        seat[1].player_id: (3, -1), seat[3].player_id: (3, -1),
        seat[2].player_id: (1, 1), seat[4].player_id: (1, 1),
    }  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        fresh = Table.objects.select_related("series__tournament").get(pk=table.pk)
        save_game(fresh, RE_WINS, number=2, actor=organizer(alice), reason="Falsch notiert")
    assert stored(season) == live(season)
    assert {p: total for p, _pl, *_v, total, _t, _m, _r in stored(season)} == {
        seat[1].player_id: 2,
        seat[2].player_id: -2,
        seat[3].player_id: 2,
        seat[4].player_id: -2,
    }
    with django_capture_on_commit_callbacks(execute=True):
        add_deduction(table.series, seat[1], -3, "Handy am Tisch", organizer(alice))
    assert stored(season) == live(season)
    first, place, shared = placed_entries(season)[0]
    assert (first.player_id, place, first.total, shared) == (seat[3].player_id, 1, 2, False)
    assert SeasonEntry.objects.get(season=season, player_id=seat[1].player_id).total == -1


def test_a_tournament_in_no_season_queues_no_task(
    tournament: Tournament, django_capture_on_commit_callbacks: OnCommit
) -> None:
    table = running_table(tournament)
    with mock.patch("seasons.tasks.refresh_season.delay") as delay:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            play(table, [RE_WINS])
        with CaptureQueriesContext(connection) as queries:
            for callback in callbacks:
                callback()
    delay.assert_not_called()
    assert len(queries) == 1  # is the tournament in a season?


def test_a_change_of_results_queues_one_task_per_season(
    alice: User, tournament: Tournament, django_capture_on_commit_callbacks: OnCommit
) -> None:
    table = running_table(tournament)
    first = season_of(alice, [tournament], preset="best_n", name="Eins")
    second = season_of(alice, [tournament], preset="best_n", name="Zwei")
    season_of(alice, [], name="Leer")
    with (
        mock.patch("seasons.tasks.refresh_season.delay") as delay,
        django_capture_on_commit_callbacks(execute=True),
    ):
        play(table, [RE_WINS])
    assert sorted(c.args for c in delay.call_args_list) == [(first.pk, 1), (second.pk, 1)]


def test_a_request_covered_by_a_later_refresh_is_skipped(alice: User) -> None:
    t = played(alice, "t", "2026-03-01", {"Anna Albers": [10], "Bernd Bäcker": [20]})
    season = season_of(alice, [t], preset="best_n")
    with mock.patch("seasons.tasks.refresh_season.delay") as delay:
        request_refresh([season.pk], [t.pk])
        request_refresh([season.pk], [t.pk])
    assert [c.args for c in delay.call_args_list] == [(season.pk, 1), (season.pk, 2)]
    # The first task's refresh reads the results after both requests: the second has nothing
    # left to do.
    assert refresh_season_entries(season, requested=1)
    assert not refresh_season_entries(season, requested=2)
    assert Season.objects.values_list("entries_requested", "entries_done").get() == (2, 2)
    assert stored(season) == live(season)


def test_changing_the_season_refreshes_its_entries(alice: User) -> None:
    t = played(alice, "t", "2026-03-01", {"Anna Albers": [10, 5], "Bernd Bäcker": [20]})
    season = season_of(alice, [t], preset="best_n")
    assert [p for _e, p in placed(season)] == [1, 2]  # Bernd 20, Anna 15
    season = change_season(
        season,
        SeasonData(name="Rangliste", slug=season.slug, preset="ddv_rangliste",
                   rule_overrides={"min_series": 2}),
        actor=organizer(alice),
    )  # fmt: skip
    assert stored(season) == live(season)
    anna, place = placed(season)[0]
    assert anna.player.first_name == "Anna"
    assert (place, anna.value_numerator, anna.value_denominator) == (1, 15, 2)
    assert not SeasonEntry.objects.get(season=season, player__first_name="Bernd").ranked


def test_the_command_refreshes_every_season(alice: User) -> None:
    t = played(alice, "t", "2026-03-01", {"Anna Albers": [10]})
    season = season_of(alice, [t], preset="best_n")
    SeasonEntry.objects.all().delete()
    out = io.StringIO()
    call_command("refresh_seasons", stdout=out)
    assert f"{season.slug}: 1 line(s)" in out.getvalue()
    assert stored(season) == live(season) != []


def test_the_player_page_reads_his_seasons_in_a_constant_number_of_statements(
    alice: User,
) -> None:
    _, hans = tournament_with_hans(alice, "herbst", 3, None, [RE_WINS, RE_WINS])
    tournament_with_hans(alice, "winter", 17, hans, [KONTRA_WINS])
    herbst, winter = Tournament.objects.get(slug="herbst"), Tournament.objects.get(slug="winter")
    url = reverse("seasons:player", args=[hans.pk])

    def statements() -> int:
        client = page_client(language="en")
        client.get(url)  # the session and the language first
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        return len(queries)

    season_of(alice, [herbst], preset="best_n", name="Eins", slug="eins")
    one = statements()
    season_of(alice, [herbst, winter], preset="best_n", name="Zwei", slug="zwei")
    season_of(alice, [winter], name="Drei", slug="drei")
    assert statements() == one
    html = page_client(language="en").get(url).content.decode()
    assert all(name in html for name in ("Eins", "Zwei", "Drei"))
    assert Player.objects.get(pk=hans.pk).season_entries.count() == 3


def test_merging_two_players_refreshes_the_seasons_of_their_tournaments(
    alice: User, django_capture_on_commit_callbacks: OnCommit
) -> None:
    """Anna played one cup tournament as "Anna Albers", one as "Anna Alber": once merged,
    both results are one line."""
    t1 = played(alice, "t1", "2026-03-01", {"Anna Albers": [10], "Bernd Bäcker": [20]})
    t2 = played(alice, "t2", "2026-04-01", {"Anna Alber": [15], "Bernd Bäcker": [1]})
    season = season_of(alice, [t1, t2], preset="best_n")
    assert [e.total for e, _p in placed(season)] == [21, 15, 10]
    anna, typo = (Player.objects.get(last_name=n) for n in ("Albers", "Alber"))
    with django_capture_on_commit_callbacks(execute=True):
        merge_players(alice, anna, typo)
    assert stored(season) == live(season)
    assert [(e.player_id, p, e.total) for e, p in placed(season)] == [
        (anna.pk, 1, 25),
        (Player.objects.get(last_name="Bäcker").pk, 2, 21),
    ]
