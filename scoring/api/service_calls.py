"""Calling the entry services and turning their refusals into the API's error JSON."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import DataError
from django.utils.translation import gettext as _
from rest_framework.response import Response

from scoring.api.headers import entry_response
from scoring.messages import engine_error_message
from scoring.models import Game, ScoreSheet
from scoring.services import EntryError, EntryResult
from scoring.services.entry import game_json, sheet_state
from tournaments.api.errors import ApiError
from tournaments.models import Table


def current_sheet(table: Table) -> ScoreSheet:
    """The table's sheet; an unsaved empty one before the first entry."""
    return ScoreSheet.objects.filter(table=table).first() or ScoreSheet(
        table=table, mode=table.series.tournament.entry_mode
    )


def current_state(table: Table) -> dict[str, Any]:
    """What a client needs to redraw the table after a conflict."""
    return {
        "sheet": sheet_state(table, current_sheet(table)),
        "games": [game_json(g) for g in Game.objects.filter(table=table).order_by("number")],
    }


def call(table: Table, service: Callable[[], EntryResult]) -> Response:
    try:
        result = service()
    except (DataError, OverflowError) as exc:
        # Last line of defence: a value the rules engine let through but the database
        # cannot store (e.g. enormous penalty points) is the client's error, not a crash.
        raise ApiError(
            400, "value_out_of_range", _("A value of this entry is out of range.")
        ) from exc
    except EntryError as exc:
        body = current_state(table) if exc.code == "version_conflict" else {}
        headers = {"ETag": f'"{body["sheet"]["version"]}"'} if body else {}
        raise ApiError(
            exc.status,
            exc.code,
            exc.message,
            field=exc.field,
            data=exc.data,
            body=body,
            headers=headers,
        ) from exc
    return entry_response(result)


def not_an_object() -> ApiError:
    return ApiError(400, "not_an_object", engine_error_message("not_an_object", ""))
