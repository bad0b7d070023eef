"""The season form: settings and each override of the preset as a field of its own."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from common.forms import NamedSettingsForm, numbers, tiebreak_fields, tiebreak_initial
from seasons.models import Season
from seasons.rules import TIEBREAK_LABELS, preset_choices
from seasons.services import SeasonData


class SeasonForm(NamedSettingsForm):
    field_order = (
        "name",
        "slug",
        "preset",
        "reference_date",
        "min_series",
        "window_months",
        "best_n",
        "placement_points",
        "tiebreak_1",
        "tiebreak_2",
        "is_public",
        "description",
    )
    preset = forms.ChoiceField(label=_("ranking rule"), choices=preset_choices)
    reference_date = forms.DateField(
        label=_("reference date"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text=_("The window ends here. Leave empty for today."),
    )
    min_series = forms.IntegerField(
        label=_("series needed to be ranked"),
        required=False,
        min_value=0,
        max_value=10_000,
        help_text=_("Leave empty to keep the ranking rule's value."),
    )
    window_months = forms.IntegerField(
        label=_("window in months"),
        required=False,
        min_value=0,
        max_value=10_000,
        help_text=_("Only results of the last months count; 0: all results."),
    )
    best_n = forms.IntegerField(
        label=_("best tournaments counted"),
        required=False,
        min_value=0,
        max_value=10_000,
        help_text=_("Only the best results count; 0: all results."),
    )
    placement_points = forms.CharField(
        label=_("points for places 1, 2, 3, …"),
        required=False,
        max_length=1000,
        help_text=_("For example 25, 20, 16, 13. Used by the points-for-place rule."),
    )
    tiebreak_1, tiebreak_2 = tiebreak_fields(TIEBREAK_LABELS, _("as the ranking rule has it"))

    @classmethod
    def initial_for(cls, season: Season) -> dict[str, Any]:
        overrides = season.rule_overrides or {}
        initial: dict[str, Any] = {
            "name": season.name,
            "slug": season.slug,
            "preset": season.preset,
            "reference_date": season.reference_date,
            "is_public": season.is_public,
            "description": season.description,
            "min_series": overrides.get("min_series"),
        }
        for key in ("window_months", "best_n"):
            if key in overrides:
                initial[key] = overrides[key] or 0
        if "placement_points" in overrides:
            initial["placement_points"] = ", ".join(map(str, overrides["placement_points"]))
        initial.update(tiebreak_initial(overrides))
        return initial

    def clean_placement_points(self) -> list[int] | None:
        text = self.cleaned_data.get("placement_points", "").strip()
        if not text:
            return None
        found = numbers(text, digits=5)
        if found is None:
            raise forms.ValidationError(
                _("Give whole numbers of at least 0, separated by commas."), code="invalid"
            )
        return found

    def overrides(self) -> dict[str, Any]:
        data = self.cleaned_data
        found: dict[str, Any] = {}
        if data.get("min_series") is not None:
            found["min_series"] = data["min_series"]
        for key in ("window_months", "best_n"):
            if data.get(key) is not None:
                found[key] = data[key] or None
        if data.get("placement_points") is not None:
            found["placement_points"] = data["placement_points"]
        return self.tiebreak_into(found)

    def season_data(self) -> SeasonData:
        data = self.cleaned_data
        return SeasonData(
            name=data["name"],
            slug=data.get("slug") or "",
            preset=data["preset"],
            rule_overrides=self.overrides(),
            reference_date=data.get("reference_date"),
            is_public=bool(data.get("is_public")),
            description=data.get("description") or "",
        )
