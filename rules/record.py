"""The game record: parse and validate a JSON-like dict into a ``GameRecord``.

``parse_record`` never raises for bad input: it returns an ``EngineError`` with a code from
``rules.errors.ERROR_CODES`` and the dotted path of the offending field.
"""

from __future__ import annotations

from typing import NoReturn

from rules.cards import TOTAL_AUGEN, TRICKS, max_augen, min_augen
from rules.contracts import (
    LEVEL_FROM_JSON,
    AnnouncementLevel,
    Contract,
    Extra,
    SoloType,
    ThrownIn,
)
from rules.deck import augen_possible, doppelkoepfe_possible, doppelkopf_shape, extras_possible
from rules.errors import EngineError, InvalidInput, fail
from rules.gamerecord import NO_EXTRAS, Armut, Extras, GameRecord, SeatPoints, record_to_json
from rules.ruleset import ArmutFallback, BockTrigger, RuleSet

# The record types live in ``rules.gamerecord``; they are re-exported here so that
# ``from rules.record import GameRecord, parse_record`` keeps working.
__all__ = ["NO_EXTRAS", "Extras", "GameRecord", "SeatPoints", "parse_record", "record_to_json"]

_GAME_FACTS = (
    "contract",
    "solo",
    "compulsory",
    "forced",
    "hochzeit_partner_trick",
    "re",
    "announcements",
    "re_points",
    "re_tricks",
    "extras",
    "bock",
    "armut",
    "four_tens",
)
_KNOWN = frozenset(
    (
        *_GAME_FACTS,
        "thrown_in",
        "seats",
        "sitting_out",
        "dealer",
        "penalties",
        "deductions",
        "not_played",
        "scores",
    )
)
_EXTRA_ORDER = ("fuchs", "doppelkopf", "karlchen", "schweinchen", "superschweinchen")
_EXTRA_KEYS = frozenset(_EXTRA_ORDER)
_EXTRA_KINDS = {e.value: e for e in Extra}
_THROWN_IN = {t.value: t for t in ThrownIn}
_THROWN_IN_KEYS = frozenset(("thrown_in", "seats", "sitting_out", "dealer"))
_ARMUT_KEYS = frozenset(("poor", "taker", "trumps", "foxes"))
_PARTY_KEYS = frozenset(("re", "kontra"))
_COMPONENT_KEYS = ("seat", "points")
_CONTRACTS = {c.value: c for c in Contract}
_SOLO_TYPES = {s.value: s for s in SoloType}


def parse_record(
    data: object, ruleset: RuleSet, *, require_dealer: bool = False
) -> GameRecord | EngineError:
    """Validate ``data`` (a decoded JSON object) and return a ``GameRecord`` or an error."""
    try:
        return _parse(data, ruleset, require_dealer)
    except InvalidInput as exc:
        return exc.error


