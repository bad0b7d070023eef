"""The forms of a league's owner: the league (settings and each override of its scoring preset
as a field of its own), a team, a player for a squad, a line-up."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from common.forms import NamedSettingsForm, numbers, tiebreak_fields, tiebreak_initial
from teams.models import (
    MAX_DAYS,
    MAX_SEASON_END_PLACES,
    MAX_SERIES_PER_DAY,
    SQUAD_MAX_LIMIT,
    League,
)
from teams.rules import TIE_RULE_LABELS, TIEBREAK_LABELS, preset_choices
from teams.services import LeagueData


def tie_rule_choices() -> list[tuple[str, Any]]:
    return [("", _("as the preset has it")), *TIE_RULE_LABELS.items()]


class LeagueForm(NamedSettingsForm):
    field_order = (
        "name",
        "slug",
        "kind",
        "scoring_preset",
        "victory_points_4",
        "victory_points_5",
        "tie_rule",
        "tiebreak_1",
        "tiebreak_2",
        "squad_max",
        "players_per_team",
        "series_per_day",
        "days",
        "promotion_places",
        "relegation_places",
        "playoff_places",
        "is_public",
        "description",
    )
    kind = forms.ChoiceField(label=_("kind"), choices=League.Kind.choices)
    scoring_preset = forms.ChoiceField(label=_("team scoring"), choices=preset_choices)
    victory_points_4 = forms.CharField(
        label=_("victory points in a group of four"),
        required=False,
        max_length=40,
        help_text=_("Places 1 to 4, for example 4, 3, 2, 1. Leave empty to keep the preset's."),
    )
    victory_points_5 = forms.CharField(
        label=_("victory points in a group of five"),
        required=False,
        max_length=40,
        help_text=_("Places 1 to 5, for example 5, 4, 3, 2, 1. Leave empty to keep the preset's."),
    )
    tie_rule = forms.ChoiceField(
        label=_("equal game points in a group"), required=False, choices=tie_rule_choices
    )
    tiebreak_1, tiebreak_2 = tiebreak_fields(TIEBREAK_LABELS, _("as the preset has it"))
    squad_max = forms.IntegerField(
        label=_("players per squad at most"), min_value=1, max_value=SQUAD_MAX_LIMIT, initial=8
    )
    players_per_team = forms.IntegerField(
        label=_("players per team and series"), min_value=4, max_value=5, initial=4
    )
    series_per_day = forms.IntegerField(
        label=_("series per match day"), min_value=1, max_value=MAX_SERIES_PER_DAY, initial=4
    )
    days = forms.IntegerField(label=_("match days"), min_value=1, max_value=MAX_DAYS, initial=5)
    promotion_places = forms.IntegerField(
        required=False,
        label=_("places going up (promotion)"),
        min_value=0,
        max_value=MAX_SEASON_END_PLACES,
        initial=0,
        help_text=_("The first places of the final table; marked ▲ in the table."),
    )
    relegation_places = forms.IntegerField(
        required=False,
        label=_("places going down (relegation)"),
        min_value=0,
        max_value=MAX_SEASON_END_PLACES,
        initial=0,
        help_text=_("The last places of the final table; marked ▼ in the table."),
    )
    playoff_places = forms.IntegerField(
        required=False,
        label=_("relegation play-off places"),
        min_value=0,
        max_value=MAX_SEASON_END_PLACES,
        initial=0,
        help_text=_(
            "The places just above those going down play the relegation play-off; "
            "marked ◆ in the table."
        ),
    )

    @classmethod
    def initial_for(cls, league: League) -> dict[str, Any]:
        overrides = league.scoring_overrides or {}
        initial: dict[str, Any] = {
            key: getattr(league, key)
            for key in (
                "name", "slug", "kind", "scoring_preset", "squad_max", "players_per_team",
                "series_per_day", "days", "promotion_places", "relegation_places",
                "playoff_places", "is_public", "description",
            )
        }  # fmt: skip
        for table in overrides.get("victory_points") or []:
            if isinstance(table, list) and len(table) in (4, 5):
                initial[f"victory_points_{len(table)}"] = ", ".join(map(str, table))
        if isinstance(overrides.get("tie_rule"), str):
            initial["tie_rule"] = overrides["tie_rule"]
        initial.update(tiebreak_initial(overrides))
        return initial

    def _victory_points(self, size: int) -> list[int] | None:
        text = self.cleaned_data.get(f"victory_points_{size}", "").strip()
        if not text:
            return None
        found = numbers(text, digits=3)
        if found is None or len(found) != size:
            raise forms.ValidationError(
                _("Give %(n)d whole numbers, place 1 first, separated by commas.") % {"n": size},
                code="invalid",
            )
        return found

    def clean_victory_points_4(self) -> list[int] | None:
        return self._victory_points(4)

    def clean_victory_points_5(self) -> list[int] | None:
        return self._victory_points(5)

    def overrides(self) -> dict[str, Any]:
        data = self.cleaned_data
        found: dict[str, Any] = {}
        tables = [data[key] for key in ("victory_points_4", "victory_points_5") if data.get(key)]
        if tables:
            found["victory_points"] = tables
        if data.get("tie_rule"):
            found["tie_rule"] = data["tie_rule"]
        return self.tiebreak_into(found)

    def league_data(self) -> LeagueData:
        data = self.cleaned_data
        return LeagueData(
            name=data["name"],
            slug=data.get("slug") or "",
            kind=data["kind"],
            scoring_preset=data["scoring_preset"],
            scoring_overrides=self.overrides(),
            squad_max=data["squad_max"],
            players_per_team=data["players_per_team"],
            series_per_day=data["series_per_day"],
            days=data["days"],
            # Empty: none (0).
            promotion_places=data.get("promotion_places") or 0,
            relegation_places=data.get("relegation_places") or 0,
            playoff_places=data.get("playoff_places") or 0,
            is_public=bool(data.get("is_public")),
            description=data.get("description") or "",
        )


#: Where a league's override refusal lands in the form (the key of the override → a field).
OVERRIDE_FIELDS = {
    "victory_points": "victory_points_4",
    "tie_rule": "tie_rule",
    "tiebreak": "tiebreak_1",
    "scoring_overrides": None,
}


class TeamForm(forms.Form):
    name = forms.CharField(label=_("team name"), max_length=120)
    club = forms.CharField(label=_("club"), max_length=120, required=False)
    partner_club = forms.CharField(
        label=_("second club (SG)"),
        max_length=120,
        required=False,
        help_text=_(
            "For a team formed by two clubs (Spielgemeinschaft): shown as “SG Club A / Club B”."
        ),
    )


class TeamClubsForm(forms.Form):
    """A team's club and the second club of a Spielgemeinschaft."""

    club = forms.CharField(label=_("club"), max_length=120, required=False)
    partner_club = forms.CharField(
        label=_("second club (SG)"),
        max_length=120,
        required=False,
        help_text=_("Empty for a team of one club."),
    )


