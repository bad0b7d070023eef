"""Keep-apart pairs: two players of a tournament who must never share a table.

The organizer marks and removes pairs (``add_pair``, ``remove_pair``, logged in the
tournament's ``TournamentChange`` log); every draw passes them to the seating core
(``draw.keep_apart_pairs``),
which keeps them apart where a plan exists and reports the others with a reason code
(stored in ``Series.keep_apart_report``, shown in words by ``not_honoured``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.actors import Actor
from common.services import Refusal, ServiceError
from tournaments import seating
from tournaments.models import KeepApart, Registration, Series, Tournament, TournamentChange
from tournaments.permissions import is_organizer

ADDED = "tournaments.keep_apart.added"
REMOVED = "tournaments.keep_apart.removed"

#: A pair seated together after the draw by a swap or a redraw of the tables by hand.
SEATED_BY_HAND = "seated_by_hand"

#: The reason codes of the seating core (and this one) in words.
REASONS: dict[str, Promise] = {
    seating.NOT_ENOUGH_TABLES: gettext_lazy(
        "One of the two must be kept apart from as many players as there are tables."
    ),
    seating.NO_SEATING_FOUND: gettext_lazy("The draw found no seating that keeps them apart."),
    seating.LATECOMER_NO_OTHER_TABLE: gettext_lazy(
        "A latecomer could only join the partner's table without moving seated players."
    ),
    seating.ALREADY_SEATED_TOGETHER: gettext_lazy(
        "They were already seated together when the latecomers were seated."
    ),
    seating.TEAM_LINE_UP: gettext_lazy(
        "The team line-ups leave no other table (one player of each team per table)."
    ),
    SEATED_BY_HAND: gettext_lazy("Seated together by a change after the draw."),
}


def _require(tournament: Tournament, actor: Actor) -> None:
    if actor.user is None or not is_organizer(actor.user, tournament):
        raise ServiceError(
            "forbidden",
            _("Only the organizers of this tournament mark players to keep apart."),
            refusal=Refusal.FORBIDDEN,
        )


def _describe(pair: KeepApart) -> dict[str, Any]:
    return {"first": pair.first.start_number, "second": pair.second.start_number}


def _log(tournament: Tournament, action: str, actor: Actor, before: Any, after: Any) -> None:
    TournamentChange.objects.create(
        tournament=tournament,
        action=action,
        before=before,
        after=after,
        user=actor.user if getattr(actor.user, "pk", None) else None,
        via=actor.describe(),
    )


@transaction.atomic
def add_pair(
    tournament: Tournament, first: Registration | int, second: Registration | int, *, actor: Actor
) -> KeepApart:
    """Mark two registrations of ``tournament`` to be kept apart in every draw from now on.
    Refused: another tournament's registration (as not found), the same player twice, a
    pair already marked (in either order)."""
    _require(tournament, actor)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    ids = [r if isinstance(r, int) else r.pk for r in (first, second)]
    found = {r.pk: r for r in tournament.registrations.filter(pk__in=ids).select_related("player")}
    for field, pk in zip(("first", "second"), ids, strict=True):
        if pk not in found:
            raise ServiceError(
                "player_not_found",
                _("Choose a player of this tournament."),
                field=field,
                refusal=Refusal.NOT_FOUND,
            )
    if ids[0] == ids[1]:
        raise ServiceError("same_player", _("Choose two different players."), field="second")
    low, high = sorted(ids)
    if KeepApart.objects.filter(first_id=low, second_id=high).exists():
        raise ServiceError(
            "already_paired",
            _("%(first)s and %(second)s are already kept apart.")
            % {"first": found[low].player, "second": found[high].player},
            field="second",
        )
    try:
        with transaction.atomic():
            pair = KeepApart.objects.create(
                tournament=tournament, first=found[low], second=found[high]
            )
    except IntegrityError as exc:  # a second request won the race
        raise ServiceError(
            "already_paired", _("These two players are already kept apart."), field="second"
        ) from exc
    _log(tournament, ADDED, actor, None, _describe(pair))
    return pair


@transaction.atomic
def remove_pair(tournament: Tournament, pair_id: int, *, actor: Actor) -> None:
    """Remove a pair of ``tournament``; another tournament's pair is not found."""
    _require(tournament, actor)
    pair = (
        KeepApart.objects.select_for_update()
        .select_related("first", "second")
        .filter(tournament=tournament, pk=pair_id)
        .first()
    )
    if pair is None:
        raise ServiceError(
            "pair_not_found", _("This pair does not exist."), refusal=Refusal.NOT_FOUND
        )
    before = _describe(pair)
    pair.delete()
    _log(tournament, REMOVED, actor, before, None)


@dataclass(frozen=True)
class NotHonoured:
    """A pair that sits at one table of a series, for the series page and the API."""

    first: Registration
    second: Registration
    table: int
    reason: str  # the code

    @property
    def reason_text(self) -> str:
        return str(REASONS.get(self.reason, REASONS[SEATED_BY_HAND]))


def not_honoured(series: Series) -> list[NotHonoured]:
    """The keep-apart pairs seated at one table in ``series`` as it is now, with the draw's
    reason (or ``seated_by_hand`` when the draw had kept them apart)."""
    table_of: dict[int, int] = {}
    registrations: dict[int, Registration] = {}
    for registration_id, number, registration in (
        (seat.registration_id, seat.table.number, seat.registration)
        for seat in series.seats.select_related("table", "registration__player")
    ):
        table_of[registration_id] = number
        registrations[registration_id] = registration
    if not table_of:
        return []
    reasons = {
        tuple(entry["pair"]): entry["reason"]
        for entry in series.keep_apart_report or []
        if isinstance(entry, dict) and "pair" in entry
    }
    result = []
    for pair in KeepApart.objects.filter(tournament_id=series.tournament_id):
        a, b = pair.first_id, pair.second_id
        if a in table_of and b in table_of and table_of[a] == table_of[b]:
            first, second = registrations[a], registrations[b]
            numbers = tuple(sorted((first.start_number, second.start_number)))
            result.append(
                NotHonoured(
                    first=first,
                    second=second,
                    table=table_of[a],
                    reason=reasons.get(numbers, SEATED_BY_HAND),
                )
            )
    return sorted(result, key=lambda entry: (entry.table, entry.first.start_number))
