"""People's words for the rules engine's terms: one label per member of its enums.

The engine names things with enums (``rules.contracts``); forms, pages, the change log and
the printouts take their choices and labels from here, so a term is translated once and a
new member without a label fails ``tests/scoring/test_labels.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import TypeVar

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from rules.contracts import Contract, Extra, SoloType

E = TypeVar("E", bound=Enum)
T = TypeVar("T")

CONTRACT_LABELS: Mapping[Contract, Promise] = {
    Contract.NORMAL: _("Normal game"),
    Contract.HOCHZEIT: _("Hochzeit"),
    Contract.SOLO: _("Solo"),
    Contract.STILLE_HOCHZEIT: _("Silent Hochzeit"),
}
SOLO_LABELS: Mapping[SoloType, Promise] = {
    SoloType.KARO: _("Diamonds (Trumpf)"),
    SoloType.HERZ: _("Hearts"),
    SoloType.PIK: _("Spades"),
    SoloType.KREUZ: _("Clubs"),
    SoloType.DAMEN: _("Queens"),
    SoloType.BUBEN: _("Jacks"),
    SoloType.FLEISCHLOS: _("Aces (no trumps)"),
}
#: The extras a table enters (gegen die Alten follows from the game, it is not entered).
ENTERED_EXTRAS = (Extra.FUCHS, Extra.DOPPELKOPF, Extra.KARLCHEN)
EXTRA_LABELS: Mapping[Extra, Promise] = {
    Extra.FUCHS: _("Fox caught"),
    Extra.DOPPELKOPF: _("Doppelkopf"),
    Extra.KARLCHEN: _("Karlchen"),
}


def choices(labels: Mapping[E, Promise]) -> list[tuple[str, Promise]]:
    """Form choices in the order of the mapping: (the member's value, its label)."""
    return [(str(member.value), label) for member, label in labels.items()]


def label_of(labels: Mapping[E, Promise], value: object, default: T) -> Promise | T:
    """The label of the member whose value is ``value`` (as stored in a record), else
    ``default``."""
    for member, label in labels.items():
        if member.value == value:
            return label
    return default
