"""Whatever a file says, the import answers with a tournament or a report: any value of an
archive replaced by any JSON value (a huge number, a string, null, a list, an object) is
either read or refused row by row, and a refusal leaves nothing behind."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from archive.export import build_archive
from archive.reading import ArchiveRefused
from archive.services import import_archive
from scoring.services import Actor, Door
from tests.factories import build_world, make_tournament, make_user, play
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

GAMES = [
    {"contract": "normal", "re": [1, 3], "re_points": 130},
    {"contract": "normal", "re": [2, 4], "re_points": 100},
    {"contract": "solo", "solo": "damen", "re": [3], "re_points": 150},
]

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in the archive a value sits at, objects' keys and lists' indexes."""
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += paths(inner, (*prefix, index))
    return found


def replaced(archive: dict[str, Any], path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    changed = copy.deepcopy(archive)
    parent = changed
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return changed


@pytest.fixture
def small_archive(alice: User) -> dict[str, Any]:
    tournament = make_tournament("klein", 1, organizers=[alice])
    world = build_world(tournament, (4,))
    play(world.tables[0], GAMES)
    return json.loads(json.dumps(build_archive(tournament)))


def test_any_value_anywhere_is_read_or_refused(small_archive: dict[str, Any]) -> None:
    user = make_user("importer")
    actor = Actor(Door.ORGANIZER, user=user)
    places = paths(small_archive)
    before = Tournament.objects.count()

    @settings(
        max_examples=120,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(place=st.sampled_from(places), value=JSON_VALUES)
    def check(place: tuple[Any, ...], value: Any) -> None:
        data = replaced(small_archive, place, value)
        with transaction.atomic():
            try:
                imported = import_archive(data, user, actor)
            except ArchiveRefused as refused:
                assert refused.problems, "a refusal names at least one row"
                assert all(p.message for p in refused.problems)
                assert Tournament.objects.count() == before
            else:
                assert imported.tournament.pk is not None
            transaction.set_rollback(True)

    check()


def test_a_changed_seat_shows_in_the_message(small_archive: dict[str, Any]) -> None:
    """Only one seat's points changed: the message shows the points, not two equal results."""
    game = small_archive["series"][0]["tables"][0]["games"][1]
    game["result"]["scores"]["1"] += 1
    with pytest.raises(ArchiveRefused) as refused:
        import_archive(small_archive, make_user("importer"), Actor(Door.ORGANIZER))
    (problem,) = refused.value.problems
    archived, computed = problem.message.split("(")[1:3]
    assert archived.split(")")[0] != computed.split(")")[0]
    assert problem.where == "series 1, table 1, game 2"
