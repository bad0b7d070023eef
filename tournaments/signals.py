"""What the tournaments layer tells the layers above it, without knowing them.

``players_merged`` is sent once a merge of two players (``tournaments.services.registry``)
has committed, with the ids of the tournaments whose registrations moved to the player kept
(``tournament_ids``): whatever those layers keep per player of those tournaments is stale.
"""

from __future__ import annotations

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
