"""An open referee call stands on every view of the hall display (table, time, reason) at
once: each step of the call moves the fingerprint, so the screens fetch the board again."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from common.actors import Actor
from hall import board as boards
from scoring.doors import REFEREE
from scoring.services.referee import call_referee, rule_call, take_call
from tests.factories import CAPTAIN, build_world, page_client, started
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db


def digest(tournament: Tournament, view: str) -> str:
    fresh = Tournament.objects.get(pk=tournament.pk)
    return boards.fingerprint(fresh, boards.series_of(fresh), view, "de")


@pytest.mark.parametrize("view", [boards.TABLES, boards.CLOCK, boards.STANDINGS])
def test_a_call_shows_on_the_hall_until_it_is_ruled(
    tournament: Tournament, alice: User, view: str
) -> None:
    world = started(build_world(tournament, (4, 4)))
    table = Table.objects.select_related("series__tournament").get(pk=world.tables[1].pk)
    screen: Client = page_client(language="en")
    seen = [digest(tournament, view)]
    call = call_referee(table, reason="Karte verworfen", actor=CAPTAIN, link=table.captain_token)
    seen.append(digest(tournament, view))
    html = screen.get(f"/turniere/herbst/halle/?view={view}").content.decode()
    assert "Referee to table 2" in html and "Karte verworfen" in html
    assert f"· {timezone.localtime(call.call.called_at):%H:%M} ·" in html
    take_call(call.call, actor=Actor(REFEREE, user=alice))
    seen.append(digest(tournament, view))
    assert "on the way" in screen.get(f"/turniere/herbst/halle/?view={view}").content.decode()
    rule_call(call.call, ruling="Weiter", actor=Actor(REFEREE, user=alice))
    seen.append(digest(tournament, view))
    assert (
        "Karte verworfen" not in screen.get(f"/turniere/herbst/halle/?view={view}").content.decode()
    )
    assert len(set(seen)) == 4
