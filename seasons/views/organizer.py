"""A season's owner: his seasons, creating and changing one, attaching tournaments."""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import Case, Value, When
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView

from clubs import roles
from clubs.forms import add_club_choice
from common.actors import ORGANIZER, Actor
from common.ownership import Ownership
from common.parsing import whole_number
from common.services import ServiceError
from common.views import KeeperMixin
from seasons.forms import SeasonForm
from seasons.models import Season
from seasons.permissions import SEASONS, attachable_tournaments
from seasons.services import attach_tournament, change_season, create_season, detach_tournament
from tournaments.permissions import TOURNAMENTS


def _actor(request: HttpRequest) -> Actor:
    return Actor(ORGANIZER, user=request.user)


class OwnerMixin(KeeperMixin):
    """The season from the URL, for its owner only (403 for everyone else)."""

    ownership: ClassVar[Ownership[Season]] = SEASONS
    url_kwarg = "season"
    context_name = "season"
    season: Season


def _form_error(form: SeasonForm, exc: ServiceError) -> None:
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


class SeasonCreateView(LoginRequiredMixin, FormView[SeasonForm]):
    template_name = "seasons/organizer/season_form.html"
    form_class = SeasonForm

    def get_form(self, form_class: Any = None) -> SeasonForm:
        form = super().get_form(form_class)
        add_club_choice(form, self.request.user, roles.SEASONS)
        return form

    def form_valid(self, form: SeasonForm) -> HttpResponse:
        try:
            season = create_season(
                form.season_data(), actor=_actor(self.request), club=form.cleaned_data.get("club")
            )
        except ServiceError as exc:
            _form_error(form, exc)
            return self.form_invalid(form)
        messages.success(
            self.request,
            _("Season “%(name)s” created. Now attach its tournaments.") % {"name": season.name},
        )
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
        # public by the one rule (a league's group follows its league)
        public = Case(When(TOURNAMENTS.public_q(), then=Value(True)), default=Value(False))
        attached = list(
            self.season.tournaments.annotate(seen_public=public).order_by("-starts_on", "name")
        )
        context["attached"] = attached
        context["others"] = list(
            attachable_tournaments(self.season)
            .exclude(pk__in=[t.pk for t in attached])
            .annotate(seen_public=public)
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
