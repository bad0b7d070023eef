"""A league's team scoring: its preset with the overrides it stores, checked key by key.

The overrides are data like a season's: a JSON object whose keys are fields of
``teams.scoring.TeamScoring``. ``OVERRIDES`` says, per key, why a value cannot be used
(unknown keys included), when a league is saved; ``team_scoring`` builds the scoring of a
league from what was stored, without checking it again.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy

from common.overrides import OverrideChecker, check, tiebreak_checks
from teams.scoring import PRESETS, TeamScoring, TieBreak, TieRule

MAX_POINTS = 100

PRESET_LABELS = {
    "bundesliga": gettext_lazy(
        "Bundesliga: 4/3/2/1 victory points (5/4/3/2/1 in a group of five), ties share"
    ),
    "best_place": gettext_lazy("Ties get the points of their best place"),
}
TIE_RULE_LABELS = {
    TieRule.SHARE.value: gettext_lazy("tied teams share the points of their places"),
    TieRule.BEST_PLACE.value: gettext_lazy("tied teams each get the points of the best place"),
}
TIEBREAK_LABELS = {
    TieBreak.HEAD_TO_HEAD.value: gettext_lazy("head-to-head"),
    TieBreak.DAY_WINS.value: gettext_lazy("more match days won"),
    TieBreak.BEST_DAY.value: gettext_lazy("the better best match day"),
}


def preset_choices() -> list[tuple[str, Any]]:
    return [(key, PRESET_LABELS.get(key, key)) for key in PRESETS]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_POINTS


def _victory_tables(tables: Any) -> bool:
    return (
        isinstance(tables, list)
        and bool(tables)
        and all(
            isinstance(t, list) and 4 <= len(t) <= 5 and all(_whole(v) for v in t) for t in tables
        )
    )


def _sizes_once(tables: list[list[int]]) -> bool:
    return len({len(t) for t in tables}) == len(tables)


def _descending(tables: list[list[int]]) -> bool:
    return not any(a < b for t in tables for a, b in itertools.pairwise(t))


#: The keys a league may override (fields of ``TeamScoring``), in the order forms and
#: messages name them, each with its checks.
OVERRIDES = OverrideChecker(
    "scoring_overrides",
    {
        "victory_points": (
            check(
                _victory_tables,
                gettext_lazy(
                    "Give one list of victory points per group size (four or five teams), "
                    "place 1 first, as whole numbers from 0 to %(n)d."
                ),
                n=MAX_POINTS,
            ),
            check(_sizes_once, gettext_lazy("Each group size only once.")),
            check(_descending, gettext_lazy("A better place cannot get fewer victory points.")),
        ),
        "tie_rule": (
            check(
                lambda rule: isinstance(rule, str) and rule in TIE_RULE_LABELS,
                gettext_lazy("Known tie rules are: %(known)s."),
                known=", ".join(TIE_RULE_LABELS),
            ),
        ),
        "tiebreak": tiebreak_checks(TIEBREAK_LABELS),
    },
)
OVERRIDABLE = OVERRIDES.keys


def build_scoring(preset: str, overrides: Mapping[str, Any]) -> TeamScoring:
    """The preset with the overrides (checked by ``OVERRIDES`` when they were saved)."""
    scoring = PRESETS[preset]
    changes: dict[str, Any] = {}
    if "victory_points" in overrides:
        changes["victory_points"] = tuple(tuple(t) for t in overrides["victory_points"])
    if "tie_rule" in overrides:
        changes["tie_rule"] = TieRule(overrides["tie_rule"])
    if "tiebreak" in overrides:
        changes["tiebreak"] = tuple(TieBreak(k) for k in overrides["tiebreak"])
    return dataclasses.replace(scoring, **changes)


def team_scoring(league: Any) -> TeamScoring:
    """The scoring of a league, from what its use cases checked on saving (a preset no
    longer known falls back to the default one rather than failing the page)."""
    preset = league.scoring_preset if league.scoring_preset in PRESETS else "bundesliga"
    return build_scoring(preset, league.scoring_overrides or {})
