"""Seasons: public ones for everybody, private ones for their owner; created by any logged-in
user, who owns it; changed, and its tournaments attached, by the owner."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from django.http import Http404
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
from common.api.pagination import BoundedLimitOffsetPagination
from common.api.schema import errors
from common.services import ServiceError
from seasons.api.serializers import (
    AttachSerializer,
    LineSerializer,
    RankingSerializer,
    SeasonSerializer,
    TournamentInfoSerializer,
)
from seasons.entries import stored_once
from seasons.models import Season
from seasons.permissions import SEASONS, attachable_tournaments, visible_seasons
from seasons.services import (
    SeasonData,
    attach_tournament,
    change_season,
    create_season,
    detach_tournament,
)
from seasons.standings import SeasonLine, line_as_seen_by, player_explanation
from seasons.stored import PAGE_SIZE, ListedLine, season_tournaments, stored_ranking
from tournaments.permissions import visible_tournaments

SEASON = OpenApiParameter("season", str, OpenApiParameter.PATH, description="Season.")
TOURNAMENT = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="Tournament.")
CLUB = OpenApiParameter("club", str, OpenApiParameter.QUERY, description="Only this club.")
QUERY = OpenApiParameter(
    "q",
    str,
    OpenApiParameter.QUERY,
    description="Only players whose name or club holds every word.",
)
LIMIT = OpenApiParameter("limit", int, OpenApiParameter.QUERY, description="Lines per page.")
OFFSET = OpenApiParameter("offset", int, OpenApiParameter.QUERY, description="Lines skipped.")


def _tournaments(request: Request) -> Prefetch[Any]:
    """A season's tournaments as the requester may see them (a private one made private
    after it was attached is left out for the public)."""
    return Prefetch("tournaments", queryset=visible_tournaments(request.user))


def _season(request: Request, slug: str) -> Season:
    rows = Season.objects.select_related("owner", "club").prefetch_related(_tournaments(request))
    return seen(request, SEASONS, slug, rows)


def _owned(request: Request, slug: str) -> Season:
    return kept(
        request,
        SEASONS,
        slug,
        "not_season_owner",
        _("Only the season's owner may change it."),
        Season.objects.select_related("owner", "club"),
    )


def _actor(request: Request) -> Actor:
    return Actor(API, user=request.user)


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
            .select_related("owner", "club")
            .prefetch_related(_tournaments(request))
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
        data = validated(SeasonSerializer, request.data, context={"request": request})
        season = _call(
            lambda: create_season(_data(data), actor=_actor(request), club=data.get("club"))
        )
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
        responses={200: SeasonSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def put(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._change(request, kwargs["season"], partial=False)

    @extend_schema(
        summary="Change some settings of a season (its owner)",
        parameters=[SEASON],
        request=SeasonSerializer,
        responses={200: SeasonSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def patch(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return self._change(request, kwargs["season"], partial=True)

    def _change(self, request: Request, slug: str, *, partial: bool) -> Response:
        season = _owned(request, slug)
        data = validated(
            SeasonSerializer, request.data, instance=season, partial=partial,
            context={"request": request},
        )  # fmt: skip
        if not partial:
            data.setdefault("slug", season.slug)
        changed = _call(lambda: change_season(season, _data(data, season), actor=_actor(request)))
        return Response(SeasonSerializer(changed).data)


def _figures(line: SeasonLine | ListedLine) -> dict[str, Any]:
    """What a line says, in the list and explained alike (``LineFigures``)."""
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
    }


def _line(line: SeasonLine) -> dict[str, Any]:
    return {
        **_figures(line),
        "results": [
            {
                "tournament": r.tournament.slug,
                "held_on": r.tournament.starts_on,
                "series_points": list(r.series_points),
                "points": r.points,
                "place": r.place,
                "score": r.score,
                "why": r.why,
                "open_points": list(r.open_points),
                "place_final": not r.provisional_place,
            }
            for r in line.results
        ],
    }


def _listed(line: ListedLine) -> dict[str, Any]:
    return {
        **_figures(line),
        "provisional": line.provisional,
    }


def _text(request: Request, key: str, longest: int) -> str:
    asked = str(request.query_params.get(key) or "").replace("\x00", "").strip()
    return asked if len(asked) <= longest else ""


class SeasonRankingView(ApiView):
    pagination_class = None  # pages by limit and offset itself, inside the ranking's object

    @extend_schema(
        summary="A season's stored ranking, paged; each line's results at ranking/<player>/",
        parameters=[SEASON, CLUB, QUERY, LIMIT, OFFSET],
        responses={200: RankingSerializer, **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        season = stored_once(_season(request, kwargs["season"]))
        paging = BoundedLimitOffsetPagination()
        limit = paging.get_limit(request) or PAGE_SIZE
        offset = paging.get_offset(request)
        ranking = stored_ranking(
            season,
            club=_text(request, "club", 120) or None,
            query=_text(request, "q", 100),
            offset=offset,
            limit=limit,
        )
        paging.request, paging.limit, paging.offset = request, limit, offset
        paging.count = ranking.count
        data = {
            "season": season.slug,
            "preset": season.preset,
            "basis": str(ranking.rule.basis),
            "reference_date": ranking.reference,
            "window_opens": ranking.window_opens,
            "computed_at": ranking.computed_at,
            "club": ranking.club,
            "q": ranking.query,
            "count": ranking.count,
            "next": paging.get_next_link(),
            "previous": paging.get_previous_link(),
            "results": [_listed(line) for line in ranking.lines],
        }
        return Response(RankingSerializer(data).data)


class SeasonLineView(ApiView):
    pagination_class = None

    @extend_schema(
        operation_id="seasons_ranking_line",
        summary="One player's line in a season, each of his results with whether it counts",
        parameters=[
            SEASON,
            OpenApiParameter("player", int, OpenApiParameter.PATH, description="Player."),
        ],
        responses={200: LineSerializer, **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        season = _season(request, kwargs["season"])
        line = player_explanation(season, kwargs["player"])
        if line is None:
            raise Http404
        return Response(LineSerializer(_line(line_as_seen_by(line, request.user))).data)


class SeasonTournamentsView(ApiView):
    pagination_class = None

    @extend_schema(
        summary="The tournaments of a season",
        parameters=[SEASON],
        responses={200: TournamentInfoSerializer(many=True), **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournaments, _count = season_tournaments(_season(request, kwargs["season"]), request.user)
        return Response(TournamentInfoSerializer(tournaments, many=True).data)

    @extend_schema(
        summary="Attach one of the club's tournaments",
        parameters=[SEASON],
        request=AttachSerializer,
        responses={
            200: SeasonSerializer,
            201: SeasonSerializer,
            **errors(400, 401, 403, 404, 409),
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
                _("Only tournaments of the season's club can be added."),
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