def _parse(data: object, rs: RuleSet, require_dealer: bool) -> GameRecord:
    if type(data) is not dict:
        fail("not_an_object", "", "A game record must be a JSON object.")
    for key in data:
        if key not in _KNOWN:
            fail("unknown_field", str(key), f"Unknown field {key!r}.")
    not_played = _opt_bool(data, "not_played")
    if not_played:
        for key in (*_GAME_FACTS, "thrown_in"):
            if key in data:
                fail("not_played_game_fields", key, f"{key!r} is not given for a game not played.")
        return _parse_not_played(data, rs, require_dealer)
    if data.get("thrown_in") is not None:
        return _parse_thrown_in(data, rs, require_dealer)

    contract = _parse_contract(data)
    solo = _parse_solo(data, contract)
    compulsory = _opt_bool(data, "compulsory")
    forced = _opt_bool(data, "forced")
    if contract is not Contract.SOLO:
        if compulsory:
            fail("solo_flag_not_allowed", "compulsory")
        if forced:
            fail("solo_flag_not_allowed", "forced")
    if forced and not compulsory:
        fail("forced_not_compulsory", "forced")
    partner_trick = _parse_partner_trick(data, contract, rs)
    seats, sitting_out, dealer = _parse_table(data, rs, require_dealer)
    solo_scoring = (
        contract is Contract.SOLO
        or contract is Contract.STILLE_HOCHZEIT
        or (contract is Contract.HOCHZEIT and partner_trick is None)
    )
    re = _parse_re(data, seats, sitting_out, 1 if solo_scoring else 2)
    kontra = tuple(s for s in seats if s != sitting_out and s not in re)
    re_level, kontra_level = _parse_announcements(data)

    re_augen = _req_int(data, "re_points")
    if not 0 <= re_augen <= TOTAL_AUGEN:
        fail("re_points_out_of_range", "re_points", f"re_points must be 0..{TOTAL_AUGEN}.")
    if not augen_possible(re_augen):
        fail("re_points_impossible", "re_points", f"No cards of the deck hold {re_augen} Augen.")
    re_tricks = _opt_int(data, "re_tricks")
    if re_tricks is None:  # no trick only with 0 Augen, all tricks only with 240
        if re_augen == 0:
            lo = hi = 0
        elif re_augen == TOTAL_AUGEN:
            lo = hi = TRICKS
        else:
            lo, hi = 1, TRICKS - 1
    else:
        if not 0 <= re_tricks <= TRICKS:
            fail("re_tricks_out_of_range", "re_tricks", f"re_tricks must be 0..{TRICKS}.")
        if not augen_possible(re_augen, re_tricks):
            fail(
                "points_tricks_inconsistent",
                "re_tricks",
                f"{re_tricks} tricks hold {min_augen(re_tricks)}..{max_augen(re_tricks)} Augen, "
                f"but never {re_augen}.",
            )
        lo = hi = re_tricks
    if contract is Contract.HOCHZEIT:
        need = partner_trick if partner_trick is not None else rs.hochzeit_clarification_tricks
        lo = max(lo, need)
        if not any(augen_possible(re_augen, n) for n in range(lo, hi + 1)):
            fail(
                "hochzeit_tricks_inconsistent",
                "re_tricks" if re_tricks is not None else "re_points",
                f"Re won at least the first {need} trick(s) of this Hochzeit.",
            )
    # the trick counts Re can have: as entered, or any that holds the Augen (interpretation 5)
    re_trick_counts = tuple(n for n in range(lo, hi + 1) if augen_possible(re_augen, n))
    extras_re, extras_kontra = _parse_extras(data, rs, solo_scoring, re_augen, re_trick_counts)
    penalties, deductions, scores = _parse_rows(data, rs, seats, sitting_out)
    bock = _opt_int(data, "bock") or 0
    if not 0 <= bock <= rs.bock_max:
        fail("bock_out_of_range", "bock", f"bock must be 0..{rs.bock_max} in this rule set.")
    armut = _parse_armut(data, rs, contract, seats, re)
    four_tens = _opt_bool(data, "four_tens")
    if four_tens and BockTrigger.FOUR_TENS not in rs.bock_triggers:
        _house_rule_off("four_tens", "four tens as a Bock trigger")
    return GameRecord(
        contract=contract,
        solo=solo,
        compulsory=compulsory,
        forced=forced,
        hochzeit_partner_trick=partner_trick,
        seats=seats,
        sitting_out=sitting_out,
        dealer=dealer,
        re=re,
        kontra=kontra,
        re_level=re_level,
        kontra_level=kontra_level,
        re_augen=re_augen,
        re_tricks=re_tricks,
        extras_re=extras_re,
        extras_kontra=extras_kontra,
        penalties=penalties,
        deductions=deductions,
        bock=bock,
        entered_scores=scores,
        armut=armut,
        four_tens=four_tens,
    )


def _house_rule_off(field: str, what: str) -> NoReturn:
    fail("house_rule_off", field, f"This rule set does not have {what}.")


