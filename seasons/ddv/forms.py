"""The forms of the DDV pages: the tournament's mark and names, and a report's upload."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from seasons.ddv.setting import DdvDetails

#: A report of 2,000 players is some 400 KB.
MAX_REPORT_BYTES = 2 * 1024 * 1024


class DdvDetailsForm(forms.Form):
    ddv_ranking = forms.BooleanField(label=_("DDV ranking tournament"), required=False)
    director = forms.CharField(
        label=_("Tournament director"),
        max_length=120,
        required=False,
        help_text=_("Empty: the first organizer."),
    )
    referee = forms.CharField(label=_("Referee"), max_length=120, required=False)

    def details(self) -> DdvDetails:
        data = self.cleaned_data
        return DdvDetails(bool(data["ddv_ranking"]), data["director"], data["referee"])


class DdvImportForm(forms.Form):
    report = forms.FileField(
        label=_("DDV report (JSON)"),
        help_text=_("The file “…-ddv.json” that the organizer of a ranking tournament sent."),
    )

    def clean_report(self) -> Any:
        upload = self.cleaned_data["report"]
        if upload.size > MAX_REPORT_BYTES:
            raise forms.ValidationError(_("The file is too large (at most 2 MB)."))
        try:
            return json.loads(upload.read().decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError):
            raise forms.ValidationError(_("The file is no JSON file.")) from None
