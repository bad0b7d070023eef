"""A tournament total's series points, kept as JSON text (``PointsListField``): any list of
points and gaps reads back as written, through the ORM and as the text the standings read
in one statement; migrations see a plain text column."""

from __future__ import annotations

import json

import pytest
from django.db import connection, models, transaction
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.fields import PointsListField
from scoring.models import TournamentTotal
from tests.factories import add_players, make_tournament

POINTS = st.lists(st.one_of(st.none(), st.integers(-10_000, 10_000)), max_size=12)


@pytest.mark.django_db
@settings(max_examples=30)
@given(points=POINTS)
def test_any_series_points_read_back_as_written(points: list[int | None]) -> None:
    with transaction.atomic():
        tournament = make_tournament(slug="field")
        (registration,) = add_players(tournament, 1)
        TournamentTotal.objects.create(
            tournament=tournament, registration=registration, series_points=points
        )
        stored = TournamentTotal.objects.get(registration=registration)
        assert stored.series_points == points
        assert TournamentTotal.objects.values_list("series_points", flat=True).get() == points
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT series_points FROM {TournamentTotal._meta.db_table} WHERE id = %s",
                [stored.pk],
            )
            (text,) = cursor.fetchone() or (None,)
        assert isinstance(text, str) and json.loads(text) == points
        transaction.set_rollback(True)


def test_only_a_list_of_points_is_written() -> None:
    field = PointsListField(default=list)
    assert field.get_prep_value((3, None, -3)) == "[3, null, -3]"
    with pytest.raises(TypeError):
        field.get_prep_value("[3]")


def test_migrations_see_a_text_column() -> None:
    _name, path, _args, kwargs = PointsListField(default=list).deconstruct()
    assert (path, kwargs) == ("django.db.models.TextField", {"default": list})
    assert isinstance(PointsListField(), models.TextField)
