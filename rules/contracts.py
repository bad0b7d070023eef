"""Shared vocabulary of the engine: contracts, solo types, parties, announcements, items.

The Django apps import these enums (models use their values as choices); the values are the
strings of the game-record format (see ``docs/rules-engine.md``) and never change.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Contract(StrEnum):
    """What was played, as entered (spec 1.2)."""

    NORMAL = "normal"
    HOCHZEIT = "hochzeit"
    STILLE_HOCHZEIT = "stille_hochzeit"
    SOLO = "solo"


class SoloType(StrEnum):
    """Solo types allowed by the DDV (spec 1.2); ``karo`` is also called Trumpfsolo."""

    KARO = "karo"
    HERZ = "herz"
    PIK = "pik"
    KREUZ = "kreuz"
    DAMEN = "damen"
    BUBEN = "buben"
    FLEISCHLOS = "fleischlos"


class GameKind(StrEnum):
    """The engine's classification of a game (spec 2.2)."""

    NORMAL = "normal"
    HOCHZEIT_PARTNER = "hochzeit_partner"
    HOCHZEIT_SOLO = "hochzeit_solo"
    STILLE_HOCHZEIT = "stille_hochzeit"
    PFLICHTSOLO = "pflichtsolo"
    PFLICHTSOLO_VORGEFUEHRT = "pflichtsolo_vorgefuehrt"
    LUSTSOLO = "lustsolo"
    ARMUT = "armut"  # house rule: poor player + taker are Re, scored as a normal game


class Rubric(StrEnum):
    """Where a game is written on the score sheet (spec 2.3, 7.5)."""

    NORMAL = "normal"
    PFLICHT = "pflicht"


class Party(StrEnum):
    """Re = holders of the two Kreuz-Damen or the soloist; Kontra = the others."""

    RE = "re"
    KONTRA = "kontra"

    @property
    def opponent(self) -> Party:
        return Party.KONTRA if self is Party.RE else Party.RE


class AnnouncementLevel(IntEnum):
    """Highest announcement of one party; every level implies all lower ones (spec 3.1).

    ``ANSAGE`` is "Re"/"Kontra"; the four higher levels are the Absagen. The number of Absagen
    a level stands for is ``level - 1`` (skipped levels count, spec 3.2).
    """

    NONE = 0
    ANSAGE = 1
    KEINE_90 = 2
    KEINE_60 = 3
    KEINE_30 = 4
    SCHWARZ = 5

    @property
    def absagen(self) -> int:
        return max(self.value - 1, 0)

    @property
    def json(self) -> str | None:
        return _LEVEL_TO_JSON[self]


_LEVEL_TO_JSON: dict[AnnouncementLevel, str | None] = {
    AnnouncementLevel.NONE: None,
    AnnouncementLevel.ANSAGE: "ansage",
    AnnouncementLevel.KEINE_90: "90",
    AnnouncementLevel.KEINE_60: "60",
    AnnouncementLevel.KEINE_30: "30",
    AnnouncementLevel.SCHWARZ: "schwarz",
}

#: Record value (``null`` = no announcement) -> level.
LEVEL_FROM_JSON: dict[str | None, AnnouncementLevel] = {v: k for k, v in _LEVEL_TO_JSON.items()}

#: Absage -> the Augen the opponents must stay below ("keine 90" ...); ``SCHWARZ`` is about
#: tricks, not Augen, and has no entry.
ABSAGE_LIMIT: dict[AnnouncementLevel, int] = {
    AnnouncementLevel.KEINE_90: 90,
    AnnouncementLevel.KEINE_60: 60,
    AnnouncementLevel.KEINE_30: 30,
}

#: Absage -> Augen the opponents need for the "reached" item, one step higher than the limit
#: (spec 5.1 items e/f: 120 vs keine 90, 90 vs keine 60, 60 vs keine 30, 30 vs schwarz).
REACHED_AGAINST: dict[AnnouncementLevel, int] = {
    AnnouncementLevel.KEINE_90: 120,
    AnnouncementLevel.KEINE_60: 90,
    AnnouncementLevel.KEINE_30: 60,
    AnnouncementLevel.SCHWARZ: 30,
}

