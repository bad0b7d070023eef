"""Two phones enter the same game number at one table at the same moment, on PostgreSQL:
two threads, two transactions. Exactly one game is stored, every time; the other phone is
told the game is already there."""

from __future__ import annotations

from collections import Counter
from functools import partial

import pytest
from django.db import connection

from common.actors import Actor
from common.services import Refusal, ServiceError
from evenings import services
from evenings.doors import TABLE_LINK
from evenings.models import EveningGame, EveningTable
from tests.cashbox.test_race import race
from tests.evenings.conftest import make_club, make_evening, make_group, playing

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL; SQLite runs one writer at a time",
    ),
]

TRIALS = 10


def enter(table: EveningTable, data: services.QuickData, key: str, device: str) -> EveningGame:
    return services.enter_game(table, 1, data, key=key, actor=Actor(TABLE_LINK, device=device))


def test_two_phones_enter_the_same_game() -> None:
    club = make_club("a", olga="owner")
    group = make_group(club, 6)
    tally: Counter[str] = Counter()
    for trial in range(TRIALS):
        _, (table,) = make_evening(group)
        who = playing(table)
        one = services.QuickData(winners=(who[0], who[1]), value=1)
        two = services.QuickData(winners=(who[2], who[3]), value=2)
        outcomes = race(
            partial(enter, table, one, f"a{trial}", "a"),
            partial(enter, table, two, f"b{trial}", "b"),
        )
        won = [o for o in outcomes if isinstance(o, EveningGame)]
        lost = [o for o in outcomes if isinstance(o, ServiceError)]
        assert len(won) == 1 and len(lost) == 1, outcomes
        assert lost[0].refusal is Refusal.CONFLICT
        assert EveningGame.objects.filter(table=table).count() == 1
        tally[lost[0].code] += 1
    assert sum(tally.values()) == TRIALS
