"""The fee pages' forms: amounts in euros typed as people type them ("10", "7,50",
"7.50"), shares in percent ("30", "12,5"), each turned into whole cents and basis points;
errors next to the field, in the user's language, and nothing typed is lost."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from fees.models import MAX_LABEL, Booking, Prize
from fees.services import MAX_REDUCED_FEES, FeeData, PrizeLine

_AMOUNT = re.compile(r"^(\d{1,7})(?:[.,](\d{1,2}))?$")
#: How many reduced fees the form offers.
REDUCED_ROWS = 3
#: Empty lines of places the prize form offers below the stored ones.
SPARE_ROWS = 3
MIN_ROWS = 5
MAX_ROWS = 60


def parse_fixed(text: str) -> int | None:
    """ "7,50" → 750; "10" → 1000; "1.5" → 150; None for anything else (a sign, thousands
    separators, a third decimal, letters)."""
    value = text.strip().replace(" ", "").removesuffix("€").removesuffix("%").strip()
    match = _AMOUNT.match(value)
    if match is None:
        return None
    whole, part = match.groups()
    return int(whole) * 100 + int((part or "0").ljust(2, "0"))


def euros(cents: int | None) -> str:
    """750 → "7,50" (how the form shows a stored amount)."""
    if cents is None:
        return ""
    return f"{cents // 100},{cents % 100:02d}"


class MoneyField(forms.CharField):
    """An amount in euros, as whole cents."""

    default_error_messages = {"invalid": _("Enter an amount in euros, e.g. 10 or 7,50.")}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.widget.attrs.update(inputmode="decimal", autocomplete="off", size="8", maxlength="20")

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]  # cents, not text
        text = super().to_python(value)
        if text in self.empty_values:
            return None
        cents = parse_fixed(str(text))
        if cents is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return cents

    def prepare_value(self, value: Any) -> Any:
        return euros(value) if isinstance(value, int) else value


class ShareField(MoneyField):
    """A share of the pot in percent (two decimals at most), as basis points."""

    default_error_messages = {"invalid": _("Enter a share in percent, e.g. 30 or 12,5.")}

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]  # basis points
        share = super().to_python(value)
        if share is not None and not 0 < share <= 10000:
            raise forms.ValidationError(_("A share is more than 0 and at most 100 %."))
        return share


class FeesForm(forms.Form):
    standard = MoneyField(label=_("Entry fee (€)"))
    pot = MoneyField(
        label=_("Fixed prize pot (€)"),
        required=False,
        help_text=_("Leave it empty: the prize pot is the fees received."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for row in range(REDUCED_ROWS):
            self.fields[f"reduced_label_{row}"] = forms.CharField(
                label=_("Reduced fee %(n)d: name") % {"n": row + 1},
                max_length=MAX_LABEL,
                required=False,
                widget=forms.TextInput(attrs={"placeholder": _("e.g. Youth")}),
            )
            self.fields[f"reduced_amount_{row}"] = MoneyField(
                label=_("Reduced fee %(n)d: amount (€)") % {"n": row + 1}, required=False
            )

    def rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [
            (self[f"reduced_label_{r}"], self[f"reduced_amount_{r}"]) for r in range(REDUCED_ROWS)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for row in range(REDUCED_ROWS):
            label = data.get(f"reduced_label_{row}") or ""
            amount = data.get(f"reduced_amount_{row}")
            if label and amount is None and f"reduced_amount_{row}" not in self.errors:
                self.add_error(f"reduced_amount_{row}", _("Enter the amount of this fee."))
            if amount is not None and not label:
                self.add_error(f"reduced_label_{row}", _("Give this fee a name."))
        return data

    def data_for_service(self) -> FeeData:
        data = self.cleaned_data
        reduced = tuple(
            (data[f"reduced_label_{r}"], data[f"reduced_amount_{r}"])
            for r in range(REDUCED_ROWS)
            if data.get(f"reduced_label_{r}")
        )
        return FeeData(data["standard"], reduced[:MAX_REDUCED_FEES], data.get("pot"))

    @staticmethod
    def initial_from(
        standard: int, pot: int | None, reduced: list[tuple[str, int]]
    ) -> dict[str, Any]:
        initial: dict[str, Any] = {"standard": standard, "pot": pot}
        for row, (label, cents) in enumerate(reduced[:REDUCED_ROWS]):
            initial[f"reduced_label_{row}"] = label
            initial[f"reduced_amount_{row}"] = cents
        return initial


class PrizesForm(forms.Form):
    """The prize table: lines of a place with an amount or a share, and the special prizes.
    ``rows`` (a hidden field) keeps the number of lines the user saw."""

    rows = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=MAX_ROWS)

    def __init__(self, *args: Any, lines: int = MIN_ROWS, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.is_bound:
            try:
                lines = int(self.data.get("rows", lines))
            except (TypeError, ValueError):
                lines = MIN_ROWS
        self.line_count = max(1, min(lines, MAX_ROWS))
        self.initial.setdefault("rows", self.line_count)
        for row in range(self.line_count):
            line = {"n": row + 1}
            self.fields[f"place_{row}"] = forms.IntegerField(
                label=_("Place"), required=False, min_value=1, max_value=1000,
                widget=forms.NumberInput(
                    attrs={"size": "3", "aria-label": _("Line %(n)d: place") % line}
                ),
            )  # fmt: skip
            self.fields[f"amount_{row}"] = MoneyField(label=_("Amount (€)"), required=False)
            self.fields[f"amount_{row}"].widget.attrs["aria-label"] = (
                _("Line %(n)d: amount in euros") % line
            )
            self.fields[f"share_{row}"] = ShareField(label=_("or share (%)"), required=False)
            self.fields[f"share_{row}"].widget.attrs["aria-label"] = (
                _("Line %(n)d: share of the pot in percent") % line
            )
        for key, label in Prize.Special.choices:
            self.fields[f"{key}_amount"] = MoneyField(label=_("Amount (€)"), required=False)
            self.fields[f"{key}_amount"].widget.attrs["aria-label"] = _(
                "%(prize)s: amount in euros"
            ) % {"prize": label}
            self.fields[f"{key}_share"] = ShareField(label=_("or share (%)"), required=False)
            self.fields[f"{key}_share"].widget.attrs["aria-label"] = _(
                "%(prize)s: share of the pot in percent"
            ) % {"prize": label}

    def place_rows(self) -> list[tuple[forms.BoundField, forms.BoundField, forms.BoundField]]:
        return [
            (self[f"place_{r}"], self[f"amount_{r}"], self[f"share_{r}"])
            for r in range(self.line_count)
        ]

    def special_rows(self) -> list[tuple[str, forms.BoundField, forms.BoundField]]:
        return [
            (str(label), self[f"{key}_amount"], self[f"{key}_share"])
            for key, label in Prize.Special.choices
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self.lines: list[tuple[str, PrizeLine]] = []  # (the field of its errors, the line)
        for row in range(self.line_count):
            place, amount, share = (data.get(f"{f}_{row}") for f in ("place", "amount", "share"))
            if any(f"{f}_{row}" in self.errors for f in ("place", "amount", "share")):
                continue
            if place is None and amount is None and share is None:
                continue
            if place is None:
                self.add_error(f"place_{row}", _("Which place is this prize for?"))
            elif amount is not None and share is not None:
                self.add_error(f"share_{row}", _("Give an amount or a share, not both."))
            elif amount is None and share is None:
                self.add_error(f"amount_{row}", _("Give an amount or a share of the pot."))
            else:
                self.lines.append(
                    (f"place_{row}", PrizeLine(place=place, cents=amount, share=share))
                )
        for key, _label in Prize.Special.choices:
            amount, share = data.get(f"{key}_amount"), data.get(f"{key}_share")
            if amount is not None and share is not None:
                self.add_error(f"{key}_share", _("Give an amount or a share, not both."))
            elif amount is not None or share is not None:
                self.lines.append(
                    (f"{key}_amount", PrizeLine(special=key, cents=amount, share=share))
                )
        return data

    @staticmethod
    def initial_from(prizes: list[Prize]) -> tuple[dict[str, Any], int]:
        initial: dict[str, Any] = {}
        places = [p for p in prizes if p.place is not None]
        for row, prize in enumerate(places):
            initial[f"place_{row}"] = prize.place
            initial[f"amount_{row}"] = prize.cents
            initial[f"share_{row}"] = _percent(prize.share)
        for prize in prizes:
            if prize.special:
                initial[f"{prize.special}_amount"] = prize.cents
                initial[f"{prize.special}_share"] = _percent(prize.share)
        lines = min(MAX_ROWS, max(MIN_ROWS, len(places) + SPARE_ROWS))
        initial["rows"] = lines
        return initial, lines


def _percent(share: int | None) -> str:
    """2500 → "25"; 1250 → "12,5"."""
    if share is None:
        return ""
    whole, part = divmod(share, 100)
    return f"{whole},{part:02d}".rstrip("0").rstrip(",") if part else str(whole)


class TapForm(forms.Form):
    """One tap at the desk: the status, the version the page showed, the fee, the method
    and the request's idempotency key."""

    kind = forms.ChoiceField(choices=Booking.Kind.choices)
    version = forms.IntegerField(min_value=0)
    fee = forms.CharField(required=False, max_length=MAX_LABEL)
    method = forms.ChoiceField(choices=Booking.Method.choices, required=False)
    key = forms.CharField(required=False, max_length=64)
