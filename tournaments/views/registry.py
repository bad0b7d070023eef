"""A club's player registry, for its keepers (``tournaments.permissions.REGISTRY``): every
player of it, the ones that may be one person, and merging them
(``tournaments.services.registry``). A user who keeps several clubs' registries chooses the
club; another club's player does not exist here (404)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import Count, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from clubs import roles
from clubs.models import Club
from clubs.services import clubs_keeping
from common.services import ServiceError
from tournaments.forms import ConsentForm, MergeForm
from tournaments.models import Player, Registration, RegistryChange
from tournaments.names import by_name, found, search_words
from tournaments.permissions import kept_players
from tournaments.services.privacy import CONSENT, anonymize_player, change_consent, is_anonymized
from tournaments.services.registry import merge_players, possible_duplicates

PAGE_SIZE = 200


def club_registry(club: Club) -> QuerySet[Player]:
    """The players of ``club``'s registry, with how many tournaments each played."""
    return Player.objects.filter(registry_club=club).annotate(tournaments=Count("registrations"))


def chosen_club(user: Any, clubs: list[Club], choice: str) -> Club | None:
    """The club whose registry is shown: the one chosen (its id), else the personal club of
    the user, else the first; None for a user who keeps no registry. A choice that is not
    one of ``clubs`` is ignored, as if nothing was chosen."""
    by_pk = {str(club.pk): club for club in clubs}
    if choice in by_pk:
        return by_pk[choice]
    personal = [club for club in clubs if club.personal_of_id == user.pk]
    chosen = personal or clubs
    return chosen[0] if chosen else None


def search_players(players: list[Player], query: str) -> list[Player]:
    """The players with every word of ``query`` in their name, club or DDV number."""
    words = search_words(query)
    return [p for p in players if found(words, p.first_name, p.last_name, p.club, p.ddv_number)]


def described(player: Player) -> str:
    details = [
        d for d in (player.club, f"DDV {player.ddv_number}" if player.ddv_number else "") if d
    ]
    return f"{player.sort_name} ({', '.join(details)})" if details else player.sort_name


def registry_of(player: Player) -> HttpResponse:
    """Back to the list of the player's registry."""
    url = reverse("tournaments:registry")
    if player.registry_club_id is not None:
        url = f"{url}?club={player.registry_club_id}"
    return HttpResponseRedirect(url)


class RegistryView(LoginRequiredMixin, TemplateView):
    template_name = "tournaments/organizer/registry.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        user = self.request.user
        clubs = list(clubs_keeping(user, roles.REGISTRY))
        club = chosen_club(user, clubs, self.request.GET.get("club", "")[:12])
        players = by_name(club_registry(club).order_by("pk")) if club is not None else []
        query = self.request.GET.get("q", "").replace("\x00", "")[:100]
        shown = search_players(players, query)
        changes = RegistryChange.objects.filter(
            player__registry_club=club, action="tournaments.player.merged"
        )
        return {
            **super().get_context_data(**kwargs),
            "clubs": clubs,
            "club": club,
            "query": query,
            "players": shown[:PAGE_SIZE],
            "more": max(len(shown) - PAGE_SIZE, 0),
            "player_count": len(players),
            "duplicates": possible_duplicates(players),
            "changes": changes.select_related("user")[:10] if club is not None else [],
        }


class MergeView(LoginRequiredMixin, TemplateView):
    """One player of a registry, his tournaments, and the form that merges another player of
    the same registry into him. A player of a registry the user does not keep does not exist
    here (404)."""

    template_name = "tournaments/organizer/merge.html"

    def setup(self, request: HttpRequest, *args: Any, **kwargs: Any) -> None:
        super().setup(request, *args, **kwargs)
        self.player: Player | None = None

    def get_player(self) -> Player:
        player = (
            kept_players(self.request.user)
            .select_related("registry_club")
            .filter(pk=self.kwargs["pk"])
            .first()
        )
        if player is None:
            raise Http404
        return player

    def registry(self, player: Player) -> QuerySet[Player]:
        """The player's registry, where his duplicates are."""
        return kept_players(self.request.user).filter(registry_club_id=player.registry_club_id)

    def form(self, player: Player, data: Any = None) -> MergeForm:
        others = list(self.registry(player).exclude(pk=player.pk).order_by("pk"))
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
            duplicate = self.registry(player).filter(pk=form.cleaned_data["duplicate"]).first()
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
                return registry_of(player)
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
    """A player's objection, carried out by a keeper of his registry: his identity goes for
    good, his results stay (``tournaments.services.privacy``). Asked to confirm first."""

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        player = kept_players(request.user).filter(pk=pk).first()
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
