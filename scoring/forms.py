"""The captain's game form: a few taps in, a game record out (and errors mapped back)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from rules.contracts import AnnouncementLevel, Contract
from rules.stored import StoredGame
from scoring.labels import CONTRACT_LABELS, ENTERED_EXTRAS, EXTRA_LABELS, SOLO_LABELS, choices

LEVELS = [
    ("", _("—")),
    ("ansage", _("announced")),
    ("90", _("no 90")),
    ("60", _("no 60")),
    ("30", _("no 30")),
    ("schwarz", _("schwarz")),
]
#: Whose card points the captain counted: many tables count the smaller Kontra pile.
POINTS_OF = [("re", "Re"), ("kontra", "Kontra")]
ALL_CARD_POINTS = 240
PARTNER_TRICKS = [("1", "1"), ("2", "2"), ("3", "3"), ("", _("alone (Karo solo)"))]
EXTRA_KINDS = tuple(str(extra) for extra in ENTERED_EXTRAS)


def stepper(label: str, *, width: str = "count") -> forms.NumberInput:
    """A number box that app.js turns into minus / plus buttons (it stays a plain box without
    JavaScript). Empty means 0: nothing to delete before typing."""
    return forms.NumberInput(
        attrs={
            "inputmode": "numeric",
            "class": width,
            "placeholder": "0",
            "aria-label": label,
            "data-stepper": "",
            "data-less": _("one less"),
            "data-more": _("one more"),
        }
    )


def _given(field: forms.BoundField) -> bool:
    return str(field.value() or "").strip() not in ("", "0")


@dataclass(frozen=True)
class ExtrasRow:
    """One kind of extra with its box for each party."""

    label: str
    re: forms.BoundField
    kontra: forms.BoundField


class GameForm(forms.Form):
    """Seats are passed in as (position, name) choices; the sitting dealer is left out."""

    contract = forms.ChoiceField(
        label=_("Game type"), choices=choices(CONTRACT_LABELS), widget=forms.RadioSelect
    )
    solo = forms.ChoiceField(label=_("Solo type"), choices=choices(SOLO_LABELS), required=False)
    soloist = forms.TypedChoiceField(
        label=_("Soloist"), coerce=int, required=False, widget=forms.RadioSelect, empty_value=None
    )
    re_players = forms.TypedMultipleChoiceField(
        label=_("Re players"), coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )
    hochzeit_partner_trick = forms.ChoiceField(
        label=_("Partner found in trick"), choices=PARTNER_TRICKS, required=False,
        widget=forms.RadioSelect,
    )  # fmt: skip
    re_announcement = forms.ChoiceField(label=_("Re announced"), choices=LEVELS, required=False)
    kontra_announcement = forms.ChoiceField(
        label=_("Kontra announced"), choices=LEVELS, required=False
    )
    points_of = forms.ChoiceField(
        label=_("Card points counted for"), choices=POINTS_OF, required=False,
        widget=forms.RadioSelect,
    )  # fmt: skip
    # One of the two boxes is filled in, as ``points_of`` says; the game always stores Re's.
    re_points = forms.IntegerField(
        label=_("Card points of Re"), min_value=0, max_value=ALL_CARD_POINTS, required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*"}),
    )  # fmt: skip
    kontra_points = forms.IntegerField(
        label=_("Card points of Kontra"), min_value=0, max_value=ALL_CARD_POINTS, required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*"}),
    )  # fmt: skip
    re_tricks = forms.IntegerField(
        label=_("Tricks of Re (optional)"), min_value=0, max_value=12, required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*"}),
    )  # fmt: skip

    def __init__(self, *args: Any, seats: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        cast(forms.TypedChoiceField, self.fields["soloist"]).choices = seats
        cast(forms.TypedMultipleChoiceField, self.fields["re_players"]).choices = seats
        for party, party_name in (("re", "Re"), ("kontra", "Kontra")):
            for kind in ENTERED_EXTRAS:
                self.fields[f"{party}_{kind}"] = forms.IntegerField(
                    label=f"{party_name}: {EXTRA_LABELS[kind]}", min_value=0, max_value=4,
                    required=False, widget=stepper(f"{party_name}: {EXTRA_LABELS[kind]}"),
                )  # fmt: skip
        for position, name in seats:
            label = _("Penalty points of %(name)s") % {"name": name}
            self.fields[f"penalty_{position}"] = forms.IntegerField(
                label=label, required=False, min_value=-30, max_value=30,
                widget=stepper(label, width="count penalty"),
            )  # fmt: skip

    def extras_rows(self) -> list[ExtrasRow]:
        return [
            ExtrasRow(str(EXTRA_LABELS[kind]), self[f"re_{kind}"], self[f"kontra_{kind}"])
            for kind in ENTERED_EXTRAS
        ]

    def penalty_fields(self) -> list[tuple[str, forms.BoundField]]:
        return [(name, self[f"penalty_{position}"]) for position, name in self.seats]

    def has_extras(self) -> bool:
        """Some extra is filled in (the section then opens by itself)."""
        return any(_given(row.re) or _given(row.kontra) for row in self.extras_rows())

    def has_penalties(self) -> bool:
        return any(_given(field) for _name, field in self.penalty_fields())

    def points_field(self) -> str:
        """The box the captain typed the card points into (where their errors belong)."""
        data = getattr(self, "cleaned_data", None) or {}
        counted = data.get("points_of") or self.data.get("points_of") or "re"
        return "kontra_points" if counted == "kontra" else "re_points"

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        box = self.points_field()
        other = "re_points" if box == "kontra_points" else "kontra_points"
        self.errors.pop(other, None)  # the box not in use does not count
        if box not in self.errors:
            typed = data.get(box)
            if typed is None:
                self.add_error(box, self.fields[box].error_messages["required"])
            elif box == "kontra_points":  # the same fact: Re has what Kontra has not
                data["re_points"] = ALL_CARD_POINTS - typed
        contract = data.get("contract")
        if contract in ("solo", "stille_hochzeit") and not data.get("soloist"):
            self.add_error("soloist", _("Choose the soloist."))
        if contract == "solo" and not data.get("solo"):
            self.add_error("solo", _("Choose the solo type."))
        if contract in ("normal", "hochzeit"):
            alone = contract == "hochzeit" and not data.get("hochzeit_partner_trick")
            needed = 1 if alone else 2
            if len(data.get("re_players") or []) != needed:
                self.add_error(
                    "re_players",
                    _("Choose the Hochzeiter.") if alone else _("Choose the two Re players."),
                )
        return data

    def to_payload(self, **_: Any) -> dict[str, Any]:
        """The game's facts for the rules engine, which completes the record from the sheet
        (dealer, who sits out, compulsory and forced solo)."""
        d = self.cleaned_data
        contract = d["contract"]
        payload: dict[str, Any] = {"contract": contract, "re_points": d["re_points"]}
        if contract == "solo":
            payload.update(solo=d["solo"], re=[d["soloist"]])
        elif contract == "stille_hochzeit":
            payload["re"] = [d["soloist"]]
        else:
            payload["re"] = sorted(d["re_players"])
        if contract == "hochzeit":
            trick = d.get("hochzeit_partner_trick")
            payload["hochzeit_partner_trick"] = int(trick) if trick else None
        announcements = {
            party: d.get(f"{party}_announcement") or None for party in ("re", "kontra")
        }
        if any(announcements.values()):
            payload["announcements"] = announcements
        if d.get("re_tricks") is not None:
            payload["re_tricks"] = d["re_tricks"]
        extras = {
            party: {kind: d.get(f"{party}_{kind}") or 0 for kind in EXTRA_KINDS}
            for party in ("re", "kontra")
        }
        if any(n for party in extras.values() for n in party.values()):
            payload["extras"] = extras
        penalties = [
            {"seat": position, "points": d.get(f"penalty_{position}")}
            for position, _name in self.seats
            if d.get(f"penalty_{position}")
        ]
        if penalties:
            payload["penalties"] = penalties
        return payload

    @staticmethod
    def initial_from_record(record: dict[str, Any]) -> dict[str, Any]:
        """Form values for correcting a stored game."""
        game = StoredGame.from_record(record)
        contract = game.contract or Contract.NORMAL
        initial: dict[str, Any] = {
            "contract": contract.value,
            "points_of": "re",
            "re_points": game.re_augen,
            "re_tricks": game.re_tricks,
            "solo": game.solo.value if game.solo else "",
        }
        if contract in (Contract.SOLO, Contract.STILLE_HOCHZEIT):
            initial["soloist"] = game.re[0] if game.re else None
        else:
            initial["re_players"] = list(game.re)
        trick = game.hochzeit_partner_trick
        initial["hochzeit_partner_trick"] = str(trick) if trick else ""
        for party, level in (("re", game.re_level), ("kontra", game.kontra_level)):
            if level is not AnnouncementLevel.NONE:  # no choice means none, as on a new game
                initial[f"{party}_announcement"] = level.json
        for party, extras in (("re", game.extras_re), ("kontra", game.extras_kontra)):
            for kind in EXTRA_KINDS:
                if n := getattr(extras, kind):  # an empty box means 0, as on a new game
                    initial[f"{party}_{kind}"] = n
        for item in game.penalties:
            initial[f"penalty_{item.seat}"] = item.points
        return initial


def form_field_for(record_field: str, contract: str | None) -> str | None:
    """Where an engine error about ``record_field`` shows up in the form."""
    head = record_field.split(".")[0]
    if head == "re":
        return "soloist" if contract in ("solo", "stille_hochzeit") else "re_players"
    if head == "announcements":
        party = record_field.split(".")[1] if "." in record_field else "re"
        return f"{party}_announcement"
    if head == "extras":
        parts = record_field.split(".")
        if len(parts) == 3:
            return f"{parts[1]}_{parts[2]}"
        return None
    if head in ("re_points", "re_tricks", "solo", "hochzeit_partner_trick", "contract"):
        return head
    return None


class TranscriptionForm(forms.Form):
    """One row of a paper Spielliste: the points of every seat and the solo marks."""

    soloist = forms.TypedChoiceField(
        label=_("Solo of"), coerce=int, required=False, empty_value=None
    )
    compulsory = forms.BooleanField(label=_("Compulsory solo"), required=False)
    forced = forms.BooleanField(label=_("Forced (vorgeführt)"), required=False)

    def __init__(
        self,
        *args: Any,
        seats: list[tuple[int, str]],
        sitting_out: int | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.seats = [(p, n) for p, n in seats if p != sitting_out]
        cast(forms.ChoiceField, self.fields["soloist"]).choices = [("", _("no solo")), *self.seats]
        for position, name in self.seats:
            self.fields[f"points_{position}"] = forms.IntegerField(
                label=name, min_value=-999, max_value=999,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "count"}),
            )  # fmt: skip
        self.sitting_out = sitting_out

    def point_fields(self) -> list[forms.BoundField]:
        return [self[f"points_{position}"] for position, _name in self.seats]

    def to_payload(self, *, size: int, **_: Any) -> dict[str, Any]:
        d = self.cleaned_data
        scores = {str(p): 0 for p in range(1, size + 1)}
        for position, _name in self.seats:
            scores[str(position)] = d[f"points_{position}"]
        soloist = d.get("soloist")
        return {
            "scores": scores,
            "soloist": soloist,
            "compulsory": bool(soloist) and (d["compulsory"] or d["forced"]),
            "forced": bool(soloist) and d["forced"],
        }

    @staticmethod
    def initial_from_record(record: dict[str, Any]) -> dict[str, Any]:
        game = StoredGame.from_record(record)
        initial: dict[str, Any] = {f"points_{s.seat}": s.points for s in game.entered_scores}
        initial.update(soloist=game.marked_soloist, compulsory=game.compulsory, forced=game.forced)
        return initial


def form_field_for_transcription(record_field: str) -> str | None:
    head, _dot, rest = record_field.partition(".")
    if head == "scores" and rest:
        return f"points_{rest}"
    return head if head in ("soloist", "compulsory", "forced") else None
