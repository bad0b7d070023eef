"""The cash box's pages: the ledger for its keepers only, nothing of it for anybody else; the
booking form keeps what was typed and says what is wrong next to the field, in German and in
English; reversing asks first; the exports; the settlement calculator for every member."""

from __future__ import annotations

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from cashbox.models import Booking
from cashbox.services import BookingData, book
from clubs.models import Club
from common.actors import ORGANIZER, Actor
from tests.cashbox.conftest import user
from tests.factories import page_client

pytestmark = pytest.mark.django_db


def ledger_url(club: Club) -> str:
    return reverse("cashbox:ledger", args=[club.slug])


def some_bookings(club: Club, count: int = 3) -> list[Booking]:
    actor = Actor(ORGANIZER, user=user("cora"))
    today = timezone.localdate()
    return [
        book(club, BookingData("contribution", 1000 + i, today, f"Abend {i}"), actor=actor)
        for i in range(count)
    ]


def test_who_sees_the_cash_box(club_a: Club, club_b: Club) -> None:
    some_bookings(club_a)
    url = ledger_url(club_a)
    for name in ("olga", "cora"):
        answer = page_client(user(name)).get(url)
        assert answer.status_code == 200 and b"Abend 2" in answer.content
    for name in ("otto", "rudi"):  # members who keep no cash box
        assert page_client(user(name)).get(url).status_code == 403
    for name in ("bert", "bea"):  # club b: club a's cash box does not exist for them
        for path in (url, reverse("cashbox:export", args=["a"]),
                     reverse("cashbox:settlement", args=["a"])):  # fmt: skip
            answer = page_client(user(name)).get(path)
            assert answer.status_code == 404 and b"Abend" not in answer.content
    answer = page_client().get(url)
    assert answer.status_code == 302 and "/login/" in answer["Location"]


def test_the_ledger_reads_a_fixed_number_of_statements(club_a: Club) -> None:
    client = page_client(user("cora"))
    some_bookings(club_a, 2)
    with CaptureQueriesContext(connection) as few:
        client.get(ledger_url(club_a))
    some_bookings(club_a, 20)
    with CaptureQueriesContext(connection) as many:
        assert client.get(ledger_url(club_a)).status_code == 200
    assert len(many) == len(few)


def test_a_booking_from_the_form(club_a: Club) -> None:
    client = page_client(user("cora"), language="de")
    answer = client.post(
        ledger_url(club_a),
        {"kind": "expense", "amount": "12,50", "date": "2026-11-20", "text": "Karten",
         "member": ""},
    )  # fmt: skip
    assert answer.status_code == 302
    booking = Booking.objects.get()
    assert (booking.cents, booking.kind, booking.booked_by) == (-1250, "expense", user("cora"))
    page = client.get(ledger_url(club_a)).content.decode()
    assert "−12,50\u00a0€" in page and "Karten" in page


@pytest.mark.parametrize(
    ("language", "amount", "message"),
    [
        ("de", "12.50", "Komma"),
        ("en", "12,50", "point before the cents"),
        ("de", "zwölf", "12,50"),
        ("en", "", "Enter an amount"),
    ],
)
def test_nonsense_is_refused_next_to_the_field_and_nothing_typed_is_lost(
    club_a: Club, language: str, amount: str, message: str
) -> None:
    client = page_client(user("cora"), language=language)
    answer = client.post(
        ledger_url(club_a),
        {"kind": "fine", "amount": amount, "date": "2026-11-20", "text": "Handy am Tisch"},
    )
    assert answer.status_code == 400
    page = answer.content.decode()
    errors = page[page.index('id="id_amount-errors"') :]
    assert message in errors[: errors.index("</ul>")]
    assert 'value="Handy am Tisch"' in page and 'value="2026-11-20"' in page
    assert f'value="{amount}"' in page or not amount
    assert not Booking.objects.exists()


def test_a_service_refusal_lands_next_to_its_field(club_a: Club) -> None:
    answer = page_client(user("cora"), language="en").post(
        ledger_url(club_a), {"kind": "expense", "amount": "-3.00", "date": "2026-11-20",
                             "text": "x"},
    )  # fmt: skip
    assert answer.status_code == 400
    assert "without a sign" in answer.content.decode()


def test_reversing_asks_first_and_happens_once(club_a: Club) -> None:
    booking = some_bookings(club_a, 1)[0]
    client = page_client(user("olga"), language="en")
    url = reverse("cashbox:reverse", args=[club_a.slug, booking.pk])
    question = client.get(url)
    assert question.status_code == 200 and b"Reverse the booking" in question.content
    assert Booking.objects.count() == 1  # asking changed nothing
    assert client.post(url).status_code == 302
    assert Booking.objects.filter(reverses=booking).count() == 1
    again = client.post(url, follow=True)
    assert b"already been reversed" in again.content
    assert Booking.objects.count() == 2
    assert client.get(reverse("cashbox:reverse", args=[club_a.slug, 999])).status_code == 404


def test_the_exports(club_a: Club) -> None:
    some_bookings(club_a, 2)
    client = page_client(user("cora"), language="de")
    url = reverse("cashbox:export", args=[club_a.slug])
    answer = client.get(url)
    assert answer["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig")), delimiter=";"))
    assert len(rows) == 3 and rows[1][5] == "10,00" and rows[2][6] == "20,01"
    answer = client.get(url + "?format=xlsx")
    sheet = load_workbook(io.BytesIO(answer.content)).active
    assert sheet is not None and float(sheet["G3"].value) == 20.01
    assert client.get(url + "?format=pdf").status_code == 404


def test_the_settlement_calculator(club_a: Club) -> None:
    url = reverse("cashbox:settlement", args=[club_a.slug])
    client = page_client(user("rudi"), language="de")  # a referee: a member, no cash box
    assert client.get(url).status_code == 200
    answer = client.post(
        url,
        {"players": "Anna 12\nBernd -4\nClaudia -8", "cents_per_point": "10", "mode": "transfers"},
    )
    page = answer.content.decode()
    assert answer.status_code == 200
    assert 'Bernd</strong> → Anna: <span class="num">0,40\u00a0€' in page
    assert 'Claudia</strong> → Anna: <span class="num">0,80\u00a0€' in page
    answer = client.post(
        url, {"players": "Anna 12\nAnna -12", "cents_per_point": "10", "mode": "transfers"}
    )
    assert answer.status_code == 400 and "zweimal" in answer.content.decode()
    assert "Anna 12\nAnna -12" in answer.content.decode()  # what was typed stays


def test_the_club_page_links_to_the_cash_box(club_a: Club) -> None:
    url = reverse("clubs:detail", args=[club_a.slug])
    cashier = page_client(user("cora")).get(url).content.decode()
    assert ledger_url(club_a) in cashier
    referee = page_client(user("rudi")).get(url).content.decode()
    assert ledger_url(club_a) not in referee
    assert reverse("cashbox:settlement", args=[club_a.slug]) in referee
