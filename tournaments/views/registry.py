"""The organizer's player registry: every player he owns, the ones that may be one person,
and merging them (``tournaments.services.registry``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import Count, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from common.services import ServiceError
from tournaments.forms import ConsentForm, MergeForm
from tournaments.models import Player, Registration, RegistryChange
from tournaments.names import by_name, found, search_words
from tournaments.services.privacy import CONSENT, anonymize_player, change_consent, is_anonymized
from tournaments.services.registry import merge_players, possible_duplicates

PAGE_SIZE = 200


def own_registry(user: Any) -> QuerySet[Player]:
    """The players ``user`` owns, with how many tournaments each played."""
    return Player.objects.filter(owner_id=user.pk).annotate(tournaments=Count("registrations"))


def search_players(players: list[Player], query: str) -> list[Player]:
    """The players with every word of ``query`` in their name, club or DDV number."""
    words = search_words(query)
    return [p for p in players if found(words, p.first_name, p.last_name, p.club, p.ddv_number)]


def described(player: Player) -> str:
    details = [
        d for d in (player.club, f"DDV {player.ddv_number}" if player.ddv_number else "") if d
    ]
    return f"{player.sort_name} ({', '.join(details)})" if details else player.sort_name


class RegistryView(LoginRequiredMixin, TemplateView):
    template_name = "tournaments/organizer/registry.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        players = by_name(own_registry(self.request.user).order_by("pk"))
        query = self.request.GET.get("q", "").replace("\x00", "")[:100]
        shown = search_players(players, query)
        return {
            **super().get_context_data(**kwargs),
            "query": query,
            "players": shown[:PAGE_SIZE],
            "more": max(len(shown) - PAGE_SIZE, 0),
            "player_count": len(players),
            "duplicates": possible_duplicates(players),
            "changes": RegistryChange.objects.filter(
                owner_id=self.request.user.pk, action="tournaments.player.merged"
            )[:10],
        }


class MergeView(LoginRequiredMixin, TemplateView):
    """One player of the registry, his tournaments, and the form that merges another player
    into him. Another owner's player does not exist here (404)."""

    template_name = "tournaments/organizer/merge.html"

    def setup(self, request: HttpRequest, *args: Any, **kwargs: Any) -> None:
        super().setup(request, *args, **kwargs)
        self.player: Player | None = None

    def get_player(self) -> Player:
        player = own_registry(self.request.user).filter(pk=self.kwargs["pk"]).first()
        if player is None:
            raise Http404
        return player

    def form(self, player: Player, data: Any = None) -> MergeForm:
        others = list(own_registry(self.request.user).exclude(pk=player.pk).order_by("pk"))
        suggested = {
            p.pk
            for group in possible_duplicates([player, *others])
            if player in group
            for p in group
        }
        others = by_name(others)
        others.sort(key=lambda p: p.pk not in suggested)
        return MergeForm(data, choices=[(p.pk, described(p)) for p in others])

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        player = self.get_player()
        registrations = (
            Registration.objects.filter(player=player)
            .select_related("tournament")
            .order_by("-tournament__starts_on")
        )
        return {
            **super().get_context_data(**kwargs),
            "player": player,
            "registrations": registrations,
            "form": kwargs.get("form") or self.form(player),
            "anonymized": is_anonymized(player),
            "consent_form": kwargs.get("consent_form")
            or ConsentForm(initial={name: getattr(player, name) for name in CONSENT}),
        }

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        player = self.get_player()
        form = self.form(player, request.POST)
        if form.is_valid():
            duplicate = own_registry(request.user).filter(pk=form.cleaned_data["duplicate"]).first()
            try:
                if duplicate is None:
                    raise ServiceError("player_not_found", _("Player not found."), "duplicate")
                merge_players(request.user, player, duplicate)
            except ServiceError as exc:
                form.add_error(exc.field, exc.message)
            else:
                messages.success(
                    request,
                    _("%(duplicate)s is merged into %(player)s.")
                    % {"duplicate": duplicate, "player": player},
                )
                return redirect("tournaments:registry")
        return self.render_to_response(self.get_context_data(form=form))


class ConsentView(MergeView):
    """The player's consent changed by the registry's owner (on the player's word, e.g. a
    guardian's consent given later); errors next to the field on the player's page."""

    http_method_names = ["post"]

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        player = self.get_player()
        form = ConsentForm(request.POST)
        if form.is_valid():
            try:
                change_consent(
                    request.user, player, {name: form.cleaned_data[name] for name in CONSENT}
                )
            except ServiceError as exc:
                form.add_error(exc.field, exc.message)
            else:
                messages.success(
                    request, _("The consent is recorded; public pages show the name accordingly.")
                )
                return redirect("tournaments:registry-player", pk=player.pk)
        return self.render_to_response(self.get_context_data(consent_form=form))


class AnonymizeView(LoginRequiredMixin, View):
    """A player's objection, carried out by the registry's owner: his identity goes for
    good, his results stay (``tournaments.services.privacy``). Asked to confirm first."""

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        player = own_registry(request.user).filter(pk=pk).first()
        if player is None:
            raise Http404
        if request.POST.get("confirm") != "anonymize":
            messages.error(request, _("Tick the confirmation: anonymizing cannot be undone."))
            return redirect("tournaments:registry-player", pk=pk)
        try:
            anonymize_player(request.user, player)
        except ServiceError as exc:
            raise Http404 from exc
        messages.success(
            request, _("The player is anonymized; the results stay in every standings table.")
        )
        return redirect("tournaments:registry-player", pk=pk)
