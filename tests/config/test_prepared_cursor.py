"""The prepared cursor of each game entry's statements (config/postgresql/base.py,
common/sql.py): on PostgreSQL a statement is prepared once per connection and nothing else
is; the captain-token lookup builds the table as the ORM would."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from common.sql import PreparedLookup, prepared_cursor
from scoring.api.authentication import BY_TOKEN
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def prepared_statements() -> list[tuple[str, int]]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements")
        return [(sql, int(runs)) for sql, runs in cursor.fetchall()]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the PostgreSQL backend")
def test_a_statement_is_prepared_once_and_other_queries_never() -> None:
    with CaptureQueriesContext(connection) as queries:
        for value in (1, 2, 3):
            with prepared_cursor() as cursor:
                cursor.execute("SELECT %s::int + 40", [value])
                assert cursor.fetchone() == (value + 40,)
    assert [q["sql"] for q in queries] == [f"SELECT {v}::int + 40" for v in (1, 2, 3)]
    for _ in range(10):
        assert Table.objects.filter(number=-1).count() == 0  # Django's client-side binding
    assert [(sql, runs) for sql, runs in prepared_statements() if "+ 40" in sql] == [
        ("SELECT $1::int + 40", 3)
    ]
    assert not [sql for sql, _ in prepared_statements() if "= -1" in sql]


def test_the_token_lookup_builds_the_table_with_its_series_and_tournament(table: Table) -> None:
    found = BY_TOKEN.first(table.captain_token)
    assert found is not None and found.pk == table.pk
    with CaptureQueriesContext(connection) as queries:
        assert found.series.pk == table.series.pk
        assert found.series.tournament.slug == table.series.tournament.slug
        assert found.captain_token == table.captain_token
    assert len(queries) == 0  # loaded with the table, as select_related does
    assert found._state.adding is False and found._state.db == "default"
    assert BY_TOKEN.first("no-such-token") is None


def test_a_lookup_refuses_a_queryset_with_other_parameters(table: Table) -> None:
    lookup: PreparedLookup[Any] = PreparedLookup(
        lambda token: Table.objects.filter(captain_token=token, number=1)
    )
    with pytest.raises(AssertionError, match="one parameter"):
        lookup.first(table.captain_token)
