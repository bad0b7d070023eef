"""Seasons' test world: tournaments of one registry with kept totals written directly (the
ranking reads only ``TournamentTotal``; how games make them is tested in tests/scoring)."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence

from django.contrib.auth.models import User

from clubs.services import personal_club
from common.actors import ORGANIZER, Actor
from scoring.models import TournamentTotal
from seasons.models import Season
from seasons.services import SeasonData, attach_tournament, create_season
from tests.factories import make_tournament
from tournaments.models import Player, Registration, Series, Tournament

Points = Sequence[int | None]


def player(owner: User, name: str, club: str = "") -> Player:
    first, last = name.split()
    found, _ = Player.objects.get_or_create(
        registry_club=personal_club(owner),
        first_name=first,
        last_name=last,
        defaults={"club": club, "owner": owner},
    )
    return found


def played(
    owner: User,
    slug: str,
    starts_on: str,
    results: Mapping[str, Points],
    *,
    clubs: Mapping[str, str] | None = None,
    **fields: object,
) -> Tournament:
    """A tournament of ``owner`` held on ``starts_on`` whose series are closed, and each named
    player's points per series (None: a series he did not play)."""
    series = max((len(p) for p in results.values()), default=1)
    tournament = make_tournament(
        slug,
        series,
        organizers=[owner],
        starts_on=datetime.date.fromisoformat(starts_on),
        **fields,
    )
    Series.objects.filter(tournament=tournament).update(status=Series.Status.CLOSED)
    for number, (name, points) in enumerate(results.items(), start=1):
        registration = Registration.objects.create(
            tournament=tournament,
            player=player(owner, name, (clubs or {}).get(name, "")),
            start_number=number,
        )
        if any(p is not None for p in points):
            TournamentTotal.objects.create(
                tournament=tournament,
                registration=registration,
                points=sum(p for p in points if p is not None),
                series_points=list(points),
            )
    return tournament


def organizer(user: User) -> Actor:
    return Actor(ORGANIZER, user=user)


def season_of(
    owner: User,
    tournaments: Sequence[Tournament] = (),
    *,
    preset: str = "ddv_rangliste",
    overrides: Mapping[str, object] | None = None,
    reference: str | None = "2026-12-31",
    slug: str = "",
    name: str = "Saison",
    is_public: bool = True,
) -> Season:
    season = create_season(
        SeasonData(
            name=name,
            slug=slug,
            preset=preset,
            rule_overrides=dict(overrides or {}),
            reference_date=datetime.date.fromisoformat(reference) if reference else None,
            is_public=is_public,
        ),
        actor=organizer(owner),
    )
    for tournament in tournaments:
        attach_tournament(season, tournament, actor=organizer(owner))
    return season
