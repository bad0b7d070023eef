"""Doppelkopf rules engine: DDV tournament rules (TSR) as pure Python, no Django import.

The authority is ``docs/rules/ddv-tsr.md`` ("the spec"); open points follow
``docs/rules/decisions.md``. Full reference: ``docs/rules-engine.md``.

Public API (everything takes a ``RuleSet``; nothing raises for bad input data)
-------------------------------------------------------------------------------
Vocabulary (``rules.contracts``, ``rules.cards``): ``Contract``, ``SoloType``, ``GameKind``,
``Rubric``, ``Party``, ``AnnouncementLevel``, ``Extra``, ``Item`` (breakdown item codes);
``Suit``, ``Rank``, ``Card``, ``card_order(solo)`` (rank order of every contract, spec 1.3),
``trick_winner(cards, solo, ruleset, last_trick=...)``.

Rule sets (``rules.ruleset``): frozen ``RuleSet`` (named, labelled, ``version``ed: a stored
game keeps the name and version that scored it); ``PRESETS`` (the tournament presets) =
``ddv`` (``DDV``, exactly the spec), ``haus_25`` (25 games at five-player tables),
``haus_bock`` (Bock multiplier, second Dulle, no back door); ``PROFILES`` = the presets plus
the house profiles ``haus_mit_bock`` ("Haus (mit Bock)") and ``kneipe`` ("Kneipe");
``get_ruleset(name)`` looks in ``PROFILES``. House switches (``docs/rules/house-rules.md``,
all at their TSR value in ``ddv``): ``extras`` (``Extra`` set: Fuchs, Doppelkopf, Karlchen,
gegen die Alten, Schweinchen, Superschweinchen), ``scoring_sides`` (``ScoringSides``: both /
winners / losers), ``solo_factor``, ``back_door``, ``dulle``, ``hochzeit_partner``, Armut
(``armut``, ``armut_max_trumps``, ``armut_foxes_count``, ``armut_nobody_takes``), Schmeißen
(``schmeissen``, ``thrown_in_deal``, ``thrown_in_counts``), Bock (``bock_triggers``,
``bock_mode``, ``bock_max``, ``bock_factor``). A record using a switch the rule set has off is
refused (``house_rule_off``).

Bock rounds (``rules.bock``): ``bock_multipliers(games, table_size, ruleset)`` gives each
game's Bock level from the games before it; ``bock_state(...) -> BockState`` the rounds ahead
(``level`` = the next record's ``"bock"``, ``runs()`` = ``BockRun(level, games)`` in order);
``triggers(record, ruleset)``.

Games: ``parse_record(data, ruleset) -> GameRecord | EngineError`` validates a decoded JSON
object (``EngineError(code, field, message)``; codes in ``ERROR_CODES``);
``score(record, ruleset) -> GameResult(winner, value, scores, breakdown)`` and
``GameResult.to_json()``; ``winner(record)``; ``record_to_json(record)``. A game stored by
the apps is read back, typed and without checks, by ``StoredGame.from_record(data)``
(``rules.stored``: an entered game or a paper row, the format's defaults for what it leaves
out).

Series: ``validate_series(games, table_size, ruleset, timeout=..., complete=...)`` ->
``SeriesReport(findings, next)``; ``Finding(severity, code, game, data)`` with codes in
``FINDING_CODES``; ``next_game(games, table_size, ruleset, timeout=...) -> NextGame`` answers
"what comes next?" (next row, dealer, who sits out, who is forced, who may announce a
compulsory solo, games left). ``complete_game(stored, facts, table_size, ruleset, number=...,
timeout=...) -> Completion`` completes a new or corrected game from one replay of the sheet:
the table reports the game's facts; seats, dealer, sitting out, compulsory and forced
(``DERIVED_FIELDS``) follow from the sheet and are checked if sent (design decision 8).
Both game records (``rules.series``) and paper rows (``rules.transcription``) are replayed by
one machine, ``rules.replay`` (``Replay``, ``GameFacts``, ``validate_sheet``,
``next_on_sheet``), which also holds the finding vocabulary.

Penalties and timing: ``minor_penalty`` / ``severe_penalty`` build the ``penalties`` of a
record (spec 9); ``announcement_deadline``, ``reply_deadline``, ``earliest_cards_in_hand``,
``may_announce`` implement the announcement windows (spec 3.2, TSR 6.4).

CLI: ``python -m rules score|check-series [--ruleset NAME]`` (``rules.cli``);
``python -m rules conformance FILE`` runs the spec's worked examples
(``docs/rules/conformance.json``, ``rules.conformance``).
Test support: ``rules.testing`` (record builders, no pytest import).

Interpretations of the spec (also listed in ``docs/rules-engine.md``)
--------------------------------------------------------------------
1. No winner (both parties missed their Absagen): each party gets only its "under" and
   "reached" items; no base point, no Ansage/Absage points (spec 5.3, design decision 1).
2. Net 0: every seat scores 0 and ``positive_seats`` is empty (design decision 3).
3. "Not played" (severe violation, design decision 4) is a record with ``"not_played": true``
   carrying only seats, sitting_out, dealer, penalties, deductions (and entered scores);
   game facts are rejected. It scores only its penalties, does not count towards the games,
   the same dealer deals again, an open compulsory or forced solo stays open.
4. Five-player tables: 30 games (25 + 5) under ``ddv``, 25 (20 + 5) under ``haus_25``; the
   dealer sits out and scores 0. A forced player who is the due dealer passes the deal to the
   next player clockwise (design decision 5); the deal then moves on from that player.
5. Without ``re_tricks`` Re has no trick only with 0 Augen and all tricks only with 240.
6. Augen vs tricks uses the exact totals of the 48-card deck (``rules.deck``, computed once
   over the rank counts): 4n cards hold between the 4n cheapest and the 4n richest, but not
   every total in between (1 trick: never 38 or 39; 3 tricks: never 123); no cards hold 1 or
   239 Augen (``re_points_impossible``). This implies spec 7.5's 44-per-trick rule,
   tR = 0 => R = 0 and tR = 12 => R = 240.
7. Hochzeit: Re won every trick up to the Klärungsstich (partner trick, or 3 when the
   Hochzeiter plays alone), so fewer Re tricks or too few Augen are rejected.
8. A Fuchs can only be caught by a party with a trick (as spec 7.5 says for Karlchen).
   Doppelköpfe are checked against the deck: at 40 Augen a Doppelkopf is four aces or tens,
   so at most 4 per game (both parties) and a party's k Doppelköpfe need 4k of the 16 aces
   and tens among its cards, the rest of its Augen and tricks fitting the other cards (with
   re_tricks missing, any trick count that holds the Augen). Entered counts are claims: the
   engine refuses more than the cards allow, never fewer than they would force. For a house
   threshold other cards can reach (below 38) only the per-party bounds apply. Füchse and the
   Karlchen are checked jointly with the Doppelköpfe (``extras_inconsistent``): a caught Fuchs
   is a Karo-Ass beaten in the catcher's trick (by the Dulle, a Dame, a Bube or the other
   Karo-Ass), the Karlchen a last trick won by a Kreuz-Bube with no Dame or Dulle in it.
9. Sonderpunkte entered for a solo-type game (any solo, stille Hochzeit, Hochzeit alone) are
   an error, not silently dropped (vector 27); likewise under a rule set without them.
10. Penalty components of a record must sum to zero (every TSR penalty does); unsportsmanlike
    deductions (TSR 9.7, no counter-credit) go to ``deductions`` (-12..0 each, any seat at the
    table). ``scores`` include both; ``value`` includes neither. Only active players can get
    penalty components.
11. A forced solo is always a compulsory solo. A solo marked voluntary by a player who has not
    had his compulsory solo is an error (his first announced solo is the compulsory one).
12. Count rule: forced play starts as soon as the open compulsory solos >= the games still to
    play; from then on every game is forced until all are played. The forced player is the
    first one lacking his solo clockwise from the due dealer's left (dealer last).
13. Time-out flag: fewer normal games are allowed; the first forced solo marks the time-out and
    only forced solos may follow; compulsory solos must still be complete. For ``next_game``
    the flag means "time has been called": only forced solos remain.
14. Series checks: seat 1 deals first; after a wrong dealer the check continues from the
    dealer recorded (one finding per mistake). Game numbers are 1-based list positions (rows,
    not-played rows included). Invalid games are reported and the sequence continues with what
    can be read from them. Row checks: sum zero (deductions aside) and the sitter's 0 apply
    to entered ``scores``; the even/odd rule (four-player tables, warning) applies to the
    entered row or else the computed one, excused only by a penalty credit to the soloist.
15. Announcement timing: skipping levels is allowed while the lowest skipped level is in time;
    a late reply is the Ansage alone, down to one card below the deadline of the opponents'
    highest announcement; after a late reply no Absage. In a Hochzeit deadlines shift by
    (Klärungsstich - 1) and nothing may be announced before the Klärungsstich.
16. Strictness: unknown fields are rejected (a typo never goes unnoticed); ``seats`` is
    required and must be exactly 1..4 or 1..5; ``hochzeit_partner_trick`` is required for a
    Hochzeit (``null`` is meaningful); booleans are never accepted as numbers.
17. House switches: Bock (``"bock": n``) multiplies the net after the Sonderpunkte netting by
    2**n; "no back door" sets a net that went against the winner to 0; both appear as
    breakdown items (``bock``, ``no_back_door``) so the breakdown always sums to ``value``.
    Schweinchen/Superschweinchen are Sonderpunkte items (normal games only). ``winners`` /
    ``losers`` counting keeps max/min(score, 0) of each seat before penalties; ``value`` and
    the breakdown do not change. An Armut is a normal game whose Re are poor player and taker.
    A thrown-in hand (``"thrown_in"``) scores 0 for all; the replay counts it per switch and
    the same or the next player deals. Games not played or thrown in neither trigger nor use
    up Bock games; each trigger that fires adds one round of ``table_size`` games.
"""

