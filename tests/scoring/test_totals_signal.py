"""``totals_changed`` goes out once per transaction and tournament, after the commit, and
not for changes a rollback undid."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction

from scoring.signals import totals_changed
from tests.factories import RE_WINS as GAME
from tests.factories import make_tournament, play, running_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard() -> Iterator[list[int]]:
    calls: list[int] = []

    def receiver(sender: Any, *, tournament_id: int, **kwargs: Any) -> None:
        calls.append(tournament_id)

    totals_changed.connect(receiver, dispatch_uid="test-heard")
    yield calls
    totals_changed.disconnect(dispatch_uid="test-heard")


def test_one_announcement_for_many_games_in_one_transaction(
    heard: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    first = make_tournament("eins")
    second = make_tournament("zwei")
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        play(running_table(first), [GAME, GAME, GAME])
        play(running_table(second), [GAME])
        play(running_table(first, number=2), [GAME])
    assert sorted(heard) == sorted([first.pk, second.pk])


def test_a_rolled_back_change_does_not_swallow_the_next(
    heard: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    tournament = make_tournament("eins")
    table = running_table(tournament)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        with pytest.raises(RuntimeError), transaction.atomic():
            play(table, [GAME])
            raise RuntimeError("undo")
        play(table, [GAME])
    assert heard == [tournament.pk]


def test_nothing_is_announced_for_a_transaction_rolled_back(
    heard: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    table = running_table(make_tournament("eins"))
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        play(table, [GAME])
        raise RuntimeError("undo")
    assert heard == []
