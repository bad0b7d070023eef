"""Bock rounds (house rule): which games of a table's sequence count double, and how often.

A game that triggers (``RuleSet.bock_triggers``: 120:120, a lost Re/Kontra announcement, a
lost solo, a trick of four tens) adds one Bock round per trigger that fires. A Bock round is
as many games as there are players at the table. Under ``BockMode.STACK`` a new round runs on
top of the rounds still running (each of the next n games gets one level more: Doppelbock,
Triplebock); under ``BockMode.QUEUE`` it waits until the rounds before it are over. A game's
multiplier level is its number of rounds, capped at ``RuleSet.bock_max``; its value is
multiplied by ``bock_factor ** level`` (``rules.scoring``, the record's ``"bock"``).

Games that are not played (design decision 4) or thrown in (Schmeißen) neither trigger nor
use up a Bock game: the deal that replaces them plays it. Pure: no Django, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.cards import TOTAL_AUGEN
from rules.contracts import AnnouncementLevel, Party
from rules.gamerecord import GameRecord
from rules.ruleset import BockMode, BockTrigger, RuleSet
from rules.scoring import winner

__all__ = ["BockRun", "BockState", "bock_multipliers", "bock_state", "triggers"]

_TIE = TOTAL_AUGEN // 2


@dataclass(frozen=True, slots=True)
class BockRun:
    """``games`` games in a row at multiplier level ``level`` (1 = Bock, 2 = Doppelbock …)."""

    level: int
    games: int


def triggers(record: GameRecord, ruleset: RuleSet) -> tuple[BockTrigger, ...]:
    """The triggers of ``ruleset`` that fire in this game, in ``BockTrigger`` order."""
    chosen = ruleset.bock_triggers
    if not chosen or record.not_played or record.thrown_in is not None:
        return ()
    won = winner(record)
    lost_re = record.re_level > AnnouncementLevel.NONE and won is not Party.RE
    lost_kontra = record.kontra_level > AnnouncementLevel.NONE and won is not Party.KONTRA
    fired = {
        BockTrigger.TIE: record.re_augen == _TIE,
        BockTrigger.LOST_ANNOUNCEMENT: lost_re or lost_kontra,
        BockTrigger.LOST_SOLO: record.solo_scoring and won is not Party.RE,
        BockTrigger.FOUR_TENS: record.four_tens,
    }
    return tuple(t for t in BockTrigger if t in chosen and fired[t])


@dataclass(frozen=True, slots=True)
class BockState:
    """The Bock rounds ahead of a table after some games.

    ``ahead`` holds the uncapped level of each coming game that belongs to a round (the
    first entry is the next game); ``rounds`` counts the rounds triggered so far. Read it as
    data ("Bock: noch 3 Spiele, danach Doppelbock" is ``runs()``); the words are the apps'.
    """

    table_size: int
    ruleset: RuleSet
    ahead: tuple[int, ...] = ()
    rounds: int = 0

    @property
    def level(self) -> int:
        """The multiplier level of the next game (capped at ``bock_max``): its ``"bock"``."""
        return self.capped(self.ahead[0]) if self.ahead else 0

    @property
    def games_left(self) -> int:
        """Coming games that still belong to a Bock round."""
        return len(self.ahead)

    def capped(self, level: int) -> int:
        return min(level, self.ruleset.bock_max)

    def runs(self) -> tuple[BockRun, ...]:
        """The coming Bock games grouped by level, in playing order."""
        out: list[BockRun] = []
        for level in map(self.capped, self.ahead):
            if out and out[-1].level == level:
                out[-1] = BockRun(level, out[-1].games + 1)
            else:
                out.append(BockRun(level, 1))
        return tuple(out)

    def after(self, record: GameRecord) -> BockState:
        """The state after ``record`` was played at the level this state gives it."""
        if record.not_played or record.thrown_in is not None:
            return self
        return self.advanced(len(triggers(record, self.ruleset)))

    def advanced(self, fired: int, table_size: int | None = None) -> BockState:
        """The state after a game that counts and fired ``fired`` triggers (a club evening's
        quick entry says which fired; ``table_size``: the players at the table now, when
        somebody joined or left)."""
        ahead = list(self.ahead[1:])
        n = self.table_size if table_size is None else table_size
        for _ in range(fired):
            if self.ruleset.bock_mode is BockMode.QUEUE:
                ahead.extend([1] * n)
            else:
                ahead.extend([0] * (n - len(ahead)))
                for i in range(n):
                    ahead[i] += 1
        return BockState(n, self.ruleset, tuple(ahead), self.rounds + fired)


def _replay(
    games: Iterable[GameRecord], table_size: int, ruleset: RuleSet
) -> tuple[list[int], BockState]:
    state = BockState(table_size, ruleset)
    levels: list[int] = []
    for record in games:
        counts = not record.not_played and record.thrown_in is None
        levels.append(state.level if counts else 0)
        state = state.after(record)
    return levels, state


def bock_multipliers(games: Sequence[GameRecord], table_size: int, ruleset: RuleSet) -> list[int]:
    """The Bock level of each game of the sequence (0 for games not played or thrown in).

    The records' own ``bock`` is ignored: the level follows from the games before.
    """
    return _replay(games, table_size, ruleset)[0]


def bock_state(games: Sequence[GameRecord], table_size: int, ruleset: RuleSet) -> BockState:
    """The Bock state after ``games``: ``.level`` is the next game's ``"bock"``."""
    return _replay(games, table_size, ruleset)[1]
