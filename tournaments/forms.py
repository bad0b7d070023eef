from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tournaments.models import DEFAULT_TIEBREAK, NameForm, Registration, Tiebreak, Tournament
from tournaments.services.registrations import consent_problem
from tournaments.services.setup import settings_problems, unique_slug

StrOrPromise = str | Promise


#: The rule-set presets as the interface names them, translated. The engine's own labels
#: (``rules.ruleset``) stay plain text for its command line; a preset missing here fails
#: tests/tournaments/test_tournament_form.py.
RULESET_LABELS: dict[str, StrOrPromise] = {
    "ddv": _("DDV tournament rules"),
    "haus_25": _("DDV, five-player tables play 25 games (20 + 5 compulsory solos)"),
    "haus_bock": _(
        "House rules: Bock games (x2 each, up to two stacked), second Dulle beats the first "
        "except in the last trick, no back door"
    ),
}


def ruleset_choices() -> list[tuple[str, StrOrPromise]]:
    from rules.ruleset import PRESETS

    return [(key, RULESET_LABELS.get(key, preset.label)) for key, preset in PRESETS.items()]


class TournamentForm(forms.ModelForm[Tournament]):
    ruleset = forms.ChoiceField(label=_("rule set"), choices=ruleset_choices)
    tiebreak = forms.MultipleChoiceField(
        label=_("tie-break after total points"),
        choices=Tiebreak.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Applied in this order; players still equal share the place."),
    )

    class Meta:
        model = Tournament
        fields = [
            "name", "slug", "starts_on", "ends_on", "venue", "ruleset", "series_count",
            "is_public", "registration_open", "entry_mode", "confirmation", "tiebreak",
        ]  # fmt: skip
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is None and not self.is_bound:
            self.initial.setdefault("tiebreak", list(DEFAULT_TIEBREAK))
        # A form sent without the choice (older clients, scripts) keeps the current one.
        self.fields["confirmation"].required = False
        # Left empty, the short name is derived from the name (static/js/slug.js fills it in
        # while the name is typed).
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _("Leave empty to derive it from the name.")
        if self.instance.pk is None:
            self.fields["slug"].widget.attrs["data-suggest-from-name"] = ""

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data.get("slug") or ""
        name = self.cleaned_data.get("name") or ""
        if not slug:
            return unique_slug(name, exclude_pk=self.instance.pk) if name else ""
        if Tournament.objects.exclude(pk=self.instance.pk).filter(slug=slug).exists():
            raise forms.ValidationError(
                _("Another tournament has this short name; “%(free)s” is free."),
                code="unique",
                params={"free": unique_slug(slug, exclude_pk=self.instance.pk)},
            )
        return slug

    def clean_confirmation(self) -> str:
        confirmation: str = self.cleaned_data.get("confirmation") or self.instance.confirmation
        return confirmation

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        problems = settings_problems(
            self.instance,
            starts_on=data.get("starts_on"),
            ends_on=data.get("ends_on"),
            series_count=data.get("series_count"),
        )
        for field, message in problems.items():
            self.add_error(field, message)
        return data


class PlayerForm(forms.Form):
    first_name = forms.CharField(label=_("first name"), max_length=80)
    last_name = forms.CharField(label=_("last name"), max_length=80)
    club = forms.CharField(label=_("club"), max_length=120, required=False)
    ddv_number = forms.RegexField(
        label=_("DDV member number"),
        regex=r"^[0-9]{1,10}$",
        required=False,
        error_messages={"invalid": _("A DDV member number has only digits.")},
    )
    email = forms.EmailField(label=_("e-mail"), required=False)
    # Consent to publication (DSGVO, design decision 13): chosen, never preset.
    name_form = forms.ChoiceField(
        label=_("name on public pages, lists and documents"),
        choices=NameForm.choices,
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose how the name may be published.")},
    )
    minor = forms.BooleanField(label=_("the player is under 18"), required=False)
    guardian_consent = forms.BooleanField(
        label=_("a parent or guardian consents to the publication"), required=False
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if problem := consent_problem(
            data.get("name_form", ""), bool(data.get("minor")), bool(data.get("guardian_consent"))
        ):
            self.add_error("guardian_consent", problem)
        data["consented"] = True  # the form asked (consent_at)
        return data


class ConsentForm(forms.Form):
    """A registered player's consent changed on his registry page; the service checks the
    combination again (``tournaments.services.privacy.change_consent``)."""

    name_form = PlayerForm.base_fields["name_form"]
    minor = PlayerForm.base_fields["minor"]
    guardian_consent = PlayerForm.base_fields["guardian_consent"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if problem := consent_problem(
            data.get("name_form", ""), bool(data.get("minor")), bool(data.get("guardian_consent"))
        ):
            self.add_error("guardian_consent", problem)
        return data


class OrganizerPlayerForm(PlayerForm):
    checked_in = forms.BooleanField(label=_("checked in now"), required=False)
    merge_with = forms.IntegerField(required=False, widget=forms.HiddenInput)


class ImportUploadForm(forms.Form):
    file = forms.FileField(
        label=_("player list (.csv or .xlsx)"),
        help_text=_(
            "First row: First name; Last name; Club; DDV number; E-mail (German headings work "
            "too). Optional: Name form (full, initial or anonymous; empty: full), Minor "
            "(yes/no), Guardian consent (yes/no)."
        ),
    )


class WithdrawForm(forms.Form):
    from_series = forms.IntegerField(
        label=_("withdrawn from series"), required=False, min_value=1, max_value=20
    )


class DrawForm(forms.Form):
    seed = forms.IntegerField(
        label=_("seed"),
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        help_text=_(
            "Leave empty to use the tournament's seed, which keeps all series of one plan. "
            "The same players and seed give the same plan."
        ),
    )
    mode = forms.ChoiceField(
        label=_("draw mode"),
        choices=[("random", _("avoid repeated encounters")), ("standings", _("by standings"))],
        initial="random",
    )
    keep_clubs_apart = forms.BooleanField(label=_("keep club mates apart"), required=False)


class SwapForm(forms.Form):
    first = forms.ModelChoiceField(label=_("player"), queryset=Registration.objects.none())
    second = forms.ModelChoiceField(label=_("with player"), queryset=Registration.objects.none())

    def __init__(self, *args: Any, registrations: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if registrations is not None:
            for name in ("first", "second"):
                field = cast("forms.ModelChoiceField[Registration]", self.fields[name])
                field.queryset = registrations


class KeepApartForm(forms.Form):
    """Two players of the tournament who must never share a table."""

    first = forms.ModelChoiceField(label=_("player"), queryset=Registration.objects.none())
    second = forms.ModelChoiceField(
        label=_("never at one table with"), queryset=Registration.objects.none()
    )

    def __init__(self, *args: Any, registrations: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if registrations is not None:
            for name in ("first", "second"):
                field = cast("forms.ModelChoiceField[Registration]", self.fields[name])
                field.queryset = registrations
                field.label_from_instance = _registration_label  # type: ignore[method-assign,assignment]


def _registration_label(registration: Registration) -> str:
    return f"{registration.start_number} · {registration.player.sort_name}"


class MergeForm(forms.Form):
    """Which player of the registry is merged into the one shown (who is kept)."""

    duplicate = forms.TypedChoiceField(label=_("merge this player into it"), coerce=int)

    def __init__(self, *args: Any, choices: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["duplicate"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [("", "—"), *choices]
