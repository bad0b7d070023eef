"""Calling the entry services and turning their outcomes and refusals into API answers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import DataError
from django.utils.translation import gettext as _
from rest_framework.response import Response

from common.api.errors import ApiError, raise_service_error
from common.services import ServiceError
from scoring.messages import engine_error_message
from scoring.models import Game
from scoring.services import GameEntered, SheetChanged
from scoring.services.entry import current_sheet, game_json, sheet_state
from tournaments.models import Table


def current_state(table: Table) -> dict[str, Any]:
    """What a client needs to redraw the table after a conflict."""
    return {
        "sheet": sheet_state(table, current_sheet(table)),
        "games": [game_json(g) for g in Game.objects.filter(table=table).order_by("number")],
    }


def call(table: Table, service: Callable[[], GameEntered | SheetChanged]) -> Response:
    try:
        outcome = service()
    except (DataError, OverflowError) as exc:
        # Last line of defence: a value the rules engine let through but the database
        # cannot store (e.g. enormous penalty points) is the client's error, not a crash.
        raise ApiError(
            400, "value_out_of_range", _("A value of this entry is out of range.")
        ) from exc
    except ServiceError as exc:
        body = current_state(table) if exc.code == "version_conflict" else {}
        headers = {"ETag": f'"{body["sheet"]["version"]}"'} if body else {}
        raise_service_error(exc, body=body, headers=headers)
    return outcome_response(outcome)


def outcome_response(outcome: GameEntered | SheetChanged) -> Response:
    """201 for a created game, else 200; ``ETag`` is the sheet's version; a replayed answer
    says so in ``Idempotent-Replayed``."""
    headers: dict[str, Any] = {"ETag": f'"{outcome.sheet["version"]}"'}
    if outcome.replayed:
        headers["Idempotent-Replayed"] = "true"
    status = 201 if isinstance(outcome, GameEntered) and outcome.created else 200
    return Response(outcome.to_json(), status=status, headers=headers)


def not_an_object() -> ApiError:
    return ApiError(400, "not_an_object", engine_error_message("not_an_object", ""))
