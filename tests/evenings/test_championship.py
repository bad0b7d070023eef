"""The club championship over a group's evenings: games sat out do not count as played,
each table's placement, a running evening pending, the rule as checked data, and the group's
page in German and English with errors next to the field."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest
from django.urls import reverse
from freezegun import freeze_time

from clubs.models import Club
from common.actors import Actor
from common.services import ServiceError
from evenings import services
from evenings.championship import championship, evening_results
from evenings.doors import TABLE_LINK
from evenings.models import EveningChange, EveningTable, Group
from seasons.ranking import TableResult
from tests.evenings.conftest import actor, make_evening, make_group, playing, user
from tests.factories import page_client

PHONE = Actor(TABLE_LINK, device="phone-1")
NOV_26 = datetime.date(2026, 11, 26)


def test_games_sat_out_do_not_count_as_played() -> None:
    """A table of five, five games: the dealer sits out each once (positions 0..4 deal)."""
    seats = [11, 12, 13, 14, 15]
    games = [
        (1, 7, seats, dealer, {str(p): (2 if p == 11 and dealer else 0) for p in seats})
        for dealer in range(5)
    ]
    results = {r.player: r for r in evening_results(games, {1: (NOV_26, True)})}
    assert {p: r.games for p, r in results.items()} == dict.fromkeys(seats, 4)
    # Player 11 sat out game 1 (he dealt) and scored 2 in each of the other four.
    assert results[11].series_points == (8,)
    assert results[11].tables == (TableResult(8, (8, 0, 0, 0, 0)),)


def test_a_player_who_changed_tables_is_placed_at_each() -> None:
    a, b = [1, 2, 3, 4], [5, 6, 7, 1]  # player 1 moved to table 8 after a game at table 7
    games = [
        (1, 7, a, 0, {"1": 3, "2": -1, "3": -1, "4": -1}),
        (1, 8, b, 0, {"5": 0, "6": 2, "7": -2, "1": 0}),
    ]
    (one,) = [r for r in evening_results(games, {1: (NOV_26, False)}) if r.player == 1]
    assert one.tables == (TableResult(3, (3, -1, -1, -1)), TableResult(0, (0, 2, -2, 0)))
    assert one.open_points == (3,) and one.series_points == () and not one.complete
    # At table 8 the dealer (seat 0, player 5) sat out: player 1 played its one game.
    assert one.games == 2


def quick(table: EveningTable, number: int, winners: tuple[int, int], value: int) -> None:
    data = services.QuickData(winners=winners, value=value)
    services.enter_game(table, number, data, actor=PHONE)


def play_evening(group: Group, values: list[int], *, close: bool = True) -> None:
    """An evening at one table of four; in game n the first two players of the turn win
    ``values[n]``."""
    evening, (table,) = make_evening(group)
    for number, value in enumerate(values, start=1):
        who = playing(table)
        quick(table, number, (who[0], who[1]), value)
    if close:
        services.close_evening(evening, actor=actor("olga"))


@freeze_time("2026-11-27 12:00")
def test_the_championship_of_two_closed_evenings_and_a_running_one(club_a: Club) -> None:
    group = make_group(club_a, 4)
    play_evening(group, [2, 1, 3, 1])
    play_evening(group, [1, 1, 1, 1])
    play_evening(group, [5], close=False)
    table = championship(group)
    assert (table.evenings, table.running) == (2, 1)
    assert [ln.attended for ln in table.ranked] == [2, 2, 2, 2]
    assert all(ln.pending == 1 for ln in table.ranked)
    assert all(ln.games == 8 for ln in table.ranked)  # a table of four: everybody plays
    # Every evening's table is a table of four: its placement points sum to 0.
    assert sum(ln.value for ln in table.ranked) == 0
    assert sum(ln.placement for ln in table.ranked) == 0
    for line in table.ranked:
        assert line.per_24 == Decimal(line.points * 24) / 8


@freeze_time("2026-11-27 12:00")
def test_the_rule_is_data_checked_on_saving(club_a: Club) -> None:
    group = make_group(club_a, 4)
    with pytest.raises(ServiceError) as refused:
        services.set_championship_rule(
            group, "club_championship", {"table_points": [[3, 1, -1, -3], [1, 3, 0, 0]]},
            actor=actor("olga"),
        )  # fmt: skip
    assert refused.value.field == "table_points"
    with pytest.raises(ServiceError) as refused:
        services.set_championship_rule(group, "ddv_rangliste", {}, actor=actor("olga"))
    assert refused.value.field == "ranking_preset"
    with pytest.raises(ServiceError):  # a cashier keeps no evenings
        services.set_championship_rule(group, "evening_average", {}, actor=actor("cora"))
    services.set_championship_rule(group, "evening_average", {"best_n": 1}, actor=actor("otto"))
    group.refresh_from_db()
    assert (group.ranking_preset, group.ranking_overrides) == ("evening_average", {"best_n": 1})
    assert EveningChange.objects.filter(action="evenings.championship.changed").count() == 1
    play_evening(group, [2, 1])
    play_evening(group, [1, 1])
    line = championship(group).ranked[0]
    assert (line.counted, line.dropped) == (1, 1)


@freeze_time("2026-11-27 12:00")
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("de", ("Vereinsmeisterschaft", "je 24 Spiele", "Platzierungspunkte", "gestrichen")),
        ("en", ("Club championship", "per 24 games", "placement points", "dropped")),
    ],
)
def test_the_group_page_shows_the_championship(
    club_a: Club, language: str, words: tuple[str, ...]
) -> None:
    group = make_group(club_a, 4)
    services.set_championship_rule(group, "evening_points", {"best_n": 1}, actor=actor("olga"))
    play_evening(group, [2, 1])
    play_evening(group, [1, 3])
    html = (
        page_client(user("otto"), language=language)
        .get(reverse("evenings:group", args=["a", group.slug]))
        .content.decode()
    )
    for word in words:
        assert word in html, word
    assert html.count('class="narrow-line"') == 4  # every player's figures on a phone


@freeze_time("2026-11-27 12:00")
def test_a_wrong_rule_is_said_next_to_its_field(club_a: Club) -> None:
    group = make_group(club_a, 4)
    url = reverse("evenings:group", args=["a", group.slug])
    client = page_client(user("otto"), language="de")
    typed = "3, 1, -1, -3\n1, 2, 3, 4, x"
    response = client.post(url, {"form": "championship", "ranking_preset": "club_championship",
                                 "table_points": typed})  # fmt: skip
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="id_table_points-errors"' in html
    assert "eine Zeile je Tischgröße" in html
    assert "1, 2, 3, 4, x" in html  # what was typed stays
    response = client.post(url, {"form": "championship", "ranking_preset": "club_championship",
                                 "table_points": "3, 1, -1, -3\n1, 2, 0, -3, -4"})  # fmt: skip
    assert response.status_code == 400
    assert "Ein besserer Platz" in response.content.decode()
    response = client.post(url, {"form": "championship", "ranking_preset": "club_championship",
                                 "best_n": "4", "table_points": "+3, +1, −1, −3"})  # fmt: skip
    assert response.status_code == 302
    group.refresh_from_db()
    assert group.ranking_overrides == {"best_n": 4, "table_points": [[3, 1, -1, -3]]}
    assert client.post(url, {"form": "championship", "ranking_preset": "nonsense"}).status_code == (
        400
    )


@freeze_time("2026-11-27 12:00")
def test_the_championship_reads_three_statements_whatever_the_evenings(
    club_a: Club, django_assert_num_queries: Any
) -> None:
    group = make_group(club_a, 4)
    for _ in range(3):
        play_evening(group, [1, 2, 1, 2])
    with django_assert_num_queries(3):  # the evenings, the games, the names
        table = championship(group)
    assert table.evenings == 3 and len(table.ranked) == 4
