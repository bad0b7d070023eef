"""The evening's forms: they parse what was typed and keep it on an error, and turn it into
what the services take (``entry()``); the services decide. Every error stands next to its
field."""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from evenings.models import PROFILE_CHOICES, Evening, Group
from evenings.services import FullData, QuickData
from rules.contracts import SoloType
from rules.ruleset import BockTrigger, RuleSet
from seasons.rules import EVENING_PRESET_LABELS

TRIGGER_LABELS = {
    BockTrigger.TIE: _("120:120"),
    BockTrigger.LOST_ANNOUNCEMENT: _("announcement lost"),
    BockTrigger.FOUR_TENS: _("trick of four tens"),
}
ANNOUNCEMENTS = [
    ("", _("none")),
    ("ansage", _("Re / Kontra")),
    ("90", _("no 90")),
    ("60", _("no 60")),
    ("30", _("no 30")),
    ("schwarz", _("black")),
]
WHOLE = re.compile(r"[+-]?[0-9]{1,5}")
#: Values offered as buttons in the quick entry; any other value in ``other``.
VALUE_BUTTONS = tuple(range(1, 13))


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%d")


class GroupForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    profile = forms.ChoiceField(label=_("House rules"), choices=PROFILE_CHOICES)
    cents_per_point = forms.IntegerField(
        label=_("Cents per point"), min_value=0, max_value=1000, initial=5
    )
    settlement = forms.ChoiceField(
        label=_("Settlement"), choices=Group.Settlement.choices, initial=Group.Settlement.TRANSFERS
    )
    is_public = forms.BooleanField(label=_("Results public"), required=False)


