"""A season's ranking rule: its preset with the overrides it stores, checked key by key.

The overrides are data like a tournament's ``rule_overrides``: a JSON object whose keys are
fields of ``seasons.ranking.RankingRule``. ``OVERRIDES`` says, per key, why a value cannot be
used (unknown keys included), when a season is saved; ``ranking_rule`` builds the rule of a
season from what was stored, without checking it again.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.overrides import OverrideChecker, check, tiebreak_checks
from seasons.ranking import EVENING_PRESETS, PRESETS, TIEBREAKS, Basis, RankingRule

MAX_PLACES = 200  # a placement table longer than this is a mistake, not a season
MAX_NUMBER = 10_000
MAX_TABLE = 12  # players at one table: an evening seats 4 to 7

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
#: A club's evening presets (``evenings.championship``) as the interface names them.
EVENING_PRESET_LABELS = {
    "club_championship": gettext_lazy(
        "Club championship: placement points at the table of each evening"
    ),
    "evening_average": gettext_lazy("Points per 24 games over the evenings"),
    "evening_points": gettext_lazy("The sum of the evenings' points"),
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


def _whole_or_none(value: Any) -> bool:
    return value is None or _whole(value, low=1)


def _placement_table(table: Any) -> bool:
    return (
        isinstance(table, list)
        and 1 <= len(table) <= MAX_PLACES
        and all(_whole(v, low=0) for v in table)
    )


def _descending(table: list[int]) -> bool:
    return not any(a < b for a, b in itertools.pairwise(table))


def _table_rows(rows: Any) -> bool:
    """A list of rows, each the points for places 1, 2, ... at a table of its length."""
    return (
        isinstance(rows, list)
        and 1 <= len(rows) <= MAX_TABLE
        and all(
            isinstance(row, list)
            and 2 <= len(row) <= MAX_TABLE
            and all(
                isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_NUMBER for v in row
            )
            for row in rows
        )
    )


def _one_row_per_size(rows: list[list[int]]) -> bool:
    return len({len(row) for row in rows}) == len(rows)


def _rows_descending(rows: list[list[int]]) -> bool:
    return all(_descending(row) for row in rows)


_NUMBER = gettext_lazy("Give a whole number from %(low)d to %(high)d.")
_OR_NONE = (check(_whole_or_none, _NUMBER, gettext_lazy("Empty: none."), low=1, high=MAX_NUMBER),)

#: The keys a season may override (fields of ``RankingRule``), in the order forms and
#: messages name them, each with its checks.
OVERRIDES = OverrideChecker(
    "rule_overrides",
    {
        "min_series": (check(lambda v: _whole(v, low=0), _NUMBER, low=0, high=MAX_NUMBER),),
        "window_months": _OR_NONE,
        "best_n": _OR_NONE,
        "placement_points": (
            check(
                _placement_table,
                gettext_lazy(
                    "Give the points for place 1, 2, 3, … as whole numbers of at least 0 (at "
                    "most %(n)d places)."
                ),
                n=MAX_PLACES,
            ),
            check(_descending, gettext_lazy("A better place cannot get fewer points.")),
        ),
        "tiebreak": tiebreak_checks(TIEBREAKS),
    },
)
#: The keys a club group's championship rule may override (``evening_rule``): the
#: placement table per table size instead of the points for a tournament's place.
EVENING_OVERRIDES = OverrideChecker(
    "ranking_overrides",
    {
        **{k: v for k, v in OVERRIDES.checks.items() if k != "placement_points"},
        "table_points": (
            check(
                _table_rows,
                gettext_lazy(
                    "Give one row per table size: the points for place 1, 2, 3, … as whole "
                    "numbers, as many as players at the table (2 to %(n)d)."
                ),
                n=MAX_TABLE,
            ),
            check(_one_row_per_size, gettext_lazy("Give one row for each table size only.")),
            check(_rows_descending, gettext_lazy("A better place cannot get fewer points.")),
        ),
    },
)
OVERRIDABLE = OVERRIDES.keys


def build_rule(
    preset: str,
    overrides: Mapping[str, Any],
    presets: Mapping[str, RankingRule] = PRESETS,
    keys: tuple[str, ...] = OVERRIDABLE,
) -> RankingRule:
    """The preset with the overrides (checked by ``OVERRIDES`` when they were saved)."""
    rule = presets[preset]
    changes: dict[str, Any] = {}
    for key in keys:
        if key in overrides:
            value = overrides[key]
            if key == "table_points":
                changes[key] = tuple(tuple(row) for row in value)
            else:
                changes[key] = tuple(value) if isinstance(value, list) else value
    return dataclasses.replace(rule, **changes)


def evening_rule(preset: str, overrides: Mapping[str, Any]) -> RankingRule:
    """A club group's championship rule (``evenings.championship``): an evening preset
    with its checked overrides; a preset no longer known falls back to the championship."""
    name = preset if preset in EVENING_PRESETS else "club_championship"
    return build_rule(name, overrides or {}, EVENING_PRESETS, EVENING_OVERRIDES.keys)


def ranking_rule(season: Any) -> RankingRule:
    """The rule of a season, from what its use cases checked on saving (a preset no longer
    known falls back to the default one rather than failing the page)."""
    preset = season.preset if season.preset in PRESETS else "ddv_rangliste"
    return build_rule(preset, season.rule_overrides or {})


def uses_places(rule: RankingRule) -> bool:
    return rule.basis is Basis.PLACEMENT_POINTS
