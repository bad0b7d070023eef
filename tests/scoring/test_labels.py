"""Every term of the engine that people see has one label, in one place."""

from __future__ import annotations

from django.utils import translation

from rules.contracts import Contract, SoloType
from scoring.forms import GameForm
from scoring.labels import CONTRACT_LABELS, ENTERED_EXTRAS, EXTRA_LABELS, SOLO_LABELS, choices


def test_every_contract_and_solo_type_has_a_label() -> None:
    assert set(CONTRACT_LABELS) == set(Contract)
    assert set(SOLO_LABELS) == set(SoloType)
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
