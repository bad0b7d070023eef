"""Where the scoring app's pages show links of the apps above (``common.links``): the
exports of the standings (``STANDINGS``: the tournament and the series, ``None`` for the
overall standings) and a player's other results (``PLAYER``: the registration)."""

from __future__ import annotations

from common.links import Place

STANDINGS = Place("scoring.standings", "the tournament and the series (None: overall)")
PLAYER = Place("scoring.player", "the registration")
