"""The demo's team competition: a small league of eight teams whose three match days are
played through, then its knockout started and round 1 played, so that ``make run`` shows a
final league table with its season-end marks, team pages (one a Spielgemeinschaft), group
days and a bracket with round 1's results, who advances and the open final.

Built when the demo tournament is (``scoring.demo.demo_built``), with the same game
generator and the same services as every league: the teams draw each group's series from
the line-ups, the captains' service enters the games, the series are closed.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from common.actors import ORGANIZER, Actor
from scoring.demo import close_played, play_table
from teams.bracket import knockout_bracket
from teams.knockout_services import (
    KnockoutSettings,
    advance_knockout,
    decide_tie,
    start_knockout,
)
from teams.models import GROUP_STAGE, League, MatchDay
from teams.services import (
    LeagueData,
    add_squad_member,
    add_team,
    change_group,
    create_league,
    draw_team_series,
    make_match_days,
    set_line_up,
)
from tournaments.models import Player, Tournament
from tournaments.services.lifecycle import start_series

DEMO_LEAGUE = "demo-liga"
#: Eight teams of four or five; in a team of five one player rests, another each time.
#: Dullen Düren is a Spielgemeinschaft (SG) of two clubs: ``PARTNER_CLUBS``.
TEAMS = (
    ("Füchse Fulda", "DK Fulda", 5),
    ("Kreuzbuben Kassel", "Doko-Club Kassel", 4),
    ("Herz-Damen Hanau", "Doko Hanau", 5),
    ("Karo-Asse Köln", "DKC Köln", 4),
    ("Pik-Könige Paderborn", "Doko Paderborn", 4),
    ("Dullen Düren", "DC Düren", 5),
    ("Schweinchen Siegen", "Doko Siegen", 4),
    ("Trumpf Trier", "DK Trier", 4),
)
FIRST_NAMES = (
    "Anna", "Bernd", "Carla", "Dieter", "Elke", "Frank", "Gisela", "Heinz", "Ingrid", "Jürgen",
    "Karin", "Lothar", "Monika", "Norbert", "Olga", "Peter", "Renate", "Stefan", "Tanja", "Uwe",
)  # fmt: skip
LAST_NAMES = (
    "Albers", "Brandt", "Cordes", "Dorn", "Ebert", "Fuchs", "Gerlach", "Hahn", "Imhof", "Jansen",
    "Kuhn", "Lorenz", "Meier", "Nolte", "Otto", "Pohl", "Quast", "Roth", "Sauer", "Thiel",
)  # fmt: skip
#: Series per match day in the demo: one, so that the demo still builds in a few seconds
#: (every game goes through the entry service); the squads of five rotate between the days.
DEMO_SERIES_PER_DAY = 1
DEMO_DAYS = 3
#: The knockout: matches of four, two advance, seeded by the final table (a fixed draw
#: for places shared); round 1 is played, the final is made and left open.
DEMO_KNOCKOUT = KnockoutSettings(match_size=4, advance=2, seed=2026)
VENUES = ("Bürgerhaus", "Vereinsheim")
PARTNER_CLUBS = {"Dullen Düren": "Doko Aachen"}


def build_demo_league(organizer: Any, seed: int = 2026) -> League:
    """(Re)create the league ``demo-liga`` of ``organizer``: eight teams, three match days
    made and played (line-ups, team draw, every game entered, series closed), the knockout
    started, round 1 played the same way and the final made."""
    rng = random.Random(seed)
    old = League.objects.filter(slug=DEMO_LEAGUE).first()
    if old is not None:
        groups = list(Tournament.objects.filter(team_group__match_day__league=old))
        old.delete()
        for tournament in groups:
            tournament.delete()
    actor = Actor(ORGANIZER, user=organizer)
    league = create_league(
        LeagueData(
            name="Demo-Liga",
            slug=DEMO_LEAGUE,
            series_per_day=DEMO_SERIES_PER_DAY,
            days=DEMO_DAYS,
            # The season's end: two up, one play-off place, two down (marked in the table).
            promotion_places=2,
            playoff_places=1,
            relegation_places=2,
            description="Acht Mannschaften, Gruppen zu viert, Siegpunkte 4/3/2/1.",
        ),
        actor=actor,
    )
    names = [(first, last) for last in LAST_NAMES for first in FIRST_NAMES]
    rng.shuffle(names)
    squads = []
    for name, club, size in TEAMS:
        team = add_team(
            league, name, club=club, partner_club=PARTNER_CLUBS.get(name, ""), actor=actor
        )
        members = []
        for _ in range(size):
            first, last = names.pop()
            player = Player.objects.filter(
                registry_club_id=league.club_id, first_name=first, last_name=last
            ).order_by("pk").first() or Player.objects.create(
                registry_club_id=league.club_id, owner=organizer, first_name=first,
                last_name=last, club=club,
            )  # fmt: skip
            add_squad_member(team, player, actor=actor)
            members.append(player)
        squads.append((team, members))
    start = datetime.date(2026, 3, 7)
    make_match_days(
        league,
        actor=actor,
        dates=[start + datetime.timedelta(weeks=4 * d) for d in range(DEMO_DAYS)],
    )
    for match_day in league.match_days.filter(GROUP_STAGE).order_by("number"):
        for group in match_day.groups.order_by("number"):
            change_group(group, venue=VENUES[(group.number - 1) % len(VENUES)], actor=actor)
        for group in match_day.groups.select_related("tournament").order_by("number"):
            _play_group(group, squads, actor, rng)
    start_knockout(league, DEMO_KNOCKOUT, actor=actor)
    round_1 = league.match_days.get(stage=MatchDay.Stage.KNOCKOUT, knockout_round=1)
    for group in round_1.groups.select_related("tournament").order_by("number"):
        _play_group(group, squads, actor, rng)
    decide_ties_by_seed(league, actor)
    advance_knockout(league, actor=actor)  # the final, left to play
    return league


def decide_ties_by_seed(league: League, actor: Actor) -> None:
    """Should a match of the current round end with teams sharing a place across the cut
    (the demo's games are drawn anew each time it is built), the league decides as its rule
    says; the demo's: the better seed goes on."""
    bracket = knockout_bracket(league)
    current = bracket.current if bracket else None
    for match in current.matches if current else ():
        if match.tie_at_cut and match.group is not None:
            tied = sorted((line for line in match.lines if line.tied), key=lambda line: line.seed)
            decide_tie(match.group, [line.team.pk for line in tied], actor=actor)


def _play_group(group: Any, squads: list[Any], actor: Actor, rng: random.Random) -> None:
    in_group = set(group.group_teams.values_list("team_id", flat=True))
    tournament = group.tournament
    for number in range(1, tournament.series_count + 1):
        for team, members in squads:
            if team.pk not in in_group:
                continue
            # A team of five rests its last player on odd turns, its first on even ones.
            turn = group.match_day.number + number
            chosen = members[:4] if turn % 2 == 0 else members[-4:]
            set_line_up(group, team, number, chosen, actor=actor)
        series = tournament.series.get(number=number)
        draw_team_series(series)
        current = start_series(series)
        for table in current.tables.order_by("number"):
            play_table(table, rng)
        close_played(current)


def league_in_demo(sender: Any, tournament: Tournament, **kwargs: Any) -> None:
    """The demo league of the demo tournament's organizer."""
    organizer = tournament.organizers.order_by("pk").first()
    if organizer is not None:
        build_demo_league(organizer)
