"""Rule variants as data: a frozen ``RuleSet`` and named presets (``PRESETS``).

``DDV`` is exactly the spec (TSR). House presets change documented switches only; every
engine function takes the rule set as an argument, so no DDV number is hard-coded elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.contracts import Extra


class DulleRule(StrEnum):
    """Which of the two Herz-Zehn ("Dullen") wins when both fall in one trick."""

    FIRST_WINS = "first_wins"  # TSR 5.3.3: identical cards, the first played wins
    SECOND_WINS = "second_wins"  # house rule
    SECOND_WINS_EXCEPT_LAST = "second_wins_except_last"  # house rule, first wins in trick 12


class ScoringSides(StrEnum):
    """Which seats write a game's score (docs/rules/house-rules.md, "Scoring sides")."""

    BOTH = "both"  # TSR: winners +, losers - (a row sums to zero)
    WINNERS = "winners"  # only seats with a positive score write it, the others 0
    LOSERS = "losers"  # only seats with a negative score write it, the others 0


class HochzeitPartner(StrEnum):
    """Which trick finds the Hochzeiter's partner (data for the table; the record gives the
    Klärungsstich itself)."""

    FIRST_FOREIGN_TRICK = "first_foreign_trick"  # TSR: the first trick he does not win
    FIRST_FEHL_TRICK = "first_fehl_trick"  # house: the first plain-suit trick
    FIRST_TRUMP_TRICK = "first_trump_trick"  # house: the first trump trick


class ArmutFallback(StrEnum):
    """What happens when nobody takes an Armut."""

    REDEAL = "redeal"  # the hand is thrown in (a ``thrown_in: "armut"`` record)
    PLAY = "play"  # the hand is played as dealt, a normal game


class ThrownInDeal(StrEnum):
    """Who deals after a hand was thrown in (Schmeißen)."""

    SAME_DEALER = "same_dealer"
    NEXT_DEALER = "next_dealer"


class BockTrigger(StrEnum):
    """Games that start a Bock round (``rules.bock``)."""

    TIE = "tie"  # 120:120
    LOST_ANNOUNCEMENT = "lost_announcement"  # a party announced Re/Kontra and did not win
    LOST_SOLO = "lost_solo"  # a game scored as a solo that the soloist did not win
    FOUR_TENS = "four_tens"  # a trick of four tens (the record says ``"four_tens": true``)


class BockMode(StrEnum):
    """A Bock round triggered while others are running or waiting."""

    STACK = "stack"  # runs on top of them: Doppelbock, Triplebock (up to ``bock_max``)
    QUEUE = "queue"  # waits until they are over; every Bock game has level 1


#: The Sonderpunkte of the TSR (7.2.3).
DDV_EXTRAS: frozenset[Extra] = frozenset(
    (Extra.FUCHS, Extra.DOPPELKOPF, Extra.KARLCHEN, Extra.GEGEN_DIE_ALTEN)
)


@dataclass(frozen=True, slots=True)
class RuleSet:
    name: str
    label: str
    version: int = 1  # a stored game keeps (name, version) of the profile that scored it
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
    # --- house switches (all at their DDV value in the DDV preset; docs/rules/house-rules.md)
    extras: frozenset[Extra] = DDV_EXTRAS  # the Sonderpunkte the profile has
    schweinchen_points: int = 1
    superschweinchen_points: int = 1
    scoring_sides: ScoringSides = ScoringSides.BOTH
    back_door: bool = True  # True (TSR): Sonderpunkte may tip the net against the winner
    bock_max: int = 0  # highest number of stacked Bock multipliers a record may carry
    bock_factor: int = 2  # each Bock multiplies the net value by this
    bock_triggers: frozenset[BockTrigger] = frozenset()  # games that start a Bock round
    bock_mode: BockMode = BockMode.STACK
    dulle: DulleRule = DulleRule.FIRST_WINS
    hochzeit_partner: HochzeitPartner = HochzeitPartner.FIRST_FOREIGN_TRICK
    armut: bool = False  # Armut: poor player + taker form Re
    armut_max_trumps: int = 3  # the most trumps the poor player may hold
    armut_foxes_count: bool = True  # False: a single Karo-Ass is not counted (both are)
    armut_nobody_takes: ArmutFallback = ArmutFallback.REDEAL
    schmeissen: bool = False  # a hand may be thrown in (``thrown_in: "schmeissen"``)
    thrown_in_deal: ThrownInDeal = ThrownInDeal.SAME_DEALER
    thrown_in_counts: bool = False  # the series counts a thrown-in hand as one of its games
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

    def has_extra(self, extra: Extra) -> bool:
        """Does the profile score this Sonderpunkt (``sonderpunkte`` off: none)?"""
        return self.sonderpunkte and extra in self.extras

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

#: Tournament presets: the rule sets a tournament may choose (stored by name).
PRESETS: dict[str, RuleSet] = {rs.name: rs for rs in (DDV, HAUS_25, HAUS_BOCK)}

HAUS_MIT_BOCK = RuleSet(
    name="haus_mit_bock",
    label="Haus (mit Bock)",
    extras=DDV_EXTRAS | {Extra.SCHWEINCHEN, Extra.SUPERSCHWEINCHEN},
    back_door=False,
    bock_max=3,
    bock_triggers=frozenset(BockTrigger),
    bock_mode=BockMode.STACK,
    dulle=DulleRule.SECOND_WINS_EXCEPT_LAST,
    armut=True,
    armut_foxes_count=False,
    schmeissen=True,
)

KNEIPE = RuleSet(
    name="kneipe",
    label="Kneipe",
    extras=(DDV_EXTRAS - {Extra.KARLCHEN}) | {Extra.SCHWEINCHEN},
    scoring_sides=ScoringSides.WINNERS,
    solo_factor=1,
    bock_max=1,
    bock_triggers=frozenset((BockTrigger.TIE, BockTrigger.LOST_SOLO)),
    bock_mode=BockMode.QUEUE,
    dulle=DulleRule.SECOND_WINS,
    armut=True,
    schmeissen=True,
    thrown_in_deal=ThrownInDeal.NEXT_DEALER,
)

#: House-rule profiles (club evenings; docs/rules/house-rules.md) and every preset.
PROFILES: dict[str, RuleSet] = {
    **PRESETS,
    **{rs.name: rs for rs in (HAUS_MIT_BOCK, KNEIPE)},
}


def get_ruleset(name: str) -> RuleSet:
    """The preset or house profile called ``name``; raises ``KeyError`` for an unknown name."""
    return PROFILES[name]
