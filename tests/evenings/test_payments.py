"""An evening's payments into the club's cash box: one contribution per paying player, the
sum the settlement's, nothing booked twice (a second click, a retried POST: the first
answer), who may book, a reversal, and the pages in German and English."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.urls import reverse
from django.utils import translation
from freezegun import freeze_time

from cashbox.models import Booking, CashboxChange
from cashbox.services import balance, reverse_booking
from clubs.models import Club
from common.actors import Actor
from common.services import Refusal, ServiceError
from evenings import payments, services
from evenings.doors import TABLE_LINK
from evenings.models import Evening, EveningChange, EveningPayment, Group
from tests.evenings.conftest import actor, make_club, make_evening, make_group, playing, user
from tests.factories import page_client

PHONE = Actor(TABLE_LINK, device="phone-1")


@pytest.fixture(autouse=True)
def _frozen() -> Iterator[None]:
    with freeze_time("2026-11-27 20:00:00"):
        yield


def closed_evening(club: Club, settlement: str = "cashbox") -> Evening:
    """Four players at 10 cents a point; Anna and Bert win 3, then Anna and Carl win 1."""
    group = make_group(club, 4, cents_per_point=10, settlement=settlement)
    evening, (table,) = make_evening(group)
    names = {m.player_id: m.player.first_name for m in group.memberships.all()}
    by_name = {name: pk for pk, name in names.items()}
    for number, (winners, value) in enumerate(((("Anna", "Bert"), 3), (("Anna", "Carl"), 1)), 1):
        assert set(by_name.values()) == set(playing(table))
        data = services.QuickData(winners=tuple(by_name[w] for w in winners), value=value)
        services.enter_game(table, number, data, actor=PHONE)
    return services.close_evening(evening, actor=actor("olga"))


def test_booking_books_each_payer_once_with_the_settlement_total(club_a: Club) -> None:
    evening = closed_evening(club_a)
    paid_in = sum(t["cents"] for t in evening.settlement["transfers"])  # type: ignore[index]
    assert paid_in == 20 + 40  # Carl -3+1 = -2 points, Dora -4 points
    with translation.override("de"):
        booked = payments.book_payments(evening, actor=actor("cora"))
    assert not booked.again and booked.cents == paid_in
    bookings = list(Booking.objects.filter(club=club_a).order_by("pk"))
    assert [b.text for b in bookings] == [
        "Spielabend 26.11.2026 – Carl C",
        "Spielabend 26.11.2026 – Dora D",
    ]
    assert [b.cents for b in bookings] == [20, 40]
    assert {b.kind for b in bookings} == {Booking.Kind.CONTRIBUTION}
    assert {b.booked_on.isoformat() for b in bookings} == {"2026-11-26"}
    assert balance(club_a) == paid_in
    assert CashboxChange.objects.filter(action="cashbox.booking.added").count() == 2
    change = EveningChange.objects.get(action="evenings.evening.booked")
    assert change.after["cents"] == paid_in and change.user == user("cora")


def test_booking_twice_books_nothing_new(club_a: Club) -> None:
    evening = closed_evening(club_a)
    first = payments.book_payments(evening, actor=actor("cora"))
    again = payments.book_payments(evening, actor=actor("otto"))  # an organizer may too
    assert again.again
    assert [p.booking_id for p in again.payments] == [p.booking_id for p in first.payments]
    assert Booking.objects.count() == 2 and EveningPayment.objects.count() == 2
    assert EveningChange.objects.filter(action="evenings.evening.booked").count() == 1


def test_a_retried_post_gets_the_first_answer(club_a: Club) -> None:
    evening = closed_evening(club_a)
    group = evening.group
    client = page_client(user("cora"), language="de")
    url = reverse("evenings:book", args=["a", group.slug, evening.pk])
    first = client.post(url, follow=True)
    again = client.post(url, follow=True)
    assert first.redirect_chain == again.redirect_chain
    said = [str(m) for m in first.context["messages"]]
    assert said == [str(m) for m in again.context["messages"]]
    assert said == ["Der Abend ist in die Kasse gebucht: 2 Zahlungen, 0,60\xa0€."]
    assert Booking.objects.count() == 2


@pytest.mark.parametrize(
    ("name", "refusal"), [("rudi", Refusal.FORBIDDEN), ("bert", Refusal.FORBIDDEN)]
)
def test_a_plain_member_and_another_clubs_cashier_may_not_book(
    club_a: Club, name: str, refusal: Refusal
) -> None:
    make_club("b", bert="cashier")
    evening = closed_evening(club_a)
    with pytest.raises(ServiceError) as caught:
        payments.book_payments(evening, actor=actor(name))
    assert caught.value.refusal is refusal
    with pytest.raises(ServiceError):
        payments.book_payments(evening, actor=PHONE)  # a table's link: nobody signed in
    url = reverse("evenings:book", args=["a", evening.group.slug, evening.pk])
    status = page_client(user(name)).post(url).status_code
    assert status == (403 if name == "rudi" else 404)  # outside the club it does not exist
    assert not Booking.objects.exists()


def test_nothing_to_book_while_running_or_when_players_pay_each_other(club_a: Club) -> None:
    group = make_group(club_a, 4, settlement="cashbox")
    evening, _tables = make_evening(group)
    with pytest.raises(ServiceError) as caught:
        payments.book_payments(evening, actor=actor("cora"))
    assert caught.value.code == "not_closed"
    Group.objects.all().delete()
    evening = closed_evening(club_a, settlement="transfers")
    with pytest.raises(ServiceError) as caught:
        payments.book_payments(evening, actor=actor("cora"))
    assert caught.value.code == "players_pay_each_other"
    assert not Booking.objects.exists()


def test_a_payment_is_reversed_like_any_booking(club_a: Club) -> None:
    evening = closed_evening(club_a)
    booked = payments.book_payments(evening, actor=actor("cora"))
    reverse_booking(club_a, booked.payments[0].booking_id, actor=actor("cora"))
    assert balance(club_a) == 40
    again = payments.book_payments(evening, actor=actor("cora"))
    assert again.again and Booking.objects.count() == 3  # nothing booked anew
    assert [p.is_reversed for p in payments.payments_of(evening)] == [True, False]  # type: ignore[attr-defined]


def test_the_result_page_offers_the_booking_in_german_and_english(club_a: Club) -> None:
    evening = closed_evening(club_a)
    url = reverse("evenings:result", args=["a", evening.group.slug, evening.pk])
    book = reverse("evenings:book", args=["a", evening.group.slug, evening.pk])
    german = page_client(user("cora"), language="de").get(url).content.decode()
    assert "Noch nicht gebucht: 2 Zahlungen in die Kasse, 0,60\xa0€." in german
    assert f'action="{book}"' in german and "In die Kasse buchen" in german
    english = page_client(user("otto"), language="en").get(url).content.decode()
    assert "Not booked yet: 2 payments into the cash box, €0.60." in english
    assert "Book into the cash box" in english
    payments.book_payments(evening, actor=actor("cora"))
    reverse_booking(club_a, Booking.objects.order_by("pk")[0].pk, actor=actor("cora"))
    german = page_client(user("cora"), language="de").get(url).content.decode()
    assert "In die Kasse gebucht: 2 Zahlungen, 0,60\xa0€." in german
    assert "1 davon wurde inzwischen storniert." in german
    assert reverse("cashbox:ledger", args=["a"]) in german and f'action="{book}"' not in german
    english = page_client(user("otto"), language="en").get(url).content.decode()
    assert "Booked into the cash box: 2 payments, €0.60." in english
    assert "1 of them has been reversed since." in english
    assert reverse("cashbox:ledger", args=["a"]) not in english  # Otto keeps no cash box


def test_players_who_pay_each_other_are_told_so(club_a: Club) -> None:
    evening = closed_evening(club_a, settlement="transfers")
    url = reverse("evenings:result", args=["a", evening.group.slug, evening.pk])
    german = page_client(user("olga"), language="de").get(url).content.decode()
    assert "Die Spieler zahlen einander: In die Kasse geht nichts." in german
    english = page_client(user("olga"), language="en").get(url).content.decode()
    assert "The players pay each other: nothing goes into the cash box." in english


def test_the_cash_box_links_the_evening(club_a: Club) -> None:
    evening = closed_evening(club_a)
    payments.book_payments(evening, actor=actor("cora"))
    result = reverse("evenings:result", args=["a", evening.group.slug, evening.pk])
    ledger = reverse("cashbox:ledger", args=["a"])
    for language in ("de", "en"):
        page = page_client(user("cora"), language=language).get(ledger)
        assert page.status_code == 200
        assert page.content.decode().count(f'href="{result}"') == 2
    assert page_client(user("cora")).get(result).status_code == 200  # a cashier sees it
    assert page_client(user("rudi")).get(result).status_code == 404  # a referee does not
