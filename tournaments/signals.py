"""What the tournaments layer tells the layers above it, without knowing them.

``players_merged`` is sent once a merge of two players (``tournaments.services.registry``)
has committed, with the ids of the tournaments whose registrations moved to the player kept
(``tournament_ids``): whatever those layers keep per player of those tournaments is stale.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from django.db import transaction
from django.dispatch import Signal

players_merged = Signal()

#: Sent once a player's anonymization (``tournaments.services.privacy``) has committed,
#: with the ids of his tournaments (``tournament_ids``): every stored document of them may
#: hold his name and is made again.
player_anonymized = Signal()

#: Sent once a change of a player's consent (``tournaments.services.privacy.change_consent``)
#: has committed, with the ids of his tournaments (``tournament_ids``): their stored
#: documents show his name as it was published before and are made again.
player_consent_changed = Signal()

#: Sent once a change to what a drawn series' print pack shows has committed (its draw, a
#: swap, latecomers seated, a seated player's details corrected), with the series' id
#: (``series_id``): ``documents`` renders the pack ahead, so the organizer's click finds it.
print_pack_changed = Signal()


def announce_print_pack_changed(series_ids: Iterable[int]) -> None:
    """Send ``print_pack_changed`` for each series when the current transaction commits
    (never if it rolls back); a receiver's error is logged and undoes nothing."""
    for series_id in dict.fromkeys(series_ids):
        transaction.on_commit(
            partial(print_pack_changed.send, sender=None, series_id=series_id), robust=True
        )
