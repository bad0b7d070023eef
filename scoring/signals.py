"""What the results layer tells the layers above it, without knowing them.

``totals_changed`` is sent once the transaction that changed players' kept totals has
committed, with the tournament's id (``tournament_id``). Receivers run after the commit,
in the process that wrote: they should be quick (queue a task) and must not fail the write,
which is done (errors are logged, see ``transaction.on_commit(robust=True)``).
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

from scoring.models import TournamentTotal

totals_changed = Signal()


class _Announcement:
    """The callback that sends ``totals_changed`` for one tournament."""

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        self.sent = False

    def __call__(self) -> None:
        self.sent = True
        totals_changed.send(sender=TournamentTotal, tournament_id=self.tournament_id)

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
