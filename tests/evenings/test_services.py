"""The evening's use cases: groups, tables, quick and full entry with Bock from the engine,
sitting out at 5/6/7, idempotent retries, the last game deleted, the settlement, and who
may do what across clubs."""

from __future__ import annotations

import datetime
import random

import pytest

from cashbox.settlement import Mode
from clubs.models import Club
from common.actors import Actor
from common.services import Refusal, ServiceError
from evenings import services
from evenings.doors import TABLE_LINK
from evenings.models import Evening, EveningChange, EveningGame
from tests.evenings.conftest import actor, make_evening, make_group, playing

PHONE = Actor(TABLE_LINK, device="phone-1")


def quick(table, number, winners=None, value=1, **kw):  # type: ignore[no-untyped-def]
    who = playing(table)
    data = services.QuickData(winners=tuple(winners or who[:2]), value=value, **kw)
    return services.enter_game(table, number, data, actor=PHONE)


def test_quick_game_scores_and_marks_its_kind(club_a: Club) -> None:
    group = make_group(club_a, 4)
    _, (table,) = make_evening(group)
    who = playing(table)
    game = quick(table, 1, value=3)
    assert game.kind == EveningGame.Kind.QUICK
    assert game.points == {str(who[0]): 3, str(who[1]): 3, str(who[2]): -3, str(who[3]): -3}
    assert (game.profile, game.profile_version, game.bock) == ("haus_mit_bock", 1, 0)
    assert EveningChange.objects.filter(action="evenings.game.entered").count() == 1


def test_full_game_is_scored_by_the_engine(club_a: Club) -> None:
    group = make_group(club_a, 4)
    _, (table,) = make_evening(group)
    who = playing(table)
    record = {"contract": "normal", "re": [1, 3], "re_points": 151}
    game = services.enter_game(table, 1, services.FullData(record), actor=PHONE)
    assert game.kind == EveningGame.Kind.FULL
    assert game.points[str(who[0])] == 2 and game.points[str(who[1])] == -2  # won, unter 90
    assert sum(game.points.values()) == 0


def test_a_full_entry_the_engine_refuses_names_its_field(club_a: Club) -> None:
    group = make_group(club_a, 4)
    _, (table,) = make_evening(group)
    record = {"contract": "normal", "re": [1], "re_points": 151}
    with pytest.raises(ServiceError) as caught:
        services.enter_game(table, 1, services.FullData(record), actor=PHONE)
    assert caught.value.field == "re"


def test_a_tie_starts_a_bock_round_the_next_games_count_double(club_a: Club) -> None:
    group = make_group(club_a, 4)
    _, (table,) = make_evening(group)
    tie = {"contract": "normal", "re": [1, 2], "re_points": 120}
    first = services.enter_game(table, 1, services.FullData(tie), actor=PHONE)
    assert first.bock == 0 and first.fired == 1
    for number in range(2, 6):
        assert quick(table, number, value=1).bock == 1
    assert quick(table, 6, value=1).bock == 0


def test_quick_triggers_stack_into_double_bock(club_a: Club) -> None:
    group = make_group(club_a, 4)
    _, (table,) = make_evening(group)
    quick(table, 1, triggers=("tie",))
    game = quick(table, 2, triggers=("lost_announcement",))
    assert game.bock == 1
    game = quick(table, 3, value=2)
    assert game.bock == 2
    assert max(game.points.values()) == 8  # 2 x 2 x 2


def test_a_phone_never_types_the_multiplier(club_a: Club) -> None:
    group = make_group(club_a, 4)
    _, (table,) = make_evening(group)
    record = {"contract": "normal", "re": [1, 2], "re_points": 151, "bock": 3}
    game = services.enter_game(table, 1, services.FullData(record), actor=PHONE)
    assert game.bock == 0


@pytest.mark.parametrize(("size", "out"), [(4, 0), (5, 1), (6, 2), (7, 3)])
def test_sitting_out_in_turn(club_a: Club, size: int, out: int) -> None:
    group = make_group(club_a, size)
    _, (table,) = make_evening(group)
    sat_out: dict[int, int] = dict.fromkeys(table.seats, 0)
    for number in range(1, size + 1):
        game = quick(table, number)
        zero = [int(p) for p, v in game.points.items() if v == 0]
        assert len(zero) == out
        for player in zero:
            sat_out[player] += 1
        if out:
            assert game.seats[game.dealer] in zero  # the dealer sits out
    assert set(sat_out.values()) == {out}


def test_a_retry_with_the_same_key_returns_the_first_game(club_a: Club) -> None:
    group = make_group(club_a, 4)
    _, (table,) = make_evening(group)
    who = playing(table)
    data = services.QuickData(winners=(who[0], who[1]), value=2)
    first = services.enter_game(table, 1, data, key="k1", actor=PHONE)
    again = services.enter_game(table, 1, data, key="k1", actor=PHONE)
    assert again.pk == first.pk
    assert EveningGame.objects.count() == 1


def test_the_same_number_twice_is_a_conflict(club_a: Club) -> None:
    group = make_group(club_a, 4)
    _, (table,) = make_evening(group)
    quick(table, 1)
    with pytest.raises(ServiceError) as caught:
        quick(table, 1)
    assert caught.value.refusal is Refusal.CONFLICT


def test_delete_the_last_game_gives_the_deal_back(club_a: Club) -> None:
    group = make_group(club_a, 5)
    _, (table,) = make_evening(group)
    quick(table, 1)
    game = quick(table, 2)
    with pytest.raises(ServiceError):
        services.delete_last_game(table, 1, actor=PHONE)
    services.delete_last_game(table, 2, actor=PHONE)
    table.refresh_from_db()
    assert table.dealer == game.dealer
    assert quick(table, 2).dealer == game.dealer


