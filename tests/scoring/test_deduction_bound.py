"""A deduction (TSR 9.7) takes 1 to ``RuleSet.max_deduction`` points, wherever it is entered:
in a game record, in a paper row, and as points deducted by the organizers for a series."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from common.actors import ORGANIZER, Actor
from common.services import ServiceError
from rules import DDV, parse_record, parse_transcribed
from rules.errors import EngineError
from rules.testing import series_game
from scoring.models import MAX_DEDUCTION
from scoring.services.deductions import add_deduction
from scoring.views.organizer_actions import DeductionForm
from tests.factories import make_tournament, running_table
from tournaments.models import Registration

OUTSIDE = (0, 1, -DDV.max_deduction - 1)
INSIDE = (-1, -DDV.max_deduction)


@pytest.mark.parametrize("points", OUTSIDE + INSIDE)
def test_the_rule_set_holds_the_bound(points: int) -> None:
    assert DDV.deduction_allowed(points) is (points in INSIDE)


@pytest.mark.parametrize("points", OUTSIDE + INSIDE)
def test_game_records_and_paper_rows_follow_the_rule_set(points: int) -> None:
    record = series_game(1)
    record["deductions"] = [{"seat": 2, "points": points}]
    row = {"dealer": 1, "scores": {"1": 0, "2": points, "3": 0, "4": 0}}
    row["deductions"] = [{"seat": 2, "points": points}]
    for parsed in (parse_record(record, DDV), parse_transcribed(row, 4, DDV)):
        refused = isinstance(parsed, EngineError) and parsed.code == "deduction_out_of_range"
        assert refused is (points in OUTSIDE), parsed


@pytest.fixture
def seated(db: None) -> Registration:
    table = running_table(make_tournament())
    return table.seats.select_related("registration").first().registration


@pytest.mark.parametrize("points", OUTSIDE + INSIDE)
def test_series_deductions_follow_the_rule_set(
    seated: Registration, alice: User, points: int
) -> None:
    series = seated.tournament.series.get(number=1)
    organizer = Actor(ORGANIZER, user=alice)
    form = DeductionForm(
        {"registration": seated.pk, "points": points, "reason": "Beleidigung"},
        registrations=Registration.objects.all(),
        ruleset=DDV,
    )
    assert form.is_valid() is (points in INSIDE)
    if points in OUTSIDE:
        with pytest.raises(ServiceError) as refused:
            add_deduction(series, seated, points, "Beleidigung", organizer)
        assert refused.value.code == "deduction_out_of_range"
        assert str(DDV.max_deduction) in refused.value.message
    else:
        assert add_deduction(series, seated, points, "Beleidigung", organizer).points == points


def test_the_database_allows_the_widest_rule_set() -> None:
    assert MAX_DEDUCTION == DDV.max_deduction == 12
