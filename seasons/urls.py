from django.urls import path

from seasons.views import lists, organizer, player, public

app_name = "seasons"

urlpatterns = [
    # Public
    path("saisons/", lists.SeasonListView.as_view(), name="list"),
    path("saisons/<slug:season>/", public.SeasonDetailView.as_view(), name="detail"),
    path(
        "saisons/<slug:season>/spieler/<int:player>/",
        public.SeasonExplanationView.as_view(),
        name="explanation",
    ),
    path(
        "saisons/<slug:season>/turniere/",
        public.SeasonTournamentsView.as_view(),
        name="season-tournaments",
    ),
    path("spieler/<int:pk>/", player.PlayerView.as_view(), name="player"),
    # Owners (before the tournaments' /verwaltung/<slug>/ in config/urls.py)
    path("verwaltung/saisons/", lists.MySeasonsView.as_view(), name="mine"),
    path("verwaltung/saisons/neu/", organizer.SeasonCreateView.as_view(), name="create"),
    path(
        "verwaltung/saisons/<slug:season>/bearbeiten/",
        organizer.SeasonUpdateView.as_view(),
        name="edit",
    ),
    path(
        "verwaltung/saisons/<slug:season>/turniere/",
        organizer.SeasonTournamentsView.as_view(),
        name="tournaments",
    ),
]
