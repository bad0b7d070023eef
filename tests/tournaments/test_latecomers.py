"""Latecomers: seating checked-in players without a seat after the draw, and starting a
series only with confirmation while some have none (service and organizer pages)."""

from __future__ import annotations

import pytest
from django.test import Client

from common.services import Refusal, ServiceError
from tests.factories import add_players, seat_table, set_status
from tournaments.models import Registration, Seat, Series, Table, Tournament
from tournaments.services.draw import seat_series
from tournaments.services.latecomers import (
    propose_latecomers,
    seat_latecomers,
    unseated_players,
)
from tournaments.services.lifecycle import start_series

PAGE = "/verwaltung/herbst/serie/{n}/"


def series(tournament: Tournament, number: int = 1) -> Series:
    return tournament.series.get(number=number)


def layout(s: Series) -> list[list[int]]:
    return [
        list(t.seats.order_by("position").values_list("registration__start_number", flat=True))
        for t in s.tables.order_by("number")
    ]


@pytest.fixture
def history(tournament: Tournament) -> list[Registration]:
    """Series 1 closed with tables [1, 2, 3, 9] and [4, 5, 6, 7, 8]; series 2 drawn with
    [1, 4, 5, 6] and [2, 3, 7, 8]; player 9 checked in but without a seat in series 2."""
    players = add_players(tournament, 9)
    by = {r.start_number: r for r in players}
    s1, s2 = series(tournament, 1), series(tournament, 2)
    seat_table(s1, [by[n] for n in (1, 2, 3, 9)], 1)
    seat_table(s1, [by[n] for n in (4, 5, 6, 7, 8)], 2)
    set_status(s1, Series.Status.CLOSED)
    seat_table(s2, [by[n] for n in (1, 4, 5, 6)], 1)
    seat_table(s2, [by[n] for n in (2, 3, 7, 8)], 2)
    set_status(s2, Series.Status.DRAWN)
    return players


def test_latecomer_joins_the_table_with_fewest_repeats(
    tournament: Tournament, history: list[Registration]
) -> None:
    s2 = series(tournament, 2)
    assert [r.start_number for r in unseated_players(s2)] == [9]
    preview = propose_latecomers(s2)
    assert layout(s2) == [[1, 4, 5, 6], [2, 3, 7, 8]], "a preview changes nothing"
    outcome = seat_latecomers(s2)
    assert outcome == preview
    assert layout(s2) == [[1, 4, 5, 6, 9], [2, 3, 7, 8]]
    [place] = outcome.placements
    assert (place.registration.start_number, place.table, place.seat) == (9, 1, 5)
    assert place.from_table is None and outcome.new_tables == []
    assert [(a.start_number, b.start_number) for a, b in outcome.repeat_pairs] == [(1, 9)]
    s2.refresh_from_db()
    # (4,5), (4,6), (5,6), (1,9) at table 1; (2,3), (7,8) at table 2.
    assert s2.repeats == outcome.repeats == 6
    assert unseated_players(s2) == []


def test_only_tables_of_five_make_a_new_table_of_four(tournament: Tournament) -> None:
    add_players(tournament, 15)
    seat_series(series(tournament), seed=4)
    before = layout(series(tournament))
    tokens = set(Table.objects.values_list("captain_token", flat=True))
    add_players(tournament, 1)
    outcome = seat_latecomers(series(tournament))
    after = layout(series(tournament))
    assert [len(t) for t in after] == [4, 4, 4, 4]
    assert outcome.new_tables == [4]
    moved = [p for p in outcome.placements if p.from_table is not None]
    assert sorted(p.from_table for p in moved) == [1, 2, 3]
    assert all(p.table == 4 for p in outcome.placements)
    for old, new in zip(before, after[:3], strict=False):
        assert new == [n for n in old if n in new], "the others keep their order"
    new_table = series(tournament).tables.get(number=4)
    assert new_table.captain_token and new_table.captain_token not in tokens
    positions = Seat.objects.filter(series=series(tournament)).values_list("position", flat=True)
    assert sorted(positions) == sorted([1, 2, 3, 4] * 4)


def test_impossible_split_is_refused_and_nothing_changes(tournament: Tournament) -> None:
    add_players(tournament, 10)
    seat_series(series(tournament), seed=1)
    before = layout(series(tournament))
    add_players(tournament, 1)
    with pytest.raises(ServiceError) as info:
        seat_latecomers(series(tournament))
    assert info.value.code == "no_table_split"
    assert "11" in info.value.message
    assert layout(series(tournament)) == before


