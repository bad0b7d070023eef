"""What the results layer tells the layers above it, without knowing them.

``totals_changed`` is sent once the transaction that changed players' kept totals has
committed, with the tournament's id (``tournament_id``). Receivers run after the commit,
in the process that wrote: they should be quick (queue a task) and must not fail the write,
which is done. A receiver that raises anyway is logged in one line and the others still run;
the answer to the request that wrote stays what it is (a game entered is 201, not 500).

A receiver may ask a question about the tournament beforehand (``ask_with_totals``): the
claim of the sheet, the statement every game entry runs first, answers it in passing, and
the signal then carries the answer as a keyword argument of the question's name. Without
it (other changes, SQLite) the receiver asks itself, after the commit.

``series_closed`` is sent the same way once a series' close has committed, with the
series' id (``series_id``) and its tournament's (``tournament_id``).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.dispatch import Signal

from scoring.models import TournamentTotal
from tournaments.models import Series

logger = logging.getLogger(__name__)

totals_changed = Signal()
series_closed = Signal()

#: The questions of ``totals_changed``'s receivers, by name: SQL expressions on the
#: parameter ``%(tournament)s`` (the tournament's id), each with one value.
ASKED: dict[str, str] = {}


def ask_with_totals(name: str, sql: str) -> None:
    """Have the entry's claim of the sheet answer ``sql`` (an SQL expression whose only
    parameter is ``%(tournament)s``) for the receivers of ``totals_changed``: they then get
    the answer as the keyword argument ``name``, read in the transaction of the change, and
    need no statement of their own. Call it from an ``AppConfig.ready``, before the first
    entry (the claim's statement is built once)."""
    ASKED[name] = sql


class _Announcement:
    """The callback that sends ``totals_changed`` for one tournament."""

    def __init__(self, tournament_id: int, answers: dict[str, Any]) -> None:
        # Django names a robust callback that failed by its ``__qualname__``; without one
        # its error path raised AttributeError out of the commit.
        self.__qualname__ = f"announce_totals_changed({tournament_id})"
        self.tournament_id = tournament_id
        self.answers = answers
        self.sent = False

    def __call__(self) -> None:
        self.sent = True
        answers = totals_changed.send_robust(
            sender=TournamentTotal, tournament_id=self.tournament_id, **self.answers
        )
        for receiver, answer in answers:
            if isinstance(answer, Exception):
                logger.error(
                    "A receiver of totals_changed failed for tournament %s: %s (%s: %s)",
                    self.tournament_id,
                    getattr(receiver, "__qualname__", repr(receiver)),
                    type(answer).__name__,
                    answer,
                )

    def waits_for(self, tournament_id: int) -> bool:
        return not self.sent and self.tournament_id == tournament_id


def announce_totals_changed(tournament_id: int, answers: dict[str, Any] | None = None) -> None:
    """Send ``totals_changed`` for the tournament when the current transaction commits
    (at once outside of one), once per transaction however many changes it makes: a
    transaction that enters a whole demo or imports an archive refreshes what depends on
    the totals once, not once a game. ``answers``: those of ``ASKED``, read in this
    transaction; the signal carries them only if every change of the tournament in it
    brought them (the last change's).

    An announcement already waiting was registered in this transaction or one of its
    savepoints that encloses the change now; a rollback that drops it drops this change
    too, so skipping is safe. One already sent no longer counts (a test's transaction, which
    never commits, runs its callbacks by hand and keeps them listed)."""
    connection = transaction.get_connection()
    if connection.in_atomic_block:
        for _savepoints, callback, _robust in connection.run_on_commit:
            if isinstance(callback, _Announcement) and callback.waits_for(tournament_id):
                # A change without them leaves the receivers to ask after the commit.
                callback.answers = dict(answers) if answers and callback.answers else {}
                return
    transaction.on_commit(_Announcement(tournament_id, dict(answers or {})), robust=True)


def announce_series_closed(series_id: int, tournament_id: int) -> None:
    """Send ``series_closed`` when the current transaction commits (never if it rolls
    back); a receiver's error is logged and does not undo the close."""
    transaction.on_commit(
        lambda: series_closed.send(sender=Series, series_id=series_id, tournament_id=tournament_id),
        robust=True,
    )
