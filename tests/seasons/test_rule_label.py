"""The season page names its rule: the preset's label, or its short name with "adjusted"
once the season overrides a number the label states."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.factories import page_client
from tests.seasons.helpers import played, season_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("preset", "overrides", "shown", "not_shown"),
    [
        ("best_n", {}, "the best 3 tournament totals", "adjusted"),
        ("best_n", {"best_n": 2}, "Cup, adjusted for this season", "best 3"),
        ("ddv_rangliste", {"min_series": 3}, "DDV-Rangliste, adjusted", "at least 36"),
    ],
)
def test_the_label_never_states_numbers_the_season_changed(
    alice: User, preset: str, overrides: dict[str, int], shown: str, not_shown: str
) -> None:
    t1 = played(alice, "t1", "2026-01-10", {"Anna Albers": [10, 0]})
    season_of(alice, [t1], preset=preset, overrides=overrides, slug="s", name="Saison")
    html = page_client(language="en").get("/saisons/s/").content.decode()
    label = html.split('class="season-rule"')[1].split("</strong>")[0]
    assert shown in label and not_shown not in label