def _parse_thrown_in(data: dict[object, object], rs: RuleSet, require_dealer: bool) -> GameRecord:
    """A hand thrown in (house rule "Schmeißen"): seats and dealer only, no score."""
    value = data["thrown_in"]
    if type(value) is not str:
        fail("wrong_type", "thrown_in", "thrown_in must be a string or null.")
    reason = _THROWN_IN.get(value)
    if reason is None:
        fail("unknown_thrown_in", "thrown_in", f"Unknown reason {value!r} for a thrown-in hand.")
    if reason is ThrownIn.SCHMEISSEN and not rs.schmeissen:
        _house_rule_off("thrown_in", "Schmeißen")
    if reason is ThrownIn.ARMUT and not (
        rs.armut and rs.armut_nobody_takes is ArmutFallback.REDEAL
    ):
        _house_rule_off("thrown_in", "a redeal when nobody takes an Armut")
    for key in data:
        if key not in _THROWN_IN_KEYS:
            fail("thrown_in_game_fields", str(key), f"{key!r} is not given for a thrown-in hand.")
    seats, sitting_out, dealer = _parse_table(data, rs, require_dealer)
    return GameRecord(seats=seats, sitting_out=sitting_out, dealer=dealer, thrown_in=reason)


def _parse_armut(
    data: dict[object, object],
    rs: RuleSet,
    contract: Contract,
    seats: tuple[int, ...],
    re: tuple[int, ...],
) -> Armut | None:
    value = data.get("armut")
    if value is None:
        return None
    if not rs.armut:
        _house_rule_off("armut", "Armut")
    raw = _check_dict(value, "armut")
    for key in raw:
        if key not in _ARMUT_KEYS:
            fail("unknown_field", f"armut.{key}", f"Unknown field {key!r}.")
    if contract is not Contract.NORMAL:
        fail("armut_not_normal", "armut")
    for key in ("poor", "taker"):
        if key not in raw:
            fail("missing_field", f"armut.{key}", f"armut.{key} is required.")
    poor = _check_seat(raw["poor"], "armut.poor", seats)
    taker = _check_seat(raw["taker"], "armut.taker", seats)
    if poor == taker or {poor, taker} != set(re):
        fail("armut_parties", "armut")
    trumps = _opt_int(raw, "trumps")
    foxes = _opt_int(raw, "foxes") or 0
    if trumps is None:
        if foxes:
            fail("missing_field", "armut.trumps", "armut.trumps is required with foxes.")
        return Armut(poor, taker)
    if not 0 <= foxes <= min(2, trumps):
        fail("armut_trumps", "armut.foxes", "The Karo-Asse are 0..2 of the poor player's trumps.")
    counted = trumps - (1 if foxes == 1 and not rs.armut_foxes_count else 0)
    if not 0 <= counted <= rs.armut_max_trumps:
        fail(
            "armut_trumps",
            "armut.trumps",
            f"An Armut has at most {rs.armut_max_trumps} trumps in this rule set.",
        )
    return Armut(poor, taker, trumps, foxes)


def _parse_not_played(data: dict[object, object], rs: RuleSet, require_dealer: bool) -> GameRecord:
    seats, sitting_out, dealer = _parse_table(data, rs, require_dealer)
    penalties, deductions, scores = _parse_rows(data, rs, seats, sitting_out)
    return GameRecord(
        seats=seats,
        sitting_out=sitting_out,
        dealer=dealer,
        penalties=penalties,
        deductions=deductions,
        not_played=True,
        entered_scores=scores,
    )


# --- small typed readers -------------------------------------------------------------------


def _opt_bool(data: dict[object, object], key: str) -> bool:
    value = data.get(key, False)
    if type(value) is not bool:
        fail("wrong_type", key, f"{key} must be true or false.")
    return value


def _check_int(value: object, field: str) -> int:
    if type(value) is not int:
        fail("wrong_type", field, f"{field} must be an integer.")
    return value


def _req_int(data: dict[object, object], key: str) -> int:
    if key not in data:
        fail("missing_field", key, f"{key} is required.")
    return _check_int(data[key], key)


def _opt_int(data: dict[object, object], key: str) -> int | None:
    value = data.get(key)
    return None if value is None else _check_int(value, key)


def _check_dict(value: object, field: str) -> dict[object, object]:
    if type(value) is not dict:
        fail("wrong_type", field, f"{field} must be an object.")
    return value


