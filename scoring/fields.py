"""A list of points kept as its JSON text (``TournamentTotal.series_points``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.db import models
from django.db.models.expressions import Combinable

if TYPE_CHECKING:  # the values as the type checker's Django plugin sees them
    _Text = models.Field[Sequence[int | None] | Combinable, list[int | None]]
else:
    _Text = models.TextField


class PointsListField(_Text):
    """A list of integers and nulls (points per series, null where there is no result) in a
    text column holding its JSON (``[4, null, -2]``); read and written as a list.

    Not ``jsonb``: the overall standings read every player's list as text and decode them
    all in one ``json.loads``; turning ``jsonb`` into text cost PostgreSQL more than the rest
    of that statement at 5,000 players (README "Standings against the field"). Statements
    that write it build the same text (``scoring.services.series_totals``).

    Migrations see a plain ``TextField`` (``deconstruct``), so that they never import this
    class: a data migration reads and writes the JSON text itself."""

    def deconstruct(self) -> Any:
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.TextField", args, kwargs

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return value if value is None else json.loads(value)

    def to_python(self, value: Any) -> Any:
        return json.loads(value) if isinstance(value, str) else value

    def get_prep_value(self, value: Any) -> Any:
        if value is None:
            return None
        if not isinstance(value, list | tuple):
            raise TypeError(f"a list of points, not {type(value).__name__}")
        return json.dumps(list(value))
