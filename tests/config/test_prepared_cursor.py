"""The prepared cursor of each game entry's statements (config/postgresql/base.py,
common/sql.py): on PostgreSQL a statement is prepared once per connection and nothing else
is; the captain-token lookup builds the table as the ORM would, by Django's internals
while they are there and by the ORM once they are not."""

from __future__ import annotations

import datetime
import logging
from typing import Any

import django
import pytest
from django.db import connection
from django.db.models import Model
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from common import sql
from common.sql import DJANGO_INTERNALS, PreparedLookup, prepared_cursor
from config.postgresql.base import PreparedCursor
from scoring.models import Game
from scoring.reads import BY_TOKEN, games_of, seats_of, stored_sheet
from tests.factories import RE_WINS, play
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


def test_the_sheet_reads_build_the_rows_the_orm_builds(table: Table) -> None:
    """Every object of a lookup, in the queryset's order, with its related objects."""
    assert games_of(table) == [] and stored_sheet(table) is None
    play(table, [RE_WINS, {**RE_WINS, "re": [2, 4]}, RE_WINS])
    seats = seats_of(table)
    orm = list(table.seats.select_related("registration__player").order_by("position"))
    assert [s.position for s in seats] == [1, 2, 3, 4]
    assert [_fields(s) for s in seats] == [_fields(s) for s in orm]
    with CaptureQueriesContext(connection) as queries:
        assert [str(s.registration.player) for s in seats] == [
            str(s.registration.player) for s in orm
        ]
    assert len(queries) == 0  # loaded with the seats, as select_related does
    games = games_of(table)
    stored = list(Game.objects.filter(table=table).order_by("number"))
    assert [g.number for g in games] == [1, 2, 3]
    assert [_fields(g) for g in games] == [_fields(g) for g in stored]  # JSON included
    assert games[1].record["re"] == [2, 4] and games[0].scores == stored[0].scores
    sheet = stored_sheet(table)
    assert sheet is not None and sheet.version == 3 and sheet.table_id == table.pk


def test_a_lookup_refuses_a_queryset_with_other_parameters(table: Table) -> None:
    lookup: PreparedLookup[Any] = PreparedLookup(
        lambda token: Table.objects.filter(captain_token=token, number=1)
    )
    with pytest.raises(AssertionError, match="one parameter"):
        lookup.first(table.captain_token)


def _fields(obj: Model) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def _same_as_the_orm(found: Table | None, table: Table) -> None:
    loaded = Table.objects.select_related("series__tournament").get(pk=table.pk)
    assert found is not None
    assert _fields(found) == _fields(loaded)
    assert _fields(found.series) == _fields(loaded.series)
    assert _fields(found.series.tournament) == _fields(loaded.series.tournament)


def test_the_django_internals_the_lookup_borrows_are_there(table: Table) -> None:
    """Fails after a Django upgrade that changed them: the lookup then still answers (by the
    ORM, see below), only slower; adapt ``PreparedLookup`` to the new Django or drop it."""
    lookup: PreparedLookup[Table] = PreparedLookup(BY_TOKEN.queryset)
    found = lookup.first(table.captain_token)
    assert lookup.problem is None and lookup.compiled() is not None, (
        f"Django {django.get_version()}: {lookup.problem}. PreparedLookup now takes the ORM."
    )
    _same_as_the_orm(found, table)
    compiled = lookup.compiled()
    assert compiled is not None
    assert compiled.names == [f.attname for f in Table._meta.concrete_fields], DJANGO_INTERNALS


@pytest.mark.parametrize("where", ["compile", "build"])
def test_without_the_internals_the_lookup_takes_the_orm(
    table: Table, where: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    lookup: PreparedLookup[Table] = PreparedLookup(BY_TOKEN.queryset)
    if where == "compile":  # as if a Django had dropped the function
        monkeypatch.setattr(sql, "get_related_populators", None)
    else:  # as if it had changed a signature (of the lookup's compiler: the ORM needs its own)

        def changed(rows: Any, *, moved: bool) -> Any:
            raise AssertionError("not called")

        compiled = lookup.compiled()
        assert compiled is not None
        monkeypatch.setattr(compiled.compiler, "apply_converters", changed)
    with caplog.at_level(logging.WARNING, logger="common.sql"):
        found = lookup.first(table.captain_token)
    _same_as_the_orm(found, table)
    assert lookup.problem is not None
    assert "get_related_populators" in lookup.problem and "apply_converters" in lookup.problem
    assert lookup.compiled() is None
    assert [r.levelname for r in caplog.records if r.name == "common.sql"] == ["WARNING"]
    with CaptureQueriesContext(connection) as queries:
        assert lookup.first("no-such-token") is None
        again = lookup.first(table.captain_token)
    assert again is not None and again.pk == table.pk
    assert len(queries) == 2  # one statement each, as before
    assert len(caplog.records) == 1  # warned once


TIMES = "SELECT '2026-03-29 01:30:00+00'::timestamptz, %s::timestamptz"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the PostgreSQL backend")
@pytest.mark.parametrize(
    "changed",
    [{}, {"TIME_ZONE": "America/New_York"}, {"USE_TZ": False, "TIME_ZONE": "Europe/Berlin"}],
)
def test_the_prepared_cursor_reads_times_as_django_cursor_does(changed: dict[str, Any]) -> None:
    """Made by the backend's ``create_cursor`` with the connection's ``cursor_factory`` set
    for the call: the time zone loader follows the settings changed after connecting, and
    the connection's other cursors stay Django's."""
    connection.ensure_connection()
    factory = connection.connection.cursor_factory
    moment = datetime.datetime(2026, 10, 25, 0, 30, tzinfo=datetime.UTC)
    with override_settings(**changed):
        with connection.cursor() as cursor:
            cursor.execute(TIMES, [moment])
            django_reads = cursor.fetchone()
        with prepared_cursor() as cursor:
            assert isinstance(cursor.cursor, PreparedCursor)
            cursor.execute(TIMES, [moment])
            assert cursor.fetchone() == django_reads
    assert connection.connection.cursor_factory is factory
    if changed.get("USE_TZ") is False:
        assert django_reads[0].tzinfo is None  # the settings' change is seen at all