def _check_list(value: object, field: str) -> list[object]:
    if type(value) is not list:
        fail("wrong_type", field, f"{field} must be a list.")
    return value


def _check_seat(value: object, field: str, seats: tuple[int, ...]) -> int:
    seat = _check_int(value, field)
    if seat not in seats:
        fail("seat_not_at_table", field, f"Seat {seat} is not at this table.")
    return seat


# --- sections ------------------------------------------------------------------------------


def _parse_contract(data: dict[object, object]) -> Contract:
    if "contract" not in data:
        fail("missing_field", "contract", "contract is required.")
    value = data["contract"]
    if type(value) is not str:
        fail("wrong_type", "contract", "contract must be a string.")
    contract = _CONTRACTS.get(value)
    if contract is None:
        fail("unknown_contract", "contract", f"Unknown contract {value!r}.")
    return contract


def _parse_solo(data: dict[object, object], contract: Contract) -> SoloType | None:
    value = data.get("solo")
    if contract is not Contract.SOLO:
        if value is not None:
            fail("solo_type_not_allowed", "solo")
        return None
    if value is None:
        fail("missing_field", "solo", "A solo needs its solo type.")
    if type(value) is not str:
        fail("wrong_type", "solo", "solo must be a string.")
    solo = _SOLO_TYPES.get(value)
    if solo is None:
        fail("unknown_solo_type", "solo", f"Unknown solo type {value!r}.")
    return solo


def _parse_partner_trick(data: dict[object, object], contract: Contract, rs: RuleSet) -> int | None:
    key = "hochzeit_partner_trick"
    if contract is not Contract.HOCHZEIT:
        if data.get(key) is not None:
            fail("hochzeit_partner_trick_not_allowed", key)
        return None
    if key not in data:
        fail("missing_field", key, "A Hochzeit needs hochzeit_partner_trick (1..3 or null).")
    trick = _opt_int(data, key)
    if trick is not None and not 1 <= trick <= rs.hochzeit_clarification_tricks:
        fail("hochzeit_partner_trick_out_of_range", key)
    return trick


def _parse_table(
    data: dict[object, object], rs: RuleSet, require_dealer: bool
) -> tuple[tuple[int, ...], int | None, int | None]:
    if "seats" not in data:
        fail("missing_field", "seats", "seats is required.")
    raw = _check_list(data["seats"], "seats")
    seats = tuple(_check_int(v, f"seats.{i}") for i, v in enumerate(raw))
    if len(seats) not in rs.table_sizes or seats != tuple(range(1, len(seats) + 1)):
        fail("invalid_seats", "seats")
    sitting_out = data.get("sitting_out")
    if sitting_out is not None:
        sitting_out = _check_seat(sitting_out, "sitting_out", seats)
    active = len(seats) - (sitting_out is not None)
    if active > 4:
        fail("sitting_out_required", "sitting_out")
    if active < 4:
        fail("sitting_out_not_allowed", "sitting_out")
    dealer = data.get("dealer")
    if dealer is None:
        if require_dealer:
            fail("missing_field", "dealer", "dealer is required.")
    else:
        dealer = _check_seat(dealer, "dealer", seats)
        if sitting_out is not None and dealer != sitting_out:
            fail("sitting_out_not_dealer", "sitting_out")
    return seats, sitting_out, dealer


def _parse_re(
    data: dict[object, object], seats: tuple[int, ...], sitting_out: int | None, size: int
) -> tuple[int, ...]:
    if "re" not in data:
        fail("missing_field", "re", "re is required.")
    raw = _check_list(data["re"], "re")
    re: list[int] = []
    for i, value in enumerate(raw):
        seat = _check_seat(value, f"re.{i}", seats)
        if seat == sitting_out:
            fail("seat_sitting_out", f"re.{i}")
        if seat in re:
            fail("re_duplicate_seat", f"re.{i}")
        re.append(seat)
    if len(re) != size:
        fail("re_party_size", "re", f"Re must have {size} seat(s) in this game.")
    return tuple(re)


