"""Rule variants as data: a frozen ``RuleSet`` and named presets (``PRESETS``).

``DDV`` is exactly the spec (TSR). House presets change documented switches only; every
engine function takes the rule set as an argument, so no DDV number is hard-coded elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class DulleRule(StrEnum):
    """Which of the two Herz-Zehn ("Dullen") wins when both fall in one trick."""

    FIRST_WINS = "first_wins"  # TSR 5.3.3: identical cards, the first played wins
    SECOND_WINS = "second_wins"  # house rule
    SECOND_WINS_EXCEPT_LAST = "second_wins_except_last"  # house rule, first wins in trick 12


@dataclass(frozen=True, slots=True)
class RuleSet:
    name: str
    label: str
    # --- series (spec 7.2, 7.3) ---
    table_sizes: tuple[int, ...] = (4, 5)
    normal_games_4: int = 20  # normal-rubric games at a four-player table
    normal_games_5: int = 25  # normal-rubric games at a five-player table (design decision 5)
    compulsory_solos: int = 1  # Pflichtsoli per player and series
    playing_minutes_4: int = 100  # pure playing time of a series at four (TSR 8.5.1)
    playing_minutes_5: int = 125  # ... and at five (TSR 10.1.5: 30 games at the same pace)
    # --- game value (spec 5) ---
    base_points: int = 1  # "gewonnen"
    under_points: int = 1  # per "unter 90/60/30" and "schwarz" of the loser
    ansage_points: int = 2  # per "Re" / "Kontra" announced
    absage_points: int = 1  # per Absage level (skipped levels count)
    reached_points: int = 1  # per "120 vs keine 90" ... items (e)/(f)
    solo_factor: int = 3  # the soloist gets factor x net, each opponent -net (TSR 7.2.4)
    # --- Sonderpunkte (spec 5.2) ---
    sonderpunkte: bool = True  # False: no Sonderpunkte at all (also no gegen die Alten)
    gegen_die_alten_points: int = 1
    fuchs_points: int = 1
    doppelkopf_points: int = 1
    karlchen_points: int = 1
    max_fuchs: int = 2  # Füchse caught per game, both parties together
    max_karlchen: int = 1
    doppelkopf_augen: int = 40  # a trick with at least this many Augen is a Doppelkopf
    # --- house switches (all off in the DDV preset) ---
    back_door: bool = True  # True (TSR): Sonderpunkte may tip the net against the winner
    bock_max: int = 0  # highest number of stacked Bock multipliers a record may carry
    bock_factor: int = 2  # each Bock multiplies the net value by this
    dulle: DulleRule = DulleRule.FIRST_WINS
    # --- announcements (spec 3.2): cards in hand required for Re/Kontra, k90, k60, k30, schwarz
    announcement_deadlines: tuple[int, int, int, int, int] = (11, 10, 9, 8, 7)
    cards_per_player: int = 12
    hochzeit_clarification_tricks: int = 3
    # --- penalties (spec 9) ---
    minor_penalty: int = 3
    severe_penalty: int = 12
    severe_penalty_per_absage: int = 3
    max_deduction: int = 12  # unsportsmanlike deduction without counter-credit (TSR 9.7)

    def deduction_allowed(self, points: int) -> bool:
        """A deduction (TSR 9.7: no counter-credit) takes 1 to ``max_deduction`` points."""
        return -self.max_deduction <= points <= -1

    def normal_games(self, table_size: int) -> int:
        return self.normal_games_5 if table_size == 5 else self.normal_games_4

    def playing_minutes(self, table_size: int) -> int:
        """Pure playing time of a series at a table of this size, in minutes."""
        return self.playing_minutes_5 if table_size == 5 else self.playing_minutes_4

    def max_penalty_points(self) -> int:
        """Bound of one penalty component: the severe penalty with four Absagen (TSR 9.4),
        doubled for a row that carries several decisions at once."""
        return 2 * (self.severe_penalty + 4 * self.severe_penalty_per_absage)

    def total_games(self, table_size: int) -> int:
        """Games of a complete series at a table of this size (24 / 30 under the DDV)."""
        return self.normal_games(table_size) + table_size * self.compulsory_solos


DDV = RuleSet(name="ddv", label="DDV Turnierspielregeln")

HAUS_25 = RuleSet(
    name="haus_25",
    label="DDV, five-player tables play 25 games (20 + 5 Pflichtsoli)",
    normal_games_5=20,
)

HAUS_BOCK = RuleSet(
    name="haus_bock",
    label="House rules: Bock games (x2 each, up to two stacked), second Dulle beats the first "
    "except in the last trick, no back door",
    bock_max=2,
    dulle=DulleRule.SECOND_WINS_EXCEPT_LAST,
    back_door=False,
)

PRESETS: dict[str, RuleSet] = {rs.name: rs for rs in (DDV, HAUS_25, HAUS_BOCK)}


def get_ruleset(name: str) -> RuleSet:
    """The preset called ``name``; raises ``KeyError`` for an unknown name."""
    return PRESETS[name]
