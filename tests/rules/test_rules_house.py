"""House-rule switches and profiles (docs/rules/house-rules.md), no database.

Every expected number is computed by hand in the comment next to it, from the cited chapter
of docs/rules/house-rules.md (sources H1..H8 there) and the DDV items of the spec (§5).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    DDV,
    EngineError,
    GameKind,
    GameRecord,
    Item,
    Party,
    StoredGame,
    complete_game,
    next_game,
    parse_record,
    score,
    validate_series,
)
from rules.bock import BockRun, BockState, bock_multipliers, bock_state, triggers
from rules.cards import Card, Rank, Suit, trick_winner
from rules.contracts import Extra
from rules.ruleset import (
    DDV_EXTRAS,
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
from rules.testing import SEATS4, SEATS5, game, parsed, scored
from tests.rules.test_rules_properties import records

HAUS = PROFILES["haus_mit_bock"]
KNEIPE = PROFILES["kneipe"]
PROPS = settings(max_examples=300, derandomize=True, database=None, deadline=None)


def refused(data: dict[str, Any], ruleset: RuleSet) -> tuple[str, str]:
    error = parse_record(data, ruleset)
    assert isinstance(error, EngineError), error
    assert error.message
    return error.code, error.field


def items(result: Any) -> list[tuple[str, str, int]]:
    return [(i.value, p.value, n) for i, p, n in result.breakdown]


# --- profiles and presets ------------------------------------------------------------------


def test_tournament_presets_unchanged_and_profiles_hold_them() -> None:
    assert set(PRESETS) == {"ddv", "haus_25", "haus_bock"}  # stored tournaments use these
    assert set(PROFILES) == set(PRESETS) | {"haus_mit_bock", "kneipe"}
    assert all(PROFILES[name] is preset for name, preset in PRESETS.items())
    assert get_ruleset("kneipe") is KNEIPE and get_ruleset("ddv") is DDV
    assert (HAUS.label, KNEIPE.label) == ("Haus (mit Bock)", "Kneipe")
    assert all(rs.version >= 1 for rs in PROFILES.values())
    with pytest.raises(KeyError):
        get_ruleset("nope")


def test_ddv_has_every_house_switch_at_its_tsr_value() -> None:
    assert DDV.version == 1
    assert DDV.extras == DDV_EXTRAS
    assert DDV.scoring_sides is ScoringSides.BOTH and DDV.solo_factor == 3
    assert DDV.bock_max == 0 and DDV.bock_triggers == frozenset()
    assert not DDV.armut and not DDV.schmeissen and DDV.back_door
    assert DDV.dulle is DulleRule.FIRST_WINS
    assert DDV.hochzeit_partner is HochzeitPartner.FIRST_FOREIGN_TRICK


# --- scoring sides (house-rules.md "Scoring sides") ---------------------------------------


def test_scoring_sides_normal_game() -> None:
    # Re 151: won 1 + Kontra under 90 1 = 2 (spec 5.1); both: +2/+2/-2/-2
    data = game(points=151)
    both = scored(data)
    assert both.scores == {1: 2, 2: 2, 3: -2, 4: -2}
    winners = scored(data, replace(DDV, scoring_sides=ScoringSides.WINNERS))
    losers = scored(data, replace(DDV, scoring_sides=ScoringSides.LOSERS))
    assert winners.scores == {1: 2, 2: 2, 3: 0, 4: 0}
    assert losers.scores == {1: 0, 2: 0, 3: -2, 4: -2}
    assert winners.value == losers.value == both.value == 2
    assert winners.breakdown == both.breakdown


def test_scoring_sides_follow_the_points_not_the_label() -> None:
    # Re 121 wins (1) but Kontra has two Doppelköpfe (2): net -1, the back door (TSR)
    data = game(points=121, extras={"kontra": {"doppelkopf": 2}})
    assert scored(data).winner is Party.RE
    winners = scored(data, replace(DDV, scoring_sides=ScoringSides.WINNERS))
    assert winners.scores == {1: 0, 2: 0, 3: 1, 4: 1}


def test_winners_only_with_penalties_added_afterwards() -> None:
    # Re 151: +2 for 1 and 2; seat 1 has a minor penalty (-3, +1 to each other player)
    pen = [{"seat": 1, "points": -3}, {"seat": 2, "points": 1}]
    pen += [{"seat": 3, "points": 1}, {"seat": 4, "points": 1}]
    result = scored(
        game(points=151, penalties=pen), replace(DDV, scoring_sides=ScoringSides.WINNERS)
    )
    assert result.scores == {1: -1, 2: 3, 3: 1, 4: 1}


# --- solo counting ------------------------------------------------------------------------


def test_solo_counts_once() -> None:
    # Karo solo, Re 121, no announcements: won 1 -> soloist +1 (x1), each opponent -1
    single = replace(DDV, solo_factor=1)
    assert scored(game("solo", points=121), single).scores == {1: 1, 2: -1, 3: -1, 4: -1}
    # TSR: soloist x3
    assert scored(game("solo", points=121)).scores == {1: 3, 2: -1, 3: -1, 4: -1}


# --- Sonderpunkte on/off, Schweinchen (house-rules.md "Sonderpunkte on and off") ---------


def test_schweinchen_points() -> None:
    # Re 130: won 1; Re's Schweinchen +1 -> 2
    result = scored(game(points=130, extras={"re": {"schweinchen": 1}}), HAUS)
    assert result.value == 2
    assert ("schweinchen", "re", 1) in items(result)
    # Kontra answers with the Superschweinchen: 1 + 1 - 1 = 1 (no back door needed)
    both = {"re": {"schweinchen": 1}, "kontra": {"superschweinchen": 1}}
    result = scored(game(points=130, extras=both), HAUS)
    assert result.value == 1
    assert ("superschweinchen", "kontra", 1) in items(result)


def test_schweinchen_refused_where_off_or_impossible() -> None:
    pig = {"re": {"schweinchen": 1}}
    assert refused(game(extras=pig), DDV) == ("house_rule_off", "extras.re.schweinchen")
    assert scored(game(extras={"re": {"schweinchen": 0}})).value == 1  # 0 uses nothing
    superpig = {"re": {"schweinchen": 1}, "kontra": {"superschweinchen": 1}}
    assert refused(game(extras=superpig), KNEIPE) == (
        "house_rule_off",
        "extras.kontra.superschweinchen",
    )
    two = {"re": {"schweinchen": 1}, "kontra": {"schweinchen": 1}}
    assert refused(game(extras=two), HAUS) == (
        "schweinchen_total_exceeded",
        "extras.kontra.schweinchen",
    )
    assert refused(game(extras={"re": {"schweinchen": 2}}), HAUS) == (
        "schweinchen_total_exceeded",
        "extras.re.schweinchen",
    )
    lonely = {"kontra": {"superschweinchen": 1}}
    assert refused(game(extras=lonely), HAUS) == (
        "superschweinchen_without_schweinchen",
        "extras.kontra.superschweinchen",
    )
    # both ♦A are the top trumps in one hand: no Fuchs can be caught (H5, H6)
    fox = {"re": {"schweinchen": 1}, "kontra": {"fuchs": 1}}
    assert refused(game(points=130, extras=fox), HAUS) == (
        "schweinchen_fuchs_conflict",
        "extras.kontra.fuchs",
    )
    # Sonderpunkte never in solo-type games (interpretation 9), Schweinchen included
    solo_pig = game("solo", extras={"re": {"schweinchen": 1}})
    assert refused(solo_pig, HAUS) == ("extras_not_allowed", "extras")


def test_karlchen_and_gegen_die_alten_off() -> None:
    karlchen = {"re": {"karlchen": 1}}
    assert refused(game(points=130, extras=karlchen), KNEIPE) == (
        "house_rule_off",
        "extras.re.karlchen",
    )
    # Kontra wins with 140: won 1 + gegen die Alten 1 = -2 (TSR); without the extra: -1
    no_gda = replace(DDV, extras=DDV_EXTRAS - {Extra.GEGEN_DIE_ALTEN})
    assert scored(game(points=100)).value == -2
    assert scored(game(points=100), no_gda).value == -1


# --- Armut (house-rules.md "Armut") -------------------------------------------------------


def armut(**facts: int) -> dict[str, Any]:
    return game(re=[1, 3], points=100, armut={"poor": 3, "taker": 1, **facts})


def test_armut_scores_as_a_normal_game() -> None:
    # poor 3 + taker 1 are Re; Re 100: Kontra wins 1 + gegen die Alten 1 = -2 (H4, H5)
    record = parsed(armut(trumps=3, foxes=0), HAUS)
    assert record.kind is GameKind.ARMUT
    result = score(record, HAUS)
    assert result.value == -2
    assert result.scores == {1: -2, 2: 2, 3: -2, 4: 2}
    assert parse_record(record_json := armut(), HAUS) == parsed(record_json, HAUS)


def test_armut_trump_limit_and_foxes() -> None:
    # four trumps with one ♦A: H5 leaves the single Fuchs out (3 counted) ...
    assert parsed(armut(trumps=4, foxes=1), HAUS).armut is not None
    # ... Kneipe counts it (4 > 3)
    assert refused(armut(trumps=4, foxes=1), KNEIPE) == ("armut_trumps", "armut.trumps")
    # both ♦A always count (they are Schweinchen then): 4 > 3 under either profile
    assert refused(armut(trumps=4, foxes=2), HAUS) == ("armut_trumps", "armut.trumps")
    assert refused(armut(trumps=1, foxes=2), HAUS) == ("armut_trumps", "armut.foxes")
    assert parsed(armut(trumps=0), KNEIPE).armut is not None


def test_armut_refused() -> None:
    assert refused(armut(), DDV) == ("house_rule_off", "armut")
    assert refused(game(re=[1, 2], armut={"poor": 3, "taker": 1}), HAUS) == (
        "armut_parties",
        "armut",
    )
    assert refused(game("solo", armut={"poor": 1, "taker": 2}), HAUS) == (
        "armut_not_normal",
        "armut",
    )
    assert refused(game(armut={"poor": 1}), HAUS) == ("missing_field", "armut.taker")
    assert refused(game(armut={"poor": 1, "taker": 2, "x": 1}), HAUS) == (
        "unknown_field",
        "armut.x",
    )


# --- Schmeißen (house-rules.md "Schmeißen") -----------------------------------------------


def thrown(reason: str = "schmeissen", **fields: Any) -> dict[str, Any]:
    return {"thrown_in": reason, "seats": SEATS4, "sitting_out": None, **fields}


def test_a_thrown_in_hand_scores_nothing() -> None:
    result = scored(thrown(), HAUS)
    assert (result.winner, result.value, result.breakdown) == (None, 0, ())
    assert result.scores == {1: 0, 2: 0, 3: 0, 4: 0}
    assert scored(thrown("armut"), KNEIPE).scores == {1: 0, 2: 0, 3: 0, 4: 0}


def test_a_thrown_in_hand_refused() -> None:
    assert refused(thrown(), DDV) == ("house_rule_off", "thrown_in")
    play_on = replace(HAUS, armut_nobody_takes=ArmutFallback.PLAY)
    assert refused(thrown("armut"), play_on) == ("house_rule_off", "thrown_in")
    assert refused(thrown("kings"), HAUS) == ("unknown_thrown_in", "thrown_in")
    assert refused(thrown(re=[1, 2]), HAUS) == ("thrown_in_game_fields", "re")
    assert refused(thrown(not_played=True), HAUS) == ("not_played_game_fields", "thrown_in")


def dealt(data: dict[str, Any], dealer: int) -> dict[str, Any]:
    return {**data, "dealer": dealer}


def test_thrown_in_deal_and_count_in_the_series() -> None:
    games = [dealt(game(points=151), 1), dealt(thrown(), 2)]
    # same dealer again, not counted (Haus)
    nxt = next_game(games, 4, HAUS)
    assert (nxt.dealer, nxt.games_played) == (2, 1)
    assert validate_series(games, 4, HAUS, complete=False).ok
    # the deal passes on (Kneipe)
    assert next_game(games, 4, KNEIPE).dealer == 3
    # counted as a game
    counted = replace(KNEIPE, thrown_in_counts=True, thrown_in_deal=ThrownInDeal.SAME_DEALER)
    nxt = next_game(games, 4, counted)
    assert (nxt.dealer, nxt.games_played) == (2, 2)


# --- Hochzeit variants, second Dulle ------------------------------------------------------


def test_hochzeit_clarification_window_is_data() -> None:
    five = replace(DDV, hochzeit_clarification_tricks=5)
    data = game("hochzeit", re=[1, 2], points=150, tricks=6, hochzeit_partner_trick=5)
    assert refused(data, DDV) == ("hochzeit_partner_trick_out_of_range", "hochzeit_partner_trick")
    assert parsed(data, five).hochzeit_partner_trick == 5
    # Re won every trick up to the Klärungsstich (interpretation 7): 4 tricks < 5
    short = {**data, "re_tricks": 4, "re_points": 100}
    assert refused(short, five)[0] == "hochzeit_tricks_inconsistent"


def test_dulle_rules_of_the_profiles() -> None:
    dulle = Card(Suit.HERZ, Rank.ZEHN)
    trick = [dulle, Card(Suit.KREUZ, Rank.DAME), dulle, Card(Suit.KARO, Rank.NEUN)]
    assert trick_winner(trick, None, DDV) == 0  # TSR 5.3.3: the first of two wins
    assert trick_winner(trick, None, KNEIPE) == 2  # the second always
    assert trick_winner(trick, None, KNEIPE, last_trick=True) == 2
    assert trick_winner(trick, None, HAUS) == 2
    assert trick_winner(trick, None, HAUS, last_trick=True) == 0  # except in the last trick


# --- presets against hand-computed games --------------------------------------------------


def test_haus_mit_bock_game() -> None:
    # Re 160 with Re announced, Kontra under 90; Re's Schweinchen; Doppelbock (level 2):
    # won 1 + under 90 1 + Re 2 + Schweinchen 1 = 5, x2x2 = 20 (bock item 15)
    data = game(points=160, ann=("ansage", None), extras={"re": {"schweinchen": 1}}, bock=2)
    result = scored(data, HAUS)
    assert result.value == 20
    assert result.breakdown[-1] == (Item.BOCK, Party.RE, 15)
    assert result.scores == {1: 20, 2: 20, 3: -20, 4: -20}
    assert refused({**data, "bock": 4}, HAUS) == ("bock_out_of_range", "bock")


def test_kneipe_game() -> None:
    # lost Karo solo (Re 100) in a Bock game: Kontra wins 1, x2 = 2; solo x1, winners only:
    # the three opponents write +2, the soloist 0
    result = scored(game("solo", points=100, bock=1), KNEIPE)
    assert result.value == -2
    assert result.scores == {1: 0, 2: 2, 3: 2, 4: 2}
    assert refused(game(bock=2), KNEIPE) == ("bock_out_of_range", "bock")


def test_cli_scores_under_a_profile() -> None:
    line = json.dumps(game("solo", points=100, bock=1)).encode()
    out = subprocess.run(
        [sys.executable, "-m", "rules", "score", "--ruleset", "kneipe"],
        input=line,
        capture_output=True,
        check=True,
    )
    assert json.loads(out.stdout)["scores"] == {"1": 0, "2": 2, "3": 2, "4": 2}


# --- Bock rounds (rules.bock) -------------------------------------------------------------


PLAIN = game(points=151)
TIE = game(points=120)
LOST_SOLO = game("solo", points=100)
LOST_RE = game(points=100, ann=("ansage", None))
TENS = game(points=151, four_tens=True)
NOT_PLAYED = {"not_played": True, "seats": SEATS4, "sitting_out": None}


def seq(ruleset: RuleSet, *games: dict[str, Any]) -> list[GameRecord]:
    return [parsed(g, ruleset) for g in games]


def test_triggers() -> None:
    assert triggers(parsed(TIE, HAUS), HAUS) == (BockTrigger.TIE,)
    assert triggers(parsed(LOST_SOLO, HAUS), HAUS) == (BockTrigger.LOST_SOLO,)
    assert triggers(parsed(LOST_RE, HAUS), HAUS) == (BockTrigger.LOST_ANNOUNCEMENT,)
    assert triggers(parsed(TENS, HAUS), HAUS) == (BockTrigger.FOUR_TENS,)
    assert triggers(parsed(PLAIN, HAUS), HAUS) == ()
    # 120:120 with Re announced: Re lost its announcement too (two rounds)
    tie_re = parsed(game(points=120, ann=("ansage", None)), HAUS)
    assert triggers(tie_re, HAUS) == (BockTrigger.TIE, BockTrigger.LOST_ANNOUNCEMENT)
    # Kneipe has only 120:120 and the lost solo; DDV none at all
    assert triggers(parsed(LOST_RE, KNEIPE), KNEIPE) == ()
    assert triggers(parsed(TIE, DDV), DDV) == ()
    assert refused(TENS, KNEIPE) == ("house_rule_off", "four_tens")


def test_one_bock_round_is_one_game_per_player() -> None:
    # 120:120 in game 1 at four: games 2-5 are Bock; at five: games 2-6
    games = seq(HAUS, TIE, *[PLAIN] * 6)
    assert bock_multipliers(games, 4, HAUS) == [0, 1, 1, 1, 1, 0, 0]
    assert bock_multipliers(games, 5, HAUS) == [0, 1, 1, 1, 1, 1, 0]


def test_stacking_gives_doppelbock() -> None:
    # tie in game 1 (games 2-5 Bock); the solo in game 3 is lost: games 4-7 one level more
    games = seq(HAUS, TIE, PLAIN, LOST_SOLO, *[PLAIN] * 5)
    assert bock_multipliers(games, 4, HAUS) == [0, 1, 1, 2, 2, 1, 1, 0]
    state = bock_state(games[:3], 4, HAUS)
    assert state.runs() == (BockRun(2, 2), BockRun(1, 2))  # "Doppelbock 2, then Bock 2"
    assert (state.level, state.games_left, state.rounds) == (2, 4, 2)
    capped = replace(HAUS, bock_max=1)
    assert bock_multipliers(games, 4, capped) == [0, 1, 1, 1, 1, 1, 1, 0]


def test_queuing_plays_rounds_one_after_the_other() -> None:
    games = seq(KNEIPE, TIE, PLAIN, LOST_SOLO, *[PLAIN] * 8)
    assert bock_multipliers(games, 4, KNEIPE) == [0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0]
    state = bock_state(games[:3], 4, KNEIPE)
    assert state.runs() == (BockRun(1, 6),)


def test_rows_not_played_neither_trigger_nor_use_up_bock_games() -> None:
    games = seq(HAUS, TIE, NOT_PLAYED, thrown(), *[PLAIN] * 4)
    assert bock_multipliers(games, 4, HAUS) == [0, 0, 0, 1, 1, 1, 1]


def test_state_applied_to_the_record_scores_it() -> None:
    # the level the sheet gives is the record's "bock": Re 151 = 2, Bock x2 = 4
    level = bock_state(seq(HAUS, TIE), 4, HAUS).level
    assert scored({**PLAIN, "bock": level}, HAUS).value == 4


# --- Hypothesis ---------------------------------------------------------------------------

#: House switches that only act on records that use them (Armut, Schmeißen, Schweinchen,
#: Bock triggers): a DDV record scores the same with them on.
DORMANT = {
    "armut": True,
    "schmeissen": True,
    "extras": DDV_EXTRAS | {Extra.SCHWEINCHEN, Extra.SUPERSCHWEINCHEN},
    "bock_triggers": frozenset(BockTrigger),
    "bock_mode": BockMode.QUEUE,
    "hochzeit_partner": HochzeitPartner.FIRST_FEHL_TRICK,
    "armut_foxes_count": False,
    "thrown_in_deal": ThrownInDeal.NEXT_DEALER,
}


#: Every house switch of ``RuleSet`` (house-rules.md); the rest is the DDV game itself.
HOUSE_SWITCHES = (
    "extras",
    "schweinchen_points",
    "superschweinchen_points",
    "scoring_sides",
    "solo_factor",
    "back_door",
    "bock_max",
    "bock_factor",
    "bock_triggers",
    "bock_mode",
    "dulle",
    "hochzeit_partner",
    "armut",
    "armut_max_trumps",
    "armut_foxes_count",
    "armut_nobody_takes",
    "schmeissen",
    "thrown_in_deal",
    "thrown_in_counts",
)


def house_off(profile: RuleSet) -> RuleSet:
    """The profile with every house switch back at its DDV value."""
    return replace(profile, **{key: getattr(DDV, key) for key in HOUSE_SWITCHES})


def test_house_off_leaves_only_names_and_series_settings() -> None:
    for profile in PROFILES.values():
        off = house_off(profile)
        same = replace(off, name="ddv", label=DDV.label, version=1, normal_games_5=25)
        assert same == DDV, profile.name


@PROPS
@given(
    records(deductions=True),
    st.sampled_from(sorted(PROFILES)),
    st.integers(1, 9),
    st.dictionaries(st.sampled_from(sorted(DORMANT)), st.just(True)),
)
def test_house_switches_off_score_like_ddv(
    data: dict[str, Any], name: str, version: int, dormant: dict[str, bool]
) -> None:
    profile = replace(house_off(PROFILES[name]), version=version)
    profile = replace(profile, **{key: DORMANT[key] for key in dormant})
    expected = score(parsed(data), DDV).to_json()
    assert score(parsed(data, profile), profile).to_json() == expected


@PROPS
@given(records(deductions=False, penalties=("none",)), st.integers(1, 3))
def test_winners_plus_losers_is_both(data: dict[str, Any], factor: int) -> None:
    both = scored(data, replace(DDV, solo_factor=factor))
    winners = scored(data, replace(DDV, solo_factor=factor, scoring_sides=ScoringSides.WINNERS))
    losers = scored(data, replace(DDV, solo_factor=factor, scoring_sides=ScoringSides.LOSERS))
    for seat, points in both.scores.items():
        assert winners.scores[seat] == max(points, 0)
        assert losers.scores[seat] == min(points, 0)
        assert winners.scores[seat] + losers.scores[seat] == points
    assert winners.value == losers.value == both.value


KINDS = {"plain": PLAIN, "tie": TIE, "solo": LOST_SOLO, "re": LOST_RE, "tens": TENS}


def at_table(data: dict[str, Any], size: int) -> dict[str, Any]:
    """The row at a table of ``size`` (at five, seat 5 deals and sits out)."""
    if size == 4:
        return data
    return {**data, "seats": SEATS5, "sitting_out": 5}


ROWS = {**KINDS, "np": NOT_PLAYED, "thrown": thrown()}


@PROPS
@given(
    st.lists(st.sampled_from([*KINDS, "np", "thrown"]), max_size=40),
    st.sampled_from([4, 5]),
    st.sampled_from([BockMode.STACK, BockMode.QUEUE]),
)
def test_bock_rounds_keep_their_counts(kinds: list[str], size: int, mode: BockMode) -> None:
    # no cap: bock_max above any level the sequence can reach
    rs = replace(HAUS, bock_mode=mode, bock_max=200)
    games = [parsed(at_table(ROWS[k], size), rs) for k in kinds]
    levels = bock_multipliers(games, size, rs)
    state = bock_state(games, size, rs)
    fired = sum(len(triggers(g, rs)) for g in games)
    assert state.rounds == fired
    # every round is exactly `size` Bock games, played or still ahead
    assert sum(levels) + sum(state.ahead) == fired * size
    if mode is BockMode.QUEUE:
        assert set(levels) <= {0, 1} and set(state.ahead) <= {1}
    assert all(
        level == 0 for level, g in zip(levels, games, strict=True) if g.not_played or g.thrown_in
    )
    assert sum(run.games for run in state.runs()) == state.games_left


def test_bock_state_is_data() -> None:
    state = BockState(4, HAUS)
    assert (state.level, state.games_left, state.runs()) == (0, 0, ())


def test_completion_derives_the_bock_level() -> None:
    # game 1 ends 120:120 (dealer 1): game 2 is a Bock game; Re 151 = 2, x2 = 4
    stored = [dealt(TIE, 1)]
    done = complete_game(stored, dict(PLAIN), 4, HAUS)
    assert not isinstance(done, EngineError)
    assert done.record is not None and done.record.bock == 1
    assert done.result is not None and done.result.value == 4
    mismatch = complete_game(stored, {**PLAIN, "bock": 0}, 4, HAUS)
    assert isinstance(mismatch, EngineError)
    assert (mismatch.code, mismatch.field) == ("derived_mismatch", "bock")
    # a paper row (no facts) uses up a Bock game and triggers nothing
    row = {"1": 2, "2": 2, "3": -2, "4": -2}
    papers = [{"dealer": d, "scores": row} for d in (2, 3, 4, 1)]
    done = complete_game([*stored, *papers], dict(PLAIN), 4, HAUS)
    assert not isinstance(done, EngineError) and done.record is not None
    assert done.record.bock == 0
    # without Bock triggers nothing is derived: haus_bock keeps its entered multiplier
    done = complete_game(stored, {**PLAIN, "bock": 2}, 4, PRESETS["haus_bock"])
    assert not isinstance(done, EngineError) and done.record is not None
    assert done.record.bock == 2


def test_stored_house_rows_read_back() -> None:
    # a thrown-in hand is no paper row; Schweinchen read back with the other Sonderpunkte
    row = StoredGame.from_record({**thrown(), "dealer": 2})
    assert row.thrown_in and not row.transcribed and row.contract is None
    pig = StoredGame.from_record(game(points=130, extras={"re": {"schweinchen": 1}}))
    assert pig.extras_re.schweinchen == 1
    assert (
        pig.extras_re == parsed(game(points=130, extras={"re": {"schweinchen": 1}}), HAUS).extras_re
    )