def _parse_announcements(data: dict[object, object]) -> tuple[AnnouncementLevel, AnnouncementLevel]:
    value = data.get("announcements")
    if value is None:
        return AnnouncementLevel.NONE, AnnouncementLevel.NONE
    ann = _check_dict(value, "announcements")
    for key in ann:
        if key not in _PARTY_KEYS:
            fail("unknown_field", f"announcements.{key}", f"Unknown party {key!r}.")
    levels = []
    for party in ("re", "kontra"):
        raw = ann.get(party)
        if raw is not None and type(raw) is not str:
            fail("wrong_type", f"announcements.{party}", "An announcement is a string or null.")
        level = LEVEL_FROM_JSON.get(raw)
        if level is None:
            fail("unknown_announcement", f"announcements.{party}", f"Unknown level {raw!r}.")
        levels.append(level)
    return levels[0], levels[1]


def _parse_extras(
    data: dict[object, object],
    rs: RuleSet,
    solo_scoring: bool,
    re_augen: int,
    re_trick_counts: tuple[int, ...],
) -> tuple[Extras, Extras]:
    """``re_trick_counts``: the numbers of tricks Re can have won (ascending, not empty)."""
    value = data.get("extras")
    if value is None:
        return NO_EXTRAS, NO_EXTRAS
    raw = _check_dict(value, "extras")
    for key in raw:
        if key not in _PARTY_KEYS:
            fail("unknown_field", f"extras.{key}", f"Unknown party {key!r}.")
    re = _parse_party_extras(raw.get("re"), "extras.re")
    kontra = _parse_party_extras(raw.get("kontra"), "extras.kontra")
    if (re is not NO_EXTRAS or kontra is not NO_EXTRAS) and (solo_scoring or not rs.sonderpunkte):
        fail("extras_not_allowed", "extras")
    if re is not NO_EXTRAS or kontra is not NO_EXTRAS:
        _check_house_extras(rs, re, kontra)
    re_holds = (re_augen, re_trick_counts[-1])
    kontra_holds = (TOTAL_AUGEN - re_augen, TRICKS - re_trick_counts[0])
    for party, extras, (augen, max_tricks) in (
        ("re", re, re_holds),
        ("kontra", kontra, kontra_holds),
    ):
        field = f"extras.{party}"
        if extras.fuchs and max_tricks == 0:
            fail("fuchs_without_trick", f"{field}.fuchs")
        if extras.karlchen and max_tricks == 0:
            fail("karlchen_without_trick", f"{field}.karlchen")
        if extras.doppelkopf > max_tricks:
            fail("doppelkopf_exceeds_tricks", f"{field}.doppelkopf")
        if extras.doppelkopf > augen // rs.doppelkopf_augen:
            fail(
                "doppelkopf_exceeds_points",
                f"{field}.doppelkopf",
                f"{augen} Augen hold at most {augen // rs.doppelkopf_augen} Doppelkopf/-köpfe.",
            )
    if re.fuchs > rs.max_fuchs or re.fuchs + kontra.fuchs > rs.max_fuchs:
        field = "extras.re.fuchs" if re.fuchs > rs.max_fuchs else "extras.kontra.fuchs"
        fail("fuchs_total_exceeded", field, f"At most {rs.max_fuchs} Füchse per game.")
    if re.karlchen > rs.max_karlchen or re.karlchen + kontra.karlchen > rs.max_karlchen:
        field = "extras.re.karlchen" if re.karlchen > rs.max_karlchen else "extras.kontra.karlchen"
        fail("karlchen_total_exceeded", field, f"At most {rs.max_karlchen} Karlchen per game.")
    if re.doppelkopf or kontra.doppelkopf:
        _check_doppelkoepfe(rs, re_augen, re_trick_counts, re.doppelkopf, kontra.doppelkopf)
    if re.fuchs or re.karlchen or kontra.fuchs or kontra.karlchen:
        _check_extras_cards(rs, re_augen, re_trick_counts, re, kontra)
    return re, kontra


