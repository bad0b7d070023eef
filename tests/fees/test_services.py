"""The fee use cases: bookings as a ledger (never edited, reversed), versions and retries,
who may book, the cash report and the payout list of final standings."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from common.actors import ORGANIZER, Actor
from common.services import Refusal, ServiceError
from fees.models import Booking, FeeChange
from fees.reading import cash_report, desk_rows, payout_list
from fees.services import FeeData, PrizeLine, book_fee, save_fees, save_prizes
from tests.factories import build_world, make_tournament, play, set_status
from tournaments.models import Registration, Series, Tournament

pytestmark = pytest.mark.django_db


def test_a_payment_is_booked_and_logged(registrations: list[Registration], desk: Actor) -> None:
    state = book_fee(registrations[0], "paid", expected_version=0, actor=desk)
    assert (state.status, state.version, state.received_cents) == ("paid", 1, 1000)
    booking = Booking.objects.get()
    assert (booking.number, booking.amount_cents, booking.method, booking.via) == (
        1, 1000, "cash", "organizer carla",
    )  # fmt: skip
    entry = FeeChange.objects.get(action="fees.fee.paid")
    assert entry.after["amount_cents"] == 1000 and entry.before["status"] == "open"


def test_a_reduced_fee_by_transfer(registrations: list[Registration], desk: Actor) -> None:
    state = book_fee(registrations[1], "paid", expected_version=0, actor=desk,
                     fee_label="Jugend", method="transfer")  # fmt: skip
    assert (state.fee_label, state.received_cents) == ("Jugend", 500)
    with pytest.raises(ServiceError) as refused:
        book_fee(registrations[2], "paid", expected_version=0, actor=desk, fee_label="Senioren")
    assert refused.value.field == "fee"


def test_reopening_reverses_the_payment_and_edits_nothing(
    registrations: list[Registration], desk: Actor
) -> None:
    first = registrations[0]
    book_fee(first, "paid", expected_version=0, actor=desk, method="transfer")
    state = book_fee(first, "open", expected_version=1, actor=desk)
    assert (state.status, state.version, state.received_cents) == ("open", 2, 0)
    payment, reversal = Booking.objects.order_by("number")
    assert (payment.kind, payment.amount_cents) == ("paid", 1000)  # as it was
    assert (reversal.kind, reversal.amount_cents, reversal.method) == ("open", -1000, "transfer")
    assert reversal.reverses == payment
    # Waived after paying again: the second payment is paid back too.
    book_fee(first, "paid", expected_version=2, actor=desk)
    state = book_fee(first, "waived", expected_version=3, actor=desk)
    assert (state.status, state.received_cents) == ("waived", 0)
    assert Booking.objects.count() == 4
    assert sorted(FeeChange.objects.values_list("action", flat=True)) == [
        "fees.fee.paid", "fees.fee.paid", "fees.fee.reopened", "fees.fee.waived",
        "fees.settings.changed",
    ]  # fmt: skip


def test_a_stale_version_is_a_conflict_that_says_the_status(
    registrations: list[Registration], desk: Actor, alice: User
) -> None:
    book_fee(registrations[0], "paid", expected_version=0, actor=Actor(ORGANIZER, user=alice))
    with pytest.raises(ServiceError) as refused:
        book_fee(registrations[0], "waived", expected_version=0, actor=desk)
    assert refused.value.refusal is Refusal.CONFLICT
    assert refused.value.data == {"status": "paid", "version": 1}
    assert "bezahlt" in refused.value.message  # German by default
    assert Booking.objects.count() == 1


def test_the_same_status_again_books_nothing(
    registrations: list[Registration], desk: Actor
) -> None:
    book_fee(registrations[0], "paid", expected_version=0, actor=desk)
    again = book_fee(registrations[0], "paid", expected_version=0, actor=desk)
    assert again.booking is None and again.status == "paid"
    assert book_fee(registrations[1], "open", expected_version=0, actor=desk).booking is None
    assert Booking.objects.count() == 1


def test_a_retried_request_finds_its_booking_by_its_key(
    registrations: list[Registration], desk: Actor
) -> None:
    first = book_fee(registrations[0], "paid", expected_version=0, actor=desk, key="k1")
    book_fee(registrations[0], "open", expected_version=1, actor=desk, key="k2")
    # The answer to k1 was lost; the phone sends it again: nothing new, the first outcome.
    retried = book_fee(registrations[0], "paid", expected_version=0, actor=desk, key="k1")
    assert retried.replayed and retried.booking == first.booking and retried.version == 1
    assert Booking.objects.count() == 2
    with pytest.raises(ServiceError):
        book_fee(registrations[1], "paid", expected_version=0, actor=desk, key="k1")


def test_a_cashier_of_another_club_and_the_public_may_not(
    registrations: list[Registration], ken: User
) -> None:
    for user in (ken, None):
        with pytest.raises(ServiceError) as refused:
            book_fee(registrations[0], "paid", expected_version=0,
                     actor=Actor(ORGANIZER, user=user))  # fmt: skip
        assert refused.value.refusal is Refusal.FORBIDDEN
        with pytest.raises(ServiceError):
            save_prizes(registrations[0].tournament, [PrizeLine(place=1, cents=100)],
                        actor=Actor(ORGANIZER, user=user))  # fmt: skip
    assert not Booking.objects.exists()


def test_a_referee_may_not(registrations: list[Registration], tournament: Tournament) -> None:
    from clubs.models import Membership
    from tests.factories import make_user

    rudi = make_user("rudi")
    Membership.objects.create(club=tournament.club, user=rudi, role="referee")
    with pytest.raises(ServiceError):
        book_fee(registrations[0], "paid", expected_version=0, actor=Actor(ORGANIZER, user=rudi))


def test_the_cash_report(registrations: list[Registration], desk: Actor) -> None:
    book_fee(registrations[0], "paid", expected_version=0, actor=desk)
    book_fee(registrations[1], "paid", expected_version=0, actor=desk, method="transfer")
    book_fee(registrations[2], "paid", expected_version=0, actor=desk, fee_label="Jugend")
    book_fee(registrations[3], "waived", expected_version=0, actor=desk)
    book_fee(registrations[4], "paid", expected_version=0, actor=desk)
    book_fee(registrations[4], "open", expected_version=1, actor=desk)
    report = cash_report(registrations[0].tournament)
    assert report.players == 8
    assert (report.paid_count, report.received_cents) == (3, 2500)
    assert (report.open_count, report.open_cents) == (4, 4000)
    assert (report.waived_count, report.waived_cents) == (1, 1000)
    assert report.expected_cents == 2500 + 4000
    assert dict(report.by_method) == {"bar": 1500, "Überweisung": 1000}
    assert report.difference_cents == 0
    assert [row.status for row in desk_rows(registrations[0].tournament)].count("open") == 4


def test_fees_and_prizes_are_checked(tournament: Tournament, alice: User) -> None:
    actor = Actor(ORGANIZER, user=alice)
    with pytest.raises(ServiceError) as refused:
        save_fees(tournament, FeeData(1000, (("Jugend", 500), ("Jugend", 400))), actor=actor)
    assert refused.value.field == "reduced-1"
    with pytest.raises(ServiceError) as refused:
        save_prizes(tournament, [PrizeLine(place=1, share=6000), PrizeLine(place=2, share=5000)],
                    actor=actor)  # fmt: skip
    assert refused.value.field == "shares"
    with pytest.raises(ServiceError) as refused:
        save_prizes(tournament, [PrizeLine(place=1, cents=1), PrizeLine(place=1, cents=2)],
                    actor=actor)  # fmt: skip
    assert refused.value.field == "prize-1"
    save_prizes(tournament, [PrizeLine(place=1, cents=100)], actor=actor)
    assert FeeChange.objects.filter(action="fees.prizes.changed").count() == 1


SOLO_WON = {"contract": "solo", "solo": "damen", "re": [1], "re_points": 121}


def test_payouts_of_final_standings_three_sharing_places_two_to_four(alice: User) -> None:
    """Player 1 wins a solo (+3), the three others lose it (-1 each): they share places
    2-4. Place 1 40.00; places 2-4 20.00 + 10.00 + 5.02 = 35.02 for three: 11.67 each and
    one cent left over, which goes to the lowest start number of the three (11.68). The
    best solo player (player 1, the only solo won) gets 5.00 on top."""
    tournament = make_tournament("final", 1, organizers=[alice])
    world = build_world(tournament, (4,))
    play(world.tables[0], [SOLO_WON])
    actor = Actor(ORGANIZER, user=alice)
    lines = [PrizeLine(place=1, cents=4000), PrizeLine(place=2, cents=2000),
             PrizeLine(place=3, cents=1000), PrizeLine(place=4, cents=502),
             PrizeLine(special="solos_won", cents=500)]  # fmt: skip
    save_prizes(tournament, lines, actor=actor)
    preview = payout_list(tournament)
    assert not preview.final
    set_status(world.series, Series.Status.CLOSED)
    result = payout_list(tournament)
    assert result.final
    paid = [(line.place, line.start_number, line.cents) for line in result.lines]
    assert paid == [(1, 1, 4000 + 500), (2, 2, 1168), (2, 3, 1167), (2, 4, 1167)]
    assert [line.shared_with for line in result.lines] == [1, 3, 3, 3]
    assert result.total_cents == 4000 + 2000 + 1000 + 502 + 500 == 8002
    assert result.unpaid_cents == 0


def test_shares_of_the_fees_received(alice: User, desk: Actor) -> None:
    tournament = make_tournament("anteile", 1, organizers=[alice])
    world = build_world(tournament, (4,))
    actor = Actor(ORGANIZER, user=alice)
    save_fees(tournament, FeeData(1001), actor=actor)
    # Carla is the cashier of Alice's club, which owns this tournament too.
    for registration in world.registrations[:3]:
        book_fee(registration, "paid", expected_version=0, actor=desk)
    play(world.tables[0], [SOLO_WON])
    set_status(world.series, Series.Status.CLOSED)
    save_prizes(tournament, [PrizeLine(place=1, share=5000), PrizeLine(place=2, share=5000)],
                actor=actor)  # fmt: skip
    result = payout_list(tournament)
    # Pot 30.03: half to place 1 (15.01 and a half: the larger remainder of equals goes to
    # the better place, 15.02), half to place 2, shared by three: 15.01 = 5.01 + 5.00 + 5.00.
    assert result.pot_cents == 3003 and result.pot_is_fees
    assert [line.cents for line in result.lines] == [1502, 501, 500, 500]
    assert result.total_cents == 3003
    save_fees(tournament, FeeData(1001, pot_cents=10000), actor=actor)
    assert payout_list(tournament).total_cents == 10000
