"""A realistic demo tournament, built through the same services the organizers use."""

from __future__ import annotations

import datetime
import random

from django.contrib.auth.models import User

from clubs import roles
from clubs.invitations import invite, open_invitations
from clubs.models import Club, Membership
from clubs.services import personal_club
from common.actors import ORGANIZER, Actor
from tournaments.models import DEFAULT_TIEBREAK, Player, Tournament
from tournaments.services.draw import seat_series
from tournaments.services.lifecycle import ensure_series
from tournaments.services.registrations import PlayerData, register

DEMO_SLUG = "demo"
DEMO_USER = "demo"
DEMO_PASSWORD = "demo"
#: A second member of the demo organizer's club: its cashier (same password).
DEMO_CASHIER = "kasse"
#: The club's referee: takes and rules the tables' referee calls (same password).
DEMO_REFEREE = "schiri"
#: Whom the club has invited (an open invitation on its members page).
DEMO_INVITED = "neu@example.org"

FIRST_NAMES = (  # noqa: SIM905 (names read better as text)
    "Anna Bernd Claudia Dieter Elke Frank Gabi Heinz Ingrid Jürgen Karin Lothar Monika "
    "Norbert Olga Peter Renate Stefan Tanja Uwe Vera Werner Yvonne Zeynep Andreas Birgit "
    "Christian Doris Erwin Friederike Günter Hannelore Ingo Jutta Klaus Lena Manfred Nicole "
    "Otto Petra Ralf Sabine Thomas Ulrike Volker Waltraud Jan Marie Lukas Sophie"
).split()
LAST_NAMES = (  # noqa: SIM905
    "Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch "
    "Bauer Richter Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann "
    "Hartmann Lange Schmitt Werner Krause Meier Lehmann Schmid Schulze Maier Köhler Herrmann "
    "König Walter Mayer Huber Kaiser Fuchs Peters Lang Scholz Möller Weiß Jung Hahn Vogel "
    "Friedrich"
).split()
CLUBS = (
    "DK Kreuz-Damen Köln",
    "Doko-Freunde Münster",
    "Die Füchse Menden",
    "SG Karlchen Bielefeld",
    "Dulle Dortmund",
    "Pik As Hamm",
    "",
)


def _demo_club(organizer: User) -> Club:
    """The demo organizer's personal club, with a cashier and a referee as its members."""
    club = personal_club(organizer)
    for username, role in ((DEMO_CASHIER, roles.CASHIER), (DEMO_REFEREE, roles.REFEREE)):
        member, created = User.objects.get_or_create(username=username)
        if created or not member.has_usable_password():
            member.set_password(DEMO_PASSWORD)
            member.save()
        Membership.objects.get_or_create(club=club, user=member, defaults={"role": role})
    if not open_invitations(club).exists():
        # An open invitation, so that the club's members page shows one (no mail is sent
        # without a mail server; the owner copies the link).
        invite(
            club,
            roles.ORGANIZER,
            email=DEMO_INVITED,
            actor=Actor(ORGANIZER, user=organizer),
        )
    return club


def create_demo_tournament(players: int, series: int, seed: int, rng: random.Random) -> Tournament:
    """(Re)create the tournament ``demo`` with its organizer, ``players`` checked-in players
    (names and clubs drawn from ``rng``) and every series drawn with ``seed``. Playing it is
    the results app's part (``scoring.demo.build_demo``)."""
    Tournament.objects.filter(slug=DEMO_SLUG).delete()
    organizer, created = User.objects.get_or_create(username=DEMO_USER)
    if created or not organizer.has_usable_password():
        organizer.set_password(DEMO_PASSWORD)
        organizer.save()
    tournament = Tournament.objects.create(
        name="Doko-Turnier Demo-Pokal",
        slug=DEMO_SLUG,
        starts_on=datetime.date.today(),
        venue="Bürgerhaus Musterstadt",
        series_count=series,
        status=Tournament.Status.REGISTRATION,
        tiebreak=list(DEFAULT_TIEBREAK),
        club=_demo_club(organizer),
    )
    tournament.organizers.add(organizer)
    ensure_series(tournament)
    names = rng.sample([(f, last) for f in FIRST_NAMES for last in LAST_NAMES], players)
    for first, last in names:
        data = PlayerData(first_name=first, last_name=last, club=rng.choice(CLUBS))
        # The registry of the demo's club: a second run reuses its players.
        existing = Player.objects.filter(
            registry_club_id=tournament.club_id, first_name=first, last_name=last
        ).first()
        register(tournament, data, existing_player=existing, checked_in=True)
    for number in range(1, series + 1):
        seat_series(tournament.series.get(number=number), seed=seed)
    return tournament
