"""Creating, editing and overseeing a tournament (organizers)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import Count, Q
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.generic import FormView, TemplateView

from tournaments.forms import TournamentForm
from tournaments.models import Tournament
from tournaments.services import ServiceError
from tournaments.services.setup import save_tournament
from tournaments.views.mixins import OrganizerMixin


class MyTournamentsView(LoginRequiredMixin, TemplateView):
    """Where an organizer lands after logging in: the tournaments he organizes."""

    template_name = "tournaments/organizer/mine.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["tournaments"] = (
            Tournament.objects.filter(organizers=self.request.user.pk)
            .annotate(registered=Count("registrations"))
            .order_by("-starts_on", "name")
        )
        return context


class TournamentCreateView(LoginRequiredMixin, FormView[TournamentForm]):
    template_name = "tournaments/organizer/tournament_form.html"
    form_class = TournamentForm

    def form_valid(self, form: TournamentForm) -> HttpResponse:
        try:
            tournament = save_tournament(form.save(commit=False), organizer=self.request.user)
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


class DashboardView(OrganizerMixin, TemplateView):
    template_name = "tournaments/organizer/dashboard.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        counts = self.tournament.registrations.aggregate(
            registered=Count("pk"), present=Count("pk", filter=Q(checked_in=True))
        )
        context.update(
            counts=counts,
            series_list=self.tournament.series.annotate(table_count=Count("tables")),
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
