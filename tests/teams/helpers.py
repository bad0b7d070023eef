"""Team competitions' test world: a league of the organizer Alice with teams of players from
her registry, line-ups, and games entered at the drawn tables through the entry service."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.contrib.auth.models import User

from clubs.services import personal_club
from common.actors import ORGANIZER, Actor
from teams.models import Group, League, Team
from teams.services import LeagueData, add_squad_member, add_team, create_league, set_line_up
from tests.factories import play, set_status
from tournaments.models import Player, Seat, Series, Table


def organizer(user: User) -> Actor:
    return Actor(ORGANIZER, user=user)


def league_with_teams(
    owner: User,
    teams: int,
    *,
    squad: int = 4,
    name: str = "Liga",
    **settings: object,
) -> tuple[League, list[Team], list[list[Player]]]:
    """A league with ``teams`` teams "T0", "T1", … of ``squad`` players each ("T1 P2" is
    player 2 of team 1)."""
    actor = organizer(owner)
    league = create_league(LeagueData(name=name, **settings), actor=actor)  # type: ignore[arg-type]
    made: list[Team] = []
    players: list[list[Player]] = []
    for t in range(teams):
        team = add_team(league, f"T{t}", club=f"Club {t}", actor=actor)
        members = []
        for p in range(squad):
            player = Player.objects.create(
                owner=owner,
                registry_club=personal_club(owner),
                first_name=f"T{t}",
                last_name=f"P{p}",
            )
            add_squad_member(team, player, actor=actor)
            members.append(player)
        made.append(team)
        players.append(members)
    return league, made, players


def line_up_all(
    group: Group,
    teams: Sequence[Team],
    players: Sequence[Sequence[Player]],
    series_number: int,
    owner: User,
    size: int = 4,
) -> None:
    """Every team of ``group`` names its first ``size`` players for the series."""
    in_group = set(group.group_teams.values_list("team_id", flat=True))
    for team, members in zip(teams, players, strict=True):
        if team.pk in in_group:
            set_line_up(group, team, series_number, members[:size], actor=organizer(owner))


def team_of_seat(table: Table, teams: Sequence[Team]) -> dict[int, int]:
    """Seat position → index of the player's team in ``teams``."""
    by_player = {
        player_id: index
        for index, team in enumerate(teams)
        for player_id in team.squad.values_list("player_id", flat=True)
    }
    return {
        seat.position: by_player[seat.registration.player_id]
        for seat in Seat.objects.filter(table=table).select_related("registration")
    }


def tables_of(series: Series) -> list[Table]:
    return list(Table.objects.filter(series=series).order_by("number"))


def play_re(series: Series, teams: Sequence[Team], re_teams: Iterable[tuple[int, int]]) -> None:
    """Series running; at table k one normal game (no announcements, Re wins with 130: one
    point, +1 each for Re, -1 each for Kontra) in which the players of the k-th pair of
    teams of ``re_teams`` are Re; then the series is closed."""
    set_status(series, Series.Status.RUNNING)
    for table, (a, b) in zip(tables_of(series), re_teams, strict=True):
        seats = team_of_seat(table, teams)
        re = sorted(position for position, team in seats.items() if team in (a, b))
        play(table, [{"contract": "normal", "re": re, "re_points": 130}])
    set_status(series, Series.Status.CLOSED)


def finish_day(group: Group) -> None:
    """Every series of the group's tournament closed: its day counts in the league."""
    Series.objects.filter(tournament_id=group.tournament_id).update(status=Series.Status.CLOSED)
