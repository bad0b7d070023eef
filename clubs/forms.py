"""The club a new tournament, season or league goes into, as a choice on its form."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.services import clubs_keeping


def add_club_choice(form: forms.BaseForm, user: Any, kind: str) -> None:
    """A "club" field on ``form`` when ``user`` keeps things of ``kind`` in more than one
    club; left empty, the new thing goes into his personal club (``home_club``). With one
    club there is nothing to choose and the form stays as it was."""
    clubs = clubs_keeping(user, kind)
    if clubs.count() > 1:
        form.fields["club"] = forms.ModelChoiceField(
            queryset=clubs,
            label=_("club"),
            empty_label=_("my personal club"),
            required=False,
            help_text=_("The club's organizers can run it with you."),
        )


class PrivacyForm(forms.Form):
    publication_years = forms.IntegerField(
        label=_("years results are published with names"),
        min_value=0,
        max_value=50,
        help_text=_(
            "After this many years the public pages of a tournament show every player "
            "anonymized (0: no limit)."
        ),
    )
    notice_de = forms.CharField(
        label=_("privacy notice (German)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12}),
        help_text=_("The first line is the title. Empty: the default text below."),
    )
    notice_en = forms.CharField(
        label=_("privacy notice (English)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12}),
        help_text=_("The first line is the title. Empty: the default text below."),
    )
