"""The DDV ranking tournament's conditions: a pure function of the tournament's facts."""

from __future__ import annotations

from seasons.ddv.check import Facts, Reason, qualification

GOOD = Facts(players=32, series=3, ruleset="ddv", overrides=False, open_series=0)


def test_a_tournament_at_the_minimums_qualifies() -> None:
    assert qualification(GOOD) == ()


def test_every_failing_condition_is_named_in_order() -> None:
    bad = Facts(players=31, series=2, ruleset="house", overrides=False, open_series=1)
    assert qualification(bad) == (
        Reason.FEW_PLAYERS,
        Reason.FEW_SERIES,
        Reason.NOT_DDV_RULES,
        Reason.SERIES_OPEN,
    )


def test_the_ddv_preset_with_overrides_is_not_the_ddv_rule_set() -> None:
    changed = Facts(players=40, series=3, ruleset="ddv", overrides=True, open_series=0)
    assert qualification(changed) == (Reason.NOT_DDV_RULES,)