from rules.announcements import (
    announcement_deadline,
    earliest_cards_in_hand,
    may_announce,
    reply_deadline,
)
from rules.bock import BockRun, BockState, bock_multipliers, bock_state
from rules.cards import Card, CardOrder, Rank, Suit, card_order, trick_winner
from rules.contracts import (
    AnnouncementLevel,
    Contract,
    Extra,
    GameKind,
    Item,
    Party,
    Rubric,
    SoloType,
)
from rules.errors import ERROR_CODES, EngineError
from rules.gamerecord import Extras, GameRecord, SeatPoints, record_to_json
from rules.penalties import PenaltyClass, PenaltyDecision, minor_penalty, severe_penalty
from rules.record import parse_record
from rules.ruleset import (
    DDV,
    PRESETS,
    PROFILES,
    ArmutFallback,
    BockMode,
    BockTrigger,
    DulleRule,
    HochzeitPartner,
    RuleSet,
    ScoringSides,
    ThrownInDeal,
    get_ruleset,
)
from rules.scoring import BreakdownItem, GameResult, score, winner
from rules.series import (
    DERIVED_FIELDS,
    FINDING_CODES,
    Completion,
    Finding,
    NextGame,
    SeriesReport,
    Severity,
    complete_game,
    next_game,
    validate_series,
)
from rules.stored import StoredGame
from rules.transcription import (
    TranscribedRow,
    check_transcribed_row,
    next_transcribed,
    parse_transcribed,
    validate_transcription,
)

