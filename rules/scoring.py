"""Game scoring: winner (spec 4), itemized value (spec 5.1-5.3), seat scores (5.3, 9, 10.1).

``score`` is the hot path (see ``bench/rules_bench.py``): it builds the breakdown as plain
tuples and touches each record field once.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import TOTAL_AUGEN
from rules.contracts import (
    ABSAGE_ITEMS,
    ABSAGE_LIMIT,
    REACHED_AGAINST,
    REACHED_ITEMS,
    UNDER_ITEMS,
    UNDER_LIMITS,
    AnnouncementLevel,
    Extra,
    Item,
    Party,
)
from rules.gamerecord import NO_EXTRAS, Extras, GameRecord
from rules.ruleset import RuleSet, ScoringSides

#: One line of the breakdown: (item, party credited, points); points are always positive.
BreakdownItem = tuple[Item, Party, int]

RE = Party.RE
KONTRA = Party.KONTRA
_NONE = AnnouncementLevel.NONE
_ANSAGE = AnnouncementLevel.ANSAGE
_SCHWARZ = AnnouncementLevel.SCHWARZ
_HALF = TOTAL_AUGEN // 2  # 120:120 goes to Kontra unless only Kontra announced (spec 4)
_UNDER_FIRST = UNDER_LIMITS[0]


def _by_level(items: tuple[Item, ...]) -> tuple[tuple[Item, ...], ...]:
    """Index by announcement level: the Absage-related items that level stands for."""
    return tuple(items[: level.absagen] for level in AnnouncementLevel)


_ABSAGEN_RE = _by_level(ABSAGE_ITEMS[RE])
_ABSAGEN_KONTRA = _by_level(ABSAGE_ITEMS[KONTRA])
#: per level of the opponents: (Augen needed, item) for each of their Absagen
_REACHED_STEPS: tuple[tuple[tuple[int, Item], ...], ...] = tuple(
    tuple(
        (REACHED_AGAINST[AnnouncementLevel(lv)], REACHED_ITEMS[lv - 2])
        for lv in range(AnnouncementLevel.KEINE_90, level + 1)
    )
    for level in AnnouncementLevel
)


@dataclass(frozen=True, slots=True)
class GameResult:
    """``value`` is the net from Re's side before the solo factor (after house multipliers);
    ``scores`` maps every seat of the table to its points for this game, penalties and
    deductions included; ``breakdown`` explains ``value``: Re items minus Kontra items."""

    winner: Party | None
    value: int
    scores: dict[int, int]
    breakdown: tuple[BreakdownItem, ...]

    @property
    def positive_seats(self) -> tuple[int, ...]:
        """Seats to mark on the sheet (spec 7.5); none when all are 0 (design decision 3)."""
        return tuple(seat for seat, points in self.scores.items() if points > 0)

    def to_json(self) -> dict[str, object]:
        return {
            "winner": None if self.winner is None else self.winner.value,
            "value": self.value,
            "scores": {str(seat): points for seat, points in self.scores.items()},
            "breakdown": [
                {"item": item.value, "party": party.value, "points": points}
                for item, party, points in self.breakdown
            ],
        }


def winner(record: GameRecord) -> Party | None:
    """The winning party (spec 4), ``None`` when both parties missed their Absagen."""
    re_augen = record.re_augen
    return _winner(
        re_augen,
        TOTAL_AUGEN - re_augen,
        record.re_level,
        record.kontra_level,
        record.re_has_trick,
        record.kontra_has_trick,
    )


def _defeats(absage: AnnouncementLevel, points: int, has_trick: bool) -> bool:
    """Does a party with ``points``/``has_trick`` defeat the opponents' ``absage``?"""
    if absage is _SCHWARZ:
        return has_trick
    return points >= ABSAGE_LIMIT[absage]


def _winner(
    re_augen: int,
    kontra_augen: int,
    re_level: AnnouncementLevel,
    kontra_level: AnnouncementLevel,
    re_trick: bool,
    kontra_trick: bool,
) -> Party | None:
    only_kontra = kontra_level is _ANSAGE and re_level is _NONE
    if re_level > _ANSAGE:
        re_wins = not _defeats(re_level, kontra_augen, kontra_trick)
    elif kontra_level > _ANSAGE:
        re_wins = _defeats(kontra_level, re_augen, re_trick)
    else:
        re_wins = re_augen >= _HALF if only_kontra else re_augen > _HALF
    if re_wins:
        return RE
    if kontra_level > _ANSAGE:
        kontra_wins = not _defeats(kontra_level, re_augen, re_trick)
    elif re_level > _ANSAGE:
        kontra_wins = _defeats(re_level, kontra_augen, kontra_trick)
    else:
        kontra_wins = True  # without Absagen exactly one party wins
    return KONTRA if kontra_wins else None


