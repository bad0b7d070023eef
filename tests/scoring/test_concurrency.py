"""Two phones write to one sheet at the same moment, on PostgreSQL: two threads, two
transactions, the same expected version. Exactly one wins, every time; the other is refused
with a conflict and the sheet holds exactly what the winner was told."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.db import connection

from common.actors import Actor
from common.services import Refusal, ServiceError
from scoring import doors
from scoring.models import AuditEntry, Game, PlayerScore, ScoreSheet
from scoring.services.entry import delete_last_game, save_game
from scoring.services.sheet import submit_sheet
from tests.concurrency import race
from tests.factories import RE_WINS as NORMAL
from tests.factories import running_table
from tournaments.models import Table, Tournament

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL; SQLite runs one writer at a time",
    ),
]

TRIALS = 20
CAPTAIN = Actor(doors.CAPTAIN, seat=4, device="phone-a")
OTHER = Actor(doors.CAPTAIN, seat=2, device="phone-b")
KONTRA = {"contract": "normal", "re": [1, 3], "re_points": 100}


def load(table_id: int) -> Table:
    return Table.objects.select_related("series__tournament").get(pk=table_id)


def sheet_with(tournament: Tournament, number: int, games: int) -> int:
    table = load(running_table(tournament, number=number).pk)
    for _ in range(games):
        save_game(table, NORMAL, actor=CAPTAIN)
    return table.pk


def settle(outcomes: list[Any], tally: Counter[str]) -> tuple[Any, ServiceError]:
    """Exactly one winner and one conflict-type refusal; count them."""
    for outcome in outcomes:
        if isinstance(outcome, BaseException) and not isinstance(outcome, ServiceError):
            raise outcome
    winners = [o for o in outcomes if not isinstance(o, ServiceError)]
    losers = [o for o in outcomes if isinstance(o, ServiceError)]
    tally["trials"] += 1
    tally["double accepts"] += len(winners) > 1
    assert len(winners) == 1 and len(losers) == 1, outcomes
    loser = losers[0]
    tally[loser.code] += 1
    return winners[0], loser


def test_post_and_post_of_the_same_game(tournament: Tournament) -> None:
    tally: Counter[str] = Counter()
    for n in range(1, TRIALS + 1):
        table_id = sheet_with(tournament, n, 3)
        winner, loser = settle(
            race(
                lambda t=table_id: save_game(load(t), NORMAL, expected_version=3, actor=CAPTAIN),
                lambda t=table_id: save_game(load(t), KONTRA, expected_version=3, actor=OTHER),
            ),
            tally,
        )
        assert loser.refusal is Refusal.CONFLICT and loser.data["version"] == 4
        assert Game.objects.filter(table_id=table_id).count() == 4
        assert ScoreSheet.objects.get(table_id=table_id).version == winner.sheet["version"] == 4
        stored = Game.objects.get(table_id=table_id, number=4)
        assert stored.record["re_points"] == winner.game["record"]["re_points"]
    assert tally == Counter(trials=TRIALS, version_conflict=TRIALS)


def test_put_and_put_of_the_same_game(tournament: Tournament) -> None:
    tally: Counter[str] = Counter()
    for n in range(1, TRIALS + 1):
        table_id = sheet_with(tournament, n, 2)
        winner, _loser = settle(
            race(
                lambda t=table_id: save_game(
                    load(t), KONTRA, number=1, expected_version=2, actor=CAPTAIN
                ),
                lambda t=table_id: save_game(
                    load(t),
                    {**NORMAL, "re_points": 200},
                    number=1,
                    expected_version=2,
                    actor=OTHER,
                ),
            ),
            tally,
        )
        game = Game.objects.get(table_id=table_id, number=1)
        assert game.revision == 2 and game.value == winner.game["value"]
        assert (
            AuditEntry.objects.filter(table_id=table_id, action="scoring.game.corrected").count()
            == 1
        )
    assert tally == Counter(trials=TRIALS, version_conflict=TRIALS)


def test_put_and_post(tournament: Tournament) -> None:
    tally: Counter[str] = Counter()
    for n in range(1, TRIALS + 1):
        table_id = sheet_with(tournament, n, 2)
        settle(
            race(
                lambda t=table_id: save_game(
                    load(t), KONTRA, number=2, expected_version=2, actor=CAPTAIN
                ),
                lambda t=table_id: save_game(load(t), NORMAL, expected_version=2, actor=OTHER),
            ),
            tally,
        )
        assert ScoreSheet.objects.get(table_id=table_id).version == 3
    assert tally == Counter(trials=TRIALS, version_conflict=TRIALS)


def test_delete_last_and_post_next(tournament: Tournament) -> None:
    """Neither a lost game nor a deleted one that its client thinks it saved."""
    tally: Counter[str] = Counter()
    for n in range(1, TRIALS + 1):
        table_id = sheet_with(tournament, n, 3)
        winner, _loser = settle(
            race(
                lambda t=table_id: delete_last_game(
                    load(t), number=3, expected_version=3, actor=CAPTAIN
                ),
                lambda t=table_id: save_game(load(t), NORMAL, expected_version=3, actor=OTHER),
            ),
            tally,
        )
        count = Game.objects.filter(table_id=table_id).count()
        assert count == (4 if hasattr(winner, "game") else 2)
        assert PlayerScore.objects.filter(game__table_id=table_id).count() == 4 * count
    assert tally == Counter(trials=TRIALS, version_conflict=TRIALS)


def test_submit_and_a_captain_correction(tournament: Tournament) -> None:
    """A correction never lands on a submitted sheet."""
    forced = [{"contract": "solo", "solo": "damen", "re": [s], "re_points": 121}
              for s in (2, 3, 4, 1)]  # fmt: skip
    tally: Counter[str] = Counter()
    for n in range(1, TRIALS + 1):
        table = load(running_table(tournament, number=n).pk)
        for facts in [NORMAL] * 20 + forced:
            save_game(table, facts, actor=CAPTAIN)
        winner, _loser = settle(
            race(
                lambda t=table.pk: submit_sheet(
                    load(t), seat=4, expected_version=24, actor=CAPTAIN
                ),
                lambda t=table.pk: save_game(
                    load(t), KONTRA, number=1, expected_version=24, actor=OTHER
                ),
            ),
            tally,
        )
        sheet = ScoreSheet.objects.get(table=table)
        game = Game.objects.get(table=table, number=1)
        if hasattr(winner, "game"):  # the correction won: the sheet is still open
            assert sheet.status == "open" and game.revision == 2
        else:
            assert sheet.status == "submitted" and game.revision == 1
    assert tally["trials"] == TRIALS and tally["double accepts"] == 0
    assert tally["version_conflict"] + tally["sheet_submitted"] == TRIALS
