from __future__ import annotations

from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404

from tournaments.models import Tournament
from tournaments.permissions import is_organizer


class OrganizerMixin(LoginRequiredMixin):
    """The tournament from the URL, for its organizers only (403 for everyone else)."""

    tournament: Tournament

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.tournament = get_object_or_404(Tournament, slug=kwargs["slug"])
        if not is_organizer(request.user, self.tournament):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context_data(**kwargs)  # type: ignore[misc]
        context["tournament"] = self.tournament
        return context
