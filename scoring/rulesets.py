"""The rule set a tournament plays by: a preset plus the organizer's overrides."""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any

from rules.ruleset import PRESETS, RuleSet
from tournaments.models import Tournament

#: Overrides an organizer may set per tournament (everything else comes from the preset).
OVERRIDABLE = ("normal_games_4", "normal_games_5", "playing_minutes_4", "playing_minutes_5")


@lru_cache(maxsize=256)
def _build(preset: str, overrides: tuple[tuple[str, int], ...]) -> RuleSet:
    base = PRESETS.get(preset, PRESETS["ddv"])
    # Field names only known at run time; OVERRIDABLE lists int fields of RuleSet.
    allowed: dict[str, Any] = {
        k: v for k, v in overrides if k in OVERRIDABLE and isinstance(v, int) and v > 0
    }
    return dataclasses.replace(base, **allowed) if allowed else base


def ruleset_for(tournament: Tournament) -> RuleSet:
    overrides = tuple(sorted((tournament.rule_overrides or {}).items()))
    return _build(tournament.ruleset, overrides)