def test_the_rounds_end_the_evening(club_a: Club) -> None:
    group = make_group(club_a, 4)
    evening = services.open_evening(
        group, services.EveningData(datetime.date(2026, 11, 26), "rounds", rounds=1),
        actor=actor("olga"),
    )  # fmt: skip
    players = list(group.memberships.values_list("player_id", flat=True))
    (table,) = services.set_tables(evening, [players], actor=actor("olga"))
    for number in range(1, 5):
        quick(table, number)
    with pytest.raises(ServiceError) as caught:
        quick(table, 5)
    assert caught.value.code == "evening_over"


def test_tables_drawn_at_random_sit_everyone_once(club_a: Club) -> None:
    group = make_group(club_a, 7)
    evening = services.open_evening(
        group, services.EveningData(datetime.date(2026, 11, 26)), actor=actor("olga")
    )
    players = list(group.memberships.values_list("player_id", flat=True))
    with pytest.raises(ServiceError):
        services.set_tables(evening, players=players, tables=2, actor=actor("olga"))
    (table,) = services.set_tables(evening, players=players, tables=1, seed=3, actor=actor("olga"))
    assert sorted(table.seats) == sorted(players)


def test_a_player_joins_between_games(club_a: Club) -> None:
    group = make_group(club_a, 5)
    evening, (table,) = make_evening(group, [4])
    quick(table, 1)
    everyone = list(group.memberships.order_by("pk").values_list("player_id", flat=True))
    services.set_tables(evening, [everyone], actor=actor("olga"))
    table.refresh_from_db()
    game = quick(table, 2)
    assert len(game.seats) == 5
    assert list(game.points.values()).count(0) == 1


def test_close_settles_to_zero(club_a: Club) -> None:
    group = make_group(club_a, 6, cents_per_point=10)
    evening, (table,) = make_evening(group)
    for number in range(1, 13):
        who = playing(table)
        pick = random.Random(number)
        quick(table, number, winners=pick.sample(who, 2), value=pick.randint(1, 5))
    services.close_evening(evening, actor=actor("otto"))
    evening.refresh_from_db()
    figures = evening.settlement
    assert evening.status == Evening.Status.CLOSED
    assert sum(b["cents"] for b in figures["balances"]) == 0
    assert figures["mode"] == Mode.TRANSFERS
    for balance in figures["balances"]:
        paid = sum(t["cents"] for t in figures["transfers"] if t["payer"] == balance["player"])
        got = sum(t["cents"] for t in figures["transfers"] if t["payee"] == balance["player"])
        assert got - paid == balance["cents"]
    assert any(b["cents"] for b in figures["balances"])
    assert len(figures["transfers"]) <= len([b for b in figures["balances"] if b["cents"]]) - 1
    with pytest.raises(ServiceError):
        quick(table, 13)


def test_alles_in_die_kasse(club_a: Club) -> None:
    group = make_group(club_a, 4, settlement="cashbox")
    evening, (table,) = make_evening(group)
    quick(table, 1, value=2)
    services.close_evening(evening, actor=actor("olga"))
    evening.refresh_from_db()
    assert all(t["payee"] is None for t in evening.settlement["transfers"])
    assert sum(t["cents"] for t in evening.settlement["transfers"]) == 20


@pytest.mark.parametrize("name", ["cora", "rudi", "bert"])
def test_only_owners_and_organizers_keep_evenings(club_a: Club, club_b: Club, name: str) -> None:
    with pytest.raises(ServiceError) as caught:
        services.create_group(club_a, services.GroupData(name="X"), actor=actor(name))
    assert caught.value.refusal is Refusal.FORBIDDEN
    group = make_group(club_a, 4)
    with pytest.raises(ServiceError):
        services.open_evening(
            group, services.EveningData(datetime.date(2026, 11, 26)), actor=actor(name)
        )


def test_players_of_another_registry_cannot_be_added(club_a: Club, club_b: Club) -> None:
    bert_group = services.create_group(club_b, services.GroupData(name="B"), actor=actor("bert"))
    (added,) = services.add_members(bert_group, new_names=["Zora Z"], actor=actor("bert"))
    group = make_group(club_a, 4)
    with pytest.raises(ServiceError):
        services.add_members(group, [added.player_id], actor=actor("olga"))


def test_the_engine_refusal_is_said_in_german(club_a: Club) -> None:
    from django.utils import translation

    group = make_group(club_a, 4)
    _, (table,) = make_evening(group)
    record = {"contract": "normal", "re": [1], "re_points": 151}
    with translation.override("de"), pytest.raises(ServiceError) as caught:
        services.enter_game(table, 1, services.FullData(record), actor=PHONE)
    assert "Re" in caught.value.message and "must have" not in caught.value.message


def test_the_season_line_adds_up_the_closed_evenings(club_a: Club) -> None:
    group = make_group(club_a, 4, cents_per_point=10)
    totals: dict[int, int] = {}
    for value in (2, 3):
        evening, (table,) = make_evening(group)
        who = playing(table)
        quick(table, 1, winners=[who[0], who[1]], value=value)
        for player in who:
            totals[player] = totals.get(player, 0) + (value if player in who[:2] else -value)
        services.close_evening(evening, actor=actor("olga"))
    make_evening(group)  # still running: not in the season
    lines = services.season_lines(group)
    assert {line.player: line.points for line in lines} == totals
    assert all(line.evenings == 2 for line in lines)
    assert sum(line.cents for line in lines) == 0
    assert [line.cents for line in lines] == sorted((line.cents for line in lines), reverse=True)
