"""Pages anyone may see: public tournaments, and every tournament to its organizers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Prefetch, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.views.generic import DetailView, FormView, ListView, TemplateView

from common.services import ServiceError
from tournaments.forms import PlayerForm
from tournaments.models import NameForm, Series, Tournament
from tournaments.names import folded, found, name_key, search_words
from tournaments.permissions import is_organizer, visible_tournaments
from tournaments.publication import retention_expired, shown_name
from tournaments.services.registrations import PlayerData, self_register


class TournamentListView(ListView[Tournament]):
    template_name = "tournaments/tournament_list.html"
    context_object_name = "tournaments"

    def get_queryset(self) -> QuerySet[Tournament]:
        return visible_tournaments(self.request.user).annotate(
            player_count=Count("registrations", distinct=True)
        )


class TournamentDetailView(DetailView[Tournament]):
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
        # The series whose seating players look for now: the latest drawn or running one.
        current = [
            s
            for s in self.object.series.all()
            if s.status in (Series.Status.DRAWN, Series.Status.RUNNING)
        ]
        context["current_series"] = current[-1] if current else None
        return context


class SelfRegistrationView(FormView[PlayerForm]):
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


@dataclass(frozen=True)
class SeatingLine:
    """One line of the alphabetical seating list: a player and where he sits."""

    name: str  # "Last, First"
    start_number: int
    table: int
    seat: int
    search: str  # the folded name the page's script compares with what is typed
    shown: bool  # matches the search (every line does without one)


def seat_matches(words: list[str], search: str, start_number: int) -> bool:
    """Every word of the search is in the player's name (``tournaments.names.found``), or
    is his start number."""
    return all(found([word], search) or word == str(start_number) for word in words)


class SeriesPublicView(TemplateView):
    """Where everybody sits in a series: found by name (``?q=``, filtered here, so it works
    without JavaScript; seating-search.js filters as one types), alphabetically as on the
    printed seating list, and table by table; with the seed and algorithm version to re-run
    the draw. Lines that do not match are sent hidden, so the script can show them again."""

    template_name = "tournaments/series_public.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        tournament = get_object_or_404(visible_tournaments(self.request.user), slug=kwargs["slug"])
        series = get_object_or_404(tournament.series, number=kwargs["number"])
        if series.status == Series.Status.PLANNED:
            raise Http404
        tables = list(series.tables.prefetch_related("seats__registration__player"))
        query = " ".join(self.request.GET.get("q", "").split())[:100]
        words = search_words(query)
        expired = retention_expired(tournament)
        lines: list[tuple[tuple[str, str, str, str], int, SeatingLine]] = []
        matched_seats: set[int] = set()
        shown_tables: set[int] = set()
        for table in tables:
            for seat in table.seats.all():
                player, number = seat.registration.player, seat.registration.start_number
                # Found and sorted by the name as published: a withheld last name must not
                # be findable either (tournaments.publication).
                full = player.name_form == NameForm.FULL and not expired
                name = (
                    player.sort_name
                    if full
                    else shown_name(
                        player.first_name, player.last_name, player.name_form, number,
                        expired=expired,
                    )
                )  # fmt: skip
                search = folded(f"{player.first_name} {player.last_name}" if full else name)
                shown = seat_matches(words, search, number)
                if shown and words:
                    matched_seats.add(seat.pk)
                    shown_tables.add(table.pk)
                line = SeatingLine(name, number, table.number, seat.position, search, shown)
                key = name_key(player) if full else (folded(name), "", name, "")
                lines.append((key, number, line))
        lines.sort(key=lambda entry: entry[:2])
        return {
            **super().get_context_data(**kwargs),
            "tournament": tournament,
            "series": series,
            "query": query,
            "lines": [entry[2] for entry in lines],
            "found": sum(1 for entry in lines if entry[2].shown),
            "tables": tables,
            "hidden_tables": {t.pk for t in tables if t.pk not in shown_tables} if words else set(),
            "matched_seats": matched_seats,
            "player_count": len(lines),
        }
