"""Keep-apart pairs: the organizer's services and page, and every draw honouring them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.test import Client
from rest_framework.test import APIClient

from common.actors import ORGANIZER, Actor
from common.services import Refusal, ServiceError
from tests.factories import add_players, page_client, seat_table, set_status
from tournaments.models import KeepApart, Registration, Series, Tournament, TournamentChange
from tournaments.services.draw import seat_series, swap_players
from tournaments.services.keep_apart import (
    ADDED,
    REMOVED,
    SEATED_BY_HAND,
    add_pair,
    not_honoured,
    remove_pair,
)
from tournaments.services.latecomers import seat_latecomers

PAGE = "/verwaltung/herbst/getrennt/"


def table_of(series: Series, registration: Registration) -> int:
    return series.seats.get(registration=registration).table.number


def test_adding_and_removing_a_pair_is_logged(tournament: Tournament, alice: User) -> None:
    a, b = add_players(tournament, 2)
    actor = Actor(ORGANIZER, user=alice)
    pair = add_pair(tournament, b, a, actor=actor)
    assert (pair.first, pair.second) == (a, b), "stored with the smaller id first"
    remove_pair(tournament, pair.pk, actor=actor)
    assert not KeepApart.objects.exists()
    log = list(TournamentChange.objects.order_by("pk").values_list("action", "before", "after"))
    assert log == [
        (ADDED, None, {"first": 1, "second": 2}),
        (REMOVED, {"first": 1, "second": 2}, None),
    ]
    assert TournamentChange.objects.first().via == "organizer alice"  # type: ignore[union-attr]


def test_a_pair_once_in_either_order_and_never_with_himself(
    tournament: Tournament, alice: User
) -> None:
    a, b = add_players(tournament, 2)
    actor = Actor(ORGANIZER, user=alice)
    add_pair(tournament, a, b, actor=actor)
    with pytest.raises(ServiceError) as error:
        add_pair(tournament, b, a, actor=actor)
    assert (error.value.code, error.value.field) == ("already_paired", "second")
    with pytest.raises(ServiceError) as error:
        add_pair(tournament, a, a, actor=actor)
    assert error.value.code == "same_player"
    # the database refuses them too
    with pytest.raises(IntegrityError), transaction.atomic():
        KeepApart.objects.create(tournament=tournament, first=b, second=a)
    with pytest.raises(IntegrityError), transaction.atomic():
        KeepApart.objects.create(tournament=tournament, first=a, second=a)


def test_another_organizer_may_not_add_or_remove(
    tournament: Tournament, other_tournament: Tournament, alice: User, bob: User
) -> None:
    a, b = add_players(tournament, 2)
    with pytest.raises(ServiceError) as error:
        add_pair(tournament, a, b, actor=Actor(ORGANIZER, user=bob))
    assert error.value.refusal == Refusal.FORBIDDEN
    pair = add_pair(tournament, a, b, actor=Actor(ORGANIZER, user=alice))
    with pytest.raises(ServiceError) as error:
        remove_pair(tournament, pair.pk, actor=Actor(ORGANIZER, user=bob))
    assert error.value.refusal == Refusal.FORBIDDEN
    # Bob's own tournament does not reach Alice's pair or players
    (c,) = add_players(other_tournament, 1)
    with pytest.raises(ServiceError) as error:
        remove_pair(other_tournament, pair.pk, actor=Actor(ORGANIZER, user=bob))
    assert error.value.refusal == Refusal.NOT_FOUND
    with pytest.raises(ServiceError) as error:
        add_pair(other_tournament, c, a, actor=Actor(ORGANIZER, user=bob))
    assert (error.value.refusal, error.value.field) == (Refusal.NOT_FOUND, "second")


def test_the_draw_keeps_every_pair_apart(tournament: Tournament, alice: User) -> None:
    players = add_players(tournament, 16)
    actor = Actor(ORGANIZER, user=alice)
    pairs = [(players[0], players[1]), (players[2], players[3]), (players[4], players[8])]
    for a, b in pairs:
        add_pair(tournament, a, b, actor=actor)
    for number in (1, 2):
        series = tournament.series.get(number=number)
        seat_series(series, seed=number)
        for a, b in pairs:
            assert table_of(series, a) != table_of(series, b)
        assert not_honoured(series) == []
        set_status(series, Series.Status.CLOSED)
    standings = tuple(r.start_number for r in players)
    series = tournament.series.get(number=3)
    seat_series(series, seed=3, mode="standings", standings=standings)
    for a, b in pairs:
        assert table_of(series, a) != table_of(series, b)


def test_a_pair_the_draw_cannot_keep_apart_is_reported_with_its_reason(
    tournament: Tournament, alice: User, alice_client: Client
) -> None:
    a, b, c, *_ = add_players(tournament, 8)
    actor = Actor(ORGANIZER, user=alice)
    for x, y in ((a, b), (a, c), (b, c)):  # three players who must sit apart: two tables
        add_pair(tournament, x, y, actor=actor)
    series = tournament.series.get(number=1)
    seat_series(series, seed=1)
    series.refresh_from_db()
    [entry] = not_honoured(series)
    assert entry.reason == "not_enough_tables"
    assert series.keep_apart_report == [
        {"pair": [entry.first.start_number, entry.second.start_number], "reason": entry.reason}
    ]
    page = alice_client.get("/verwaltung/herbst/serie/1/").content.decode()
    assert 'id="keep-apart"' in page
    assert "so vielen Spielern getrennt" in page  # the German reason
    english = page_client(alice, language="en").get("/verwaltung/herbst/serie/1/")
    assert "as many players as there are tables" in english.content.decode()
    # the draw form's answer says so too
    response = alice_client.post(
        "/verwaltung/herbst/serie/1/auslosen/", {"seed": "5", "mode": "random"}, follow=True
    )
    assert "1 Paar konnte nicht getrennt werden" in response.content.decode()


def test_a_swap_by_hand_that_seats_a_pair_together_is_shown(
    tournament: Tournament, alice: User
) -> None:
    players = add_players(tournament, 8)
    a, b = players[0], players[1]
    add_pair(tournament, a, b, actor=Actor(ORGANIZER, user=alice))
    series = tournament.series.get(number=1)
    seat_series(series, seed=4)
    assert not_honoured(series) == []
    mate = next(
        s.registration
        for s in series.seats.filter(table__number=table_of(series, a))
        if s.registration != a
    )
    swap_players(series, mate, b)
    [entry] = not_honoured(series)
    assert entry.reason == SEATED_BY_HAND


def test_a_latecomer_is_not_seated_with_his_partner(tournament: Tournament, alice: User) -> None:
    by = {r.start_number: r for r in add_players(tournament, 9)}
    series = tournament.series.get(number=1)
    seat_table(series, [by[n] for n in (1, 2, 3, 4)], 1)
    seat_table(series, [by[n] for n in (5, 6, 7, 8)], 2)
    set_status(series, Series.Status.DRAWN)
    add_pair(tournament, by[9], by[1], actor=Actor(ORGANIZER, user=alice))
    seat_latecomers(series)
    assert table_of(series, by[9]) == 2
    assert not_honoured(series) == []


def test_page_adds_lists_and_removes_pairs(
    tournament: Tournament, alice_client: Client, bob_client: Client
) -> None:
    a, b, c = add_players(tournament, 3)
    page = alice_client.get(PAGE)
    assert page.status_code == 200
    assert (
        "Spieler getrennt setzen"
        in alice_client.get("/verwaltung/herbst/spieler/").content.decode()
    )
    response = alice_client.post(PAGE, {"first": a.pk, "second": b.pk})
    assert response.status_code == 302
    pair = KeepApart.objects.get()
    assert (pair.first, pair.second) == (a, b)
    # an error is shown next to the field and the choice is kept
    response = alice_client.post(PAGE, {"first": b.pk, "second": a.pk})
    assert response.status_code == 200
    html = response.content.decode()
    assert "bereits getrennt" in html
    assert f'<option value="{b.pk}" selected>' in html
    response = alice_client.post(PAGE, {"first": c.pk, "second": c.pk})
    assert "zwei verschiedene" in response.content.decode()
    # another organizer: refused, nothing changes
    assert bob_client.get(PAGE).status_code == 403
    assert bob_client.post(PAGE, {"remove": pair.pk}).status_code == 403
    assert alice_client.post(PAGE, {"remove": pair.pk}).status_code == 302
    assert not KeepApart.objects.exists()
    assert alice_client.post(PAGE, {"remove": "x"}).status_code == 302


def test_the_api_draw_honours_stored_pairs_and_reports_the_rest(
    tournament: Tournament, alice: User, alice_api: APIClient
) -> None:
    a, b, c, d, *_ = add_players(tournament, 8)
    actor = Actor(ORGANIZER, user=alice)
    for x, y in ((a, b), (a, c), (b, c), (a, d)):
        add_pair(tournament, x, y, actor=actor)
    url = "/api/v1/tournaments/herbst/series/1/draw/"
    response = alice_api.post(url, {"seed": 7, "mode": "random"}, format="json")
    assert response.status_code == 200, response.json()
    [entry] = response.json()["keep_apart_report"]
    assert entry["reason"] == "not_enough_tables"
    series = tournament.series.get(number=1)
    assert table_of(series, a) != table_of(series, d), "the pair that can be honoured is"
    assert sorted(entry["pair"]) in ([1, 2], [1, 3], [2, 3])


def test_the_api_lists_adds_and_removes_pairs(
    tournament: Tournament, alice_api: APIClient, bob_api: APIClient
) -> None:
    add_players(tournament, 3)
    url = "/api/v1/tournaments/herbst/keep-apart/"
    response = alice_api.post(url, {"first": 3, "second": 1}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json() == {"first": 1, "second": 3}
    assert alice_api.get(url).json() == {"pairs": [{"first": 1, "second": 3}]}
    again = alice_api.post(url, {"first": 1, "second": 3}, format="json")
    assert again.status_code == 400 and again.json()["error"]["code"] == "already_paired"
    unknown = alice_api.post(url, {"first": 1, "second": 99}, format="json")
    assert unknown.status_code == 400 and unknown.json()["error"]["field"] == "second"
    assert bob_api.get(url).status_code == 403
    assert (
        bob_api.post(f"{url}remove/", {"first": 1, "second": 3}, format="json").status_code == 403
    )
    removed = alice_api.post(f"{url}remove/", {"first": 3, "second": 1}, format="json")
    assert removed.status_code == 204
    assert alice_api.get(url).json() == {"pairs": []}
    gone = alice_api.post(f"{url}remove/", {"first": 3, "second": 1}, format="json")
    assert gone.status_code == 404
    actions = TournamentChange.objects.order_by("pk").values_list("action", "via")
    assert list(actions) == [(ADDED, "api alice"), (REMOVED, "api alice")]


def test_a_latecomer_who_can_only_join_his_partner_is_previewed_and_reported(
    tournament: Tournament, alice: User, alice_client: Client
) -> None:
    by = {r.start_number: r for r in add_players(tournament, 15)}
    series = tournament.series.get(number=1)
    seat_table(series, [by[n] for n in (1, 2, 3, 4, 5)], 1)
    seat_table(series, [by[n] for n in (6, 7, 8, 9, 10)], 2)
    seat_table(series, [by[n] for n in (11, 12, 13, 14)], 3)
    set_status(series, Series.Status.DRAWN)
    # 15 checked in late; his partner 11 sits at the only table of four
    add_pair(tournament, by[15], by[11], actor=Actor(ORGANIZER, user=alice))
    page = alice_client.get("/verwaltung/herbst/serie/1/").content.decode()
    assert "säßen an einem Tisch" in page
    outcome = seat_latecomers(series)
    assert [(a.start_number, b.start_number) for a, b in outcome.not_kept_apart] == [(11, 15)]
    series.refresh_from_db()
    assert series.keep_apart_report == [{"pair": [11, 15], "reason": "latecomer_no_other_table"}]
    [entry] = not_honoured(series)
    assert entry.reason == "latecomer_no_other_table" and entry.table == 3
