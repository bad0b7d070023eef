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
from archive.services import import_archive, import_file
from common.actors import ORGANIZER, Actor
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
    actor = Actor(ORGANIZER, user=user)
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
        import_archive(small_archive, make_user("importer"), Actor(ORGANIZER))
    (problem,) = refused.value.problems
    archived, computed = problem.message.split("(")[1:3]
    assert archived.split(")")[0] != computed.split(")")[0]
    assert problem.where == "series 1, table 1, game 2"


#: Texts the database cannot hold (NUL, lone surrogates) and names that show nothing.
BAD_TEXTS = st.sampled_from(["a\x00b", "\ud800", "x\udfff", "\u200b\u200c", "\u200d \ufeff"])


def test_unstorable_texts_anywhere_are_refused_by_row(small_archive: dict[str, Any]) -> None:
    """A NUL byte or a lone surrogate in any text of the file (a value or a key, a name, a
    game's record, the source or the audit) is refused with its row named, never a 500; a
    name of invisible characters only is refused like an empty one."""
    user = make_user("importer")
    actor = Actor(ORGANIZER, user=user)
    texts = [p for p in paths(small_archive) if isinstance(value_at(small_archive, p), str)]
    names = [("players", 0, "first_name"), ("players", 0, "last_name"), ("tournament", "name")]
    record = ("series", 0, "tables", 0, "games", 0, "record")

    @settings(max_examples=60, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
    @given(place=st.sampled_from([*texts, *names]), bad=BAD_TEXTS, as_key=st.booleans())
    def check(place: tuple[Any, ...], bad: str, as_key: bool) -> None:
        invisible = bad.strip("\u200b\u200c\u200d\ufeff ") == ""
        if invisible and place not in names:
            return  # invisible text is fine where a text may be empty or is a choice
        if as_key and not invisible:  # the bad text as a key of the game's record instead
            data = replaced(small_archive, (*record, bad), 1)
            expected_where = "series 1, table 1, game 1, record"
        else:
            data = replaced(small_archive, place, bad)
            expected_where = ""
        raw = json.dumps(data).encode()  # \u0000 and \ud800 escaped, as a file has them
        with transaction.atomic():
            with pytest.raises(ArchiveRefused) as refused:
                import_file(raw, user, actor)
            transaction.set_rollback(True)
        wheres = [p.where for p in refused.value.problems]
        assert wheres and all(p.message for p in refused.value.problems)
        if expected_where:
            assert expected_where in wheres

    check()


def value_at(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        data = data[step]
    return data


def test_a_key_twice_is_refused_by_row(small_archive: dict[str, Any]) -> None:
    raw = json.dumps(small_archive)
    twice = raw.replace('"re_points": 130', '"re_points": 130, "re_points": 100', 1)
    twice = twice.replace('"first_name": ', '"first_name": "X", "first_name": ', 1)
    with pytest.raises(ArchiveRefused) as refused:
        import_file(twice.encode(), make_user("importer"), Actor(ORGANIZER))
    found = {(p.where, p.message) for p in refused.value.problems}
    assert found == {
        ("player 1", "The key first_name appears twice."),
        ("series 1, table 1, game 1, record", "The key re_points appears twice."),
    }


def test_a_confirmed_sheet_must_be_complete(small_archive: dict[str, Any]) -> None:
    """The app submits only a complete sheet: 3 of 24 games on a confirmed sheet is refused
    (the same sheet open is read)."""
    sheet = small_archive["series"][0]["tables"][0]["sheet"]
    user = make_user("importer")
    for status in ("submitted", "confirmed"):
        sheet["status"] = status
        with pytest.raises(ArchiveRefused) as refused:
            import_archive(copy.deepcopy(small_archive), user, Actor(ORGANIZER))
        (problem,) = refused.value.problems
        assert problem.where == "series 1, table 1"
        assert problem.message.startswith(f"The sheet is {status} but not complete:")
    sheet["status"] = "open"
    assert import_archive(small_archive, user, Actor(ORGANIZER)).games == 3


@pytest.mark.parametrize(
    ("key", "value", "where"),
    [
        ("source", {"site": "x", "slug": "y", "extra": {"deep": [[[1]]]}}, "source"),
        ("source", ["a"], "source"),
        ("audit", {"entries": 1, "actions": {"a": {"b": 1}}}, "audit, actions"),
        ("audit", {"entries": -1, "actions": {}}, "audit, entries"),
        ("audit", {"actions": {}, "first": "yesterday"}, "audit, first"),
        ("exported_at", 5, "exported_at"),
    ],
)
def test_source_and_audit_have_the_exports_shape(
    small_archive: dict[str, Any], key: str, value: Any, where: str
) -> None:
    small_archive[key] = value
    with pytest.raises(ArchiveRefused) as refused:
        import_archive(small_archive, make_user("importer"), Actor(ORGANIZER))
    assert where in [p.where for p in refused.value.problems]
