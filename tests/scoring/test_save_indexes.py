"""The indexes a game's save writes are each needed: none repeats the leading columns of
another on the same table (every index is written with each game saved, four score rows
and four series totals among them)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import Model

from scoring.models import AuditEntry, Game, PlayerScore, ScoreSheet, SeriesTotal, TournamentTotal

WRITTEN = (Game, PlayerScore, SeriesTotal, TournamentTotal, ScoreSheet, AuditEntry)


def partial(model: type[Model]) -> set[str]:
    """Names of the model's indexes that cover only some rows: they cover no lookup."""
    declared = [*model._meta.constraints, *model._meta.indexes]
    return {c.name for c in declared if getattr(c, "condition", None) is not None}


def leading_repeats(model: type[Model]) -> list[tuple[str, str]]:
    """(index, the index whose leading columns it repeats) on the model's table."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, model._meta.db_table)
    keyed = {
        name: tuple(info["columns"])
        for name, info in found.items()
        if (info["index"] or info["unique"]) and info["columns"] and name not in partial(model)
    }
    return [
        (name, other)
        for name, columns in keyed.items()
        for other, wider in keyed.items()
        if other != name
        and wider[: len(columns)] == columns
        and (len(wider) > len(columns) or name > other)
        and not found[name]["unique"]  # a unique index is a rule, not a lookup
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("model", WRITTEN, ids=lambda m: m.__name__)
def test_no_index_a_save_writes_repeats_another(model: type[Model]) -> None:
    assert leading_repeats(model) == []


@pytest.mark.django_db
def test_the_check_finds_a_repeated_index() -> None:
    """The check above can fail: an index on the game's table alone repeats the leading
    column of ``game_number_unique`` (created in the test's transaction, rolled back)."""
    with connection.cursor() as cursor:
        cursor.execute('CREATE INDEX "repeated_table" ON "scoring_game" ("table_id")')
    assert ("repeated_table", "game_number_unique") in leading_repeats(Game)
