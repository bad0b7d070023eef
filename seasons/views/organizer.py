"""A season's owner: his seasons, creating and changing one, attaching tournaments."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView

from common.parsing import whole_number
from common.services import ServiceError
from scoring.services import Actor, Door
from seasons.forms import SeasonForm
from seasons.models import Season
from seasons.permissions import attachable_tournaments, can_manage
from seasons.services import attach_tournament, change_season, create_season, detach_tournament


def _actor(request: HttpRequest) -> Actor:
    return Actor(Door.ORGANIZER, user=request.user)


class OwnerMixin(LoginRequiredMixin):
    """The season from the URL, for its owner only (403 for everyone else)."""

    season: Season

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.season = get_object_or_404(Season, slug=kwargs["season"])
        if not can_manage(request.user, self.season):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context_data(**kwargs)  # type: ignore[misc]
        context["season"] = self.season
        return context


class MySeasonsView(LoginRequiredMixin, TemplateView):
    template_name = "seasons/organizer/mine.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["seasons"] = (
            Season.objects.filter(owner=self.request.user.pk)
            .annotate(tournament_count=Count("attachments"))
            .order_by("name", "pk")
        )
        return context


def _form_error(form: SeasonForm, exc: ServiceError) -> None:
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


class SeasonCreateView(LoginRequiredMixin, FormView[SeasonForm]):
    template_name = "seasons/organizer/season_form.html"
    form_class = SeasonForm

    def form_valid(self, form: SeasonForm) -> HttpResponse:
        try:
            season = create_season(form.season_data(), actor=_actor(self.request))
        except ServiceError as exc:
            _form_error(form, exc)
            return self.form_invalid(form)
        return redirect("seasons:tournaments", season=season.slug)


class SeasonUpdateView(OwnerMixin, FormView[SeasonForm]):
    template_name = "seasons/organizer/season_form.html"
    form_class = SeasonForm

    def get_initial(self) -> dict[str, Any]:
        return SeasonForm.initial_for(self.season)

    def form_valid(self, form: SeasonForm) -> HttpResponse:
        try:
            season = change_season(self.season, form.season_data(), actor=_actor(self.request))
        except ServiceError as exc:
            _form_error(form, exc)
            return self.form_invalid(form)
        messages.success(self.request, _("Season saved."))
        return redirect("seasons:edit", season=season.slug)


class SeasonTournamentsView(OwnerMixin, TemplateView):
    """The attached tournaments (with the button to remove each) and the owner's others
    (with the button to add each)."""

    template_name = "seasons/organizer/tournaments.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        attached = list(self.season.tournaments.order_by("-starts_on", "name"))
        context["attached"] = attached
        context["others"] = list(
            attachable_tournaments(self.season)
            .exclude(pk__in=[t.pk for t in attached])
            .order_by("-starts_on", "name")
        )
        return context

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        action = request.POST.get("action", "")
        raw = request.POST.get("tournament", "")
        pk = whole_number(raw)
        choices = (
            attachable_tournaments(self.season) if action == "attach" else self.season.tournaments
        )
        tournament = choices.filter(pk=pk).first() if pk is not None else None
        if tournament is None or action not in ("attach", "detach"):
            messages.error(request, _("Choose one of your tournaments."))
            return redirect("seasons:tournaments", season=self.season.slug)
        try:
            if action == "attach":
                attach_tournament(self.season, tournament, actor=_actor(request))
                messages.success(request, _("“%(name)s” added.") % {"name": tournament.name})
            else:
                detach_tournament(self.season, tournament, actor=_actor(request))
                messages.success(request, _("“%(name)s” removed.") % {"name": tournament.name})
        except ServiceError as exc:
            messages.error(request, exc.message)
        return redirect("seasons:tournaments", season=self.season.slug)
