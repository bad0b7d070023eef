"""The referee call on a table's sheet (the captain's page): the form to call, the call's
state (called, on the way, ruled with the ruling) and the games it makes provisional."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from common.sql import PreparedLookup
from scoring.models import MAX_CALL_REASON, Game, RefereeCall
from scoring.services.referee import concerned_game
from tournaments.models import Series, Table

REASON_WORDS = _("Say in a few words why (at most %(max)d characters).")


class CallForm(forms.Form):
    """The captain's call: why (required, short) and, if he knows it, the game concerned."""

    reason = forms.CharField(
        label=_("Why?"),
        max_length=MAX_CALL_REASON,
        widget=forms.TextInput(attrs={"placeholder": _("e.g. card revoked, dispute over a call")}),
    )
    game_number = forms.IntegerField(
        label=_("Game concerned (optional)"), required=False, min_value=1, max_value=99
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "call_%s")
        super().__init__(*args, **kwargs)
        words = str(REASON_WORDS) % {"max": MAX_CALL_REASON}
        self.fields["reason"].error_messages.update(required=words, max_length=words)


@dataclass(frozen=True)
class RefereeBox:
    """``call``: the table's open call, else its last one of the series; ``form``: the form
    to call, where a call may be made (no call open, the series running)."""

    call: RefereeCall | None
    action: str
    form: CallForm | None
    game: int | None  # the game the open call concerns, once entered or named

    @property
    def open(self) -> bool:
        return self.call is not None and self.call.is_open

    @property
    def state(self) -> str:
        return self.call.status if self.call is not None else ""

    @property
    def keep(self) -> tuple[str, str] | None:
        """What the box is drawn from while the table has made no call (its blank form), the
        key of ``{% keep_part %}``; None once it shows a call or a form posted back."""
        if self.call is None and self.form is not None and not self.form.is_bound:
            return ("referee", self.action)
        return None


#: Read with every captain page and save: compiled once (its three joins cost more to
#: compile than to run), prepared on the connection.
LATEST_CALL = PreparedLookup(
    lambda table_id: (
        RefereeCall.objects.filter(table_id=table_id)
        .select_related("deduction__registration__player")
        .order_by("-called_at", "-pk")[:1]
    ),
    marker=0,
)


def latest_call(table: Table) -> RefereeCall | None:
    """The table's last call: its open one if there is one (a call can only be made while
    none is open, so an open call is always the last). One query."""
    return LATEST_CALL.first(table.pk)


def referee_box(
    table: Table,
    games: list[Game],
    base: str,
    call: RefereeCall | None,
    form: CallForm | None = None,
) -> RefereeBox:
    """The box of the captain's page; ``call``: the table's last call (``latest_call``)."""
    running = table.series.status == Series.Status.RUNNING
    can_call = running and (call is None or not call.is_open)
    game = concerned_game(call, games) if call is not None and call.is_open else None
    return RefereeBox(
        call=call,
        action=f"{base}schiri/",
        form=(form or CallForm()) if can_call else None,
        game=game,
    )


def provisional(call: RefereeCall | None, games: list[Game]) -> frozenset[int]:
    """The games the table's last call makes provisional (``provisional_numbers`` without
    reading the call again)."""
    if call is None or not call.is_open:
        return frozenset()
    number = concerned_game(call, games)
    return frozenset({number}) if number in {g.number for g in games} else frozenset()