class NewPlayerForm(forms.Form):
    """A player new to the registry of the league's club, straight into a squad."""

    first_name = forms.CharField(label=_("first name"), max_length=80)
    last_name = forms.CharField(label=_("last name"), max_length=80)
    club = forms.CharField(label=_("club"), max_length=120, required=False)


class SquadListForm(forms.Form):
    """A pasted list of players for a squad, one a line (``teams.squads.parse_squad_list``)."""

    players = forms.CharField(
        label=_("players, one a line"),
        max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_(
            "“First Last” or “First Last, Club”; from a spreadsheet or a CSV file: first "
            "name, last name, club separated by tabs or semicolons. Players of your registry "
            "are found by their name; the others are added to it."
        ),
    )


class LineUpForm(forms.Form):
    """Who plays one series for one team: ``size`` of the squad (one fewer when a player is
    missing), in the order chosen."""

    players = forms.TypedMultipleChoiceField(
        label=_("players"), coerce=int, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, squad: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = self.fields["players"]
        assert isinstance(players, forms.TypedMultipleChoiceField)
        players.choices = [(p.pk, str(p)) for p in squad]


class MatchDayForm(forms.Form):
    """When a match day is played (its groups' tournaments move to it)."""

    date = forms.DateField(
        label=_("date"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )


class GroupPlaceForm(forms.Form):
    """Where a group plays (several venues on one match day)."""

    venue = forms.CharField(label=_("venue"), required=False, max_length=200)


class KnockoutForm(forms.Form):
    """The knockout's settings, chosen when it starts (``teams.knockout.Format``)."""

    match_size = forms.TypedChoiceField(
        label=_("teams per match"),
        coerce=int,
        choices=[(4, _("4 (a group day)")), (2, _("2 (a pair)"))],
        initial=4,
    )
    advance = forms.TypedChoiceField(
        label=_("teams advancing per match"),
        coerce=int,
        choices=[(2, "2"), (1, "1")],
        initial=2,
        help_text=_("Of 4: 2 or 1; of 2: 1."),
    )
    seeding = forms.ChoiceField(
        label=_("seeding"),
        choices=[
            ("table", _("by the group stage's table (victory points)")),
            ("draw", _("drawn")),
        ],
        initial="table",
    )
    seed = forms.IntegerField(
        label=_("draw seed"),
        required=False,
        min_value=0,
        max_value=2**62,
        help_text=_(
            "Empty: a new one. The same seed draws the same order (seeding by draw, and "
            "teams sharing a place in the table)."
        ),
    )


class TieDecisionForm(forms.Form):
    """The league's order of the teams sharing a place across a knockout match's cut: one
    choice per place, best first."""

    def __init__(self, *args: Any, teams: Sequence[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "–"), *((team.pk, team.name) for team in teams)]
        for index in range(1, len(teams) + 1):
            self.fields[f"place{index}"] = forms.TypedChoiceField(
                label=_("place %(n)d of the tied teams") % {"n": index},
                coerce=int,
                choices=choices,
            )

    def order(self) -> list[int]:
        return [self.cleaned_data[name] for name in self.fields]
