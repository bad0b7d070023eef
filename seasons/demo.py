"""The demo's season: the demo tournament in a ranking list, so that ``make run`` shows one;
the tournament is marked a DDV ranking tournament, so its report page shows too."""

from __future__ import annotations

from typing import Any

from common.actors import ORGANIZER, Actor
from seasons.ddv.setting import DdvDetails, save_ddv_details
from seasons.models import Season
from seasons.services import SeasonData, attach_tournament, create_season
from tournaments.models import Tournament

DEMO_SEASON = "demo-rangliste"
#: The names the demo's DDV report carries.
DEMO_DIRECTOR = "Hanna Vogt"
DEMO_REFEREE_NAME = "Klaus Reuter"


def season_in_demo(sender: Any, tournament: Tournament, **kwargs: Any) -> None:
    """(Re)create the season ``demo-rangliste`` of the demo organizer with the demo
    tournament: the DDV rule with a minimum of three series, so that players who missed a
    series are listed apart."""
    organizer = tournament.organizers.order_by("pk").first()
    if organizer is None:
        return
    Season.objects.filter(slug=DEMO_SEASON).delete()
    actor = Actor(ORGANIZER, user=organizer)
    season = create_season(
        SeasonData(
            name="Demo-Rangliste",
            slug=DEMO_SEASON,
            preset="ddv_rangliste",
            rule_overrides={"min_series": min(3, tournament.series_count)},
        ),
        actor=actor,
    )
    attach_tournament(season, tournament, actor=actor)
    # A DDV ranking tournament: its report page lists what it still lacks (the running series).
    save_ddv_details(
        tournament,
        DdvDetails(ddv_ranking=True, director=DEMO_DIRECTOR, referee=DEMO_REFEREE_NAME),
        actor=actor,
    )
