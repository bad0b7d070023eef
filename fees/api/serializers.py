"""The fee work as the API shows it and what it takes: amounts are integer cents, shares of
the pot basis points (10000: all of it), as they are stored (design decision 11)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from common.api.base import StrictSerializer
from fees.models import MAX_LABEL, Booking, Prize
from fees.payouts import WHOLE
from fees.reading import CashReport, DeskRow, PayoutList
from fees.services import MAX_CENTS, MAX_PRIZES, MAX_REDUCED_FEES, FeeState, PrizeLine


class ReducedFeeSerializer(StrictSerializer):
    label = serializers.CharField(max_length=MAX_LABEL, help_text='e.g. "Jugend".')  # type: ignore[assignment]
    cents = serializers.IntegerField(min_value=0, max_value=MAX_CENTS)


class FeeSettingsSerializer(StrictSerializer):
    """A tournament's fees: read them, and send them back whole to change them (PUT)."""

    standard_cents = serializers.IntegerField(
        min_value=0, max_value=MAX_CENTS, help_text="The entry fee."
    )
    pot_cents = serializers.IntegerField(
        min_value=0,
        max_value=MAX_CENTS,
        allow_null=True,
        help_text="A fixed prize pot; null: the fees received.",
    )
    reduced = serializers.ListField(
        child=ReducedFeeSerializer(),
        max_length=MAX_REDUCED_FEES,
        help_text="Reduced fees, each by its label.",
    )


class DeskRowSerializer(serializers.Serializer[Any]):
    """Schema only: a player at the desk with his fee as it is now."""

    start_number = serializers.IntegerField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    status = serializers.ChoiceField(choices=Booking.Kind.choices)
    version = serializers.IntegerField(
        help_text="The number of the fee's bookings: send it as `expected_version`."
    )
    fee_label = serializers.CharField(allow_blank=True, help_text='"": the standard fee.')
    fee_cents = serializers.IntegerField(help_text="The fee due.")
    received_cents = serializers.IntegerField(help_text="Received, net of money paid back.")


def desk_row_json(row: DeskRow) -> dict[str, Any]:
    player = row.registration.player
    return {
        "start_number": row.registration.start_number,
        "first_name": player.first_name,
        "last_name": player.last_name,
        "status": row.status,
        "version": row.version,
        "fee_label": row.fee_label,
        "fee_cents": row.fee_cents,
        "received_cents": row.received_cents,
    }


class BookingInputSerializer(StrictSerializer):
    status = serializers.ChoiceField(
        choices=Booking.Kind.choices, help_text="`paid`, `waived` or `open` (again)."
    )
    expected_version = serializers.IntegerField(
        min_value=0, max_value=10**6, help_text="The `version` the client last saw."
    )
    fee = serializers.CharField(
        max_length=MAX_LABEL, required=False, default="", allow_blank=True,
        help_text='Paid: the label of the fee paid ("" or left out: the standard fee).',
    )  # fmt: skip
    method = serializers.ChoiceField(
        choices=Booking.Method.choices, required=False, default=Booking.Method.CASH,
        help_text="Paid: how (`cash`, `transfer`, `other`).",
    )  # fmt: skip


class BookedSerializer(serializers.Serializer[Any]):
    """Schema only: the fee after the booking."""

    start_number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Booking.Kind.choices)
    version = serializers.IntegerField()
    fee_label = serializers.CharField(allow_blank=True)
    fee_cents = serializers.IntegerField()
    received_cents = serializers.IntegerField()
    booked = serializers.BooleanField(
        help_text="false: nothing was booked, the fee had this status already."
    )


def booked_json(start_number: int, state: FeeState) -> dict[str, Any]:
    return {
        "start_number": start_number,
        "status": state.status,
        "version": state.version,
        "fee_label": state.fee_label,
        "fee_cents": state.fee_cents,
        "received_cents": state.received_cents,
        "booked": state.booking is not None,
    }


class PrizeLineSerializer(StrictSerializer):
    """A line of the prize table: a place or a special prize; an amount or a share."""

    place = serializers.IntegerField(
        min_value=1, max_value=1000, required=False, allow_null=True, default=None
    )
    special = serializers.ChoiceField(
        choices=Prize.Special.choices, required=False, allow_blank=True, default="",
        help_text="`solos_won` (best solo player) or `best_series`, instead of a place.",
    )  # fmt: skip
    cents = serializers.IntegerField(
        min_value=0, max_value=MAX_CENTS, required=False, allow_null=True, default=None
    )
    share = serializers.IntegerField(
        min_value=1, max_value=WHOLE, required=False, allow_null=True, default=None,
        help_text="Of the pot, in basis points (2500: 25 %).",
    )  # fmt: skip


