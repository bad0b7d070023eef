"""Form parts that rules-as-data share (a season's ranking rule, a league's team scoring):
the settings of a named thing, a list of numbers typed in one field, and the order of two
tie-breaks chosen from a list."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

#: The choice "no tie-break at all", as opposed to "" (keep the preset's).
NO_TIEBREAK = "-"
TIEBREAK_FIELDS = ("tiebreak_1", "tiebreak_2")


def numbers(text: str, digits: int) -> list[int] | None:
    """ "25, 20; 16/13" → [25, 20, 16, 13]; None unless every part is a whole number of at
    most ``digits`` digits."""
    parts = [p.strip() for p in text.replace(";", ",").replace("/", ",").split(",") if p.strip()]
    if not parts or not all(p.isascii() and p.isdigit() and len(p) <= digits for p in parts):
        return None
    return [int(p) for p in parts]


def tiebreak_fields(
    labels: Mapping[str, Any], keep: Any
) -> tuple[forms.ChoiceField, forms.ChoiceField]:
    """The two tie-break fields (``tiebreak_1, tiebreak_2 = tiebreak_fields(...)`` in the
    form's body): ``keep`` (the preset's order), none, or one of ``labels``."""

    def choices() -> list[tuple[str, Any]]:
        return [("", keep), (NO_TIEBREAK, _("none")), *labels.items()]

    first = forms.ChoiceField(label=_("first tie-break"), required=False, choices=choices)
    second = forms.ChoiceField(label=_("second tie-break"), required=False, choices=choices)
    return first, second


def tiebreak_initial(overrides: Mapping[str, Any]) -> dict[str, str]:
    """The fields' values for a stored ``tiebreak`` override ([] shows as "none")."""
    order = overrides.get("tiebreak")
    if not isinstance(order, list):
        return {}
    return dict(zip(TIEBREAK_FIELDS, list(order) or [NO_TIEBREAK], strict=False))


def tiebreak_override(data: Mapping[str, Any]) -> list[str] | None:
    """The ``tiebreak`` override the fields ask for; None: keep the preset's."""
    chosen = [data.get(name) or "" for name in TIEBREAK_FIELDS]
    if not any(chosen):
        return None
    return [key for key in chosen if key and key != NO_TIEBREAK]


class NamedSettingsForm(forms.Form):
    """What a season and a league are both set up with: a name, a short name for links,
    public or not, a description. A form built on it lists its own order in ``field_order``."""

    name = forms.CharField(label=_("name"), max_length=160)
    slug = forms.CharField(
        label=_("short name (in links)"),
        max_length=60,
        required=False,
        help_text=_("Leave empty to derive it from the name."),
    )
    is_public = forms.BooleanField(label=_("public"), required=False, initial=True)
    description = forms.CharField(
        label=_("description"), required=False, max_length=2000, widget=forms.Textarea
    )

    def tiebreak_into(self, found: dict[str, Any]) -> dict[str, Any]:
        """The overrides ``found`` with the tie-break order chosen, if any."""
        order = tiebreak_override(self.cleaned_data)
        if order is not None:
            found["tiebreak"] = order
        return found
