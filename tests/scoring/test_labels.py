"""Every term of the engine that people see has one label, in one place."""

from __future__ import annotations

import pytest
from django.utils import translation

from rules.contracts import Contract, SoloType
from rules.stored import StoredGame
from scoring.forms import GameForm
from scoring.labels import (
    CONTRACT_LABELS,
    ENTERED_EXTRAS,
    EXTRA_LABELS,
    SOLO_LABELS,
    SOLO_NAMES,
    choices,
    game_label,
)


def test_every_contract_and_solo_type_has_a_label() -> None:
    assert set(CONTRACT_LABELS) == set(Contract)
    assert set(SOLO_LABELS) == set(SoloType)
    assert set(SOLO_NAMES) == set(SoloType)
    assert set(EXTRA_LABELS) == set(ENTERED_EXTRAS)


def test_a_stored_value_finds_its_label() -> None:
    """Records store plain strings; the enum-keyed labels answer them."""
    with translation.override("de"):
        assert str(SOLO_LABELS.get("damen")) == "Damen"
        assert str(CONTRACT_LABELS["stille_hochzeit"]) == "Stille Hochzeit"  # type: ignore[index]


def test_the_game_form_offers_the_engines_values() -> None:
    form = GameForm(seats=[(1, "A"), (2, "B"), (3, "C"), (4, "D")])
    assert [v for v, _ in form.fields["contract"].choices] == [str(c) for c in CONTRACT_LABELS]
    assert [v for v, _ in form.fields["solo"].choices] == [v for v, _ in choices(SOLO_LABELS)]
    assert {v for v, _ in form.fields["contract"].choices} == {c.value for c in Contract}


read = StoredGame.from_record


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_game_has_one_name_without_nested_brackets(language: str) -> None:
    # The export once said "Solo (Karo (Trumpf))": every list of games takes game_label.
    with translation.override(language):
        names = [game_label(StoredGame(Contract.SOLO, t)) for t in SoloType]
        names += [game_label(StoredGame(c)) for c in Contract]
        for name in names:
            assert name and name.count("(") <= 1 and "((" not in name and "))" not in name
            assert not name.startswith("Solo ("), name
        assert len(set(names)) == len(names)
        assert game_label(read({"contract": "solo", "solo": "damen"})) == (
            "Damensolo" if language == "de" else "Queens solo"
        )


def test_a_game_without_a_contract_has_no_name() -> None:
    assert game_label(read({"scores": {"1": 3, "2": -1, "3": -1, "4": -1}, "soloist": 1})) == ""
    assert game_label(read({"not_played": True})) == ""
