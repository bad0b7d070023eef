"""Creating, editing and overseeing a tournament (organizers)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import Count, Q
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.generic import FormView, TemplateView

from clubs import roles
from clubs.forms import add_club_choice
from common.services import ServiceError
from tournaments.dashboard import dashboard_links
from tournaments.forms import TournamentForm
from tournaments.models import Series, Tournament
from tournaments.permissions import RULINGS, TOURNAMENTS
from tournaments.services.setup import save_tournament
from tournaments.views.mixins import OrganizerMixin


class MyTournamentsView(LoginRequiredMixin, TemplateView):
    """Where an organizer lands after logging in: the tournaments his clubs let him keep."""

    template_name = "tournaments/organizer/mine.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["tournaments"] = (
            Tournament.objects.filter(TOURNAMENTS.kept_by(self.request.user))
            .annotate(registered=Count("registrations"))
            .order_by("-starts_on", "name")
        )
        # A club's referee keeps none of its tournaments; he finds their referee calls here.
        kept = Tournament.objects.filter(TOURNAMENTS.kept_by(self.request.user)).values("pk")
        context["refereed"] = (
            Tournament.objects.filter(RULINGS.kept_by(self.request.user))
            .exclude(pk__in=kept)
            .order_by("-starts_on", "name")
        )
        return context


class TournamentCreateView(LoginRequiredMixin, FormView[TournamentForm]):
    """A new tournament, in the creator's personal club or, when he keeps tournaments in
    several clubs, in the one he chooses."""

    template_name = "tournaments/organizer/tournament_form.html"
    form_class = TournamentForm

    def get_form(self, form_class: Any = None) -> TournamentForm:
        form = super().get_form(form_class)
        add_club_choice(form, self.request.user, roles.TOURNAMENTS)
        return form

    def form_valid(self, form: TournamentForm) -> HttpResponse:
        club = form.cleaned_data.get("club")
        try:
            tournament = save_tournament(
                form.save(commit=False), organizer=self.request.user, club=club
            )
        except ServiceError as exc:
            form.add_error(exc.field, exc.message)
            return self.form_invalid(form)
        return redirect("tournaments:manage", slug=tournament.slug)


class TournamentUpdateView(OrganizerMixin, FormView[TournamentForm]):
    template_name = "tournaments/organizer/tournament_form.html"
    form_class = TournamentForm

    def get_form_kwargs(self) -> dict[str, Any]:
        # A copy: a rejected form must not change the tournament the menu links to.
        instance = Tournament.objects.get(pk=self.tournament.pk)
        return {**super().get_form_kwargs(), "instance": instance}

    def form_valid(self, form: TournamentForm) -> HttpResponse:
        try:
            tournament = save_tournament(form.save(commit=False))
        except ServiceError as exc:
            form.add_error(exc.field, exc.message)
            return self.form_invalid(form)
        return redirect("tournaments:manage", slug=tournament.slug)


def next_step(tournament: Tournament, registered: int, series_list: Sequence[Series]) -> str:
    """What a tournament that has not started needs next: "register" players, "draw"
    series 1, "print" its pack and start it; "" once it runs."""
    first = next((s for s in series_list if s.number == 1), None)
    if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        return ""
    if first is None or first.status not in (Series.Status.PLANNED, Series.Status.DRAWN):
        return ""
    if not registered:
        return "register"
    return "draw" if first.status == Series.Status.PLANNED else "print"


class DashboardView(OrganizerMixin, TemplateView):
    template_name = "tournaments/organizer/dashboard.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        counts = self.tournament.registrations.aggregate(
            registered=Count("pk"), present=Count("pk", filter=Q(checked_in=True))
        )
        series_list = list(self.tournament.series.annotate(table_count=Count("tables")))
        context.update(
            counts=counts,
            series_list=series_list,
            links=dashboard_links(self.tournament),
            next_step=next_step(self.tournament, counts["registered"], series_list),
            registration_link=self.request.build_absolute_uri(
                reverse(
                    "tournaments:self-register",
                    kwargs={
                        "slug": self.tournament.slug,
                        "token": self.tournament.registration_token,
                    },
                )
            ),
        )
        return context
