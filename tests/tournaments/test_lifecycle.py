"""Draw → start → close → draw the next; steps out of order are refused with a message."""

import pytest
from django.test import Client

from common.services import ServiceError
from tests.factories import add_players
from tournaments.models import Seat, Series, Tournament
from tournaments.services.draw import seat_series, swap_players
from tournaments.services.lifecycle import mark_closed, start_series


def series(tournament: Tournament, number: int) -> Series:
    return tournament.series.get(number=number)


def test_draw_seats_every_present_player_once(tournament: Tournament) -> None:
    registrations = add_players(tournament, 22)
    add_players(tournament, 2, checked_in=False)
    plan = seat_series(series(tournament, 1), seed=7)
    seats = Seat.objects.filter(series__number=1)
    assert seats.count() == 22
    assert {s.registration_id for s in seats} == {r.pk for r in registrations}
    sizes = sorted(t.seats.count() for t in series(tournament, 1).tables.all())
    assert sizes == [4, 4, 4, 5, 5]
    s1 = series(tournament, 1)
    assert (s1.status, s1.seed, s1.draw_version) == ("drawn", 7, plan.version)


def test_draw_is_deterministic_for_a_seed(tournament: Tournament) -> None:
    add_players(tournament, 20)

    def tables() -> list[list[int]]:
        return [
            list(t.seats.values_list("registration__start_number", flat=True))
            for t in series(tournament, 1).tables.order_by("number")
        ]

    seat_series(series(tournament, 1), seed=99)
    first = tables()
    seat_series(series(tournament, 1), seed=99)
    assert tables() == first


def test_draw_refuses_impossible_table_split(tournament: Tournament) -> None:
    add_players(tournament, 11)
    with pytest.raises(ServiceError) as info:
        seat_series(series(tournament, 1), seed=1)
    assert info.value.code == "no_table_split"
    assert "11" in info.value.message
    assert series(tournament, 1).status == "planned"


def test_steps_out_of_order_are_refused(tournament: Tournament) -> None:
    add_players(tournament, 16)
    s1, s2, s3 = (series(tournament, n) for n in (1, 2, 3))
    with pytest.raises(ServiceError):
        start_series(s1)  # not drawn
    with pytest.raises(ServiceError):
        mark_closed(s1)  # not running
    with pytest.raises(ServiceError) as info:
        seat_series(s2, seed=1)  # series 1 not drawn yet
    assert info.value.code == "previous_not_drawn"
    seat_series(s1, seed=1)
    seat_series(s2, seed=2)  # drawing ahead is allowed
    with pytest.raises(ServiceError) as info:
        seat_series(s1, seed=3)  # a later series is drawn
    assert info.value.code == "later_series_drawn"
    with pytest.raises(ServiceError) as info:
        start_series(s2)  # series 1 not closed
    assert info.value.code == "previous_not_closed"
    start_series(s1)
    with pytest.raises(ServiceError) as info:
        seat_series(s1, seed=4)  # running series cannot be redrawn
    assert info.value.code == "series_started"
    mark_closed(s1)
    start_series(s2)
    mark_closed(s2)
    seat_series(s3, seed=5, mode="standings")
    start_series(s3)
    mark_closed(s3)
    tournament.refresh_from_db()
    assert tournament.status == "finished"


def test_later_series_avoid_repeats(tournament: Tournament) -> None:
    add_players(tournament, 32)
    for number in (1, 2, 3):
        seat_series(series(tournament, number), seed=11)
    assert [series(tournament, n).repeats for n in (1, 2, 3)] == [0, 0, 0]


def test_swap_players_reports_repeats(tournament: Tournament) -> None:
    registrations = add_players(tournament, 16)
    seat_series(series(tournament, 1), seed=3)
    seat_series(series(tournament, 2), seed=3)
    s2 = series(tournament, 2)
    a, b = registrations[0], registrations[1]
    table_of = {s.registration_id: s.table_id for s in Seat.objects.filter(series=s2)}
    if table_of[a.pk] == table_of[b.pk]:
        b = next(r for r in registrations if table_of[r.pk] != table_of[a.pk])
    before = {s.registration_id: (s.table_id, s.position) for s in Seat.objects.filter(series=s2)}
    repeats = swap_players(s2, a, b)
    after = {s.registration_id: (s.table_id, s.position) for s in Seat.objects.filter(series=s2)}
    assert after[a.pk] == before[b.pk] and after[b.pk] == before[a.pk]
    assert repeats == series(tournament, 2).repeats


def test_series_page_draw_and_start(alice_client: Client, tournament: Tournament) -> None:
    add_players(tournament, 8)
    response = alice_client.post(
        "/verwaltung/herbst/serie/1/auslosen/", {"seed": "5", "mode": "random"}
    )
    assert response.status_code == 302
    alice_client.post("/verwaltung/herbst/serie/1/", {"action": "start"})
    assert series(tournament, 1).status == "running"
    page = alice_client.get("/verwaltung/herbst/serie/1/").content.decode()
    table = series(tournament, 1).tables.first()
    assert table.get_captain_url() in page


def test_series_page_shows_refusal(alice_client: Client, tournament: Tournament) -> None:
    add_players(tournament, 7)
    response = alice_client.post(
        "/verwaltung/herbst/serie/1/auslosen/", {"seed": "5", "mode": "random"},
        follow=True,
    )  # fmt: skip
    assert "7" in response.content.decode()
    assert series(tournament, 1).status == "planned"


def test_public_seating_page(client: Client, tournament: Tournament) -> None:
    add_players(tournament, 8)
    assert client.get("/turniere/herbst/serie/1/").status_code == 404
    seat_series(series(tournament, 1), seed=42)
    html = client.get("/turniere/herbst/serie/1/").content.decode()
    assert "42" in html and "Nachname1" in html
