"""Pages anyone may see: public tournaments, and every tournament to its organizers."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.views.generic import DetailView, FormView, ListView, TemplateView

from tournaments.forms import PlayerForm
from tournaments.models import Series, Tournament
from tournaments.permissions import is_organizer
from tournaments.services import ServiceError
from tournaments.services.registrations import PlayerData, self_register


def visible_tournaments(user) -> QuerySet[Tournament]:  # type: ignore[no-untyped-def]
    queryset = Tournament.objects.all()
    if user.is_superuser:
        return queryset
    if user.is_authenticated:
        return queryset.filter(Q(is_public=True) | Q(organizers=user)).distinct()
    return queryset.filter(is_public=True)


class TournamentListView(ListView):
    template_name = "tournaments/tournament_list.html"
    context_object_name = "tournaments"

    def get_queryset(self) -> QuerySet[Tournament]:
        return visible_tournaments(self.request.user).annotate(
            player_count=Count("registrations", distinct=True)
        )


class TournamentDetailView(DetailView):
    template_name = "tournaments/tournament_detail.html"
    context_object_name = "tournament"

    def get_queryset(self) -> QuerySet[Tournament]:
        return visible_tournaments(self.request.user).prefetch_related(
            Prefetch("series", queryset=Series.objects.order_by("number"))
        )

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["is_organizer"] = is_organizer(self.request.user, self.object)
        context["player_count"] = self.object.registrations.count()
        return context


class SelfRegistrationView(FormView):
    """The public registration link the organizer hands out; works while it is open."""

    template_name = "tournaments/self_registration.html"
    form_class = PlayerForm

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        self.tournament = get_object_or_404(
            Tournament, slug=kwargs["slug"], registration_token=kwargs["token"]
        )
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "tournament": self.tournament}

    def form_valid(self, form: PlayerForm) -> HttpResponse:
        data = PlayerData(**{k: form.cleaned_data[k] for k in PlayerData.__annotations__})
        try:
            registration = self_register(self.tournament, data)
        except ServiceError as exc:
            form.add_error(exc.field, exc.message)
            return self.form_invalid(form)
        return render(
            self.request,
            "tournaments/self_registration_done.html",
            {"tournament": self.tournament, "registration": registration},
        )


class SeriesPublicView(TemplateView):
    """The drawn tables of a series, with the seed and algorithm version to re-run it."""

    template_name = "tournaments/series_public.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        tournament = get_object_or_404(visible_tournaments(self.request.user), slug=kwargs["slug"])
        series = get_object_or_404(tournament.series, number=kwargs["number"])
        if series.status == Series.Status.PLANNED:
            raise Http404
        tables = series.tables.prefetch_related("seats__registration__player")
        return {
            **super().get_context_data(**kwargs),
            "tournament": tournament,
            "series": series,
            "tables": tables,
            "player_count": tournament.registrations.filter(seats__series=series).count(),
        }
