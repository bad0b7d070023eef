"""The test world, built in code (never JSON dumps): personas, their clients, and one builder
for a tournament with players, a drawn or running series and its tables.

The fixtures in ``tests/conftest.py`` put these together into the personas every test
package shares; a test that needs another shape of world calls the same builders.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubs import roles
from clubs.models import Membership
from clubs.services import personal_club
from common.actors import Actor
from scoring import doors
from scoring.services.entry import save_game
from tournaments.models import Player, Registration, Seat, Series, Table, Tournament
from tournaments.permissions import registry_owner
from tournaments.services.lifecycle import ensure_series

# The captain of a table enters the games from his phone at seat 4.
CAPTAIN = Actor(doors.CAPTAIN, seat=4, device="captain-phone")


# --- Personas and their clients ------------------------------------------------------------


#: The game most tests play: a normal game that Re wins with 130 card points (+1 / -1).
RE_WINS = {"contract": "normal", "re": [1, 3], "re_points": 130}
#: The same game with Re's Ansage (value 3: won, announced).
RE_ANNOUNCES_AND_WINS = {"contract": "normal", "re": [1, 3], "announcements": {"re": "ansage"},
                         "re_points": 130}  # fmt: skip


def password_of(username: str) -> str:
    """Every persona's password follows from the name: ``pw-alice-123`` for Alice."""
    return f"pw-{username}-123"


def make_user(username: str) -> User:
    return User.objects.create_user(username, password=password_of(username))


def page_client(user: User | None = None, *, language: str = "") -> Client:
    """A browser without JavaScript: logged in as ``user`` if given, in ``language``
    (the language cookie) if given."""
    client = Client()
    if user is not None:
        client.force_login(user)
    if language:
        client.cookies["django_language"] = language
    return client


def api_client(
    *,
    user: User | None = None,
    table: Table | None = None,
    lang: str = "",
    device: str = "",
) -> APIClient:
    """An API client with the token of ``user`` or the captain token of ``table``, an
    ``Accept-Language`` and a phone's ``Device-Id``, as given; nothing given: the public."""
    client = APIClient()
    credentials: dict[str, str] = {}
    if device:
        credentials["HTTP_DEVICE_ID"] = device
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        credentials["HTTP_AUTHORIZATION"] = f"Token {token.key}"
    if table is not None:
        credentials["HTTP_AUTHORIZATION"] = f"Table {table.captain_token}"
    if lang:
        credentials["HTTP_ACCEPT_LANGUAGE"] = lang
    client.credentials(**credentials)
    return client


# --- Tournaments, players, series, tables --------------------------------------------------


def make_tournament(
    slug: str = "cup",
    series_count: int = 2,
    *,
    organizers: Iterable[User] = (),
    **fields: Any,
) -> Tournament:
    """A tournament with its planned series; its first organizer owns its players."""
    fields.setdefault("name", f"Turnier {slug}")
    fields.setdefault("starts_on", datetime.date(2026, 11, 28))
    tournament = Tournament.objects.create(slug=slug, series_count=series_count, **fields)
    for organizer in organizers:  # one at a time, in order: the first owns the registry
        organize(tournament, organizer)
    ensure_series(tournament)
    return tournament


def organize(tournament: Tournament, user: User) -> None:
    """Make ``user`` an organizer of ``tournament`` as the club migration would: the first
    one's personal club owns it, every later one becomes an organizer of that club."""
    tournament.organizers.add(user)
    if tournament.club_id is None:
        tournament.club = personal_club(user)
        tournament.save(update_fields=["club"])
    else:
        Membership.objects.get_or_create(
            club_id=tournament.club_id, user=user, defaults={"role": roles.ORGANIZER}
        )


def make_player(owner: User, first_name: str, last_name: str, **fields: Any) -> Player:
    """A player ``owner`` created in the registry of his personal club."""
    return Player.objects.create(
        owner=owner,
        registry_club=personal_club(owner),
        first_name=first_name,
        last_name=last_name,
        **fields,
    )


