"""A league's match days as on the owner's match days page: read them, make them (again,
while no group has drawn a series), set the dates and venues (all or nothing), and draw a
group's series with the team draw as the group page does."""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import ApiView, validated
from common.api.errors import ApiError
from common.api.schema import errors
from teams.api.serializers import (
    GroupDrawSerializer,
    MakeScheduleSerializer,
    PlacesSerializer,
    ScheduleSerializer,
)
from teams.api.views import GROUP, LEAGUE, _actor, _call, _league, _owned
from teams.models import GROUP_STAGE, IN_GROUP_STAGE, Group, League
from teams.schedule import dates_out_of_order, meetings
from teams.services import change_places, draw_team_series, make_match_days
from tournaments.api.serializers.series import SeriesSerializer
from tournaments.models import Series

SERIES = OpenApiParameter("number", int, OpenApiParameter.PATH, description="Series number.")


def schedule_answer(league: League) -> dict[str, Any]:
    """The match days with their groups, and how good the schedule is."""
    days = list(
        league.match_days.filter(GROUP_STAGE)
        .order_by("number")
        .prefetch_related("groups__group_teams", "groups__tournament")
    )
    groups = [
        (day, group, [e.team_id for e in sorted(group.group_teams.all(), key=lambda e: e.order)])
        for day in days
        for group in sorted(day.groups.all(), key=lambda g: g.number)
    ]
    repeats, never_met = meetings([teams for _day, _group, teams in groups], league.teams.count())
    dated_before = dates_out_of_order([(day.number, day.date) for day in days])
    return {
        "days": [
            {
                "id": day.pk,
                "number": day.number,
                "date": day.date,
                "dated_before": dated_before.get(day.number),
                "groups": [
                    {
                        "id": group.pk,
                        "number": group.number,
                        "venue": group.venue,
                        "tournament": group.tournament.slug,
                        "teams": teams,
                    }
                    for of_day, group, teams in groups
                    if of_day is day
                ],
            }
            for day in days
        ],
        "repeats": repeats,
        "never_met": never_met,
    }


class MatchDaysView(ApiView):
    pagination_class = None

    @extend_schema(
        summary="The match days: per day its date and groups (venue, tournament, teams)",
        parameters=[LEAGUE],
        responses={200: ScheduleSerializer, **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _league(request, kwargs["league"])
        return Response(ScheduleSerializer(schedule_answer(league)).data)

    @extend_schema(
        summary="Make the match days (again, while no group has drawn a series)",
        description="Every group of every day becomes a tournament of its own. Made again, "
        "the groups (and their tournaments) are new; dates and venues start empty.",
        parameters=[LEAGUE],
        request=MakeScheduleSerializer,
        responses={201: ScheduleSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _owned(request, kwargs["league"])
        validated(MakeScheduleSerializer, request.data)
        _call(lambda: make_match_days(league, actor=_actor(request)))
        return Response(ScheduleSerializer(schedule_answer(league)).data, status=201)


class PlacesView(ApiView):
    pagination_class = None

    @extend_schema(
        summary="Dates of match days and venues of groups, all or nothing",
        description="Match days by their number, groups by their id; what the body does not "
        "name stays as it is. A date before an earlier day's is saved (a postponed day) "
        "and shown as `dated_before`.",
        parameters=[LEAGUE],
        request=PlacesSerializer,
        responses={200: ScheduleSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _owned(request, kwargs["league"])
        data = validated(PlacesSerializer, request.data)
        day_ids = dict(league.match_days.filter(GROUP_STAGE).values_list("number", "pk"))
        group_ids = set(
            Group.objects.filter(IN_GROUP_STAGE, match_day__league=league).values_list(
                "pk", flat=True
            )
        )
        dates: dict[int, Any] = {}
        for index, entry in enumerate(data["match_days"]):
            pk = day_ids.get(entry["number"])
            if pk is None:
                raise ApiError(
                    400,
                    "no_such_match_day",
                    _("The league has no match day of this number."),
                    field=f"match_days.{index}.number",
                )
            if pk in dates:
                raise ApiError(
                    400, "named_twice", _("Named twice."), field=f"match_days.{index}.number"
                )
            dates[pk] = entry["date"]
        venues: dict[int, str] = {}
        for index, entry in enumerate(data["groups"]):
            if entry["id"] not in group_ids:
                raise ApiError(
                    400,
                    "group_not_in_league",
                    _("The league has no group of this id."),
                    field=f"groups.{index}.id",
                )
            if entry["id"] in venues:
                raise ApiError(400, "named_twice", _("Named twice."), field=f"groups.{index}.id")
            venues[entry["id"]] = entry["venue"]
        _call(lambda: change_places(league, dates=dates, venues=venues, actor=_actor(request)))
        return Response(ScheduleSerializer(schedule_answer(league)).data)


class GroupDrawView(ApiView):
    pagination_class = None

    @extend_schema(
        summary="Draw a group's series with the team draw (one player of each team a table)",
        description="As `POST /tournaments/<slug>/series/<n>/draw/` of the group's tournament "
        "(which is routed to the team draw too). Refused while a line-up is missing "
        "(409 `line_up_missing`, naming the team).",
        parameters=[LEAGUE, GROUP, SERIES],
        request=GroupDrawSerializer,
        responses={200: SeriesSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _owned(request, kwargs["league"])
        group = Group.objects.filter(pk=kwargs["group"], match_day__league=league).first()
        if group is None:
            raise Http404
        series = Series.objects.filter(
            tournament_id=group.tournament_id, number=kwargs["number"]
        ).first()
        if series is None:
            raise Http404
        data = validated(GroupDrawSerializer, request.data)
        _call(lambda: draw_team_series(series, seed=data["seed"]))
        answer = (
            Series.objects.select_related("tournament")
            .annotate(table_count=Count("tables"))
            .get(pk=series.pk)
        )
        return Response(SeriesSerializer(answer).data)