def _check_house_extras(rs: RuleSet, re: Extras, kontra: Extras) -> None:
    """Sonderpunkte the rule set has off, and the Schweinchen rules (house-rules.md)."""
    for party, extras in (("re", re), ("kontra", kontra)):
        for key in _EXTRA_ORDER:
            if getattr(extras, key) and not rs.has_extra(_EXTRA_KINDS[key]):
                _house_rule_off(f"extras.{party}.{key}", f"the Sonderpunkt {key!r}")
    for key in ("schweinchen", "superschweinchen"):
        mine, theirs = getattr(re, key), getattr(kontra, key)
        if mine > 1 or mine + theirs > 1:
            field = f"extras.re.{key}" if mine > 1 else f"extras.kontra.{key}"
            fail("schweinchen_total_exceeded", field, f"At most one {key} per game.")
    if (re.superschweinchen or kontra.superschweinchen) and not (
        re.schweinchen or kontra.schweinchen
    ):
        field = "extras.re" if re.superschweinchen else "extras.kontra"
        fail("superschweinchen_without_schweinchen", f"{field}.superschweinchen")
    if (re.schweinchen or kontra.schweinchen) and (re.fuchs or kontra.fuchs):
        fail("schweinchen_fuchs_conflict", "extras.re.fuchs" if re.fuchs else "extras.kontra.fuchs")


def _check_doppelkoepfe(
    rs: RuleSet, re_augen: int, re_trick_counts: tuple[int, ...], re_dk: int, kontra_dk: int
) -> None:
    """The Doppelköpfe against the deck (``rules.deck``): each takes four of the 16 aces and
    tens, so at most four per game, and they must fit the parties' Augen and tricks."""
    shape = doppelkopf_shape(rs.doppelkopf_augen)
    if shape is None:  # a house threshold low enough for other cards: only the checks above
        return
    if re_dk + kontra_dk > shape.per_game:
        fail(
            "doppelkopf_total_exceeded",
            "extras",
            f"At most {shape.per_game} Doppelköpfe per game (both parties), "
            f"not {re_dk + kontra_dk}.",
        )

    def possible(re_count: int, kontra_count: int) -> bool:
        return any(
            doppelkoepfe_possible(shape, n, re_augen, re_count, kontra_count)
            for n in re_trick_counts
        )

    for field, alone in (("re", possible(re_dk, 0)), ("kontra", possible(0, kontra_dk))):
        if not alone:
            fail(
                "doppelkopf_inconsistent",
                f"extras.{field}.doppelkopf",
                f"The {field.capitalize()} party's Augen and tricks cannot hold these "
                "Doppelköpfe (four aces or tens each).",
            )
    if not possible(re_dk, kontra_dk):
        fail(
            "doppelkopf_inconsistent",
            "extras",
            f"Re's {re_augen} Augen leave no room for {re_dk} Doppelkopf/-köpfe of Re and "
            f"{kontra_dk} of Kontra together (four aces or tens each).",
        )


def _check_extras_cards(
    rs: RuleSet, re_augen: int, re_trick_counts: tuple[int, ...], re: Extras, kontra: Extras
) -> None:
    """Füchse and Karlchen against the cards, together with the Doppelköpfe (``rules.deck``):
    a caught Fuchs is a Karo-Ass beaten in the catcher's trick, the Karlchen a last trick won
    by a Kreuz-Bube (no Dame or Dulle in it). The field names the smallest impossible claim:
    one Sonderpunkt of a party, the party's together, or both parties' together."""
    shape = doppelkopf_shape(rs.doppelkopf_augen)
    # a house threshold that other cards reach: the Doppelköpfe stay out of this check
    min_aces = shape.min_aces if shape is not None else 0
    nothing = (0, 0, 0)

    def claims(extras: Extras) -> tuple[int, int, int]:
        return extras.fuchs, extras.doppelkopf if shape is not None else 0, extras.karlchen

    def possible(re_claims: tuple[int, int, int], kontra_claims: tuple[int, int, int]) -> bool:
        return any(
            extras_possible(min_aces, n, re_augen, re_claims, kontra_claims)
            for n in re_trick_counts
        )

    def refuse(field: str, what: str) -> NoReturn:
        fail(
            "extras_inconsistent",
            field,
            f"{what} cannot be held by these Augen and tricks (a caught Fuchs is a Karo-Ass "
            "beaten in the catcher's trick, the Karlchen a last trick won by a Kreuz-Bube "
            "without Dame or Dulle, a Doppelkopf four aces or tens).",
        )

    for party, extras in (("re", re), ("kontra", kontra)):
        alone = (
            ("fuchs", (extras.fuchs, 0, 0), f"Füchse ({extras.fuchs})"),
            ("karlchen", (0, 0, extras.karlchen), "Karlchen"),
        )
        name = party.capitalize()
        for key, single, what in alone:
            if any(single):
                pair = (single, nothing) if party == "re" else (nothing, single)
                if not possible(*pair):
                    refuse(f"extras.{party}.{key}", f"{name}'s {what}")
        pair = (claims(extras), nothing) if party == "re" else (nothing, claims(extras))
        if not possible(*pair):
            refuse(f"extras.{party}", f"{name}'s Sonderpunkte together")
    if not possible(claims(re), claims(kontra)):
        refuse("extras", "The Sonderpunkte of both parties together")