Name = tuple[str, str] | tuple[str, str, str]


def add_players(
    tournament: Tournament,
    count: int = 0,
    *,
    names: Sequence[Name] = (),
    checked_in: bool = True,
) -> list[Registration]:
    """Registers ``count`` numbered players (``Vorname1 Nachname1``, club ``Verein 1``), or
    one player per name (first, last and an optional club), with the next start numbers,
    in the tournament's registry."""
    if not names:
        start = tournament.registrations.count() + 1
        numbers = range(start, start + count)
        names = [(f"Vorname{i}", f"Nachname{i}", f"Verein {i % 5}") for i in numbers]
    number = tournament.registrations.count()
    owner = registry_owner(tournament)
    registrations = []
    for first, last, *club in names:
        number += 1
        player = Player.objects.create(
            first_name=first,
            last_name=last,
            club=club[0] if club else "",
            owner_id=owner,
            registry_club_id=tournament.club_id,
        )
        registrations.append(
            Registration.objects.create(
                tournament=tournament, player=player, start_number=number, checked_in=checked_in
            )
        )
    return registrations


def set_status(series: Series, status: str) -> None:
    series.status = status
    series.save(update_fields=["status"])


def seat_table(series: Series, registrations: Sequence[Registration], number: int = 1) -> Table:
    """A table with the players in seat order (seat 1 first), without drawing."""
    table = Table.objects.create(series=series, number=number)
    Seat.objects.bulk_create(
        Seat(table=table, series=series, position=i, registration=r)
        for i, r in enumerate(registrations, start=1)
    )
    return table


@dataclass
class World:
    """A tournament at the tables: its registrations and one series seated by hand."""

    tournament: Tournament
    series: Series
    tables: list[Table]
    registrations: list[Registration]

    @property
    def players(self) -> list[Player]:
        return [r.player for r in self.registrations]

    @property
    def organizer(self) -> User | None:
        return self.tournament.organizers.order_by("pk").first()


def build_world(
    tournament: Tournament,
    sizes: Sequence[int] = (4, 4),
    *,
    names: Sequence[Name] = (),
    series: int = 1,
    status: str = Series.Status.RUNNING,
    first_table: int = 1,
) -> World:
    """Fresh players (numbered, or one per name) at tables of ``sizes`` in series
    ``series``, seated in start-number order, the series then ``status``."""
    registrations = add_players(tournament, sum(sizes), names=names)
    target = tournament.series.get(number=series)
    tables, start = [], 0
    for offset, size in enumerate(sizes):
        group = registrations[start : start + size]
        tables.append(seat_table(target, group, first_table + offset))
        start += size
    set_status(target, status)
    return World(tournament, target, tables, registrations)


def running_table(tournament: Tournament, size: int = 4, number: int = 1) -> Table:
    """Series 1 running with one more table of ``size`` fresh players."""
    return build_world(tournament, (size,), first_table=number).tables[0]


def play(table: Table, games: Iterable[dict[str, Any]], actor: Actor = CAPTAIN) -> None:
    """Enters the games at the table through the entry service, one after the other."""
    for facts in games:
        fresh = Table.objects.select_related("series__tournament").get(pk=table.pk)
        save_game(fresh, facts, actor=actor)


# --- The clock ---------------------------------------------------------------------------

#: The referee's signal in the clock tests: every table's playing time runs from here.
SIGNAL = datetime.datetime(2026, 11, 28, 10, 0, tzinfo=datetime.UTC)


def after_signal(minutes: float) -> datetime.datetime:
    return SIGNAL + datetime.timedelta(minutes=minutes)


def started(world: World, at: datetime.datetime = SIGNAL) -> World:
    """The world's series started at the referee's signal ``at``."""
    world.series.starts_at = at
    world.series.save(update_fields=["starts_at"])
    return world
