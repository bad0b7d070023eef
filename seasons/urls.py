from django.urls import path

from seasons.views import ddv, lists, organizer, player, public

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
    path(
        "verwaltung/saisons/<slug:season>/ddv-import/",
        ddv.DdvImportView.as_view(),
        name="ddv-import",
    ),
    # A tournament's DDV report (its organizers only)
    path("verwaltung/<slug:slug>/ddv-rangliste/", ddv.DdvReportView.as_view(), name="ddv-report"),
    *(
        path(
            f"verwaltung/<slug:slug>/ddv-rangliste/bericht.{fmt}",
            ddv.DdvFileView.as_view(fmt=fmt),
            name=f"ddv-{fmt}",
        )
        for fmt in ("csv", "xlsx", "pdf", "json")
    ),
]