__all__ = [
    "DDV",
    "DERIVED_FIELDS",
    "ERROR_CODES",
    "FINDING_CODES",
    "PRESETS",
    "PROFILES",
    "AnnouncementLevel",
    "ArmutFallback",
    "BockMode",
    "BockRun",
    "BockState",
    "BockTrigger",
    "BreakdownItem",
    "Card",
    "CardOrder",
    "Completion",
    "Contract",
    "DulleRule",
    "EngineError",
    "Extra",
    "Extras",
    "Finding",
    "GameKind",
    "GameRecord",
    "GameResult",
    "HochzeitPartner",
    "Item",
    "NextGame",
    "Party",
    "PenaltyClass",
    "PenaltyDecision",
    "Rank",
    "Rubric",
    "RuleSet",
    "ScoringSides",
    "SeatPoints",
    "SeriesReport",
    "Severity",
    "SoloType",
    "StoredGame",
    "Suit",
    "ThrownInDeal",
    "TranscribedRow",
    "announcement_deadline",
    "bock_multipliers",
    "bock_state",
    "card_order",
    "check_transcribed_row",
    "complete_game",
    "earliest_cards_in_hand",
    "get_ruleset",
    "may_announce",
    "minor_penalty",
    "next_game",
    "next_transcribed",
    "parse_record",
    "parse_transcribed",
    "record_to_json",
    "reply_deadline",
    "score",
    "severe_penalty",
    "trick_winner",
    "validate_series",
    "validate_transcription",
    "winner",
]
