"""A league's knockout through the API: the bracket (public as the league's table), and the
owner's operations of the knockout page: start it, decide a tie at the cut, make the next
round (or name the champion)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.base import ApiView, StrictSerializer, validated
from common.api.errors import ApiError
from common.api.schema import errors
from teams.api.views import LEAGUE, _actor, _call, _league, _owned
from teams.bracket import KnockoutBracket, MatchLine, knockout_bracket
from teams.knockout_services import (
    KnockoutSettings,
    advance_knockout,
    decide_tie,
    start_knockout,
)
from teams.models import Group, Knockout, League, MatchDay

MAX_ID = 10**9 - 1


class KnockoutStartSerializer(StrictSerializer):
    match_size = serializers.ChoiceField(choices=[4, 2], default=4, help_text="Teams per match.")
    advance = serializers.IntegerField(
        default=2,
        min_value=1,
        max_value=3,
        help_text="Teams advancing per match (2 or 1 of 4, 1 of 2).",
    )
    seeding = serializers.ChoiceField(choices=Knockout.Seeding.values, default="table")
    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=0,
        max_value=2**62,
        help_text="The draw's seed (seeding by draw, and teams sharing a place); left out: new.",
    )


class KnockoutDecideSerializer(StrictSerializer):
    group = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="The match's group id."
    )
    order = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        help_text="The tied teams' ids, best first, each once.",
    )


class KnockoutNextSerializer(StrictSerializer):
    """No input: the next round from the decided one, or the champion after the final."""


class MatchTeamSerializer(serializers.Serializer[Any]):
    team = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True)
    shared = serializers.BooleanField()
    points = serializers.IntegerField(allow_null=True, help_text="Game points; null: not played.")
    series_points = serializers.ListField(child=serializers.IntegerField())
    advancing = serializers.BooleanField(
        help_text="Goes on (in the final: the champion); also placed above a tie at the cut."
    )
    tied = serializers.BooleanField(help_text="Shares the place across the cut.")
    eliminated = serializers.BooleanField(help_text="Placed below the cut.")


class MatchSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    group = serializers.IntegerField(allow_null=True, help_text="null: the round is not made.")
    tournament = serializers.CharField(allow_null=True)
    status = serializers.ChoiceField(choices=["pending", "decided", "tie_at_cut"])
    played = serializers.BooleanField()
    final = serializers.BooleanField()
    decided_by_league = serializers.BooleanField()
    teams = MatchTeamSerializer(many=True)


class RoundSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    final = serializers.BooleanField(help_text="The last round.")
    match_day = serializers.IntegerField(allow_null=True)
    date = serializers.DateField(allow_null=True)
    byes = serializers.ListField(child=serializers.IntegerField())
    matches = MatchSerializer(many=True)


class KnockoutSerializer(serializers.Serializer[Any]):
    league = serializers.CharField()
    started = serializers.BooleanField()
    match_size = serializers.IntegerField(allow_null=True)
    advance = serializers.IntegerField(allow_null=True)
    seeding = serializers.CharField(allow_null=True)
    seed = serializers.IntegerField(allow_null=True)
    seeds = serializers.ListField(child=serializers.IntegerField())
    rounds = RoundSerializer(many=True)
    champion = serializers.IntegerField(
        allow_null=True, help_text="Decided by the final; `finished` once the owner names it."
    )
    finished = serializers.BooleanField()


def _line(line: MatchLine) -> dict[str, Any]:
    result = line.result
    return {
        "team": line.team.pk,
        "name": line.team.name,
        "seed": line.seed,
        "place": result.place if result else None,
        "shared": bool(result and result.shared),
        "points": result.points if result else None,
        "series_points": list(result.series_points) if result else [],
        "advancing": line.advancing,
        "tied": line.tied,
        "eliminated": line.out,
    }


def knockout_answer(league: League, bracket: KnockoutBracket | None) -> dict[str, Any]:
    if bracket is None:
        return {
            "league": league.slug,
            "started": False,
            "match_size": None,
            "advance": None,
            "seeding": None,
            "seed": None,
            "seeds": [],
            "rounds": [],
            "champion": None,
            "finished": False,
        }
    knockout = bracket.knockout
    return {
        "league": league.slug,
        "started": True,
        "match_size": knockout.match_size,
        "advance": knockout.advance,
        "seeding": knockout.seeding,
        "seed": knockout.seed,
        "seeds": list(knockout.seeds),
        "rounds": [
            {
                "number": round_.number,
                "final": round_.is_final,
                "match_day": round_.match_day.number if round_.match_day else None,
                "date": round_.match_day.date if round_.match_day else None,
                "byes": [team.pk for team in round_.byes],
                "matches": [
                    {
                        "number": match.number,
                        "group": match.group.pk if match.group else None,
                        "tournament": match.group.tournament.slug if match.group else None,
                        "status": str(match.status),
                        "played": match.played,
                        "final": match.final,
                        "decided_by_league": match.decided_by_league,
                        "teams": [_line(line) for line in match.lines],
                    }
                    for match in round_.matches
                ],
            }
            for round_ in bracket.rounds
        ],
        "champion": bracket.champion.pk if bracket.champion else None,
        "finished": knockout.champion_id is not None,
    }


def _answer(league: League, status: int = 200) -> Response:
    data = knockout_answer(league, knockout_bracket(league))
    return Response(KnockoutSerializer(data).data, status=status)


class KnockoutView(ApiView):
    pagination_class = None

    @extend_schema(
        summary="The knockout's bracket: rounds, matches, results, byes, the champion",
        description="Public as the league's table. `started: false` before the knockout "
        "starts. A match's teams are ranked by its group's game points once every series is "
        "closed; `tie_at_cut` waits for the owner's decision.",
        parameters=[LEAGUE],
        responses={200: KnockoutSerializer, **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return _answer(_league(request, kwargs["league"]))


class KnockoutStartView(ApiView):
    pagination_class = None

    @extend_schema(
        summary="Start the knockout (every match day of the group stage final)",
        description="Seeds by the final table (teams sharing a place ordered by a draw with "
        "`seed`) or drawn; round 1's matches become groups with tournaments of their own. "
        "409 `group_stage_unfinished`, `knockout_started`.",
        parameters=[LEAGUE],
        request=KnockoutStartSerializer,
        responses={201: KnockoutSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _owned(request, kwargs["league"])
        data = validated(KnockoutStartSerializer, request.data)
        settings = KnockoutSettings(
            match_size=int(data["match_size"]),
            advance=data["advance"],
            seeding=data["seeding"],
            seed=data["seed"],
        )
        _call(lambda: start_knockout(league, settings, actor=_actor(request)))
        return _answer(league, 201)


class KnockoutDecideView(ApiView):
    pagination_class = None

    @extend_schema(
        summary="Decide a tie at the cut: the tied teams' order, best first",
        description="Until the next round is made. 409 `no_tie_at_cut`, `match_not_final`, "
        "`round_closed`; 400 `wrong_order` (field `order`).",
        parameters=[LEAGUE],
        request=KnockoutDecideSerializer,
        responses={200: KnockoutSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _owned(request, kwargs["league"])
        data = validated(KnockoutDecideSerializer, request.data)
        group = Group.objects.filter(
            pk=data["group"],
            match_day__league=league,
            match_day__stage=MatchDay.Stage.KNOCKOUT,
        ).first()
        if group is None:
            raise ApiError(
                400,
                "no_such_match",
                _("The knockout has no match of this group id."),
                field="group",
            )
        _call(lambda: decide_tie(group, data["order"], actor=_actor(request)))
        return _answer(league)


class KnockoutNextView(ApiView):
    pagination_class = None

    @extend_schema(
        summary="Make the next round, or name the champion after the final",
        description="Once every match of the current round is decided. 409 `round_undecided`, "
        "`knockout_finished`, `knockout_not_started`.",
        parameters=[LEAGUE],
        request=KnockoutNextSerializer,
        responses={200: KnockoutSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _owned(request, kwargs["league"])
        validated(KnockoutNextSerializer, request.data)
        _call(lambda: advance_knockout(league, actor=_actor(request)))
        return _answer(league)
