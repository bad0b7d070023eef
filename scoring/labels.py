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
from rules.stored import StoredGame

E = TypeVar("E", bound=Enum)

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
#: The name of each solo game on its own, for lists of games (export, change log, pages,
#: printouts): "Damensolo", never "Solo (Damen)" or "Solo (Karo (Trumpf))".
SOLO_NAMES: Mapping[SoloType, Promise] = {
    SoloType.KARO: _("Diamonds solo (trump solo)"),
    SoloType.HERZ: _("Hearts solo"),
    SoloType.PIK: _("Spades solo"),
    SoloType.KREUZ: _("Clubs solo"),
    SoloType.DAMEN: _("Queens solo"),
    SoloType.BUBEN: _("Jacks solo"),
    SoloType.FLEISCHLOS: _("Aces solo (no trumps)"),
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


def game_label(game: StoredGame) -> str:
    """A game's type as one name, as every list of games shows it: the solo's own name
    ("Damensolo"), "Solo" when its type is not known, else the contract ("Hochzeit"); a
    game without a contract (a paper row, a game not played) has none."""
    if game.contract is None:
        return ""
    if game.contract is Contract.SOLO:
        name = SOLO_NAMES[game.solo] if game.solo else CONTRACT_LABELS[Contract.SOLO]
        return str(name)
    return str(CONTRACT_LABELS[game.contract])
