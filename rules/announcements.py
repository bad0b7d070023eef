"""Announcement timing (spec 3.2, TSR 6): deadlines in "cards still in hand".

The game record carries only the highest announcement of each party, not its timing; these
functions serve a future trick-by-trick entry and the rules help pages (vectors T1, T2).

``klaerungsstich`` is the trick (1..3) that settled the partnership of an announced Hochzeit;
``None`` for every other game (normal game, solo, stille Hochzeit). A Hochzeit that the
Hochzeiter continued alone has ``klaerungsstich=3`` (spec 2.4).
"""

from __future__ import annotations

from rules.contracts import AnnouncementLevel
from rules.ruleset import RuleSet


def _shift(klaerungsstich: int | None) -> int:
    return 0 if klaerungsstich is None else klaerungsstich - 1


def announcement_deadline(
    level: AnnouncementLevel, ruleset: RuleSet, *, klaerungsstich: int | None = None
) -> int:
    """Fewest cards a player must still hold to make ``level`` (spec 3.2 table)."""
    if level is AnnouncementLevel.NONE:
        raise ValueError("NONE is not an announcement")
    return ruleset.announcement_deadlines[level - 1] - _shift(klaerungsstich)


def earliest_cards_in_hand(ruleset: RuleSet, *, klaerungsstich: int | None = None) -> int:
    """Most cards in hand at which announcing is possible: once the game type is settled.

    In a Hochzeit no announcement before the Klärungsstich is complete (spec 2.4, 6.2.1).
    """
    return ruleset.cards_per_player - (0 if klaerungsstich is None else klaerungsstich)


def reply_deadline(
    opponent_level: AnnouncementLevel, ruleset: RuleSet, *, klaerungsstich: int | None = None
) -> int:
    """Fewest cards for a reply ("Kontra" to Re or "Re" to Kontra) to the opponents' highest
    announcement: one card fewer than that announcement required (TSR 6.4.4)."""
    return announcement_deadline(opponent_level, ruleset, klaerungsstich=klaerungsstich) - 1


def may_announce(
    level: AnnouncementLevel,
    cards_in_hand: int,
    ruleset: RuleSet,
    *,
    own: AnnouncementLevel = AnnouncementLevel.NONE,
    opponent: AnnouncementLevel = AnnouncementLevel.NONE,
    ansage_cards: int | None = None,
    klaerungsstich: int | None = None,
) -> bool:
    """May a party at ``own`` announce ``level`` now, holding ``cards_in_hand``?

    ``opponent`` is the opponents' highest announcement so far; ``ansage_cards`` the cards the
    party held when it made its own Ansage (``None`` = not made or unknown). Rules:
    - only a higher level than ``own`` (no repeating), not before the game type is settled;
    - skipping levels needs every skipped level still in time, i.e. the deadline of the lowest
      new level (``own + 1``) binds (spec 3.2, TSR 6.4.3);
    - a party without its Ansage may reply with the Ansage alone one card past the deadline of
      the opponents' highest announcement; after such a late reply it may make Absagen only
      if the reply would have been in time as a first announcement (TSR 6.4.4, vector T1).
    """
    if level <= own or level is AnnouncementLevel.NONE:
        return False
    if cards_in_hand > earliest_cards_in_hand(ruleset, klaerungsstich=klaerungsstich):
        return False
    kw = {"klaerungsstich": klaerungsstich}
    if own >= AnnouncementLevel.ANSAGE and ansage_cards is not None:
        late_reply = ansage_cards < announcement_deadline(AnnouncementLevel.ANSAGE, ruleset, **kw)
        if late_reply:
            return False
    lowest_new = AnnouncementLevel(own + 1)
    if cards_in_hand >= announcement_deadline(lowest_new, ruleset, **kw):
        return True
    return (
        own is AnnouncementLevel.NONE
        and level is AnnouncementLevel.ANSAGE
        and opponent is not AnnouncementLevel.NONE
        and cards_in_hand >= reply_deadline(opponent, ruleset, **kw)
    )
