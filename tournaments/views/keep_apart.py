"""The organizer's keep-apart pairs: players who must never share a table in a draw."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from common.actors import ORGANIZER, Actor
from common.parsing import whole_number
from common.services import ServiceError
from tournaments.forms import KeepApartForm
from tournaments.models import KeepApart
from tournaments.services.keep_apart import add_pair, remove_pair
from tournaments.views.mixins import OrganizerMixin


class KeepApartView(OrganizerMixin, TemplateView):
    """The pairs with a remove button each, and the form to add one (two players chosen
    from the tournament's list)."""

    template_name = "tournaments/organizer/keep_apart.html"

    def registrations(self) -> Any:
        return self.tournament.registrations.select_related("player").order_by("start_number")

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["form"] = kwargs.get("form") or KeepApartForm(registrations=self.registrations())
        context["pairs"] = KeepApart.objects.filter(tournament=self.tournament).select_related(
            "first__player", "second__player"
        )
        return context

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        actor = Actor(ORGANIZER, user=request.user)
        if "remove" in request.POST:
            pk = whole_number(request.POST["remove"])
            try:
                remove_pair(self.tournament, pk or 0, actor=actor)
            except ServiceError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, _("The two players may share a table again."))
            return redirect("tournaments:keep-apart", slug=self.tournament.slug)
        form = KeepApartForm(request.POST, registrations=self.registrations())
        if form.is_valid():
            try:
                pair = add_pair(
                    self.tournament,
                    form.cleaned_data["first"],
                    form.cleaned_data["second"],
                    actor=actor,
                )
            except ServiceError as exc:
                form.add_error(exc.field, exc.message)
            else:
                messages.success(
                    request,
                    _("%(first)s and %(second)s will not be seated at one table.")
                    % {"first": pair.first.player, "second": pair.second.player},
                )
                return redirect("tournaments:keep-apart", slug=self.tournament.slug)
        return self.render_to_response(self.get_context_data(form=form))
