"""What the results layer tells the layers above it, without knowing them.

``totals_changed`` is sent once the transaction that changed players' kept totals has
committed, with the tournament's id (``tournament_id``). Receivers run after the commit,
in the process that wrote: they should be quick (queue a task) and must not fail the write,
which is done. A receiver that raises anyway is logged in one line and the others still run;
the answer to the request that wrote stays what it is (a game entered is 201, not 500).

``series_closed`` is sent the same way once a series' close has committed, with the
series' id (``series_id``) and its tournament's (``tournament_id``).
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.dispatch import Signal

from scoring.models import TournamentTotal
from tournaments.models import Series

logger = logging.getLogger(__name__)

totals_changed = Signal()
series_closed = Signal()


class _Announcement:
    """The callback that sends ``totals_changed`` for one tournament."""

    def __init__(self, tournament_id: int) -> None:
        # Django names a robust callback that failed by its ``__qualname__``; without one
        # its error path raised AttributeError out of the commit.
        self.__qualname__ = f"announce_totals_changed({tournament_id})"
        self.tournament_id = tournament_id
        self.sent = False

    def __call__(self) -> None:
        self.sent = True
        answers = totals_changed.send_robust(
            sender=TournamentTotal, tournament_id=self.tournament_id
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


def announce_totals_changed(tournament_id: int) -> None:
    """Send ``totals_changed`` for the tournament when the current transaction commits
    (at once outside of one), once per transaction however many changes it makes: a
    transaction that enters a whole demo or imports an archive refreshes what depends on
    the totals once, not once a game.

    An announcement already waiting was registered in this transaction or one of its
    savepoints that encloses the change now; a rollback that drops it drops this change
    too, so skipping is safe. One already sent no longer counts (a test's transaction, which
    never commits, runs its callbacks by hand and keeps them listed)."""
    connection = transaction.get_connection()
    if connection.in_atomic_block and any(
        isinstance(callback, _Announcement) and callback.waits_for(tournament_id)
        for _savepoints, callback, _robust in connection.run_on_commit
    ):
        return
    transaction.on_commit(_Announcement(tournament_id), robust=True)


def announce_series_closed(series_id: int, tournament_id: int) -> None:
    """Send ``series_closed`` when the current transaction commits (never if it rolls
    back); a receiver's error is logged and does not undo the close."""
    transaction.on_commit(
        lambda: series_closed.send(sender=Series, series_id=series_id, tournament_id=tournament_id),
        robust=True,
    )