def score(record: GameRecord, ruleset: RuleSet) -> GameResult:
    """Score a validated record under ``ruleset``."""
    rs = ruleset
    seats = record.seats
    if record.not_played or record.thrown_in is not None:
        scores = dict.fromkeys(seats, 0)
        _add_components(scores, record)
        return GameResult(None, 0, scores, ())

    re_augen = record.re_augen
    kontra_augen = TOTAL_AUGEN - re_augen
    re_level = record.re_level
    kontra_level = record.kontra_level
    re_trick = record.re_has_trick
    kontra_trick = record.kontra_has_trick
    won = _winner(re_augen, kontra_augen, re_level, kontra_level, re_trick, kontra_trick)

    items: list[BreakdownItem] = []
    if won is None:  # spec 7.1.3 / 5.3: only the "under" and "reached" items of each party
        _under(items, RE, kontra_augen, kontra_trick, rs)
        _reached(items, RE, re_augen, kontra_level, rs)
        _under(items, KONTRA, re_augen, re_trick, rs)
        _reached(items, KONTRA, kontra_augen, re_level, rs)
    else:
        if won is RE:
            own, loser_points, loser_trick, loser_level = (
                re_augen,
                kontra_augen,
                kontra_trick,
                kontra_level,
            )
        else:
            own, loser_points, loser_trick, loser_level = (
                kontra_augen,
                re_augen,
                re_trick,
                re_level,
            )
        items.append((Item.WON, won, rs.base_points))
        if loser_points < _UNDER_FIRST or not loser_trick:
            _under(items, won, loser_points, loser_trick, rs)
        if re_level:
            items.append((Item.ANNOUNCED_RE, won, rs.ansage_points))
            for item in _ABSAGEN_RE[re_level]:
                items.append((item, won, rs.absage_points))
        if kontra_level:
            items.append((Item.ANNOUNCED_KONTRA, won, rs.ansage_points))
            for item in _ABSAGEN_KONTRA[kontra_level]:
                items.append((item, won, rs.absage_points))
        if loser_level > _ANSAGE:
            _reached(items, won, own, loser_level, rs)

    solo_scoring = record.solo_scoring
    if not solo_scoring and rs.sonderpunkte:
        if won is KONTRA and rs.gegen_die_alten_points and Extra.GEGEN_DIE_ALTEN in rs.extras:
            items.append((Item.GEGEN_DIE_ALTEN, KONTRA, rs.gegen_die_alten_points))
        if record.extras_re is not NO_EXTRAS:
            _extras(items, RE, record.extras_re, rs)
        if record.extras_kontra is not NO_EXTRAS:
            _extras(items, KONTRA, record.extras_kontra, rs)

    net = 0
    for _, party, points in items:
        net += points if party is RE else -points
    if not rs.back_door and won is not None and (net < 0 if won is RE else net > 0):
        items.append((Item.NO_BACK_DOOR, won, abs(net)))
        net = 0
    if record.bock and net:
        extra = net * (rs.bock_factor**record.bock - 1)
        items.append((Item.BOCK, RE if extra > 0 else KONTRA, abs(extra)))
        net += extra

    scores = dict.fromkeys(seats, 0)
    re_gain = net * rs.solo_factor if solo_scoring else net
    for seat in record.re:
        scores[seat] = re_gain
    for seat in record.kontra:
        scores[seat] = -net
    if rs.scoring_sides != ScoringSides.BOTH:  # house rule: one side writes
        keep = max if rs.scoring_sides == ScoringSides.WINNERS else min
        for seat in seats:
            scores[seat] = keep(scores[seat], 0)
    if record.penalties or record.deductions:
        _add_components(scores, record)
    return GameResult(won, net, scores, tuple(items))


def _under(
    items: list[BreakdownItem], party: Party, opp_points: int, opp_trick: bool, rs: RuleSet
) -> None:
    """Items for the opponents staying under 90/60/30 Augen or without a trick."""
    if opp_points >= UNDER_LIMITS[0]:
        return
    for limit, item in zip(UNDER_LIMITS, UNDER_ITEMS, strict=True):
        if opp_points < limit:
            items.append((item, party, rs.under_points))
    if not opp_trick:
        items.append((Item.SCHWARZ, party, rs.under_points))


def _reached(
    items: list[BreakdownItem],
    party: Party,
    own_points: int,
    opp_level: AnnouncementLevel,
    rs: RuleSet,
) -> None:
    """Items (e)/(f): ``party`` reached 120/90/60/30 against the opponents' Absagen."""
    for needed, item in _REACHED_STEPS[opp_level]:
        if own_points >= needed:
            items.append((item, party, rs.reached_points))


def _extras(items: list[BreakdownItem], party: Party, extras: Extras, rs: RuleSet) -> None:
    if extras.fuchs:
        items.append((Item.FUCHS, party, extras.fuchs * rs.fuchs_points))
    if extras.doppelkopf:
        items.append((Item.DOPPELKOPF, party, extras.doppelkopf * rs.doppelkopf_points))
    if extras.karlchen:
        items.append((Item.KARLCHEN, party, extras.karlchen * rs.karlchen_points))
    if extras.schweinchen:
        items.append((Item.SCHWEINCHEN, party, extras.schweinchen * rs.schweinchen_points))
    if extras.superschweinchen:
        points = extras.superschweinchen * rs.superschweinchen_points
        items.append((Item.SUPERSCHWEINCHEN, party, points))


def _add_components(scores: dict[int, int], record: GameRecord) -> None:
    for component in record.penalties:
        scores[component.seat] += component.points
    for component in record.deductions:
        scores[component.seat] += component.points
