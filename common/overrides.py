"""Overrides of a preset, checked key by key: one declarative checker for a season's ranking
rule and a league's team scoring (and whatever stores a preset with overrides next).

Each overridable key names its checks in order, a check being a test and the message shown
when the test fails; the first failing check of a key is its problem. The checker runs when
the overrides are saved (the use case refuses them on their field); what is stored has passed
it, so the reads build the rule without checking again.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.services import ServiceError


@dataclass(frozen=True)
class Check:
    """``test(value)`` is true for a value that may be used; else ``message`` (its parts
    joined by a space, each formatted with ``params``) says why."""

    test: Callable[[Any], bool]
    message: tuple[str | Promise, ...]
    params: Mapping[str, object] = field(default_factory=dict)

    def problem(self, value: Any) -> str | None:
        if self.test(value):
            return None
        return " ".join(
            str(part) % self.params if self.params else str(part) for part in self.message
        )


def check(test: Callable[[Any], bool], *message: str | Promise, **params: object) -> Check:
    return Check(test, message, params)


def tiebreak_checks(known: Collection[str]) -> tuple[Check, ...]:
    """A tie-break order: a list of known keys, each once."""
    return (
        check(
            lambda order: (
                isinstance(order, list)
                and all(isinstance(key, str) and key in known for key in order)
            ),
            gettext_lazy("Known tie-breaks are: %(known)s."),
            known=", ".join(known),
        ),
        check(
            lambda order: len(set(order)) == len(order),
            gettext_lazy("Each tie-break only once."),
        ),
    )


@dataclass(frozen=True)
class OverrideChecker:
    """Key → checks. ``field`` is the stored object's name: the problem of the object itself
    and of keys nobody knows stands on it."""

    field: str
    checks: Mapping[str, tuple[Check, ...]]

    @property
    def keys(self) -> tuple[str, ...]:
        """The keys that may be overridden, in the order forms and messages name them."""
        return tuple(self.checks)

    def problems(self, overrides: Any) -> dict[str, str]:
        """Key → message for every override that cannot be used (empty when all is well)."""
        if not isinstance(overrides, Mapping):
            return {self.field: _("Give the overrides as an object of keys and values.")}
        problems: dict[str, str] = {}
        unknown = sorted(str(key) for key in overrides if key not in self.checks)
        if unknown:
            problems[self.field] = _("Unknown keys: %(keys)s. Known are: %(known)s.") % {
                "keys": ", ".join(unknown),
                "known": ", ".join(self.keys),
            }
        for key, checks in self.checks.items():
            if key not in overrides:
                continue
            for each in checks:
                if (message := each.problem(overrides[key])) is not None:
                    problems[key] = message
                    break
        return problems

    def refuse_invalid(self, overrides: Any) -> None:
        """Raise the first problem as the use case's refusal, on its field."""
        problems = self.problems(overrides)
        if problems:
            key, message = next(iter(problems.items()))
            raise ServiceError("invalid_override", message, field=key)
