"""What one game entered through the API costs the database: a fixed number of statements,
so the count cannot creep up unnoticed (``bench/entry_bench.py`` measures the same under
gunicorn). The count differs by database: PostgreSQL claims the sheet, locks the totals and
reads seats and rows in one statement and saves the score rows, the totals and the audit
entry in another; SQLite takes the portable path."""

from __future__ import annotations

import re
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from scoring.models import AuditEntry, Game, PlayerScore, TournamentTotal
from seasons.models import SeasonTournament
from seasons.services import detach_tournament
from tests.api.helpers import NORMAL, games_url
from tests.seasons.helpers import organizer, season_of
from tournaments.models import Table

# In a test the request's transaction is a savepoint (SAVEPOINT ... RELEASE), counted like
# BEGIN and COMMIT: the token lookup, 2, the claim (which also reads the seasons holding the
# tournament), the game with its score rows, the totals and the audit entry. SQLite asks for
# the seasons after the commit.
STATEMENTS = {"postgresql": 5, "sqlite": 19}


def enter(client: APIClient, table: Table, version: int, key: str, dealer: int) -> Any:
    return client.post(
        games_url(table),
        {**NORMAL, "dealer": dealer},
        format="json",
        HTTP_IF_MATCH=f'"{version}"',
        HTTP_IDEMPOTENCY_KEY=key,
    )


@pytest.mark.django_db
def test_an_entry_costs_a_fixed_number_of_statements(
    captain_api: APIClient, table: Table, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        assert enter(captain_api, table, 0, "first", 1).status_code == 201
    for number in (2, 3):
        with (
            CaptureQueriesContext(connection) as queries,
            django_capture_on_commit_callbacks(execute=True),
        ):
            response = enter(captain_api, table, number - 1, f"game-{number}", number)
        assert response.status_code == 201, response.json()
        statements = [q["sql"] for q in queries.captured_queries]
        assert len(statements) == STATEMENTS[connection.vendor], "\n".join(statements)
    # Nothing of what the statements replaced is missing.
    assert Game.objects.filter(table=table).count() == 3
    assert PlayerScore.objects.filter(game__table=table).count() == 12
    assert AuditEntry.objects.filter(table=table, action="scoring.game.created").count() == 3
    entry = AuditEntry.objects.get(table=table, idempotency_key="game-3")
    assert entry.game_number == 3 and entry.response["game"]["number"] == 3
    assert entry.after == entry.response["game"] and entry.via == "captain link table 1"
    assert sum(t.points for t in TournamentTotal.objects.all()) == 0
    assert sorted(t.games for t in TournamentTotal.objects.filter(games__gt=0)) == [3] * 4


@pytest.mark.django_db
def test_an_entry_requests_the_refresh_of_the_seasons_it_is_in_then(
    alice: User, captain_api: APIClient, table: Table, django_capture_on_commit_callbacks: Any
) -> None:
    """The seasons a game's claim read (PostgreSQL; SQLite asks after the commit) are those
    holding the tournament at that game: attached, detached, attached to another."""
    tournament = table.series.tournament
    first = season_of(alice, [tournament], name="Eins")
    second = season_of(alice, [], name="Zwei")
    dealer = iter(range(1, 5))

    def refreshed(version: int) -> list[int]:
        with mock.patch("seasons.tasks.refresh_season.delay") as delay:
            with django_capture_on_commit_callbacks(execute=False) as callbacks:
                response = enter(captain_api, table, version, f"g{version}", next(dealer))
            assert response.status_code == 201, response.json()
            with CaptureQueriesContext(connection) as after_commit:
                for callback in callbacks:
                    callback()
        asked = [
            q["sql"] for q in after_commit.captured_queries if "DISTINCT season_id" in q["sql"]
        ]
        assert len(asked) == (connection.vendor != "postgresql"), asked
        return sorted(c.args[0] for c in delay.call_args_list)

    assert refreshed(0) == [first.pk]
    detach_tournament(first, tournament, actor=organizer(alice))
    assert refreshed(1) == []
    SeasonTournament.objects.create(season=second, tournament=tournament)
    assert refreshed(2) == [second.pk]
    season_of(alice, [tournament], name="Drei")
    assert len(refreshed(3)) == 2


def test_the_entry_statements_keep_their_conversion() -> None:
    """psycopg converts the placeholders of a statement over 4096 characters or with over 50
    values anew each time (``psycopg._queries``), which the entry's save paid for every game.
    A column more in the game or the audit entry may need shorter SQL here."""
    from psycopg._queries import MAX_CACHED_STATEMENT_LENGTH, MAX_CACHED_STATEMENT_PARAMS

    from common.sql import insert_cte
    from scoring.services.entry import _claim_sql
    from scoring.services.series_totals import _save_sql

    game = insert_cte(Game(table_id=1, series_id=1, number=1), "new_game", "id")[0]
    audit = insert_cte(AuditEntry(tournament_id=1, via="x"), "also")[0]
    for sql in (_claim_sql(), _save_sql(game, audit), _save_sql("", audit)):
        assert len(sql) <= MAX_CACHED_STATEMENT_LENGTH
        assert len(set(re.findall(r"%\((\w+)\)s", sql))) <= MAX_CACHED_STATEMENT_PARAMS
