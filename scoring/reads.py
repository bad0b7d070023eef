"""The reads of a table that every captain page and save makes, compiled once.

A save from the captain page reads the table by its token, its seats with their players, its
sheet and its games; compiling those querysets cost the ORM more than running them. Each is a
``common.sql.PreparedLookup``: compiled once per thread, prepared on PostgreSQL, its objects
built as the queryset builds them.
"""

from __future__ import annotations

from common.sql import PreparedLookup
from scoring.models import Game, ScoreSheet
from tournaments.models import Seat, Table

# The token is unique: no ORDER BY (the tables' default order joins).
BY_TOKEN = PreparedLookup(
    lambda token: (
        Table.objects.select_related("series__tournament")
        .filter(captain_token=token)
        .order_by()[:1]
    )
)
SEATS = PreparedLookup(
    lambda table_id: (
        Seat.objects.filter(table_id=table_id)
        .select_related("registration__player")
        .order_by("position")
    ),
    marker=0,
)
GAMES = PreparedLookup(
    lambda table_id: Game.objects.filter(table_id=table_id).order_by("number"), marker=0
)
SHEET = PreparedLookup(
    lambda table_id: ScoreSheet.objects.filter(table_id=table_id).order_by()[:1], marker=0
)


def table_by_token(token: str) -> Table | None:
    """The table of a captain link, with its series and tournament."""
    return BY_TOKEN.first(token)


def seats_of(table: Table) -> list[Seat]:
    """The table's seats in order, each with its registration and player."""
    return SEATS.all(table.pk)


def games_of(table: Table) -> list[Game]:
    """The table's games in order."""
    return GAMES.all(table.pk)


def stored_sheet(table: Table) -> ScoreSheet | None:
    """The table's sheet as stored, if it has one."""
    return SHEET.first(table.pk)
