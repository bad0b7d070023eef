"""The tournament settings form: every choice label translated."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils.functional import Promise

from rules.ruleset import PRESETS
from tournaments.forms import RULESET_LABELS, TournamentForm
from tournaments.models import Tournament

EN = {"accept-language": "en"}


def test_every_rule_set_preset_has_a_translatable_label() -> None:
    assert set(RULESET_LABELS) == set(PRESETS)
    assert all(isinstance(label, Promise) for label in RULESET_LABELS.values())


@pytest.mark.django_db
def test_every_choice_of_the_tournament_form_is_translated() -> None:
    form = TournamentForm()
    for name in ("ruleset", "entry_mode", "confirmation", "tiebreak"):
        labels = [label for value, label in form.fields[name].choices if value]
        assert labels and all(isinstance(label, Promise) for label in labels), name


def test_settings_show_the_rule_sets_in_the_interface_language(
    alice_client: Client, tournament: Tournament
) -> None:
    html = alice_client.get("/verwaltung/herbst/bearbeiten/", headers=EN).content.decode()
    assert '<option value="ddv" selected>DDV tournament rules</option>' in html