def _parse_party_extras(value: object, field: str) -> Extras:
    if value is None:
        return NO_EXTRAS
    raw = _check_dict(value, field)
    counts = dict.fromkeys(_EXTRA_ORDER, 0)
    for key, count in raw.items():
        if key not in _EXTRA_KEYS:
            fail("unknown_field", f"{field}.{key}", f"Unknown Sonderpunkt {key!r}.")
        n = _check_int(count, f"{field}.{key}")
        if n < 0:
            fail("extra_count_negative", f"{field}.{key}")
        counts[str(key)] = n
    if not any(counts.values()):
        return NO_EXTRAS
    return Extras(**counts)


def _parse_rows(
    data: dict[object, object], rs: RuleSet, seats: tuple[int, ...], sitting_out: int | None
) -> tuple[tuple[SeatPoints, ...], tuple[SeatPoints, ...], tuple[int, ...] | None]:
    penalties = _parse_components(data, "penalties", seats, sitting_out)
    limit = rs.max_penalty_points()
    for i, p in enumerate(penalties):
        if not -limit <= p.points <= limit:
            fail(
                "penalty_out_of_range",
                f"penalties.{i}.points",
                f"A penalty component is between -{limit} and {limit} points.",
            )
    if sum(p.points for p in penalties):
        fail("penalties_not_zero_sum", "penalties")
    deductions = _parse_components(data, "deductions", seats, None)
    for i, d in enumerate(deductions):
        if not rs.deduction_allowed(d.points):
            fail(
                "deduction_out_of_range",
                f"deductions.{i}.points",
                f"A deduction is between -{rs.max_deduction} and -1 points.",
            )
    value = data.get("scores")
    if value is None:
        return penalties, deductions, None
    raw = _check_dict(value, "scores")
    if set(raw) != {str(s) for s in seats}:
        fail("scores_seats_mismatch", "scores")
    scores = tuple(_check_int(raw[str(s)], f"scores.{s}") for s in seats)
    return penalties, deductions, scores


def _parse_components(
    data: dict[object, object], key: str, seats: tuple[int, ...], sitting_out: int | None
) -> tuple[SeatPoints, ...]:
    value = data.get(key)
    if value is None:
        return ()
    items: list[SeatPoints] = []
    for i, raw in enumerate(_check_list(value, key)):
        field = f"{key}.{i}"
        item = _check_dict(raw, field)
        for k in item:
            if k not in _COMPONENT_KEYS:
                fail("unknown_field", f"{field}.{k}", f"Unknown field {k!r}.")
        for k in _COMPONENT_KEYS:
            if k not in item:
                fail("missing_field", f"{field}.{k}", f"{k} is required.")
        seat = _check_seat(item["seat"], f"{field}.seat", seats)
        if seat == sitting_out:
            fail("seat_sitting_out", f"{field}.seat")
        items.append(SeatPoints(seat, _check_int(item["points"], f"{field}.points")))
    return tuple(items)
