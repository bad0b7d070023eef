"""Seasons: public ones for everybody, private ones for their owner; created by any logged-in
user, who owns it; changed, and its tournaments attached, by the owner."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import ApiMixin, ApiView, validated
from common.api.errors import ApiError, raise_service_error
from common.api.schema import errors
from common.services import ServiceError
from scoring.services import Actor, Door
from seasons.api.serializers import (
    AttachSerializer,
    RankingSerializer,
    SeasonSerializer,
    TournamentInfoSerializer,
)
from seasons.models import Season
from seasons.permissions import attachable_tournaments, can_manage, visible_seasons
from seasons.services import (
    SeasonData,
    attach_tournament,
    change_season,
    create_season,
    detach_tournament,
)
from seasons.standings import SeasonLine, SeasonRanking, season_ranking

SEASON = OpenApiParameter("season", str, OpenApiParameter.PATH, description="Season.")
TOURNAMENT = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="Tournament.")
CLUB = OpenApiParameter("club", str, OpenApiParameter.QUERY, description="Only this club.")


def _season(request: Request, slug: str) -> Season:
    season = visible_seasons(request.user).select_related("owner").filter(slug=slug).first()
    if season is None:
        raise Http404
    return season


def _owned(request: Request, slug: str) -> Season:
    season = _season(request, slug)
    if not request.user.is_authenticated:
        raise exceptions.NotAuthenticated()
    if not can_manage(request.user, season):
        raise ApiError(403, "not_season_owner", _("Only the season's owner may change it."))
    return season


def _actor(request: Request) -> Actor:
    return Actor(Door.API, user=request.user)


def _data(validated_data: dict[str, Any], season: Season | None = None) -> SeasonData:
    def pick(key: str, default: Any) -> Any:
        if key in validated_data:
            return validated_data[key]
        return getattr(season, key) if season is not None else default

    return SeasonData(
        name=pick("name", ""),
        slug=pick("slug", ""),
        preset=pick("preset", "ddv_rangliste"),
        rule_overrides=pick("rule_overrides", {}),
        reference_date=pick("reference_date", None),
        is_public=pick("is_public", True),
        description=pick("description", ""),
    )


def _call(service: Any) -> Any:
    try:
        return service()
    except ServiceError as exc:
        raise_service_error(exc)


class SeasonListView(ApiMixin, GenericAPIView[Season]):
    serializer_class = SeasonSerializer

    @extend_schema(
        summary="Public seasons and the requester's own", responses=SeasonSerializer(many=True)
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        seasons = (
            visible_seasons(request.user)
            .select_related("owner")
            .prefetch_related("tournaments")
            .order_by("name", "pk")
        )
        page = self.paginate_queryset(seasons)
        assert page is not None  # ApiMixin sets a pagination class
        return self.get_paginated_response(SeasonSerializer(page, many=True).data)

    @extend_schema(
        summary="Create a season (the requester owns it)",
        request=SeasonSerializer,
        responses={201: SeasonSerializer, **errors(400, 401)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        data = validated(SeasonSerializer, request.data)
        season = _call(lambda: create_season(_data(data), actor=_actor(request)))
        return Response(SeasonSerializer(season).data, status=201)


class SeasonDetailView(ApiView):
    pagination_class = None

    @extend_schema(
        summary="One season", parameters=[SEASON], responses={200: SeasonSerializer, **errors(404)}
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(SeasonSerializer(_season(request, kwargs["season"])).data)

    @extend_schema(
        summary="Change a season (its owner)",
        parameters=[SEASON],
        request=SeasonSerializer,
        responses={200: SeasonSerializer, **errors(400, 401, 403, 404)},
    )
    def put(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._change(request, kwargs["season"], partial=False)

    @extend_schema(
        summary="Change some settings of a season (its owner)",
        parameters=[SEASON],
        request=SeasonSerializer,
        responses={200: SeasonSerializer, **errors(400, 401, 403, 404)},
    )
    def patch(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._change(request, kwargs["season"], partial=True)

    def _change(self, request: Request, slug: str, *, partial: bool) -> Response:
        season = _owned(request, slug)
        data = validated(SeasonSerializer, request.data, instance=season, partial=partial)
        if not partial:
            data.setdefault("slug", season.slug)
        changed = _call(lambda: change_season(season, _data(data, season), actor=_actor(request)))
        return Response(SeasonSerializer(changed).data)


def _line(line: SeasonLine) -> dict[str, Any]:
    return {
        "place": line.place,
        "shared": line.shared,
        "player": line.player,
        "name": line.name,
        "club": line.club,
        "value": str(line.value),
        "series": line.series,
        "total": line.total,
        "tournaments": line.tournaments,
        "missing_series": line.missing_series,
        "results": [
            {
                "tournament": r.tournament.slug,
                "held_on": r.tournament.starts_on,
                "series_points": list(r.series_points),
                "points": r.points,
                "place": r.place,
                "score": r.score,
                "why": r.why,
            }
            for r in line.results
        ],
    }


def ranking_json(ranking: SeasonRanking) -> dict[str, Any]:
    return {
        "season": ranking.season.slug,
        "preset": ranking.season.preset,
        "basis": str(ranking.rule.basis),
        "reference_date": ranking.reference,
        "window_opens": ranking.window_opens,
        "club": ranking.club,
        "tournaments": [vars(t) for t in ranking.tournaments],
        "ranked": [_line(ln) for ln in ranking.ranked],
        "unranked": [_line(ln) for ln in ranking.unranked],
    }


class SeasonRankingView(ApiView):
    pagination_class = None

    @extend_schema(
        summary="A season's ranking, each line with its results and whether they count",
        parameters=[SEASON, CLUB],
        responses={200: RankingSerializer, **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        season = _season(request, kwargs["season"])
        club = request.query_params.get("club") or None
        if club is not None and len(club) > 120:
            club = None
        ranking = season_ranking(season, club=club, places=True)
        data = RankingSerializer(ranking_json(ranking)).data
        return Response(data)


class SeasonTournamentsView(ApiView):
    pagination_class = None

    @extend_schema(
        summary="The tournaments of a season",
        parameters=[SEASON],
        responses={200: TournamentInfoSerializer(many=True), **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        ranking = season_ranking(_season(request, kwargs["season"]))
        return Response(TournamentInfoSerializer(ranking.tournaments, many=True).data)

    @extend_schema(
        summary="Attach one of the owner's tournaments",
        parameters=[SEASON],
        request=AttachSerializer,
        responses={
            200: SeasonSerializer,
            201: SeasonSerializer,
            **errors(400, 401, 403, 404),
        },
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        season = _owned(request, kwargs["season"])
        slug = validated(AttachSerializer, request.data)["tournament"]
        tournament = attachable_tournaments(season).filter(slug=slug).first()
        if tournament is None:
            raise ApiError(
                403,
                "not_own_tournament",
                _("Only tournaments the season's owner organizes can be added."),
                field="tournament",
            )
        created = _call(lambda: attach_tournament(season, tournament, actor=_actor(request)))
        return Response(SeasonSerializer(season).data, status=201 if created else 200)


class SeasonTournamentView(ApiView):
    pagination_class = None

    @extend_schema(
        summary="Detach a tournament from a season",
        parameters=[SEASON, TOURNAMENT],
        responses={204: None, **errors(401, 403, 404)},
    )
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        season = _owned(request, kwargs["season"])
        tournament = season.tournaments.filter(slug=kwargs["slug"]).first()
        if tournament is None:
            raise Http404
        _call(lambda: detach_tournament(season, tournament, actor=_actor(request)))
        return Response(status=204)
