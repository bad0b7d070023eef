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


def announce_totals_changed(tournament_id: int) -> None:
    """Send ``totals_changed`` for the tournament when the current transaction commits
    (at once outside of one)."""
    transaction.on_commit(
        lambda: totals_changed.send(sender=TournamentTotal, tournament_id=tournament_id),
        robust=True,
    )
