"""The hall display (public, no login) and the organizers' page for it.

The display is one page per tournament; display.js asks ``…/halle/stand/`` every few
seconds with the fingerprint of what it shows and gets 204 while nothing changed, else the
new board. Every answer carries the server's clock (``X-Server-Time``, epoch milliseconds),
so every screen counts down the same second whatever its own clock says.
"""

from __future__ import annotations

import time
from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import FormView

from common.actors import ORGANIZER, Actor
from common.services import ServiceError
from hall import board as boards
from hall.forms import AnnouncementForm
from hall.models import Announcement
from hall.services import announce, withdraw
from tournaments.models import Tournament, absolute_url
from tournaments.permissions import visible_tournaments
from tournaments.views.mixins import OrganizerMixin

SERVER_TIME = "X-Server-Time"
#: Seconds between two polls of a screen, and between two pages of a long list.
POLL_SECONDS = 5
PAGE_SECONDS = 10
# The longest fingerprint a screen may send back (longer ones are not ours).
MAX_SINCE = 64
# A board is kept for the other screens that ask with the same fingerprint. It holds end
# times, not the time left (display.js counts down), so it stays right while it is kept.
BOARD_SECONDS = 120


def board_key(tournament: Tournament, digest: str) -> str:
    """The cache key of a rendered board: the fingerprint covers view and language."""
    return f"hall:board:{tournament.pk}:{digest}"


def _stamp(response: HttpResponse) -> HttpResponse:
    """The server's clock on every answer, taken as late as possible; never cached."""
    add_never_cache_headers(response)
    response[SERVER_TIME] = str(int(time.time() * 1000))
    return response


class HallMixin:
    """The public tournament of the URL and the board that ``?view=`` asks for."""

    request: HttpRequest

    def state(self, slug: str) -> tuple[Tournament, list[Any], str, str]:
        tournament = get_object_or_404(visible_tournaments(self.request.user), slug=slug)
        series = boards.series_of(tournament)
        requested = boards.requested_view(self.request.GET.get("view"))
        view = boards.shown_view(requested, series)
        digest = boards.fingerprint(tournament, series, view, get_language())
        return tournament, series, requested, digest


class DisplayView(HallMixin, View):
    """The whole screen: the board as it is now, and the script that keeps it so."""

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        tournament, series, requested, digest = self.state(slug)
        board = boards.build_board(tournament, series, requested, digest)
        query = {"view": requested} if requested != boards.AUTO else {}
        context = {
            "board": board,
            "tournament": tournament,
            "fragment_url": reverse("hall:fragment", kwargs={"slug": slug}),
            "query": query,
            "sound": request.GET.get("sound") == "1",
            "poll_seconds": POLL_SECONDS,
            "page_seconds": PAGE_SECONDS,
            "server_ms": int(time.time() * 1000),
        }
        return _stamp(render(request, "hall/display.html", context))


class FragmentView(HallMixin, View):
    """The board alone, or 204 when the screen's fingerprint (``?since=``) is still right."""

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        tournament, series, requested, digest = self.state(slug)
        if request.GET.get("since", "")[:MAX_SINCE] == digest:
            return _stamp(HttpResponse(status=204))
        # The first screen to see a new fingerprint builds the board, the others read it.
        key = board_key(tournament, digest)
        html = cache.get(key)
        if not isinstance(html, str):
            board = boards.build_board(tournament, series, requested, digest)
            html = render_to_string("hall/_board.html", {"board": board})
            if board.complete:
                cache.set(key, html, BOARD_SECONDS)
        return _stamp(HttpResponse(html))


class ManageView(OrganizerMixin, FormView[AnnouncementForm]):
    """The organizers' page of the hall: the display's addresses, announcements to make
    and to withdraw."""

    template_name = "hall/manage.html"
    form_class = AnnouncementForm

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        display = reverse("hall:display", kwargs={"slug": self.tournament.slug})
        pinned = [
            (_("Seating"), boards.SEATING),
            (_("Clock only"), boards.CLOCK),
            (_("Tables"), boards.TABLES),
            (_("Standings"), boards.STANDINGS),
        ]
        announcements = Announcement.objects.filter(tournament=self.tournament).select_related(
            "created_by"
        )[:50]
        return {
            **super().get_context_data(**kwargs),
            "display_url": absolute_url(display),
            "display_path": display,
            "pinned": [(label, f"{display}?view={view}") for label, view in pinned],
            "sound_path": f"{display}?sound=1",
            "announcements": announcements,
        }

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if "withdraw" in request.POST:
            return self.withdraw(request)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form: AnnouncementForm) -> HttpResponse:
        actor = Actor(ORGANIZER, user=self.request.user)
        try:
            announce(self.tournament, form.cleaned_data["text"], actor=actor)
        except ServiceError as exc:
            form.add_error(exc.field or None, exc.message)
            return self.form_invalid(form)
        messages.success(self.request, _("The announcement is shown in the hall."))
        return redirect("hall:manage", slug=self.tournament.slug)

    def withdraw(self, request: HttpRequest) -> HttpResponse:
        pk = request.POST.get("withdraw", "")
        number = int(pk) if pk.isascii() and pk.isdigit() and len(pk) < 16 else 0
        announcement = get_object_or_404(Announcement, tournament=self.tournament, pk=number)
        try:
            withdraw(announcement, actor=Actor(ORGANIZER, user=request.user))
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The announcement is no longer shown."))
        return redirect("hall:manage", slug=self.tournament.slug)
