"""The game record: typed, validated facts of one game (``GameRecord``).

Build records with ``rules.record.parse_record`` (the only validating constructor);
``record_to_json`` turns one back into the input format. The format is documented in
``docs/rules-engine.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import TOTAL_AUGEN, TRICKS
from rules.contracts import (
    AnnouncementLevel,
    Contract,
    GameKind,
    Rubric,
    SoloType,
    ThrownIn,
)


@dataclass(frozen=True, slots=True)
class Extras:
    """Entered Sonderpunkte of one party (counts, not points)."""

    fuchs: int = 0
    doppelkopf: int = 0
    karlchen: int = 0
    schweinchen: int = 0  # house rule: 0 or 1
    superschweinchen: int = 0  # house rule: 0 or 1


NO_EXTRAS = Extras()


@dataclass(frozen=True, slots=True)
class Armut:
    """House rule: the poor player and the taker (together Re); ``trumps``/``foxes`` are the
    poor player's trumps before passing and the Karo-Asse among them, when entered."""

    poor: int
    taker: int
    trumps: int | None = None
    foxes: int = 0


@dataclass(frozen=True, slots=True)
class SeatPoints:
    """Points for one seat outside the game's value: a penalty component (spec 9; the
    components of one decision sum to zero) or a deduction (TSR 9.7; no counter-credit).
    A record keeps the two apart (``GameRecord.penalties`` and ``GameRecord.deductions``)."""

    seat: int
    points: int


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One validated game. Build it with ``parse_record``; the fields are not re-checked.

    ``re``/``kontra`` are the active seats of each party (the soloist alone for solo-type
    games). ``not_played`` rows (design decision 4) carry only seats and penalties.
    ``entered_scores`` is the row as written on a paper sheet (series checks), aligned with
    ``seats``.
    """

    contract: Contract = Contract.NORMAL
    solo: SoloType | None = None
    compulsory: bool = False
    forced: bool = False
    hochzeit_partner_trick: int | None = None
    seats: tuple[int, ...] = (1, 2, 3, 4)
    sitting_out: int | None = None
    dealer: int | None = None
    re: tuple[int, ...] = ()
    kontra: tuple[int, ...] = ()
    re_level: AnnouncementLevel = AnnouncementLevel.NONE
    kontra_level: AnnouncementLevel = AnnouncementLevel.NONE
    re_augen: int = 0  # Re's Augen (card points, 0..240); JSON key "re_points" (see docs)
    re_tricks: int | None = None
    extras_re: Extras = NO_EXTRAS
    extras_kontra: Extras = NO_EXTRAS
    penalties: tuple[SeatPoints, ...] = ()
    deductions: tuple[SeatPoints, ...] = ()
    bock: int = 0
    not_played: bool = False
    entered_scores: tuple[int, ...] | None = None
    # house rules (docs/rules/house-rules.md); the defaults are the DDV game
    armut: Armut | None = None
    thrown_in: ThrownIn | None = None  # a hand thrown in: no game facts, no score
    four_tens: bool = False  # a trick of four tens was played (Bock trigger)

    @property
    def solo_scoring(self) -> bool:
        """Scored like a solo: any solo, stille Hochzeit, Hochzeit continued alone (spec 2.4)."""
        c = self.contract
        return (
            c is Contract.SOLO
            or c is Contract.STILLE_HOCHZEIT
            or (c is Contract.HOCHZEIT and self.hochzeit_partner_trick is None)
        )

    @property
    def soloist(self) -> int | None:
        return self.re[0] if self.solo_scoring and self.re else None

    @property
    def trump_type(self) -> SoloType | None:
        """Rank order in force (``None`` = Normalspiel order, identical to Karo solo)."""
        return self.solo if self.contract is Contract.SOLO else None

    @property
    def kind(self) -> GameKind:
        c = self.contract
        if c is Contract.SOLO:
            if self.forced:
                return GameKind.PFLICHTSOLO_VORGEFUEHRT
            return GameKind.PFLICHTSOLO if self.compulsory else GameKind.LUSTSOLO
        if c is Contract.HOCHZEIT:
            return (
                GameKind.HOCHZEIT_SOLO
                if self.hochzeit_partner_trick is None
                else GameKind.HOCHZEIT_PARTNER
            )
        if c is Contract.STILLE_HOCHZEIT:
            return GameKind.STILLE_HOCHZEIT
        return GameKind.ARMUT if self.armut is not None else GameKind.NORMAL

    @property
    def rubric(self) -> Rubric:
        return Rubric.PFLICHT if self.compulsory else Rubric.NORMAL

    @property
    def re_has_trick(self) -> bool:
        return self.re_tricks > 0 if self.re_tricks is not None else self.re_augen > 0

    @property
    def kontra_has_trick(self) -> bool:
        if self.re_tricks is not None:
            return self.re_tricks < TRICKS
        return self.re_augen < TOTAL_AUGEN


def record_to_json(record: GameRecord) -> dict[str, object]:
    """The record in the input format (round-trips through ``parse_record``)."""
    data: dict[str, object] = {"seats": list(record.seats), "sitting_out": record.sitting_out}
    if record.dealer is not None:
        data["dealer"] = record.dealer
    if record.not_played:
        data["not_played"] = True
    elif record.thrown_in is not None:
        data["thrown_in"] = record.thrown_in.value
    else:
        data["contract"] = record.contract.value
        if record.contract is Contract.SOLO:
            data["solo"] = record.solo.value if record.solo else None
            data["compulsory"] = record.compulsory
            data["forced"] = record.forced
        if record.contract is Contract.HOCHZEIT:
            data["hochzeit_partner_trick"] = record.hochzeit_partner_trick
        data["re"] = list(record.re)
        data["announcements"] = {"re": record.re_level.json, "kontra": record.kontra_level.json}
        data["re_points"] = record.re_augen
        if record.re_tricks is not None:
            data["re_tricks"] = record.re_tricks
        if record.extras_re != NO_EXTRAS or record.extras_kontra != NO_EXTRAS:
            data["extras"] = {
                party: _extras_json(e)
                for party, e in (("re", record.extras_re), ("kontra", record.extras_kontra))
            }
        if record.bock:
            data["bock"] = record.bock
        if record.armut is not None:
            a = record.armut
            armut: dict[str, object] = {"poor": a.poor, "taker": a.taker}
            if a.trumps is not None:
                armut.update(trumps=a.trumps, foxes=a.foxes)
            data["armut"] = armut
        if record.four_tens:
            data["four_tens"] = True
    for key, comps in (("penalties", record.penalties), ("deductions", record.deductions)):
        if comps:
            data[key] = [{"seat": c.seat, "points": c.points} for c in comps]
    if record.entered_scores is not None:
        data["scores"] = {
            str(s): v for s, v in zip(record.seats, record.entered_scores, strict=True)
        }
    return data


def _extras_json(e: Extras) -> dict[str, int]:
    data = {"fuchs": e.fuchs, "doppelkopf": e.doppelkopf, "karlchen": e.karlchen}
    if e.schweinchen:  # house keys only when used: DDV records keep their exact JSON
        data["schweinchen"] = e.schweinchen
    if e.superschweinchen:
        data["superschweinchen"] = e.superschweinchen
    return data
