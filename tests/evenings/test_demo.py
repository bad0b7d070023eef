"""The demo club's Donnerstagsrunde: six players, one closed evening of 20 games with Bock
rounds in quick and full entry, settled; built once."""

from __future__ import annotations

import pytest

from evenings.demo import DEMO_GROUP, evenings_in_demo
from evenings.models import Evening, EveningGame, Group
from scoring.demo import demo_built
from tests.factories import make_tournament, make_user

pytestmark = pytest.mark.django_db


def test_the_demo_club_has_a_closed_evening() -> None:
    assert any(r() is evenings_in_demo for _k, r, *_ in demo_built.receivers)
    tournament = make_tournament("demo", organizers=[make_user("demo")])
    evenings_in_demo(sender=None, tournament=tournament)
    evening = Evening.objects.get(group__slug=DEMO_GROUP)
    assert evening.status == Evening.Status.CLOSED
    games = EveningGame.objects.filter(table__evening=evening)
    assert games.count() == 20
    assert {g.kind for g in games} == {"quick", "full"}
    assert max(g.bock for g in games) >= 2  # Doppelbock
    assert sum(b["cents"] for b in evening.settlement["balances"]) == 0
    assert len(evening.settlement["balances"]) == 6
    evenings_in_demo(sender=None, tournament=tournament)
    assert Group.objects.filter(slug=DEMO_GROUP).count() == 1
