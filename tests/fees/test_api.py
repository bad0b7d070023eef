"""The fee work through the REST API: the same use cases as the desk, for the same people
(Alice, the owner; Carla, the cashier), 404 for everybody else signed in, 401 without
credentials; a stale version answers 409 with the fee as it is now; a retry with the same
Idempotency-Key answers the first booking and books nothing twice."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from clubs.models import Membership
from fees.models import Booking, FeeChange
from tests.factories import api_client, make_user
from tournaments.models import Registration, Tournament

FEES = "/api/v1/tournaments/herbst/fees/"
DESK = FEES + "desk/"
PRIZES = "/api/v1/tournaments/herbst/prizes/"


@pytest.fixture
def cashier(carla: User) -> APIClient:
    return api_client(user=carla)


def _book(client: APIClient, number: int, key: str = "", **body: Any) -> Any:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(f"{DESK}{number}/", body, format="json", **headers)


def test_the_cashier_reads_the_fees_and_books_one(
    cashier: APIClient, registrations: list[Registration]
) -> None:
    settings = cashier.get(FEES)
    assert settings.status_code == 200
    assert settings.json() == {
        "standard_cents": 1000,
        "pot_cents": None,
        "reduced": [{"label": "Jugend", "cents": 500}],
    }
    desk = cashier.get(DESK).json()
    assert desk["count"] == 8
    first = desk["results"][0]
    assert (first["status"], first["version"], first["fee_cents"]) == ("open", 0, 1000)

    number = registrations[0].start_number
    paid = _book(cashier, number, status="paid", expected_version=0, fee="Jugend",
                 method="transfer")  # fmt: skip
    assert paid.status_code == 201, paid.json()
    assert paid.json() == {
        "start_number": number, "status": "paid", "version": 1, "fee_label": "Jugend",
        "fee_cents": 500, "received_cents": 500, "booked": True,
    }  # fmt: skip
    again = _book(cashier, number, status="paid", expected_version=1)
    assert again.status_code == 200 and again.json()["booked"] is False

    report = cashier.get(FEES + "report/").json()
    assert (report["received_cents"], report["paid_count"], report["open_count"]) == (500, 1, 7)
    assert report["by_method"] == [{"method": "transfer", "label": "Überweisung", "cents": 500}]
    assert FeeChange.objects.filter(action="fees.fee.paid").count() == 1


def test_a_retry_with_the_same_key_answers_the_first_booking(
    cashier: APIClient, registrations: list[Registration]
) -> None:
    number = registrations[1].start_number
    first = _book(cashier, number, key="tap-1", status="paid", expected_version=0)
    retry = _book(cashier, number, key="tap-1", status="paid", expected_version=0)
    assert first.status_code == retry.status_code == 201
    assert retry.json() == first.json()
    assert retry["Idempotent-Replayed"] == "true"
    assert Booking.objects.filter(registration=registrations[1]).count() == 1


def test_a_stale_version_is_a_conflict_with_the_fee_now(
    cashier: APIClient, alice_api: APIClient, registrations: list[Registration]
) -> None:
    number = registrations[2].start_number
    assert _book(alice_api, number, status="paid", expected_version=0).status_code == 201
    stale = _book(cashier, number, status="waived", expected_version=0)
    assert stale.status_code == 409
    error = stale.json()["error"]
    assert (error["code"], error["status"], error["version"]) == ("fee_changed", "paid", 1)
    assert Booking.objects.filter(registration=registrations[2]).count() == 1


@pytest.mark.parametrize(
    ("lang", "words"),
    [("de", "größer oder gleich 0"), ("en", "greater than or equal to 0")],
)
def test_bad_fees_are_refused_on_the_field_in_both_languages(
    carla: User, registrations: list[Registration], lang: str, words: str
) -> None:
    client = api_client(user=carla, lang=lang)
    body = {"standard_cents": -1, "pot_cents": None, "reduced": []}
    response = client.put(FEES, body, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == "standard_cents" and words in error["message"]

    reduced = [{"label": "Jugend", "cents": 5}, {"label": "Jugend", "cents": 6}]
    twice = {"standard_cents": 800, "pot_cents": None, "reduced": reduced}
    response = client.put(FEES, twice, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    expected = {"de": "denselben Namen", "en": "the same name"}[lang]
    assert error["field"] == "reduced.1" and expected in error["message"]

    unknown = _book(client, registrations[0].start_number, status="paid", expected_version=0,
                    fee="Rentner")  # fmt: skip
    assert unknown.status_code == 400 and unknown.json()["error"]["field"] == "fee"
    assert not Booking.objects.exists()


def test_the_fees_and_the_prize_table_are_set_and_read_back(
    alice_api: APIClient, registrations: list[Registration]
) -> None:
    fees = {"standard_cents": 1200, "pot_cents": 20000,
            "reduced": [{"label": "Mitglied", "cents": 800}]}  # fmt: skip
    response = alice_api.put(FEES, fees, format="json")
    assert response.status_code == 200 and response.json() == fees
    prizes = {"prizes": [
        {"place": 1, "special": "", "cents": None, "share": 5000},
        {"place": 2, "special": "", "cents": 3000, "share": None},
        {"place": None, "special": "solos_won", "cents": 1000, "share": None},
    ]}  # fmt: skip
    response = alice_api.put(PRIZES, prizes, format="json")
    assert response.status_code == 200 and response.json() == prizes
    assert alice_api.get(PRIZES).json() == prizes
    payouts = alice_api.get("/api/v1/tournaments/herbst/payouts/").json()
    assert payouts["final"] is False and payouts["pot_cents"] == 20000
    assert payouts["prizes"][:2] == [
        {"place": 1, "label": "", "cents": 10000},
        {"place": 2, "label": "", "cents": 3000},
    ]
    both = {"prizes": [{"place": 3, "cents": 100, "share": 100}]}
    refused = alice_api.put(PRIZES, both, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["field"] == "prizes.0"


@pytest.mark.parametrize("who", ["ken", "bob", "rudi"])
def test_the_fees_do_not_exist_for_anybody_else(
    who: str,
    ken: User,
    bob: User,
    tournament: Tournament,
    registrations: list[Registration],
) -> None:
    """Another club's cashier, another club's organizer, this club's referee: 404."""
    users = {"ken": ken, "bob": bob}
    if who == "rudi":
        users["rudi"] = make_user("rudi")
        Membership.objects.create(club=tournament.club, user=users["rudi"], role="referee")
    client = api_client(user=users[who])
    for path in (FEES, DESK, FEES + "report/", PRIZES, "/api/v1/tournaments/herbst/payouts/"):
        assert client.get(path).status_code == 404, path
    booked = _book(client, registrations[0].start_number, status="paid", expected_version=0)
    assert booked.status_code == 404
    assert client.put(FEES, {"standard_cents": 1, "pot_cents": None, "reduced": []},
                      format="json").status_code == 404  # fmt: skip
    assert not Booking.objects.exists()
    assert api_client().get(FEES).status_code == 401
