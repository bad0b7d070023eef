"""The demo club's Donnerstagsrunde: ten players, five earlier closed evenings at two tables
and the latest of six players, 20 games with Bock rounds in quick and full entry, all
settled; a club championship that drops evenings; built once."""

from __future__ import annotations

import pytest

from evenings.championship import championship
from evenings.demo import BEST_EVENINGS, DEMO_GROUP, EARLIER, evenings_in_demo
from evenings.models import Evening, EveningGame, Group
from scoring.demo import demo_built
from tests.factories import make_tournament, make_user

pytestmark = pytest.mark.django_db


def test_the_demo_club_has_a_closed_evening() -> None:
    assert any(r() is evenings_in_demo for _k, r, *_ in demo_built.receivers)
    tournament = make_tournament("demo", organizers=[make_user("demo")])
    evenings_in_demo(sender=None, tournament=tournament)
    evenings = Evening.objects.filter(group__slug=DEMO_GROUP)
    assert evenings.count() == EARLIER + 1
    assert set(evenings.values_list("status", flat=True)) == {Evening.Status.CLOSED}
    evening = evenings.order_by("-date").first()
    assert evening is not None and evening.settlement is not None
    assert evening.status == Evening.Status.CLOSED
    games = EveningGame.objects.filter(table__evening=evening)
    assert games.count() == 20
    assert {g.kind for g in games} == {"quick", "full"}
    assert max(g.bock for g in games) >= 2  # Doppelbock
    assert sum(b["cents"] for b in evening.settlement["balances"]) == 0
    assert len(evening.settlement["balances"]) == 6
    table = championship(Group.objects.get(slug=DEMO_GROUP))
    assert len(table.ranked) == 10
    assert any(line.dropped for line in table.ranked)  # the best 5 evenings count
    assert all(line.counted <= BEST_EVENINGS for line in table.ranked)
    evenings_in_demo(sender=None, tournament=tournament)
    assert Group.objects.filter(slug=DEMO_GROUP).count() == 1
