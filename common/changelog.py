"""The change log's words: every app registers its action codes and their labels here.

A change is logged with a dotted action code (``scoring.game.corrected``,
``hall.announcement.made``), in the log of what it changed (``common.models.ChangeLog``
gives every log the same columns). Each app names its own codes and their labels in its
``AppConfig.ready`` (``register_actions``); the pages that show a log read them from here,
so no lower module names an upper app's codes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from django.utils.functional import Promise
from django.utils.translation import gettext as _


@dataclass(frozen=True)
class ActionKind:
    key: str  # the value of a change log's "kind" filter
    label: str | Promise


_ACTIONS: dict[str, ActionKind] = {}

#: Every registered action code and its kind, read-only (it fills as the apps get ready).
ACTIONS: Mapping[str, ActionKind] = MappingProxyType(_ACTIONS)


def register_actions(actions: Mapping[str, ActionKind]) -> None:
    """Add an app's codes; registering the same code again with the same kind is harmless
    (``ready`` may run twice), with another kind an error."""
    for code, kind in actions.items():
        known = _ACTIONS.get(code)
        if known is not None and known != kind:
            raise ValueError(f"action code {code!r} registered twice")
        _ACTIONS[code] = kind


def action_label(code: str) -> str:
    kind = _ACTIONS.get(code)
    return str(kind.label) if kind else _("Other change")


def kind_choices() -> list[tuple[str, str]]:
    return [(kind.key, str(kind.label)) for kind in _ACTIONS.values()]


def codes_of_kind(key: str) -> list[str]:
    return [code for code, kind in _ACTIONS.items() if kind.key == key]
