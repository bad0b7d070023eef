"""Team competitions: public ones for everybody, private ones for their owner; created by
any logged-in user, who owns it; its teams, squads and line-ups changed by the owner."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.db import transaction
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from common.actors import API, Actor
from common.api.base import ApiMixin, ApiView, validated
from common.api.errors import ApiError, raise_service_error
from common.api.ownership import kept, seen
from common.api.schema import errors
from common.services import ServiceError
from teams.api.serializers import (
    IndividualRankingSerializer,
    LeagueSerializer,
    LeagueTableSerializer,
    LineUpInputSerializer,
    LineUpSerializer,
    TeamClubsSerializer,
    TeamCreateSerializer,
    TeamDetailSerializer,
    TeamSerializer,
)
from teams.individual import TIEBREAK
from teams.individual_standings import RankingLine, individual_ranking
from teams.models import Group, League, LineUp, SquadMember, Team
from teams.permissions import LEAGUES, visible_leagues
from teams.season_end import Mark, Zone
from teams.services import (
    LeagueData,
    add_squad_member,
    add_team,
    change_league,
    change_team_clubs,
    create_league,
    set_line_up,
)
from teams.standings import GroupResult, TeamDayLine, league_table, team_page
from tournaments.models import Player, absolute_url
from tournaments.names import by_name
from tournaments.publication import shown_name

LEAGUE = OpenApiParameter("league", str, OpenApiParameter.PATH, description="League.")
TEAM = OpenApiParameter("team", int, OpenApiParameter.PATH, description="Team id.")
GROUP = OpenApiParameter("group", int, OpenApiParameter.PATH, description="Group id.")


def _league(request: Request, slug: str) -> League:
    return seen(request, LEAGUES, slug, League.objects.select_related("owner", "club"))


def _owned(request: Request, slug: str) -> League:
    return kept(
        request,
        LEAGUES,
        slug,
        "not_league_owner",
        _("Only the team competition's owner may change it."),
        League.objects.select_related("owner", "club"),
    )


def _actor(request: Request) -> Actor:
    return Actor(API, user=request.user)


def _call(service: Any) -> Any:
    try:
        return service()
    except ServiceError as exc:
        raise_service_error(exc)


def _points(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def _player(player: Player) -> dict[str, Any]:
    name = shown_name(player.first_name, player.last_name, player.name_form)
    return {"id": player.pk, "name": name, "club": player.club}


def _team(team: Team, squad: list[Player], *, keeper: bool = False) -> dict[str, Any]:
    """A team; its captain's link for the league's keepers only (``keeper``)."""
    return {
        "id": team.pk,
        "name": team.name,
        "club": team.club,
        "partner_club": team.partner_club,
        "club_label": team.club_label,
        "position": team.position,
        "squad": [_player(p) for p in squad],
        "captain_token": team.captain_token if keeper else None,
        "captain_url": absolute_url(reverse("teams:captain", args=[team.captain_token]))
        if keeper
        else None,
    }


def _keeper(request: Request, league: League) -> bool:
    return LEAGUES.may_keep(request.user, league)


def team_answer(request: Request, league: League, team: Team) -> dict[str, Any]:
    """A team as the API shows it, with its squad as it is now."""
    return _team(team, _squads(league).get(team.pk, []), keeper=_keeper(request, league))


def _day_line(line: TeamDayLine) -> dict[str, Any]:
    return {
        "team": line.team.pk,
        "name": line.team.name,
        "series_points": list(line.series_points),
        "points": line.points,
        "place": line.place,
        "shared": line.shared,
        "victory_points": _points(line.victory_points),
    }


def _mark(mark: Mark | None) -> dict[str, Any]:
    """A table line's season-end mark: its zone, "undecided" (with the zones it spans), or
    null for no mark."""
    if mark is None or mark.zone == Zone.STAY:
        return {"mark": None, "mark_between": []}
    if mark.zone is None:
        return {"mark": "undecided", "mark_between": [str(zone) for zone in mark.between]}
    return {"mark": str(mark.zone), "mark_between": []}


def _group(result: GroupResult) -> dict[str, Any]:
    group = result.group
    return {
        "id": group.pk,
        "match_day": group.match_day.number,
        "number": group.number,
        "date": group.match_day.date,
        "venue": group.venue,
        "tournament": group.tournament.slug,
        "played": result.played,
        "final": result.final,
        "lines": [_day_line(line) for line in result.lines],
    }


def _squads(league: League) -> dict[int, list[Player]]:
    found: dict[int, list[Player]] = {}
    for member in by_name(
        SquadMember.objects.filter(league=league).select_related("player").order_by("pk"),
        lambda m: m.player,
    ):
        found.setdefault(member.team_id, []).append(member.player)
    return found


class LeagueListView(ApiMixin, GenericAPIView[League]):
    serializer_class = LeagueSerializer

    @extend_schema(
        summary="Public team competitions and the requester's own",
        responses=LeagueSerializer(many=True),
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        leagues = (
            visible_leagues(request.user).select_related("owner", "club").order_by("name", "pk")
        )
        page = self.paginate_queryset(leagues)
        assert page is not None  # ApiMixin sets a pagination class
        return self.get_paginated_response(LeagueSerializer(page, many=True).data)

    @extend_schema(
        summary="Create a team competition (the requester owns it)",
        request=LeagueSerializer,
        responses={201: LeagueSerializer, **errors(400, 401)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        data = validated(LeagueSerializer, request.data, context={"request": request})
        fields = {k: v for k, v in data.items() if k in LeagueData.__dataclass_fields__}
        league = _call(
            lambda: create_league(
                LeagueData(**fields), actor=_actor(request), club=data.get("club")
            )
        )
        return Response(LeagueSerializer(league).data, status=201)


class LeagueDetailView(ApiView):
    pagination_class = None

    @extend_schema(
        summary="One team competition",
        parameters=[LEAGUE],
        responses={200: LeagueSerializer, **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(LeagueSerializer(_league(request, kwargs["league"])).data)

    @extend_schema(
        summary="Change a team competition (its owner)",
        parameters=[LEAGUE],
        request=LeagueSerializer,
        responses={200: LeagueSerializer, **errors(400, 401, 403, 404)},
    )
    def put(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._change(request, kwargs["league"], partial=False)

    @extend_schema(
        summary="Change some settings of a team competition (its owner)",
        parameters=[LEAGUE],
        request=LeagueSerializer,
        responses={200: LeagueSerializer, **errors(400, 401, 403, 404)},
    )
    def patch(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._change(request, kwargs["league"], partial=True)

    def _change(self, request: Request, slug: str, *, partial: bool) -> Response:
        league = _owned(request, slug)
        data = validated(
            LeagueSerializer, request.data, instance=league, partial=partial,
            context={"request": request},
        )  # fmt: skip
        # What the body leaves out stays as it is (as a season's change).
        fields = {
            key: data[key] if key in data else getattr(league, key)
            for key in LeagueData.__dataclass_fields__
        }
        changed = _call(lambda: change_league(league, LeagueData(**fields), actor=_actor(request)))
        return Response(LeagueSerializer(changed).data)


class LeagueTableView(ApiView):
    pagination_class = None

    @extend_schema(
        summary="The table (victory points, game points), the individual ranking, every group",
        parameters=[LEAGUE],
        responses={200: LeagueTableSerializer, **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _league(request, kwargs["league"])
        table = league_table(league)
        end = table.season_end
        data = {
            "league": table.league.slug,
            "season_end": {
                "promotion_places": league.promotion_places,
                "relegation_places": league.relegation_places,
                "playoff_places": league.playoff_places,
                "final": end.final,
                "undecided": end.undecided,
                "problem": end.problem,
            }
            if end is not None
            else None,
            "teams": [
                {
                    "place": line.place,
                    "shared": line.shared,
                    "team": line.team.pk,
                    "name": line.team.name,
                    "club_label": line.team.club_label,
                    "victory_points": _points(line.victory_points),
                    "points": line.points,
                    "day_wins": line.day_wins,
                    "days": len(line.days),
                    **_mark(line.mark),
                }
                for line in table.teams
            ],
            "players": [_player_line(line) for line in individual_ranking(league).lines],
            "groups": [_group(result) for result in table.groups],
        }
        return Response(LeagueTableSerializer(data).data)


def _player_line(line: RankingLine) -> dict[str, Any]:
    """A player's line of the individual ranking, as the league table shows it."""
    figures, player = line.figures, line.player
    return {
        "place": figures.place,
        "shared": figures.shared,
        "player": player.pk,
        "name": shown_name(player.first_name, player.last_name, player.name_form),
        "team": line.team.pk,
        "points": figures.total,
        "series": figures.series,
        "open_series": figures.open_series,
    }


