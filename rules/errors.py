"""Error codes of game-record validation.

An ``EngineError`` is a value, not an exception: ``parse_record`` returns it. ``code`` is a
stable snake_case key of ``ERROR_CODES``; ``field`` is the dotted path of the offending value
(``"extras.kontra.fuchs"``, ``"penalties.0.seat"``; ``""`` = the record as a whole);
``message`` is English for logs and the CLI. User interfaces translate ``code``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NoReturn

ERROR_CODES: dict[str, str] = {
    # shape and types
    "invalid_json": "The line is not valid JSON.",
    "not_an_object": "The value must be a JSON object.",
    "unknown_field": "Unknown field.",
    "missing_field": "A required field is missing.",
    "wrong_type": "The value has the wrong type.",
    # contract
    "unknown_contract": "Unknown contract.",
    "unknown_solo_type": "Unknown solo type.",
    "solo_type_not_allowed": "A solo type is only given for contract 'solo'.",
    "solo_flag_not_allowed": "Only a solo can be compulsory or forced.",
    "forced_not_compulsory": "A forced solo is always a compulsory solo.",
    "hochzeit_partner_trick_out_of_range": "The Hochzeit partner trick must be 1, 2, 3 or null.",
    "hochzeit_partner_trick_not_allowed": "A partner trick is only given for a Hochzeit.",
    "not_played_game_fields": "A game that was not played carries only seats and penalties.",
    "derived_mismatch": "A field that follows from the sheet (dealer, sitting out, seats, "
    "compulsory, forced) differs from the replay of the sheet.",
    # seats and parties
    "invalid_seats": "Seats must be 1..4 (four-player table) or 1..5 (five-player table).",
    "sitting_out_required": "At a five-player table the dealer sits out.",
    "sitting_out_not_allowed": "Nobody sits out at a four-player table.",
    "sitting_out_not_dealer": "At a five-player table the dealer is the one who sits out.",
    "seat_not_at_table": "This seat is not at the table.",
    "seat_sitting_out": "This seat sits out and takes no part in the game.",
    "re_party_size": "Re has two players in a normal game and one (the soloist) in a solo.",
    "re_duplicate_seat": "A seat appears twice in the Re party.",
    # announcements, Augen, tricks
    "unknown_announcement": "Unknown announcement level.",
    "re_points_out_of_range": "Re's Augen must be from 0 to 240.",
    "re_points_impossible": "No cards of the deck hold exactly these Augen (never 1 or 239: no "
    "card is worth 1).",
    "re_tricks_out_of_range": "Re's tricks must be from 0 to 12.",
    "points_tricks_inconsistent": "These tricks cannot hold these Augen.",
    "hochzeit_tricks_inconsistent": "In a Hochzeit Re has at least won the tricks up to the "
    "Klärungsstich.",
    # Sonderpunkte
    "extras_not_allowed": "No Sonderpunkte in this game (solo-type game or rule set).",
    "extra_count_negative": "A Sonderpunkt count cannot be negative.",
    "fuchs_total_exceeded": "More Füchse caught than there are.",
    "karlchen_total_exceeded": "More than one Karlchen.",
    "fuchs_without_trick": "A party without a trick cannot catch a Fuchs.",
    "karlchen_without_trick": "A party without a trick cannot win the last trick.",
    "doppelkopf_exceeds_tricks": "More Doppelköpfe than tricks.",
    "doppelkopf_exceeds_points": "The party's Augen cannot hold that many Doppelköpfe.",
    "doppelkopf_total_exceeded": "More Doppelköpfe than the deck allows: each takes four of the "
    "16 aces and tens, so at most four per game (both parties together).",
    "doppelkopf_inconsistent": "These Augen and tricks cannot hold these Doppelköpfe (each is "
    "four aces or tens).",
    "extras_inconsistent": "These Augen and tricks cannot hold these Sonderpunkte: a caught "
    "Fuchs is a Karo-Ass beaten in the catcher's trick, the Karlchen the last trick won by a "
    "Kreuz-Bube (no Dame or Dulle in it, never a Doppelkopf), a Doppelkopf four aces or tens.",
    # penalties and house switches
    "penalties_not_zero_sum": "Penalty points must sum to zero (deductions are separate).",
    "penalty_out_of_range": "A penalty component is between -48 and 48 points (DDV).",
    "deduction_out_of_range": "A deduction is between -max_deduction (12) and -1 points.",
    "bock_out_of_range": "Bock multiplier not allowed by the rule set.",
    "house_rule_off": "The record uses a house rule this rule set does not have.",
    "schweinchen_total_exceeded": "At most one Schweinchen and one Superschweinchen per game.",
    "superschweinchen_without_schweinchen": "A Superschweinchen needs a Schweinchen in the "
    "same game.",
    "schweinchen_fuchs_conflict": "No Fuchs can be caught in a game with Schweinchen (both "
    "Karo-Asse are the top trumps in one hand).",
    "armut_not_normal": "An Armut is a normal game (contract 'normal').",
    "armut_parties": "The poor player and the taker are the two Re players.",
    "armut_trumps": "The poor player's trumps are above the rule set's limit or impossible.",
    "unknown_thrown_in": "Unknown reason for a thrown-in hand.",
    "thrown_in_game_fields": "A thrown-in hand carries only seats and the dealer.",
    # series input
    "scores_seats_mismatch": "Entered scores must name every seat of the table once.",
    "invalid_table_size": "The table size is not allowed by the rule set.",
    # never expected: a bug in the engine, reported instead of a traceback
    "internal_error": "Internal error of the rules engine.",
}


@dataclass(frozen=True, slots=True)
class EngineError:
    code: str
    field: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "field": self.field, "message": self.message}


def engine_error(code: str, field: str, detail: str | None = None) -> EngineError:
    """Build an error; ``detail`` (English) replaces the generic message of the code."""
    return EngineError(code, field, detail if detail is not None else ERROR_CODES[code])


class InvalidInput(Exception):
    """Raised inside the parsers to unwind to their entry point, which returns ``error``."""

    def __init__(self, error: EngineError) -> None:
        super().__init__(error.code)
        self.error = error


def fail(code: str, field: str, detail: str | None = None) -> NoReturn:
    raise InvalidInput(engine_error(code, field, detail))
