"""Invariants the database itself enforces."""

import datetime

import pytest
from django.db import IntegrityError, transaction

from clubs.services import personal_club
from tests.factories import add_players
from tournaments.models import Player, Registration, Seat, Table, Tournament


def test_start_numbers_unique_per_tournament(tournament: Tournament) -> None:
    (first,) = add_players(tournament, 1)
    player = Player.objects.create(first_name="Zweite", last_name="Person")
    with pytest.raises(IntegrityError), transaction.atomic():
        Registration.objects.create(
            tournament=tournament, player=player, start_number=first.start_number
        )


def test_player_registered_once_per_tournament(tournament: Tournament) -> None:
    (first,) = add_players(tournament, 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Registration.objects.create(tournament=tournament, player=first.player, start_number=99)


def test_player_sits_once_per_series(tournament: Tournament) -> None:
    (reg,) = add_players(tournament, 1)
    series = tournament.series.get(number=1)
    t1 = Table.objects.create(series=series, number=1)
    t2 = Table.objects.create(series=series, number=2)
    Seat.objects.create(table=t1, series=series, position=1, registration=reg)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=t2, series=series, position=1, registration=reg)


def test_seat_position_unique_and_in_range(tournament: Tournament) -> None:
    a, b = add_players(tournament, 2)
    series = tournament.series.get(number=1)
    table = Table.objects.create(series=series, number=1)
    Seat.objects.create(table=table, series=series, position=1, registration=a)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, series=series, position=1, registration=b)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, series=series, position=6, registration=b)


def test_ddv_number_unique_per_registry_but_blank_allowed(alice, bob) -> None:
    Player.objects.create(
        first_name="A",
        last_name="B",
        ddv_number="",
        owner=alice,
        registry_club=personal_club(alice),
    )
    Player.objects.create(
        first_name="C",
        last_name="D",
        ddv_number="",
        owner=alice,
        registry_club=personal_club(alice),
    )
    Player.objects.create(
        first_name="E",
        last_name="F",
        ddv_number="1234",
        owner=alice,
        registry_club=personal_club(alice),
    )
    Player.objects.create(
        first_name="E",
        last_name="F",
        ddv_number="1234",
        owner=bob,
        registry_club=personal_club(bob),
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(
            first_name="G",
            last_name="H",
            ddv_number="1234",
            owner=alice,
            registry_club=personal_club(alice),
        )


def test_tournament_end_not_before_start(db) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.create(
            name="X",
            slug="x",
            starts_on=datetime.date(2026, 5, 2),
            ends_on=datetime.date(2026, 5, 1),
        )
