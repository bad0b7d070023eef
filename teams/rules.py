"""A league's team scoring: its preset with the overrides it stores, checked key by key.

The overrides are data like a season's: a JSON object whose keys are fields of
``teams.scoring.TeamScoring``. ``override_problems`` says, per key, why a value cannot be
used (unknown keys included); ``team_scoring`` builds the scoring of a league.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from teams.scoring import PRESETS, TeamScoring, TeamScoringError, TieBreak, TieRule

#: The keys a league may override, in the order forms and messages name them.
OVERRIDABLE = ("victory_points", "tie_rule", "tiebreak")
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


def override_problems(overrides: Any) -> dict[str, str]:
    """Key → message for every override that cannot be used (empty when all is well);
    ``scoring_overrides`` stands for the object itself and for keys it does not know."""
    if not isinstance(overrides, Mapping):
        return {"scoring_overrides": _("Give the overrides as an object of keys and values.")}
    problems: dict[str, str] = {}
    unknown = sorted(str(k) for k in overrides if k not in OVERRIDABLE)
    if unknown:
        problems["scoring_overrides"] = _("Unknown keys: %(keys)s. Known are: %(known)s.") % {
            "keys": ", ".join(unknown),
            "known": ", ".join(OVERRIDABLE),
        }
    if "victory_points" in overrides:
        tables = overrides["victory_points"]
        if (
            not isinstance(tables, list)
            or not tables
            or not all(
                isinstance(t, list) and 4 <= len(t) <= 5 and all(_whole(v) for v in t)
                for t in tables
            )
        ):
            problems["victory_points"] = _(
                "Give one list of victory points per group size (four or five teams), place "
                "1 first, as whole numbers from 0 to %(n)d."
            ) % {"n": MAX_POINTS}
        else:
            try:
                TeamScoring(name="check", victory_points=tuple(tuple(t) for t in tables))
            except TeamScoringError as exc:
                problems["victory_points"] = (
                    _("A better place cannot get fewer victory points.")
                    if exc.code == "victory_points_not_descending"
                    else _("Each group size only once.")
                )
    if "tie_rule" in overrides and overrides["tie_rule"] not in TIE_RULE_LABELS:
        problems["tie_rule"] = _("Known tie rules are: %(known)s.") % {
            "known": ", ".join(TIE_RULE_LABELS)
        }
    if "tiebreak" in overrides:
        order = overrides["tiebreak"]
        if not isinstance(order, list) or not all(
            isinstance(k, str) and k in TIEBREAK_LABELS for k in order
        ):
            problems["tiebreak"] = _("Known tie-breaks are: %(known)s.") % {
                "known": ", ".join(TIEBREAK_LABELS)
            }
        elif len(set(order)) != len(order):
            problems["tiebreak"] = _("Each tie-break only once.")
    return problems


def build_scoring(preset: str, overrides: Mapping[str, Any]) -> TeamScoring:
    """The preset with the overrides (already checked by ``override_problems``)."""
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
    """The scoring of a league; a stored preset or override no longer valid falls back to the
    preset (or the default one) rather than failing the page."""
    preset = league.scoring_preset if league.scoring_preset in PRESETS else "bundesliga"
    overrides = league.scoring_overrides or {}
    if override_problems(overrides):
        overrides = {}
    return build_scoring(preset, overrides)
