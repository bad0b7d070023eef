"""A federation ranks results from other clubs' servers: a tournament imported from an
archive joins a season like any of the owner's tournaments, and its players are the owner's
players (matched by DDV number), so one player's results add up across servers."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User

from archive.export import build_archive
from archive.services import import_archive
from seasons.standings import season_ranking
from tests.factories import RE_WINS, build_world, make_tournament, make_user, play
from tests.seasons.helpers import organizer, season_of
from tournaments.models import Player, Series, Tournament

pytestmark = pytest.mark.django_db


def club_archive(club_user: User, slug: str, ddv: list[str]) -> dict[str, object]:
    """A club's tournament on its own server: one table of four, two games, closed."""
    tournament = make_tournament(slug, 1, organizers=[club_user])
    world = build_world(tournament, (4,))
    for registration, number in zip(world.registrations, ddv, strict=True):
        Player.objects.filter(pk=registration.player_id).update(ddv_number=number)
    play(world.tables[0], [RE_WINS, RE_WINS])
    # Played and closed: a season counts only final results.
    Series.objects.filter(tournament=tournament).update(status=Series.Status.CLOSED)
    return json.loads(json.dumps(build_archive(tournament)))


def test_imported_tournaments_rank_in_the_federations_season(alice: User) -> None:
    federation = make_user("verband")
    ddv = ["101", "102", "103", "104"]
    first = club_archive(alice, "klub-a", ddv)
    second = club_archive(make_user("klub"), "klub-b", ddv)  # the same four members
    a = import_archive(first, federation, organizer(federation)).tournament
    b = import_archive(second, federation, organizer(federation)).tournament
    # An imported copy is private until its importer publishes it; a public season takes
    # public tournaments only.
    Tournament.objects.filter(pk__in=[a.pk, b.pk]).update(is_public=True)
    season = season_of(federation, [a, b], preset="best_n", overrides={"best_n": 2}, slug="verband")
    ranking = season_ranking(season)
    assert Player.objects.filter(owner=federation).count() == 4
    assert len(ranking.lines) == 4 and all(line.tournaments == 2 for line in ranking.lines)
    # Seats 1 and 3 won both games at both clubs: they lead with twice their points.
    leaders = [line for line in ranking.lines if line.place == 1]
    assert len(leaders) == 2 and all(line.total > 0 for line in leaders)