class PrizeTableSerializer(StrictSerializer):
    prizes = serializers.ListField(child=PrizeLineSerializer(), max_length=MAX_PRIZES)


def prize_line(data: dict[str, Any]) -> PrizeLine:
    return PrizeLine(
        place=data["place"], special=data["special"], cents=data["cents"], share=data["share"]
    )


def prize_json(prize: Prize | PrizeLine) -> dict[str, Any]:
    return {"place": prize.place, "special": prize.special, "cents": prize.cents,
            "share": prize.share}  # fmt: skip


class MethodSumSerializer(serializers.Serializer[Any]):
    method = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]
    cents = serializers.IntegerField(help_text="Net: received minus paid back.")


class FeeSumSerializer(serializers.Serializer[Any]):
    fee_label = serializers.CharField(allow_blank=True)
    players = serializers.IntegerField()
    cents = serializers.IntegerField()


class CashReportSerializer(serializers.Serializer[Any]):
    """Schema only: the tournament's cash box as the cash report page shows it."""

    players = serializers.IntegerField()
    expected_count = serializers.IntegerField()
    expected_cents = serializers.IntegerField(help_text="Every player's fee but the waived.")
    received_cents = serializers.IntegerField(help_text="Net of money paid back.")
    paid_count = serializers.IntegerField()
    open_count = serializers.IntegerField()
    open_cents = serializers.IntegerField()
    waived_count = serializers.IntegerField()
    waived_cents = serializers.IntegerField()
    difference_cents = serializers.IntegerField(
        help_text="Received minus the fees of those marked paid: 0 when the box is right."
    )
    by_method = MethodSumSerializer(many=True)
    by_fee = FeeSumSerializer(many=True, help_text="The fees paid, by label.")


def cash_report_json(report: CashReport) -> dict[str, Any]:
    codes = {str(label): code for code, label in Booking.Method.choices}
    return {
        "players": report.players,
        "expected_count": report.expected_count,
        "expected_cents": report.expected_cents,
        "received_cents": report.received_cents,
        "paid_count": report.paid_count,
        "open_count": report.open_count,
        "open_cents": report.open_cents,
        "waived_count": report.waived_count,
        "waived_cents": report.waived_cents,
        "difference_cents": report.difference_cents,
        "by_method": [
            {"method": codes.get(label, label), "label": label, "cents": cents}
            for label, cents in report.by_method
        ],
        "by_fee": [
            {"fee_label": label, "players": count, "cents": cents}
            for label, count, cents in report.by_fee
        ],
    }


class ResolvedPrizeSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField(allow_null=True, help_text="null: a special prize.")
    label = serializers.CharField(allow_blank=True, help_text="The special prize's name.")  # type: ignore[assignment]
    cents = serializers.IntegerField()


class SpecialPayoutSerializer(serializers.Serializer[Any]):
    label = serializers.CharField()  # type: ignore[assignment]
    cents = serializers.IntegerField()


class PayoutLineSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField()
    shared_with = serializers.IntegerField(help_text="Players sharing the place (1: alone).")
    start_number = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(allow_blank=True)
    place_cents = serializers.IntegerField()
    specials = SpecialPayoutSerializer(many=True)
    cents = serializers.IntegerField(help_text="Paid out in all.")


class PayoutListSerializer(serializers.Serializer[Any]):
    """Schema only: the payout list of the standings as they are."""

    final = serializers.BooleanField(
        help_text="Every series is closed; before that the list is a preview."
    )
    pot_cents = serializers.IntegerField()
    pot_is_fees = serializers.BooleanField(help_text="The pot is the fees received.")
    prizes = ResolvedPrizeSerializer(many=True, help_text="The prize table resolved.")
    lines = PayoutLineSerializer(many=True, help_text="The players paid something.")
    total_cents = serializers.IntegerField()
    unpaid_cents = serializers.IntegerField(help_text="Of the pot, not paid out.")


def payout_list_json(payouts: PayoutList) -> dict[str, Any]:
    return {
        "final": payouts.final,
        "pot_cents": payouts.pot_cents,
        "pot_is_fees": payouts.pot_is_fees,
        "prizes": [
            {"place": place, "label": label, "cents": cents}
            for place, label, cents in payouts.prizes
        ],
        "lines": [
            {
                "place": line.place,
                "shared_with": line.shared_with,
                "start_number": line.start_number,
                "name": line.name,
                "club": line.club,
                "place_cents": line.place_cents,
                "specials": [{"label": label, "cents": c} for label, c in line.specials],
                "cents": line.cents,
            }
            for line in payouts.lines
        ],
        "total_cents": payouts.total_cents,
        "unpaid_cents": payouts.unpaid_cents,
    }
