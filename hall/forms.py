from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from hall.models import MAX_ANNOUNCEMENT


class AnnouncementForm(forms.Form):
    """The service checks the text (empty, too long) and says so next to the field."""

    text = forms.CharField(
        label=_("Announcement"),
        required=False,
        strip=False,
        help_text=_("One line, shown on top of the hall display until you withdraw it."),
        widget=forms.TextInput(attrs={"maxlength": MAX_ANNOUNCEMENT, "autocomplete": "off"}),
    )