class IndividualRankingView(ApiView):
    pagination_class = None

    @extend_schema(
        summary="The individual ranking over every series of every group (all rounds)",
        parameters=[LEAGUE],
        responses={200: IndividualRankingSerializer, **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        ranking = individual_ranking(_league(request, kwargs["league"]))
        data = {
            "league": ranking.league.slug,
            "order": ["total", *TIEBREAK],
            "provisional": ranking.provisional,
            "series_counted": ranking.series_counted,
            "players": [
                {
                    **_player_line(line),
                    "team_name": line.team.name,
                    "average": line.average if line.figures.series else None,
                    "best_series": line.figures.best_series,
                    "last_series": line.figures.last_series,
                    "games": line.figures.games,
                    "solos": line.figures.solos,
                    "solos_won": line.figures.solos_won,
                    "open_points": line.figures.open_points,
                }
                for line in ranking.lines
            ],
        }
        return Response(IndividualRankingSerializer(data).data)


class TeamListView(ApiView):
    pagination_class = None

    @extend_schema(
        summary="The teams of a team competition with their squads",
        parameters=[LEAGUE],
        responses={200: TeamSerializer(many=True), **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _league(request, kwargs["league"])
        squads = _squads(league)
        keeper = _keeper(request, league)
        teams = league.teams.order_by("position")
        return Response([_team(team, squads.get(team.pk, []), keeper=keeper) for team in teams])

    @extend_schema(
        summary="Add a team (and its squad from the registry of the league's club)",
        parameters=[LEAGUE],
        request=TeamCreateSerializer,
        responses={201: TeamSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _owned(request, kwargs["league"])
        data = validated(TeamCreateSerializer, request.data)
        actor = _actor(request)

        def create() -> Team:
            with transaction.atomic():
                team = add_team(
                    league,
                    data["name"],
                    club=data["club"],
                    partner_club=data["partner_club"],
                    actor=actor,
                )
                for pk in data["players"]:
                    add_squad_member(team, pk, actor=actor)
                return team

        team = _call(create)
        return Response(team_answer(request, league, team), status=201)


class TeamDetailView(ApiView):
    pagination_class = None

    @extend_schema(
        summary="A team: squad, and per match day its line-ups (with substitutions) and result",
        parameters=[LEAGUE, TEAM],
        responses={200: TeamDetailSerializer, **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _league(request, kwargs["league"])
        team = Team.objects.filter(league=league, pk=kwargs["team"]).first()
        if team is None:
            raise Http404
        page = team_page(team)
        days = []
        for day in page.days:
            changes = {change.series_number: change for change in day.substitutions}
            days.append(
                {
                    "match_day": day.match_day.number,
                    "group": day.group.pk,
                    "date": day.match_day.date,
                    "venue": day.group.venue,
                    "played": day.played,
                    "final": day.final,
                    "line_ups": [
                        {
                            "series": line_up.series_number,
                            "players": [_player(p) for p in line_up.players],
                            "came_in": [
                                p.pk
                                for p in getattr(changes.get(line_up.series_number), "came_in", ())
                            ],
                            "went_out": [
                                p.pk
                                for p in getattr(changes.get(line_up.series_number), "went_out", ())
                            ],
                        }
                        for line_up in day.line_ups
                    ],
                    "result": _day_line(day.result) if day.result and day.played else None,
                }
            )
        keeper = _keeper(request, league)
        return Response({**_team(team, list(page.squad), keeper=keeper), "days": days})

    @extend_schema(
        summary="Change a team's club or name the second club of an SG (the owner)",
        parameters=[LEAGUE, TEAM],
        request=TeamClubsSerializer,
        responses={200: TeamSerializer, **errors(400, 401, 403, 404)},
    )
    def patch(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _owned(request, kwargs["league"])
        team = Team.objects.filter(league=league, pk=kwargs["team"]).first()
        if team is None:
            raise Http404
        data = validated(TeamClubsSerializer, request.data)
        changed = _call(
            lambda: change_team_clubs(
                team,
                club=data.get("club", team.club),
                partner_club=data.get("partner_club", team.partner_club),
                actor=_actor(request),
            )
        )
        return Response(team_answer(request, league, changed))


class LineUpView(ApiView):
    pagination_class = None

    def _group(self, league: League, pk: int) -> Group:
        group = (
            Group.objects.filter(pk=pk, match_day__league=league)
            .select_related("tournament")
            .first()
        )
        if group is None:
            raise Http404
        return group

    @extend_schema(
        summary="A group's line-ups, per series and team",
        parameters=[LEAGUE, GROUP],
        responses={200: LineUpSerializer(many=True), **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        group = self._group(_league(request, kwargs["league"]), kwargs["group"])
        found: dict[tuple[int, int], list[int]] = {}
        for line in LineUp.objects.filter(group=group).order_by("series_number", "team", "order"):
            found.setdefault((line.series_number, line.team_id), []).append(line.player_id)
        return Response(
            [
                {"series": series, "team": team, "players": players}
                for (series, team), players in found.items()
            ]
        )

    @extend_schema(
        summary="Name who plays a series for a team (the owner; before the series is drawn)",
        parameters=[LEAGUE, GROUP],
        request=LineUpInputSerializer,
        responses={200: LineUpSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _owned(request, kwargs["league"])
        group = self._group(league, kwargs["group"])
        data = validated(LineUpInputSerializer, request.data)
        team = group.teams.filter(pk=data["team"]).first()
        if team is None:
            raise ApiError(
                400, "team_not_in_group", _("This team does not play in the group."), field="team"
            )
        lines = _call(
            lambda: set_line_up(group, team, data["series"], data["players"], actor=_actor(request))
        )
        return Response(
            {
                "series": data["series"],
                "team": team.pk,
                "players": [line.player_id for line in lines],
            }
        )
