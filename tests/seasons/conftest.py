"""Hans: one player of Alice's registry in three of her tournaments, two public and one
private, each one table of four that played a few games."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User

from tests.factories import RE_WINS, build_world, make_tournament, play
from tournaments.models import Player, Registration, Series, Tournament

KONTRA_WINS = {"contract": "normal", "re": [1, 3], "re_points": 100}


def tournament_with_hans(
    alice: User,
    slug: str,
    day: int,
    hans: Player | None,
    games: list[dict[str, object]],
    *,
    closed: bool = True,
    **fields: object,
) -> tuple[Tournament, Player]:
    """A tournament of Alice's with one table of four that played ``games``, its series
    closed unless not ``closed``; seat 1 is Hans (the given player, or a new one)."""
    tournament = make_tournament(
        slug, organizers=[alice], starts_on=datetime.date(2026, 10, day), **fields
    )
    world = build_world(tournament, (4,))
    first = world.registrations[0]
    if hans is not None:
        stranger = first.player
        Registration.objects.filter(pk=first.pk).update(player=hans)
        stranger.delete()
    play(world.tables[0], games)
    if closed:  # every series closed: its results are final
        Series.objects.filter(tournament=tournament).update(status=Series.Status.CLOSED)
    return tournament, hans or Player.objects.get(registrations=first)


@pytest.fixture
def hans(alice: User) -> Player:
    _, hans = tournament_with_hans(alice, "herbst", 3, None, [RE_WINS, RE_WINS])
    tournament_with_hans(alice, "winter", 17, hans, [KONTRA_WINS])
    tournament_with_hans(alice, "geheim", 24, hans, [RE_WINS], is_public=False)
    return hans