class MembersForm(forms.Form):
    players = forms.MultipleChoiceField(
        label=_("Players of your registry"), required=False, widget=forms.CheckboxSelectMultiple
    )
    names = forms.CharField(
        label=_("New players"), required=False, widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("One name per line: first name and last name."),
    )  # fmt: skip

    def __init__(self, *args: Any, choices: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["players"].choices = choices  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("players") and not (data.get("names") or "").strip():
            raise forms.ValidationError(_("Choose players or type new names."))
        return data


class EveningForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=DateInput())
    end = forms.ChoiceField(label=_("End"), choices=Evening.End.choices, initial=Evening.End.OPEN)
    rounds = forms.IntegerField(label=_("Rounds"), required=False, min_value=1, max_value=50)
    ends_at = forms.TimeField(
        label=_("End time"), required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["date"].initial = timezone.localdate()


class DrawForm(forms.Form):
    players = forms.MultipleChoiceField(
        label=_("Who plays tonight"), widget=forms.CheckboxSelectMultiple
    )
    tables = forms.IntegerField(label=_("Tables"), min_value=1, max_value=20, initial=1)
    how = forms.ChoiceField(
        label=_("Seats"),
        choices=[("draw", _("drawn at random")), ("order", _("in the order chosen"))],
        initial="draw", widget=forms.RadioSelect,
    )  # fmt: skip

    def __init__(self, *args: Any, choices: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["players"].choices = choices  # type: ignore[attr-defined]


class PlayersField(forms.MultipleChoiceField):
    """Players of the table: offers the four who play, accepts everybody seated. A retried
    entry was typed when others may have played; whether they play is the service's
    question (it answers a retry with the game it entered the first time)."""

    seated: frozenset[str] = frozenset()

    def valid_value(self, value: Any) -> bool:
        return str(value) in self.seated or super().valid_value(value)


class EntryForm(forms.Form):
    """What the quick and the full entry share: the retry's key, the game's number, the
    four who play (``playing``: id and name, in playing order) and who sits at the table."""

    key = forms.CharField(widget=forms.HiddenInput, max_length=64)
    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)

    def __init__(
        self,
        *args: Any,
        playing: list[tuple[int, str]],
        rs: RuleSet,
        seated: Sequence[int] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.playing = [pk for pk, _name in playing]
        self.rs = rs
        for field in self.fields.values():
            if isinstance(field, PlayersField):
                field.choices = playing
                field.seated = frozenset(str(pk) for pk in seated)


class QuickForm(EntryForm):
    winners = PlayersField(label=_("Who won"), widget=forms.CheckboxSelectMultiple)
    value = forms.TypedChoiceField(
        label=_("Value"), coerce=int, required=False, widget=forms.RadioSelect,
        choices=[(v, str(v)) for v in VALUE_BUTTONS],
    )  # fmt: skip
    other = forms.IntegerField(label=_("Other value"), required=False, min_value=1, max_value=999)
    solo = forms.BooleanField(label=_("Solo"), required=False)
    triggers = forms.MultipleChoiceField(
        label=_("Bock because of"), required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["triggers"].choices = [  # type: ignore[attr-defined]
            (t.value, label) for t, label in TRIGGER_LABELS.items() if t in self.rs.bock_triggers
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        value = data.get("other") or data.get("value")
        if not value and "value" not in self.errors and "other" not in self.errors:
            self.add_error("value", _("Tap the game's value."))
        data["the_value"] = value
        return data

    def entry(self) -> QuickData:
        """The quick entry for ``services.enter_game`` (after ``is_valid``)."""
        data = self.cleaned_data
        return QuickData(
            winners=tuple(int(w) for w in data["winners"]), value=data["the_value"],
            solo=data["solo"], triggers=tuple(data["triggers"]),
        )  # fmt: skip


class FullForm(EntryForm):
    contract = forms.ChoiceField(
        label=_("Game"),
        choices=[("normal", _("normal game")), ("solo", _("solo")),
                 ("hochzeit", _("Hochzeit")), ("stille_hochzeit", _("silent Hochzeit"))],
        initial="normal",
    )  # fmt: skip
    solo = forms.ChoiceField(
        label=_("Solo type"), required=False,
        choices=[("", "–"), *((s.value, s.value.capitalize()) for s in SoloType)],
    )  # fmt: skip
    re = PlayersField(label=_("Re"), widget=forms.CheckboxSelectMultiple)
    re_points = forms.IntegerField(label=_("Re's card points"), min_value=0, max_value=240)
    re_announcement = forms.ChoiceField(
        label=_("Re announced"), required=False, choices=ANNOUNCEMENTS
    )
    kontra_announcement = forms.ChoiceField(
        label=_("Kontra announced"), required=False, choices=ANNOUNCEMENTS
    )
    four_tens = forms.BooleanField(label=_("Trick of four tens"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if BockTrigger.FOUR_TENS not in self.rs.bock_triggers:
            del self.fields["four_tens"]

    def entry(self) -> FullData:
        """The engine's game record from what was typed (after ``is_valid``): Re's players as
        seats 1..4 of the four who play; one who sits out is left out, and the engine then
        says who is missing."""
        data = self.cleaned_data
        chosen = [int(p) for p in data["re"]]
        record: dict[str, Any] = {
            "contract": data["contract"],
            "re": [self.playing.index(p) + 1 for p in chosen if p in self.playing],
            "re_points": data["re_points"],
            "announcements": {
                "re": data["re_announcement"] or None,
                "kontra": data["kontra_announcement"] or None,
            },
        }
        if data["contract"] == "solo":
            record.update(solo=data["solo"] or None, compulsory=False, forced=False)
        if data["contract"] == "hochzeit":
            record["hochzeit_partner_trick"] = None
        if data.get("four_tens"):
            record["four_tens"] = True
        return FullData(record)


def today() -> datetime.date:
    return timezone.localdate()


def table_rows(text: str) -> list[list[int]] | None:
    """ "3, 1, -1, -3" per line → [[3, 1, -1, -3], ...]; None unless every part of every
    line is a whole number (a sign, at most five digits)."""
    rows = []
    for line in text.splitlines():
        parts = [p.strip() for p in line.replace(";", ",").split(",") if p.strip()]
        if not parts:
            continue
        found = [WHOLE.fullmatch(p.replace("−", "-")) for p in parts]
        if not all(found):
            return None
        rows.append([int(m.group()) for m in found if m])
    return rows


class ChampionshipForm(forms.Form):
    """The rule of the group's championship: a preset and the numbers it overrides."""

    ranking_preset = forms.ChoiceField(
        label=_("Ranking"), choices=lambda: list(EVENING_PRESET_LABELS.items())
    )
    best_n = forms.IntegerField(
        label=_("Best evenings counted"), required=False, min_value=0, max_value=10_000,
        help_text=_("Only the best evenings of each player count; empty or 0: all."),
    )  # fmt: skip
    min_series = forms.IntegerField(
        label=_("Evenings needed to be ranked"), required=False, min_value=0, max_value=10_000
    )
    table_points = forms.CharField(
        label=_("Placement points per table size"), required=False, max_length=500,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_(
            "One line per table size, place 1 first, for example 3, 1, -1, -3. Empty: "
            "4: +3/+1/−1/−3, 5: +4/+2/0/−2/−4, 6: +5 … −5, 7: +6 … −6."
        ),
    )  # fmt: skip

    @classmethod
    def initial_for(cls, group: Group) -> dict[str, Any]:
        overrides = group.ranking_overrides or {}
        rows = overrides.get("table_points")
        return {
            "ranking_preset": group.ranking_preset,
            "best_n": overrides.get("best_n"),
            "min_series": overrides.get("min_series"),
            "table_points": "\n".join(", ".join(map(str, r)) for r in rows) if rows else "",
        }

    def clean_table_points(self) -> list[list[int]] | None:
        text = self.cleaned_data.get("table_points", "").strip()
        if not text:
            return None
        rows = table_rows(text)
        if rows is None:
            raise forms.ValidationError(
                _("Give whole numbers separated by commas, one line per table size."),
                code="invalid",
            )
        return rows

    def overrides(self) -> dict[str, Any]:
        data = self.cleaned_data
        found: dict[str, Any] = {}
        if data.get("best_n"):
            found["best_n"] = data["best_n"]
        if data.get("min_series"):
            found["min_series"] = data["min_series"]
        if data.get("table_points"):
            found["table_points"] = data["table_points"]
        return found
