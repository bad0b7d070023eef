"""The captain page's outbox: games typed without a connection, sent one at a time.

``POST /tisch/<token>/ausgang/`` takes one game with the fields of the page's game form
plus ``idempotency_key``, ``number`` and ``version`` and answers JSON only (see
docs/offline.md). The token in the path is the credential, as for the API: the endpoint is
exempt from CSRF and reads no session, so a logged-in organizer's cookie gives it nothing.
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib.messages.constants import DEFAULT_TAGS
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.template.loader import render_to_string
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from common.parsing import whole_number
from scoring.models import Game
from scoring.reads import table_by_token
from scoring.services import GameEntered
from scoring.services.contact import record_contact
from scoring.services.outbox import sheet_position, sync_game
from scoring.sheet_page import SheetPage, SheetRow
from scoring.swap_parts import kept, shown_parts
from scoring.templatetags.sheet_rows import sheet_row
from scoring.totals import seat_points
from scoring.views.captain import (
    CaptainDoor,
    Flash,
    SheetView,
    attach_error,
    device_of,
    pending_of,
    saved_message,
)
from tournaments.models import Table

#: 8..64 visible ASCII characters: what the phone makes when the form opens.
OUTBOX_KEY = re.compile(r"[\x21-\x7e]{8,64}")
DEVICE_HEADER = re.compile(r"[\x21-\x7e]{1,64}")
#: ``X-Outbox-Page: main``: the phone (online, nothing waiting) wants the sheet page's main
#: part in the answer (``page_html``), so that a save needs no second request.
PAGE_HEADER = "X-Outbox-Page"
#: ``X-Sheet-Parts: <digest>,…``: the parts of the page the phone keeps a copy of, left out of
#: ``page_html`` when they come back unchanged (scoring/swap_parts.py).
PARTS_HEADER = "X-Sheet-Parts"
#: Nothing the game form sends comes near this; more is not a game.
MAX_FIELDS = 80


def row_html(table: Table, game: Game, base: str, seating: list[Any]) -> str:
    """The sheet's row of ``game`` as the captain page draws it (``{% sheet_row %}``)."""
    points = seat_points(game.scores)
    row = SheetRow(game, tuple(points.get(s.position, 0) for s in seating), ())
    return sheet_row(row, can_correct=True, base=base).strip()


@method_decorator(csrf_exempt, name="dispatch")
class CaptainOutboxView(CaptainDoor, SheetView):
    """One game of a phone's outbox (section 1 of docs/offline.md)."""

    http_method_names = ["post"]

    def resolve(self, request: HttpRequest, **kwargs: Any) -> HttpResponse | None:
        found = table_by_token(str(kwargs["token"]))
        if found is None:
            return self.error(
                404, "invalid_link", _("This table link is not valid."), position=False
            )
        self.table = found
        record_contact(found.pk, pending_of(request))
        return None

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method != "POST":
            return JsonResponse(
                {"status": "error", "code": "method_not_allowed", "message": _("Use POST.")},
                status=405,
                headers={"Allow": "POST"},
            )
        refused = self.resolve(request, **kwargs)
        if refused is not None:
            return refused
        self.device = device_of(request) or self.device_header(request)
        return self.post(request)

    @staticmethod
    def device_header(request: HttpRequest) -> str:
        raw = request.headers.get("Device-Id", "")
        return raw if DEVICE_HEADER.fullmatch(raw) else ""

    def answer(
        self,
        status: int,
        outcome: str,
        *,
        position: bool = True,
        read: tuple[int, int] | None = None,
        **fields: Any,
    ) -> JsonResponse:
        """The JSON answer; ``outcome`` is its ``status``; with the sheet's version and next
        number unless the table is unknown (``read``: both, when the caller has just read
        them)."""
        body: dict[str, Any] = {"status": outcome, **fields}
        if position:
            version, next_number = read or sheet_position(self.table)
            body.update(sheet_version=version, next_number=next_number)
        return JsonResponse(body, status=status)

    def error(self, status: int, code: str, message: str, **fields: Any) -> JsonResponse:
        return self.answer(status, "error", code=code, message=message, **fields)

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if len(request.POST) > MAX_FIELDS:
            return self.error(400, "too_many_fields", _("This is not a game of the sheet."))
        key = request.POST.get("idempotency_key", "")
        if not OUTBOX_KEY.fullmatch(key):
            return self.error(
                400,
                "invalid_idempotency_key",
                _("The idempotency key must be 8 to 64 visible ASCII characters."),
                field="idempotency_key",
            )
        number = whole_number(request.POST.get("number", ""), digits=3)
        if number is None or number < 1:
            return self.error(
                400, "invalid_number", _("The game number is missing or not valid."),
                field="number",
            )  # fmt: skip
        raw_version = request.POST.get("version", "")
        version = whole_number(raw_version, digits=9) if raw_version else None
        if raw_version and version is None:
            return self.error(
                400, "invalid_version", _("The sheet version is not valid."), field="version"
            )
        form = self.bound_form()
        if not form.is_valid():
            return self.refused(form)
        fields = {
            name: values if len(values) > 1 else values[0]
            for name, values in request.POST.lists()
            if values
        }
        with_page = request.headers.get(PAGE_HEADER) == "main"
        synced = sync_game(
            self.table,
            form.to_payload(size=len(self.seats())),
            fields=fields,
            key=key,
            number=number,
            expected_version=version,
            actor=self.actor(),
            review=with_page,
        )
        if synced.entered is not None:
            n = int(synced.entered.game["number"])
            game: Game | None = None
            extra: dict[str, Any] = {}
            read: tuple[int, int] | None = None
            if with_page:
                page = self.sheet_page(report=synced.entered.report)
                extra["page_html"] = self.page_html(page, synced.entered)
                # The page read the sheet and its games after the commit, as the answer would.
                read = (page.sheet.version, len(page.rows) + 1)
                game = next((row.game for row in page.rows if row.game.number == n), None)
            if game is None:
                game = Game.objects.get(table=self.table, number=n)
            return self.answer(
                200 if synced.entered.replayed else 201,
                synced.status,
                read=read,
                number=n,
                value=game.value,
                row_html=row_html(self.table, game, self.base(), self.seating()),
                **extra,
            )
        assert synced.error is not None
        if synced.conflict is not None:
            return self.answer(
                409, "conflict", code=synced.error.code, message=synced.error.message,
                number=number,
            )  # fmt: skip
        attach_error(form, synced.error, self.names())
        return self.refused(form)

    def page_html(self, page: SheetPage, entered: GameEntered) -> str:
        """The sheet page's main part after the game, as the page's own save answers it
        (``sheet_swap.html``), built from the save's replay."""
        level, text = saved_message(entered, None)
        flash = Flash(DEFAULT_TAGS[level], text)
        shown = shown_parts(self.request.headers.get(PARTS_HEADER, ""))
        # A part the phone shows is not even drawn where its digest is known (kept_parts).
        context = {"page": page, "flashes": [flash], "shown_parts": shown}
        html = render_to_string("scoring/sheet_swap.html", context, request=self.request)
        return kept(html, shown)

    def refused(self, form: Any) -> JsonResponse:
        errors = {
            name: [str(message) for message in messages] for name, messages in form.errors.items()
        }
        first = next((m[0] for m in errors.values() if m), _("The game was not saved."))
        return self.answer(422, "refused", code="refused", message=first, errors=errors)
