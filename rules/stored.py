"""A stored game read back: ``StoredGame.from_record`` types the JSON a sheet keeps per game.

A stored record is either the facts of an entered game as the engine completed them
(``rules.series.complete_game``) or a paper row (``rules.transcription``), without its
dealer. Both were checked when saved, so the reader does not check again: it never fails,
and a field a record leaves out (older records, the optional fields of the format) reads as
the default ``parse_record`` and ``parse_transcribed`` give it; a value of the wrong type
reads as absent.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.contracts import LEVEL_FROM_JSON, AnnouncementLevel, Contract, SoloType
from rules.gamerecord import NO_EXTRAS, Extras, SeatPoints

__all__ = ["StoredGame"]

_CONTRACTS: dict[str | None, Contract] = {c.value: c for c in Contract}
_SOLO_TYPES: dict[str | None, SoloType] = {s.value: s for s in SoloType}


@dataclass(frozen=True, slots=True)
class StoredGame:
    """The facts of one stored game, typed (the names of ``GameRecord`` where it has them).

    ``contract`` is ``None`` for a paper row and for a game not played, which name none.
    ``marked_soloist`` is the seat a paper row marks as soloist; an entered game names the
    soloist as the one seat of ``re`` instead. ``re_augen`` is ``None`` where nobody entered
    Augen (a paper row, a game not played). ``entered_scores`` are a paper row's points per
    seat, in seat order.
    """

    contract: Contract | None = None
    solo: SoloType | None = None
    compulsory: bool = False
    forced: bool = False
    not_played: bool = False
    hochzeit_partner_trick: int | None = None
    sitting_out: int | None = None
    re: tuple[int, ...] = ()
    re_level: AnnouncementLevel = AnnouncementLevel.NONE
    kontra_level: AnnouncementLevel = AnnouncementLevel.NONE
    re_augen: int | None = None
    re_tricks: int | None = None
    extras_re: Extras = NO_EXTRAS
    extras_kontra: Extras = NO_EXTRAS
    penalties: tuple[SeatPoints, ...] = ()
    deductions: tuple[SeatPoints, ...] = ()
    bock: int = 0
    marked_soloist: int | None = None
    entered_scores: tuple[SeatPoints, ...] = ()
    thrown_in: bool = False  # house rule: a hand thrown in (no contract, no score)

    @classmethod
    def from_record(cls, record: object) -> StoredGame:
        """Read a stored record (anything but a JSON object reads as an empty game)."""
        if not isinstance(record, Mapping):
            return cls()
        announcements = _mapping(record.get("announcements"))
        extras = _mapping(record.get("extras"))
        return cls(
            contract=_CONTRACTS.get(_text(record.get("contract"))),
            solo=_SOLO_TYPES.get(_text(record.get("solo"))),
            compulsory=record.get("compulsory") is True,
            forced=record.get("forced") is True,
            not_played=record.get("not_played") is True,
            hochzeit_partner_trick=_int(record.get("hochzeit_partner_trick")),
            sitting_out=_int(record.get("sitting_out")),
            re=_seats(record.get("re")),
            re_level=_level(announcements.get("re")),
            kontra_level=_level(announcements.get("kontra")),
            re_augen=_int(record.get("re_points")),
            re_tricks=_int(record.get("re_tricks")),
            extras_re=_extras(extras.get("re")),
            extras_kontra=_extras(extras.get("kontra")),
            penalties=_components(record.get("penalties")),
            deductions=_components(record.get("deductions")),
            bock=_int(record.get("bock")) or 0,
            marked_soloist=_int(record.get("soloist")),
            entered_scores=_scores(record.get("scores")),
            thrown_in=_text(record.get("thrown_in")) is not None,
        )

    @property
    def transcribed(self) -> bool:
        """A row copied from a paper sheet: points and solo marks, no game facts."""
        return self.contract is None and not self.not_played and not self.thrown_in

    @property
    def played_alone(self) -> bool:
        """One player against three: a solo, the stille Hochzeit, a Hochzeit whose partner
        was never found (scored like a solo, spec 2.4)."""
        alone = len(self.re) == 1
        c = self.contract
        return (
            c is Contract.SOLO
            or c is Contract.STILLE_HOCHZEIT
            or (c is Contract.HOCHZEIT and alone)
        )

    @property
    def is_solo(self) -> bool:
        """A solo: entered as one, or marked on a paper row."""
        return self.contract is Contract.SOLO or self.marked_soloist is not None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: object) -> int | None:
    return value if type(value) is int else None


def _mapping(value: object) -> Mapping[object, object]:
    return value if isinstance(value, Mapping) else {}


def _seats(value: object) -> tuple[int, ...]:
    if not isinstance(value, list | tuple):
        return ()
    return tuple(seat for seat in value if type(seat) is int)


def _level(value: object) -> AnnouncementLevel:
    return LEVEL_FROM_JSON.get(_text(value), AnnouncementLevel.NONE)


def _extras(value: object) -> Extras:
    counts = _mapping(value)
    keys = ("fuchs", "doppelkopf", "karlchen", "schweinchen", "superschweinchen")
    found = [_int(counts.get(key)) or 0 for key in keys]
    return Extras(*found) if any(found) else NO_EXTRAS


def _components(value: object) -> tuple[SeatPoints, ...]:
    if not isinstance(value, list | tuple):
        return ()
    items = (_mapping(item) for item in value)
    pairs = ((_int(item.get("seat")), _int(item.get("points"))) for item in items)
    return tuple(SeatPoints(s, p) for s, p in pairs if s is not None and p is not None)


def _scores(value: object) -> tuple[SeatPoints, ...]:
    pairs = ((_seat(key), _int(points)) for key, points in _mapping(value).items())
    found = [SeatPoints(s, p) for s, p in pairs if s is not None and p is not None]
    return tuple(sorted(found, key=lambda item: item.seat))


def _seat(key: object) -> int | None:
    """A seat as a JSON object's key ("1")."""
    return int(key) if isinstance(key, str) and key.isascii() and key.isdigit() else None
