"""A game's save reads its own players' rows, however many play: the sums of a series
seek each player's score rows and totals by index instead of reading the series' or the
tournament's (a hall of 400 players would otherwise read thousands of rows per save).
Counted by PostgreSQL itself for the test's transaction (``pg_stat_xact_user_tables``)."""

from __future__ import annotations

import pytest
from django.db import connection

from common.actors import Actor
from scoring import doors
from scoring.models import PlayerScore, SeriesTotal, TournamentTotal
from scoring.services.entry import save_game
from tests.factories import RE_WINS, build_world, play
from tournaments.models import Table, Tournament

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's statistics"),
]

CAPTAIN = Actor(doors.CAPTAIN, seat=4, device="phone-a")
TABLES, GAMES = 12, 3
READ = (PlayerScore, SeriesTotal, TournamentTotal)


def rows_read() -> dict[str, int]:
    """Rows this transaction has read so far from the tables of the sums, by table."""
    names = [m._meta.db_table for m in READ]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)"
            " FROM pg_stat_xact_user_tables WHERE relname = ANY(%s)",
            [names],
        )
        found = dict(cursor.fetchall())
    return {name: int(found.get(name, 0)) for name in names}


@pytest.mark.parametrize("with_version", [True, False], ids=["claim in one", "lock first"])
def test_a_save_reads_its_players_rows_not_the_halls(
    tournament: Tournament, with_version: bool
) -> None:
    world = build_world(tournament, (4,) * TABLES)
    for table in world.tables:
        play(table, [RE_WINS] * GAMES)
    table = Table.objects.select_related("series__tournament").get(pk=world.tables[0].pk)
    with connection.cursor() as cursor:
        # A hall's tables are large; the test's few rows fill a page or two, which the
        # planner might rightly read whole. Plan as for a hall: no sequential scans, and
        # plans made anew (the connection's cached ones may come from emptier tables).
        # Reading a series' rows through its index is what this test catches.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("DISCARD PLANS")
    before = rows_read()
    save_game(table, RE_WINS, expected_version=GAMES if with_version else None, actor=CAPTAIN)
    read = {name: n - before[name] for name, n in rows_read().items()}
    scores, series_totals, tournament_totals = (read[m._meta.db_table] for m in READ)
    # Each of the four players' rows, a few times over (the lock of the totals, their
    # update, the sums over the series), and none of the other 44 players'.
    assert scores <= 4 * (GAMES + 1), read  # with the new game's rows
    assert series_totals <= 4 * 4, read
    assert tournament_totals <= 4 * 2, read
