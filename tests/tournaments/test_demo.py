"""The demo command builds a living tournament and can rebuild it."""

import pytest
from django.core.management import call_command

from scoring.models import Game, ScoreSheet
from tournaments.models import Tournament


@pytest.mark.django_db
def test_demo_builds_and_rebuilds() -> None:
    call_command("demo", players=13, series=2, verbosity=0)
    tournament = Tournament.objects.get(slug="demo")
    assert list(tournament.series.values_list("status", flat=True)) == ["closed", "running"]
    # The demo's own tournament; the demo league's groups are tournaments of their own.
    sheets = ScoreSheet.objects.filter(table__series__tournament=tournament)
    assert sheets.filter(status="confirmed").count() == 3  # 2 fours, 1 five
    assert (
        Game.objects.filter(series__tournament=tournament, series__number=1).count() == 24 + 24 + 30
    )
    call_command("demo", players=13, series=2, verbosity=0)  # recreates
    assert Tournament.objects.filter(slug="demo").count() == 1
    call_command("demo", if_missing=True, verbosity=0)  # keeps
    assert Tournament.objects.get(slug="demo").registrations.count() == 13


@pytest.mark.django_db
def test_demo_refuses_impossible_player_count() -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="11"):
        call_command("demo", players=11, series=1, verbosity=0)
