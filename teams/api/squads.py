"""A team's squad, changed by the league's keepers as on the teams page: a player of the
club's registry (found by ``candidates/``), a player new to the registry, a pasted list of
players (all or nothing), a player taken out again. Each answers the team with its squad."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import ApiView, validated
from common.api.errors import ApiError
from common.api.schema import errors
from teams.api.serializers import (
    CandidateSerializer,
    NewPlayerSerializer,
    SquadListSerializer,
    SquadPlayerSerializer,
    TeamSerializer,
)
from teams.api.views import LEAGUE, TEAM, _actor, _call, _owned, team_answer
from teams.models import League, Team
from teams.services import add_squad_member, remove_squad_member
from teams.squads import SEARCH_MAX_LENGTH, add_new_player, add_squad_list, search_candidates

QUERY = OpenApiParameter(
    "q",
    str,
    OpenApiParameter.QUERY,
    description="Words of the name or club (every word must match); empty: nobody.",
)


def _team(league: League, pk: int) -> Team:
    team = Team.objects.filter(league=league, pk=pk).first()
    if team is None:
        raise Http404
    return team


class CandidatesView(ApiView):
    pagination_class = None

    @extend_schema(
        summary="Players of the league's club's registry a squad may take (the keepers' search)",
        parameters=[LEAGUE, QUERY],
        responses={200: CandidateSerializer(many=True), **errors(401, 403, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _owned(request, kwargs["league"])
        query = str(request.query_params.get("q", ""))[:SEARCH_MAX_LENGTH].strip()
        found = search_candidates(league, query) if query else []
        return Response(
            [
                {"id": p.pk, "first_name": p.first_name, "last_name": p.last_name, "club": p.club}
                for p in found
            ]
        )


class _SquadChange(ApiView):
    pagination_class = None

    def _answer(self, request: Request, league: League, team: Team, status: int) -> Response:
        return Response(team_answer(request, league, team), status=status)


class SquadAddView(_SquadChange):
    @extend_schema(
        summary="Put a player of the registry of the league's club into a team's squad",
        parameters=[LEAGUE, TEAM],
        request=SquadPlayerSerializer,
        responses={201: TeamSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _owned(request, kwargs["league"])
        team = _team(league, kwargs["team"])
        data = validated(SquadPlayerSerializer, request.data)
        _call(lambda: add_squad_member(team, data["player"], actor=_actor(request)))
        return self._answer(request, league, team, 201)


class SquadNewPlayerView(_SquadChange):
    @extend_schema(
        summary="A player new to the registry of the league's club, straight into a team's squad",
        parameters=[LEAGUE, TEAM],
        request=NewPlayerSerializer,
        responses={201: TeamSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _owned(request, kwargs["league"])
        team = _team(league, kwargs["team"])
        data = validated(NewPlayerSerializer, request.data)
        _call(lambda: add_new_player(team, **data, actor=_actor(request)))
        return self._answer(request, league, team, 201)


class SquadListView(_SquadChange):
    @extend_schema(
        summary="A pasted list of players into a team's squad, all or nothing",
        description="Refused with `squad_list_invalid` (`field: players`) and `lines`: per "
        "line number the reason that line cannot be taken (`0`: the whole list).",
        parameters=[LEAGUE, TEAM],
        request=SquadListSerializer,
        responses={201: TeamSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _owned(request, kwargs["league"])
        team = _team(league, kwargs["team"])
        data = validated(SquadListSerializer, request.data)
        _call(lambda: add_squad_list(team, data["players"], actor=_actor(request)))
        return self._answer(request, league, team, 201)


class SquadRemoveView(_SquadChange):
    @extend_schema(
        summary="Take a player out of a team's squad (not once he is in a line-up)",
        parameters=[LEAGUE, TEAM],
        request=SquadPlayerSerializer,
        responses={200: TeamSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _owned(request, kwargs["league"])
        team = _team(league, kwargs["team"])
        data = validated(SquadPlayerSerializer, request.data)
        member = team.squad.filter(player_id=data["player"]).first()
        if member is None:
            raise ApiError(404, "player_not_found", _("Player not found."), field="player")
        _call(lambda: remove_squad_member(member, actor=_actor(request)))
        return self._answer(request, league, team, 200)
