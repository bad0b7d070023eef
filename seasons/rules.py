"""A season's ranking rule: its preset with the overrides it stores, checked key by key.

The overrides are data like a tournament's ``rule_overrides``: a JSON object whose keys are
fields of ``seasons.ranking.RankingRule``. ``override_problems`` says, per key, why a value
cannot be used (unknown keys included); ``ranking_rule`` builds the rule of a season.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from seasons.ranking import PRESETS, TIEBREAKS, Basis, RankingRule

#: The keys a season may override, in the order forms and messages name them.
OVERRIDABLE = ("min_series", "window_months", "best_n", "placement_points", "tiebreak")
MAX_PLACES = 200  # a placement table longer than this is a mistake, not a season
MAX_NUMBER = 10_000

#: The presets and tie-breaks as the interface names them (the core's labels stay English).
PRESET_LABELS = {
    "ddv_rangliste": gettext_lazy(
        "DDV-Rangliste: average points per series, 24 months, at least 36 series"
    ),
    "best_n": gettext_lazy("Cup: the sum of the best 3 tournament totals"),
    "placement_points": gettext_lazy("Turnierserie: points for the place in each tournament"),
}
#: The presets' short names, for a season that overrides a preset's numbers: the long label
#: would state numbers that no longer hold.
PRESET_NAMES = {
    "ddv_rangliste": gettext_lazy("DDV-Rangliste"),
    "best_n": gettext_lazy("Cup"),
    "placement_points": gettext_lazy("Turnierserie"),
}
TIEBREAK_LABELS = {
    "series": gettext_lazy("more series counted"),
    "total": gettext_lazy("more points counted"),
    "tournaments": gettext_lazy("more tournaments counted"),
    "best_result": gettext_lazy("the better best result"),
}


def rule_label(season: Any) -> Any:
    """The season's rule as a page names it: the preset's label, or its short name with
    "adjusted" when the season overrides any of its numbers."""
    rule = PRESETS.get(season.preset)
    label = PRESET_LABELS.get(season.preset, rule.label if rule else season.preset)
    if not season.rule_overrides:
        return label
    return _("%(name)s, adjusted for this season") % {
        "name": PRESET_NAMES.get(season.preset, label)
    }


def preset_choices() -> list[tuple[str, Any]]:
    return [(key, PRESET_LABELS.get(key, rule.label)) for key, rule in PRESETS.items()]


def _whole(value: Any, *, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= MAX_NUMBER


def override_problems(overrides: Any) -> dict[str, str]:
    """Key → message for every override that cannot be used (empty when all is well);
    ``rule_overrides`` stands for the object itself and for keys it does not know."""
    if not isinstance(overrides, Mapping):
        return {"rule_overrides": _("Give the overrides as an object of keys and values.")}
    problems: dict[str, str] = {}
    unknown = sorted(str(k) for k in overrides if k not in OVERRIDABLE)
    if unknown:
        problems["rule_overrides"] = _("Unknown keys: %(keys)s. Known are: %(known)s.") % {
            "keys": ", ".join(unknown),
            "known": ", ".join(OVERRIDABLE),
        }
    number = _("Give a whole number from %(low)d to %(high)d.")
    if "min_series" in overrides and not _whole(overrides["min_series"], low=0):
        problems["min_series"] = number % {"low": 0, "high": MAX_NUMBER}
    for key in ("window_months", "best_n"):
        if key in overrides and overrides[key] is not None and not _whole(overrides[key], low=1):
            problems[key] = number % {"low": 1, "high": MAX_NUMBER} + " " + _("Empty: none.")
    if "placement_points" in overrides:
        table = overrides["placement_points"]
        if (
            not isinstance(table, list)
            or not 1 <= len(table) <= MAX_PLACES
            or not all(_whole(v, low=0) for v in table)
        ):
            problems["placement_points"] = _(
                "Give the points for place 1, 2, 3, … as whole numbers of at least 0 (at "
                "most %(n)d places)."
            ) % {"n": MAX_PLACES}
        elif any(a < b for a, b in itertools.pairwise(table)):
            problems["placement_points"] = _("A better place cannot get fewer points.")
    if "tiebreak" in overrides:
        order = overrides["tiebreak"]
        if not isinstance(order, list) or not all(
            isinstance(k, str) and k in TIEBREAKS for k in order
        ):
            problems["tiebreak"] = _("Known tie-breaks are: %(known)s.") % {
                "known": ", ".join(TIEBREAKS)
            }
        elif len(set(order)) != len(order):
            problems["tiebreak"] = _("Each tie-break only once.")
    return problems


def build_rule(preset: str, overrides: Mapping[str, Any]) -> RankingRule:
    """The preset with the overrides (already checked by ``override_problems``)."""
    rule = PRESETS[preset]
    changes: dict[str, Any] = {}
    for key in OVERRIDABLE:
        if key in overrides:
            value = overrides[key]
            changes[key] = tuple(value) if isinstance(value, list) else value
    return dataclasses.replace(rule, **changes)


def ranking_rule(season: Any) -> RankingRule:
    """The rule of a season; a stored preset or override no longer valid falls back to the
    preset (or the default one) rather than failing the page."""
    preset = season.preset if season.preset in PRESETS else "ddv_rangliste"
    overrides = season.rule_overrides or {}
    if override_problems(overrides):
        overrides = {}
    return build_rule(preset, overrides)


def uses_places(rule: RankingRule) -> bool:
    return rule.basis is Basis.PLACEMENT_POINTS
