"""The one override checker of seasons and leagues: key → checks → message, run when the
overrides are saved; the reads build the rule without checking again."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from unittest import mock

import pytest
from django.utils import translation

from common.overrides import OverrideChecker, check, tiebreak_checks
from common.services import ServiceError
from seasons.rules import OVERRIDES as SEASON_OVERRIDES
from seasons.rules import ranking_rule
from teams.rules import OVERRIDES as LEAGUE_OVERRIDES
from teams.rules import team_scoring

CHECKER = OverrideChecker(
    "overrides",
    {
        "size": (check(lambda v: isinstance(v, int), "Give a number."),),
        "tiebreak": tiebreak_checks(("a", "b")),
    },
)


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):
        yield


def test_the_first_failing_check_of_each_key_is_its_problem() -> None:
    assert CHECKER.problems({"size": 3, "tiebreak": ["b", "a"]}) == {}
    assert CHECKER.problems({"size": "x", "tiebreak": ["a", "a"], "colour": 1}) == {
        "overrides": "Unknown keys: colour. Known are: size, tiebreak.",
        "size": "Give a number.",
        "tiebreak": "Each tie-break only once.",
    }
    assert CHECKER.problems({"tiebreak": ["c", "c"]}) == {"tiebreak": "Known tie-breaks are: a, b."}
    assert CHECKER.problems([1]) == {
        "overrides": "Give the overrides as an object of keys and values."
    }


def test_the_refusal_stands_on_the_first_problem_s_field() -> None:
    with pytest.raises(ServiceError) as info:
        CHECKER.refuse_invalid({"tiebreak": ["c"]})
    assert (info.value.code, info.value.field) == ("invalid_override", "tiebreak")


@pytest.mark.parametrize(
    ("checker", "field"),
    [(SEASON_OVERRIDES, "rule_overrides"), (LEAGUE_OVERRIDES, "scoring_overrides")],
)
def test_seasons_and_leagues_use_the_one_checker(checker: OverrideChecker, field: str) -> None:
    assert isinstance(checker, OverrideChecker) and checker.field == field
    assert checker.problems({"tiebreak": ["nonsense"]})["tiebreak"].startswith("Known tie-breaks")


def test_a_read_does_not_check_the_stored_overrides_again() -> None:
    season = SimpleNamespace(preset="best_n", rule_overrides={"best_n": 2})
    league = SimpleNamespace(scoring_preset="bundesliga", scoring_overrides={"tie_rule": "share"})
    with mock.patch.object(OverrideChecker, "problems", side_effect=AssertionError("checked")):
        assert ranking_rule(season).best_n == 2
        assert team_scoring(league).tie_rule == "share"