def test_refused_before_the_draw_after_the_start_and_without_latecomers(
    tournament: Tournament,
) -> None:
    add_players(tournament, 8)
    with pytest.raises(ServiceError) as info:
        seat_latecomers(series(tournament))
    assert info.value.code == "not_drawn"
    seat_series(series(tournament), seed=1)
    with pytest.raises(ServiceError) as info:
        seat_latecomers(series(tournament))
    assert (info.value.code, info.value.refusal) == ("no_latecomers", Refusal.CONFLICT)
    add_players(tournament, 1)
    start_series(series(tournament), allow_unseated=True)
    with pytest.raises(ServiceError) as info:
        seat_latecomers(series(tournament))
    assert info.value.code == "series_started"
    assert "size" in info.value.message or "Größe" in info.value.message
    assert len(layout(series(tournament))[0]) == 4


def test_only_checked_in_players_of_this_series_are_seated(tournament: Tournament) -> None:
    add_players(tournament, 8)
    seat_series(series(tournament), seed=2)
    late, withdrawn = add_players(tournament, 2)
    add_players(tournament, 1, checked_in=False)
    withdrawn.withdrawn_from_series = 1
    withdrawn.save()
    assert unseated_players(series(tournament)) == [late]
    outcome = seat_latecomers(series(tournament))
    assert [p.registration for p in outcome.placements] == [late]


def test_start_needs_confirmation_while_players_have_no_seat(tournament: Tournament) -> None:
    add_players(tournament, 8)
    seat_series(series(tournament), seed=3)
    add_players(tournament, 1)
    with pytest.raises(ServiceError) as info:
        start_series(series(tournament))
    assert info.value.code == "unseated_players"
    assert info.value.data == {"unseated": [9]}
    assert "Nachname9" in info.value.message
    assert series(tournament).status == Series.Status.DRAWN
    start_series(series(tournament), allow_unseated=True)
    assert series(tournament).status == Series.Status.RUNNING


# --- the organizer's series page ------------------------------------------------------------


def test_page_previews_and_seats_latecomers(
    alice_client: Client, tournament: Tournament, history: list[Registration]
) -> None:
    html = alice_client.get(PAGE.format(n=2)).content.decode()
    assert "Nachname9" in html and 'value="seat_latecomers"' in html
    assert 'name="allow_unseated"' in html
    assert layout(series(tournament, 2))[0] == [1, 4, 5, 6]
    response = alice_client.post(PAGE.format(n=2), {"action": "seat_latecomers"}, follow=True)
    assert response.status_code == 200
    assert layout(series(tournament, 2))[0] == [1, 4, 5, 6, 9]
    html = response.content.decode()
    assert "Vorname1 Nachname1 – Vorname9 Nachname9" in html, "the cost is named"
    assert 'name="allow_unseated"' not in html


def test_page_start_asks_for_confirmation(alice_client: Client, tournament: Tournament) -> None:
    add_players(tournament, 10)
    seat_series(series(tournament), seed=5)
    add_players(tournament, 1)  # 11: cannot be seated, the page says why
    html = alice_client.get(PAGE.format(n=1)).content.decode()
    assert "11" in html and 'value="seat_latecomers"' not in html
    response = alice_client.post(PAGE.format(n=1), {"action": "start"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="start-error"' in html and "Nachname11" in html
    assert series(tournament).status == Series.Status.DRAWN
    response = alice_client.post(PAGE.format(n=1), {"action": "start", "allow_unseated": "on"})
    assert response.status_code == 302
    assert series(tournament).status == Series.Status.RUNNING
    html = alice_client.get(PAGE.format(n=1)).content.decode()
    assert "Nachname11" in html and 'value="seat_latecomers"' not in html


def test_page_start_without_latecomers_needs_no_confirmation(
    alice_client: Client, tournament: Tournament
) -> None:
    add_players(tournament, 8)
    seat_series(series(tournament), seed=5)
    assert 'name="allow_unseated"' not in alice_client.get(PAGE.format(n=1)).content.decode()
    alice_client.post(PAGE.format(n=1), {"action": "start"})
    assert series(tournament).status == Series.Status.RUNNING


def test_page_seating_refusal_is_a_message(alice_client: Client, tournament: Tournament) -> None:
    add_players(tournament, 8)
    response = alice_client.post(PAGE.format(n=1), {"action": "seat_latecomers"}, follow=True)
    assert response.status_code == 200
    assert Seat.objects.count() == 0


def test_other_organizers_cannot_seat(bob_client: Client, tournament: Tournament) -> None:
    add_players(tournament, 8)
    seat_series(series(tournament), seed=5)
    add_players(tournament, 1)
    response = bob_client.post(PAGE.format(n=1), {"action": "seat_latecomers"})
    assert response.status_code == 403
    assert Seat.objects.count() == 8
