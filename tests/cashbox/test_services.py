"""The cash box's use cases: booking with the sign by kind, reversing once, the balance,
the change log, and who may keep whose cash box."""

from __future__ import annotations

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from cashbox.models import Booking, CashboxChange, Immutable
from cashbox.permissions import CASHBOX, keeps_cashbox
from cashbox.services import BookingData, balance, book, ledger, reverse_booking
from clubs.models import Club
from common.actors import ORGANIZER, Actor
from common.services import Refusal, ServiceError
from tests.cashbox.conftest import user

pytestmark = pytest.mark.django_db
Kind = Booking.Kind
TODAY = datetime.date(2026, 11, 27)


def as_(name: str) -> Actor:
    return Actor(ORGANIZER, user=user(name))


def data(kind: str = Kind.CONTRIBUTION, cents: int = 1250, text: str = "Abend") -> BookingData:
    return BookingData(kind, cents, timezone.localdate(), text)


def test_the_kind_gives_the_sign_and_the_balance_adds_up(club_a: Club) -> None:
    cora = as_("cora")
    book(club_a, data(Kind.CONTRIBUTION, 2000), actor=cora)
    book(club_a, data(Kind.FINE, 150), actor=cora)
    expense = book(club_a, data(Kind.EXPENSE, 1890), actor=cora)
    book(club_a, data(Kind.PAYOUT, 60), actor=cora)
    book(club_a, data(Kind.CORRECTION, -5), actor=cora)
    assert expense.cents == -1890
    assert balance(club_a) == 2000 + 150 - 1890 - 60 - 5
    log = CashboxChange.objects.filter(club=club_a, action="cashbox.booking.added")
    assert log.count() == 5
    assert log.filter(after__cents=-1890, via="organizer cora").exists()


@pytest.mark.parametrize(
    ("typed", "code", "field"),
    [
        (data(Kind.EXPENSE, -500), "signed_amount", "amount"),
        (data(Kind.CONTRIBUTION, 0), "zero_amount", "amount"),
        (data(Kind.CORRECTION, 10**9), "amount_too_large", "amount"),
        (data("reversal", 100), "invalid_kind", "kind"),
        (data("bribe", 100), "invalid_kind", "kind"),
        (data(text="   "), "text_missing", "text"),
        (data(text="x" * 201), "text_too_long", "text"),
    ],
)
def test_nonsense_is_refused(club_a: Club, typed: BookingData, code: str, field: str) -> None:
    with pytest.raises(ServiceError) as refused:
        book(club_a, typed, actor=as_("olga"))
    assert (refused.value.code, refused.value.field) == (code, field)
    assert not Booking.objects.exists()


def test_a_future_date_and_a_stranger_are_refused(club_a: Club, club_b: Club) -> None:
    later = BookingData(Kind.FINE, 100, timezone.localdate() + datetime.timedelta(days=1), "x")
    with pytest.raises(ServiceError) as refused:
        book(club_a, later, actor=as_("olga"))
    assert refused.value.field == "date"
    stranger = BookingData(Kind.FINE, 100, timezone.localdate(), "x", member=user("bert").pk)
    with pytest.raises(ServiceError) as refused:
        book(club_a, stranger, actor=as_("olga"))
    assert refused.value.code == "not_member"
    member = BookingData(Kind.FINE, 100, timezone.localdate(), "x", member=user("rudi").pk)
    assert book(club_a, member, actor=as_("olga")).member == user("rudi")


def test_a_reversal_books_the_opposite_once(club_a: Club) -> None:
    wrong = book(club_a, data(Kind.EXPENSE, 450, "Blöcke"), actor=as_("cora"))
    reversal = reverse_booking(club_a, wrong.pk, actor=as_("olga"))
    assert (reversal.kind, reversal.cents, reversal.reverses) == (Kind.REVERSAL, 450, wrong)
    assert reversal.text.endswith(": Blöcke")
    assert balance(club_a) == 0
    with pytest.raises(ServiceError) as refused:
        reverse_booking(club_a, wrong.pk, actor=as_("cora"))
    assert refused.value.code == "already_reversed"
    assert refused.value.refusal is Refusal.CONFLICT
    with pytest.raises(ServiceError) as refused:
        reverse_booking(club_a, reversal.pk, actor=as_("cora"))
    assert refused.value.code == "reversal_of_reversal"
    assert [b.is_reversed for b in ledger(club_a)] == [True, False]
    logged = CashboxChange.objects.get(action="cashbox.booking.reversed")
    assert logged.before["booking"] == wrong.pk and logged.after["cents"] == 450


def test_a_booking_is_never_changed_or_deleted(club_a: Club) -> None:
    booking = book(club_a, data(), actor=as_("cora"))
    booking.text = "anders"
    with pytest.raises(Immutable):
        booking.save()
    with pytest.raises(Immutable):
        booking.delete()
    with pytest.raises(Immutable):
        Booking.objects.filter(pk=booking.pk).update(cents=1)
    with pytest.raises(Immutable):
        Booking.objects.filter(pk=booking.pk).delete()
    assert Booking.objects.get(pk=booking.pk).text == "Abend"


def test_the_database_takes_a_booking_reversed_only_once(club_a: Club) -> None:
    booking = book(club_a, data(), actor=as_("cora"))
    fields = dict(club=club_a, kind=Kind.REVERSAL, cents=-1250, booked_on=TODAY, text="x",
                  reverses=booking, via="test")  # fmt: skip
    Booking.objects.create(**fields)
    with pytest.raises(IntegrityError), transaction.atomic():
        Booking.objects.create(**fields)
    for wrong in (
        dict(fields, reverses=None),  # a reversal names its booking
        dict(fields, kind=Kind.EXPENSE, cents=100, reverses=None),  # an expense goes out
        dict(fields, kind=Kind.CORRECTION, cents=0, reverses=None),  # never zero
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            Booking.objects.create(**wrong)


def test_only_owners_and_cashiers_of_the_club_keep_its_cash_box(club_a: Club, club_b: Club) -> None:
    for name in ("olga", "cora"):
        assert keeps_cashbox(user(name), club_a)
    for name in ("otto", "rudi", "bert", "bea"):
        assert not keeps_cashbox(user(name), club_a)
        with pytest.raises(ServiceError) as refused:
            book(club_a, data(), actor=as_(name))
        assert refused.value.refusal is Refusal.FORBIDDEN
    ours = book(club_a, data(), actor=as_("olga"))
    with pytest.raises(ServiceError) as refused:
        reverse_booking(club_a, ours.pk, actor=as_("bea"))  # club b's cashier
    assert refused.value.refusal is Refusal.FORBIDDEN
    with pytest.raises(ServiceError) as refused:
        reverse_booking(club_b, ours.pk, actor=as_("bea"))  # through her own club
    assert refused.value.refusal is Refusal.NOT_FOUND
    assert set(Booking.objects.filter(CASHBOX.kept_by(user("bea")))) == set()
    assert set(Booking.objects.filter(CASHBOX.kept_by(user("cora")))) == {ours}


def test_the_one_rule_asked_of_a_club(club_a: Club) -> None:
    """``Ownership.may_keep_in``: a cash box with no booking yet, asked of its club."""
    from django.contrib.auth.models import AnonymousUser, User

    admin = User.objects.create_superuser("admin", password="x")
    assert CASHBOX.may_keep_in(user("cora"), club_a.pk)
    assert CASHBOX.may_keep_in(admin, club_a.pk)
    assert not CASHBOX.may_keep_in(user("otto"), club_a.pk)
    assert not CASHBOX.may_keep_in(AnonymousUser(), club_a.pk)