#: "under" items: the loser has fewer than this many Augen (schwarz = no trick, separate item).
UNDER_LIMITS: tuple[int, ...] = (90, 60, 30)


class Extra(StrEnum):
    """Sonderpunkte (spec 5.2). Only the first three are entered; gegen die Alten is derived."""

    FUCHS = "fuchs"
    DOPPELKOPF = "doppelkopf"
    KARLCHEN = "karlchen"
    GEGEN_DIE_ALTEN = "gegen_die_alten"
    # house rules only (docs/rules/house-rules.md):
    SCHWEINCHEN = "schweinchen"
    SUPERSCHWEINCHEN = "superschweinchen"


ENTERED_EXTRAS: tuple[Extra, ...] = (Extra.FUCHS, Extra.DOPPELKOPF, Extra.KARLCHEN)


class Item(StrEnum):
    """Item codes of a result breakdown; each names one line of spec 5.1/5.2 (or a house rule)."""

    WON = "won"
    UNDER_90 = "under_90"
    UNDER_60 = "under_60"
    UNDER_30 = "under_30"
    SCHWARZ = "schwarz"
    ANNOUNCED_RE = "announced_re"
    ANNOUNCED_KONTRA = "announced_kontra"
    ABSAGE_RE_90 = "absage_re_90"
    ABSAGE_RE_60 = "absage_re_60"
    ABSAGE_RE_30 = "absage_re_30"
    ABSAGE_RE_SCHWARZ = "absage_re_schwarz"
    ABSAGE_KONTRA_90 = "absage_kontra_90"
    ABSAGE_KONTRA_60 = "absage_kontra_60"
    ABSAGE_KONTRA_30 = "absage_kontra_30"
    ABSAGE_KONTRA_SCHWARZ = "absage_kontra_schwarz"
    REACHED_VS_90 = "reached_120_vs_90"
    REACHED_VS_60 = "reached_90_vs_60"
    REACHED_VS_30 = "reached_60_vs_30"
    REACHED_VS_SCHWARZ = "reached_30_vs_schwarz"
    GEGEN_DIE_ALTEN = "gegen_die_alten"
    FUCHS = "fuchs"
    DOPPELKOPF = "doppelkopf"
    KARLCHEN = "karlchen"
    # House rules only (never produced under the ``ddv`` rule set):
    NO_BACK_DOOR = "no_back_door"
    BOCK = "bock"
    SCHWEINCHEN = "schweinchen"
    SUPERSCHWEINCHEN = "superschweinchen"


class ThrownIn(StrEnum):
    """Why a hand was thrown in (house rule "Schmeißen"): it scores nothing."""

    SCHMEISSEN = "schmeissen"  # a player demanded a new deal (e.g. five kings)
    ARMUT = "armut"  # nobody took an Armut


#: Absage items per party, indexed by ``level - 2``.
ABSAGE_ITEMS: dict[Party, tuple[Item, ...]] = {
    Party.RE: (Item.ABSAGE_RE_90, Item.ABSAGE_RE_60, Item.ABSAGE_RE_30, Item.ABSAGE_RE_SCHWARZ),
    Party.KONTRA: (
        Item.ABSAGE_KONTRA_90,
        Item.ABSAGE_KONTRA_60,
        Item.ABSAGE_KONTRA_30,
        Item.ABSAGE_KONTRA_SCHWARZ,
    ),
}

#: "reached" items, indexed by ``level - 2`` of the opponents' Absage.
REACHED_ITEMS: tuple[Item, ...] = (
    Item.REACHED_VS_90,
    Item.REACHED_VS_60,
    Item.REACHED_VS_30,
    Item.REACHED_VS_SCHWARZ,
)

#: "under" items in the order of ``UNDER_LIMITS``.
UNDER_ITEMS: tuple[Item, ...] = (Item.UNDER_90, Item.UNDER_60, Item.UNDER_30)
