"""The evening's pure core: who deals and who sits out at a table of 4 to 7, the quick
entry's check and points, and the Bock replay over a table's games.

Standard library and the rules engine only (``tests/test_architecture.py``): the services
give it plain values and store what it returns.

* **Sitting out.** Seats are positions ``0..n-1`` in playing order. The dealer deals; at a
  table of five he sits out, at six and seven the next one or two players after him sit
  out too (``n - 4`` players sit out, the dealer first). The four after them play, in
  order. The deal passes to the next seat after every game.
* **Quick entry** ("Schnell"): who won (two players; a solo: the soloist alone, or the
  three against him), the value as the table agreed it, solo or not, and which Bock
  triggers of the profile fired. The check: the parties (four distinct players who play
  this game; two winners, or one or three in a solo) and the value's range under the
  profile (``quick_limit``). The points follow the profile: winners ``+value``, losers
  ``-value``, the soloist three times (``solo_factor``), times ``bock_factor ** level``;
  a profile that writes one side only keeps that side.
* **Bock.** The level of every game follows from the games before (``rules.bock``), never
  from what a phone typed: a full entry's triggers come from the engine, a quick entry's
  from the facts it names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.bock import BockState
from rules.ruleset import BockTrigger, RuleSet, ScoringSides

MIN_PLAYERS = 4
MAX_PLAYERS = 7
#: Seats that play a game.
ACTIVE = 4


@dataclass(frozen=True)
class Turn:
    """Who deals, who sits out and who plays the next game (positions in the seat order)."""

    dealer: int
    sitting_out: tuple[int, ...]
    playing: tuple[int, ...]


def turn(size: int, dealer: int) -> Turn:
    """The turn at a table of ``size`` players whose dealer sits at position ``dealer``."""
    if not MIN_PLAYERS <= size <= MAX_PLAYERS:
        raise ValueError(f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {size}")
    dealer %= size
    out = tuple((dealer + i) % size for i in range(size - ACTIVE))
    first = dealer + len(out) if out else dealer + 1
    playing = tuple((first + i) % size for i in range(ACTIVE))
    return Turn(dealer, out, playing)


def quick_limit(rs: RuleSet) -> int:
    """The highest value a quick entry may carry under the profile before Bock: won, the
    four "unter" items, both announcements with all their Absagen, the "reached" items and
    the most Sonderpunkte one game can have."""
    value = rs.base_points + 4 * rs.under_points + 2 * rs.ansage_points
    value += 8 * rs.absage_points + 4 * rs.reached_points
    if rs.sonderpunkte:
        value += rs.max_fuchs * rs.fuchs_points + 4 * rs.doppelkopf_points
        value += rs.max_karlchen * rs.karlchen_points + rs.gegen_die_alten_points
        value += rs.schweinchen_points + rs.superschweinchen_points
    return value


class QuickError(ValueError):
    """A quick entry the core refuses: a stable ``code`` and the ``field`` it concerns."""

    def __init__(self, code: str, field: str) -> None:
        super().__init__(f"{code} ({field})")
        self.code = code
        self.field = field


@dataclass(frozen=True)
class Quick:
    """A quick entry's facts: ``winners`` are players (ids) of the four who play."""

    winners: tuple[int, ...]
    value: int
    solo: bool = False
    triggers: frozenset[BockTrigger] = frozenset()


def quick_points(
    quick: Quick, playing: Sequence[int], rs: RuleSet, bock: int
) -> tuple[dict[int, int], int]:
    """The points of each of the four ``playing`` players and the triggers that fire
    (the lost solo from the facts, the others as named and only if the profile has them)."""
    if len(set(playing)) != ACTIVE:
        raise QuickError("players", "winners")
    winners = set(quick.winners)
    if len(winners) != len(quick.winners) or not winners <= set(playing):
        raise QuickError("winner_not_playing", "winners")
    allowed = (1, 3) if quick.solo else (2,)
    if len(winners) not in allowed:
        raise QuickError("solo_winners" if quick.solo else "two_winners", "winners")
    if not 1 <= quick.value <= quick_limit(rs):
        raise QuickError("value_out_of_range", "value")
    for trigger in quick.triggers:
        if trigger not in rs.bock_triggers:
            raise QuickError("trigger_not_in_profile", "triggers")
    net = quick.value * rs.bock_factor**bock
    points: dict[int, int] = {}
    losers = [p for p in playing if p not in winners]
    if quick.solo:
        soloist_won = len(winners) == 1
        soloist = next(iter(winners)) if soloist_won else losers[0]
        sign = 1 if soloist_won else -1
        for player in playing:
            points[player] = sign * net * rs.solo_factor if player == soloist else -sign * net
    else:
        for player in playing:
            points[player] = net if player in winners else -net
    if rs.scoring_sides is ScoringSides.WINNERS:
        points = {p: max(v, 0) for p, v in points.items()}
    elif rs.scoring_sides is ScoringSides.LOSERS:
        points = {p: min(v, 0) for p, v in points.items()}
    fired = set(quick.triggers)
    if quick.solo and len(winners) == 3 and BockTrigger.LOST_SOLO in rs.bock_triggers:
        fired.add(BockTrigger.LOST_SOLO)
    return points, len(fired)


def bock_replay(
    games: Sequence[tuple[int, int]], size: int, rs: RuleSet
) -> tuple[list[int], BockState]:
    """``games``: (players at the table, triggers fired) of each game so far. The Bock level
    each game was played at and the state for the next game at a table of ``size``."""
    state = BockState(size, rs)
    levels = []
    for players, fired in games:
        levels.append(state.level)
        state = state.advanced(fired, players)
    return levels, BockState(size, rs, state.ahead, state.rounds)
