"""The cash box's forms: a booking, and the settlement's players, rate and mode. They read
what was typed (amounts in the page's language: "12,50" / "12.50") and say what is wrong
next to the field; the rules of a booking are the service's."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from cashbox.models import Booking
from cashbox.money import MAX_CENTS, AmountError, format_cents, parse_cents
from cashbox.services import BOOKABLE, MAX_TEXT, BookingData
from cashbox.settlement import MAX_RATE, Mode, Score, SettlementError, parse_scores

#: The form field each service and settlement error concerns.
FIELDS = {"kind": "kind", "amount": "amount", "date": "date", "text": "text", "member": "member"}


def amount_problem(code: str) -> str:
    return {
        "empty": _("Enter an amount."),
        "decimal_mark": _("Use a comma before the cents, e.g. 12,50.")
        if not (get_language() or "de").startswith("en")
        else _("Use a point before the cents, e.g. 12.50."),
        "too_many_decimals": _("Enter at most two digits after the decimal mark (cents)."),
        "too_large": _("Enter at most %(amount)s.")
        % {"amount": format_cents(MAX_CENTS, get_language() or "de")},
    }.get(code, _("Enter an amount such as 12,50 (euros and cents)."))


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%d")


class BookingForm(forms.Form):
    kind = forms.ChoiceField(label=gettext_lazy("kind"))
    amount = forms.CharField(
        label=gettext_lazy("amount in euros"),
        max_length=20,
        error_messages={"required": gettext_lazy("Enter an amount.")},
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
        help_text=gettext_lazy(
            "Without a sign: the kind says whether it comes in or goes out. "
            "A correction may be negative."
        ),
    )
    date = forms.DateField(label=gettext_lazy("date"), widget=DateInput())
    text = forms.CharField(label=gettext_lazy("text"), max_length=MAX_TEXT)
    member = forms.TypedChoiceField(
        label=gettext_lazy("member"), required=False, coerce=int, empty_value=None
    )

    def __init__(self, *args: Any, members: list[tuple[int, str]], **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"date": timezone.localdate()})
        super().__init__(*args, **kwargs)
        labels = dict(Booking.Kind.choices)
        kind = self.fields["kind"]
        assert isinstance(kind, forms.ChoiceField)
        kind.choices = [("", "—"), *((k.value, labels[k]) for k in BOOKABLE)]
        member = self.fields["member"]
        assert isinstance(member, forms.ChoiceField)
        member.choices = [("", _("nobody in particular")), *members]

    def clean_amount(self) -> int:
        try:
            return parse_cents(self.cleaned_data["amount"], get_language() or "de")
        except AmountError as exc:
            raise forms.ValidationError(amount_problem(exc.code), code=exc.code) from exc

    def data_for_service(self) -> BookingData:
        found = self.cleaned_data
        return BookingData(
            kind=found["kind"],
            cents=found["amount"],
            booked_on=found["date"],
            text=found["text"],
            member=found["member"],
        )


def settlement_problem(error: SettlementError) -> str:
    where = {"line": error.line, "name": error.name}
    return {
        "no_players": _("Enter the players, one per line: name and points."),
        "too_many_players": _("Settle at most 60 players at once."),
        "name_missing": _("Line %(line)s: a name is missing.") % where,
        "name_too_long": _("Line %(line)s: the name is too long.") % where,
        "name_twice": _("Line %(line)s: “%(name)s” is there twice.") % where,
        "points_out_of_range": _("Line %(line)s: that many points cannot be right.") % where,
        "extras_out_of_range": _("Line %(line)s: extras are a count of 0 or more.") % where,
        "line_unreadable": _(
            "Line %(line)s: write the name, then the points, then (optionally) the extras, "
            "e.g. “Anna 12 2”."
        )
        % where,
    }.get(error.code, _("These players cannot be settled."))


class SettlementForm(forms.Form):
    players = forms.CharField(
        label=gettext_lazy("players and points"),
        widget=forms.Textarea(attrs={"rows": 6, "autocomplete": "off", "spellcheck": "false"}),
        help_text=gettext_lazy(
            "One player per line: name, points and (optionally) extras, e.g. “Anna 12 2”. "
            "Pasted from a spreadsheet works too."
        ),
    )
    cents_per_point = forms.IntegerField(
        label=gettext_lazy("cents per point"), min_value=0, max_value=MAX_RATE, initial=5
    )
    cents_per_extra = forms.IntegerField(
        label=gettext_lazy("cents per extra"),
        min_value=0,
        max_value=MAX_RATE,
        required=False,
        help_text=gettext_lazy("Leave empty if the club does not pay for extras."),
    )
    mode = forms.ChoiceField(
        label=gettext_lazy("settle"),
        widget=forms.RadioSelect,
        initial=Mode.TRANSFERS.value,
        choices=[
            (Mode.TRANSFERS.value, gettext_lazy("who pays whom (fewest transfers)")),
            (Mode.CASHBOX.value, gettext_lazy("everything into the cash box")),
        ],
    )

    def clean_players(self) -> list[Score]:
        try:
            scores = parse_scores(self.cleaned_data["players"])
        except SettlementError as exc:
            raise forms.ValidationError(settlement_problem(exc), code=exc.code) from exc
        if not scores:
            raise forms.ValidationError(
                _("Enter the players, one per line: name and points."), code="no_players"
            )
        return scores
