"""The games of a table: list them (like the tournament is visible); create the next one
(POST), correct one (PUT), delete the last one (DELETE) — captains of this table while the
series runs, and organizers. The services do the work; see ``scoring.api.headers`` for the
``If-Match`` and ``Idempotency-Key`` headers."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api.base import validated
from common.api.errors import ApiError
from common.api.schema import errors
from scoring.api.access import ScoringMixin, table_from_url, writer
from scoring.api.headers import expected_version, idempotency_key
from scoring.api.serializers.games import (
    EntrySerializer,
    GameInputSerializer,
    GameSerializer,
    SheetOnlySerializer,
)
from scoring.api.serializers.sheets import ConflictSerializer, ReasonSerializer
from scoring.api.service_calls import call, not_an_object
from scoring.api.views.params import (
    GAME,
    IDEMPOTENCY_KEY,
    IF_MATCH,
    OPTIONAL_IDEMPOTENCY_KEY,
    REASON,
    TABLE_PATH,
)
from scoring.messages import engine_error_message
from scoring.models import Game
from scoring.services.entry import delete_last_game, game_json, save_game
from tournaments.models import Table

CHANGE_ERRORS = {
    **errors(400, 401, 403, 404, 422, 428),
    409: OpenApiResponse(ConflictSerializer, description="Stale version: the current state."),
}


#: Numbers in a game record are 32-bit integers (the database stores them as such).
INT_LIMIT = 2**31 - 1


def check_numbers(value: Any, field: str = "") -> None:
    """Refuse integers the database cannot store, naming the (dotted) field."""
    if isinstance(value, dict):
        for key, item in value.items():
            check_numbers(item, f"{field}.{key}" if field else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_numbers(item, f"{field}.{index}" if field else str(index))
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > INT_LIMIT:
        raise ApiError(400, "number_out_of_range", _("This number is too large."), field=field)


def split_payload(data: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The game's facts, and what travels beside them (number, reason). A ``dealer`` sent
    stays with the facts: the engine checks it against the sheet."""
    if not isinstance(data, dict):
        raise not_an_object()
    check_numbers(data)
    record = dict(data)
    beside = {key: record.pop(key) for key in ("number", "reason") if key in record}
    reason = beside.get("reason", "")
    if not isinstance(reason, str):
        raise ApiError(400, "wrong_type", engine_error_message("wrong_type", ""), field="reason")
    # No reason (a captain's entry) needs no serializer to stay one.
    beside["reason"] = validated(ReasonSerializer, {"reason": reason})["reason"] if reason else ""
    return record, beside


class TableMixin(ScoringMixin, APIView):
    def table(self) -> Table:
        return table_from_url(
            self.request, self.kwargs["slug"], self.kwargs["number"], self.kwargs["table"]
        )


class GameListView(TableMixin, GenericAPIView[Game]):
    serializer_class = GameSerializer

    @extend_schema(
        summary="Games of a table",
        parameters=TABLE_PATH,
        responses={200: GameSerializer(many=True), **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        games = Game.objects.filter(table=self.table()).order_by("number")
        page = self.paginate_queryset(games)
        assert page is not None  # ApiMixin sets a pagination class
        return self.get_paginated_response([game_json(g) for g in page])

    @extend_schema(
        summary="Enter the next game",
        parameters=[*TABLE_PATH, IF_MATCH, IDEMPOTENCY_KEY],
        request=GameInputSerializer,
        responses={201: EntrySerializer, **CHANGE_ERRORS},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        table = self.table()
        actor = writer(request, table)
        key = idempotency_key(request, required=True)
        version = expected_version(request)
        facts, beside = split_payload(request.data)
        return call(
            table,
            lambda: save_game(
                table,
                facts,
                number=beside.get("number"),
                expected_version=version,
                actor=actor,
                reason=beside["reason"],
                idempotency_key=key,
            ),
        )


class GameDetailView(TableMixin, GenericAPIView[Game]):
    serializer_class = GameSerializer

    def game(self, table: Table) -> Game:
        game = Game.objects.filter(table=table, number=self.kwargs["game"]).first()
        if game is None:
            raise Http404
        return game

    @extend_schema(
        summary="One game",
        parameters=[*TABLE_PATH, GAME],
        responses={200: GameSerializer, **errors(404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(game_json(self.game(self.table())))

    @extend_schema(
        summary="Correct a game",
        description="The whole record again. `number`, if sent, must be the one in the path.",
        parameters=[*TABLE_PATH, GAME, IF_MATCH, OPTIONAL_IDEMPOTENCY_KEY],
        request=GameInputSerializer,
        responses={200: EntrySerializer, **CHANGE_ERRORS},
    )
    def put(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        table = self.table()
        number = self.kwargs["game"]
        actor = writer(request, table)
        key = idempotency_key(request, required=False)
        version = expected_version(request)
        facts, beside = split_payload(request.data)
        if beside.get("number", number) != number:
            raise ApiError(
                400,
                "number_mismatch",
                _("The game number differs from the one in the address."),
                field="number",
            )
        self.game(table)
        return call(
            table,
            lambda: save_game(
                table,
                facts,
                number=number,
                expected_version=version,
                actor=actor,
                reason=beside["reason"],
                idempotency_key=key,
            ),
        )

    @extend_schema(
        summary="Delete the last game",
        description="Only the last game can be deleted; earlier ones are corrected.",
        parameters=[*TABLE_PATH, GAME, IF_MATCH, OPTIONAL_IDEMPOTENCY_KEY, REASON],
        request=None,
        responses={200: SheetOnlySerializer, **CHANGE_ERRORS},
    )
    def delete(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        table = self.table()
        actor = writer(request, table)
        key = idempotency_key(request, required=False)
        version = expected_version(request)
        reason = validated(ReasonSerializer, {"reason": request.query_params.get("reason", "")})
        number = self.game(table).number
        return call(
            table,
            lambda: delete_last_game(
                table,
                number=number,
                expected_version=version,
                actor=actor,
                reason=reason["reason"],
                idempotency_key=key,
            ),
        )
