"""The hand-over: an organizer's barcode scanner types the QR codes of a phone that cannot
reach the server (docs/offline.md). Each code is verified (``scoring.handover``: a table's
signature, its shape), then each of its games goes through the same use case as the sync
endpoint (``outbox.sync_game``), in order. A code that is refused leaves nothing but an
audit entry of the refusal."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from common.actors import Actor
from scoring import doors
from scoring.handover import FieldValue, HandoverRefused, read_code
from scoring.models import AuditEntry
from scoring.services.outbox import sync_game
from tournaments.models import Series, Table

MAX_TEXT = 60_000  # characters of one hand-over (some 30 codes)
MAX_CODES = 40

#: How the page reads a game's fields: the facts for the engine, or why the form refused.
ReadGame = Callable[[Table, dict[str, FieldValue]], "tuple[Any, str]"]


@dataclass(frozen=True)
class HandedLine:
    """What became of one code (``game`` None) or one game of a code."""

    code: int  # the code's place in the text, from 1
    status: str  # accepted, replayed, refused, conflict, invalid
    message: str
    table: int | None = None  # the table's number
    game: int | None = None


def refusal_message(code: str) -> str:
    return {
        "too_long": _("This code is too long to be a hand-over code."),
        "not_a_code": _("This is not a hand-over code of a table."),
        "unknown_table": _("This code belongs to no table of this series."),
        "forged": _("This code was changed or not made by this table's phone: refused."),
        "bad_payload": _("This code's content is damaged: refused."),
        "too_many": _("Too many codes at once: scan the rest afterwards."),
    }.get(code, _("This code was refused."))


def hand_over(series: Series, text: str, *, actor: Actor, read_game: ReadGame) -> list[HandedLine]:
    """Take the codes in ``text`` (one per line) for the tables of ``series``."""
    tables = {t.pk: t for t in series.tables.select_related("series__tournament")}
    codes = [line for line in text[: MAX_TEXT + 1].splitlines() if line.strip()]
    if len(text) > MAX_TEXT or len(codes) > MAX_CODES:
        _audit_refusal(series, actor, "too_many", 0)
        return [HandedLine(0, "invalid", refusal_message("too_many"))]
    # The phone's games arrive as the captain link would send them; the audit names the
    # organizer who scanned them.
    via = Actor(doors.CAPTAIN, user=actor.user, device="hand-over")
    lines: list[HandedLine] = []
    for place, code in enumerate(codes, 1):
        try:
            handed = read_code(code, lambda pk: tables[pk].captain_token if pk in tables else None)
        except HandoverRefused as exc:
            _audit_refusal(series, actor, exc.code, place)
            lines.append(HandedLine(place, "invalid", refusal_message(exc.code)))
            continue
        table = tables[handed.table]
        for game in handed.games:
            fields = dict(game.fields)
            facts, refused = read_game(table, fields)
            if refused:
                lines.append(HandedLine(place, "refused", refused, table.number, game.number))
                continue
            synced = sync_game(
                table,
                facts,
                fields={k: list(v) if isinstance(v, tuple) else v for k, v in fields.items()},
                key=game.key,
                number=game.number,
                expected_version=None,
                actor=via,
            )
            message = synced.error.message if synced.error else ""
            lines.append(HandedLine(place, synced.status, message, table.number, game.number))
    return lines


def _audit_refusal(series: Series, actor: Actor, code: str, place: int) -> None:
    """The one trace of a refused code: who scanned what kind of refusal (not the code)."""
    AuditEntry.objects.create(
        tournament_id=series.tournament_id,
        table=None,
        action="scoring.handover.refused",
        after={"reason": code, "code": place, "series": series.number},
        user=actor.user if getattr(actor.user, "pk", None) else None,
        via=actor.describe(),
        device=actor.device,
    )
