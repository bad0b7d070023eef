from django.urls import path

from tournaments.views import keep_apart, organizer, players, public, registry, series

app_name = "tournaments"

urlpatterns = [
    # Public
    path("turniere/", public.TournamentListView.as_view(), name="list"),
    path("turniere/<slug:slug>/", public.TournamentDetailView.as_view(), name="detail"),
    path(
        "turniere/<slug:slug>/serie/<int:number>/",
        public.SeriesPublicView.as_view(),
        name="series-public",
    ),
    path(
        "turniere/<slug:slug>/anmeldung/<str:token>/",
        public.SelfRegistrationView.as_view(),
        name="self-register",
    ),
    # Organizers
    path("verwaltung/", organizer.MyTournamentsView.as_view(), name="mine"),
    path("verwaltung/neu/", organizer.TournamentCreateView.as_view(), name="create"),
    path("verwaltung/spieler/", registry.RegistryView.as_view(), name="registry"),
    path("verwaltung/spieler/<int:pk>/", registry.MergeView.as_view(), name="registry-player"),
    path(
        "verwaltung/spieler/<int:pk>/anonymisieren/",
        registry.AnonymizeView.as_view(),
        name="registry-player-anonymize",
    ),
    path(
        "verwaltung/spieler/<int:pk>/einwilligung/",
        registry.ConsentView.as_view(),
        name="registry-player-consent",
    ),
    path("verwaltung/<slug:slug>/", organizer.DashboardView.as_view(), name="manage"),
    path(
        "verwaltung/<slug:slug>/bearbeiten/", organizer.TournamentUpdateView.as_view(), name="edit"
    ),
    path(
        "verwaltung/<slug:slug>/spieler/",
        players.RegistrationListView.as_view(),
        name="registrations",
    ),
    path(
        "verwaltung/<slug:slug>/spieler/<int:pk>/",
        players.RegistrationEditView.as_view(),
        name="registration",
    ),
    path("verwaltung/<slug:slug>/import/", players.ImportView.as_view(), name="import"),
    path(
        "verwaltung/<slug:slug>/getrennt/",
        keep_apart.KeepApartView.as_view(),
        name="keep-apart",
    ),
    path("verwaltung/<slug:slug>/einlass/", players.CheckInView.as_view(), name="checkin"),
    path(
        "verwaltung/<slug:slug>/einlass/<int:pk>/",
        players.CheckInToggleView.as_view(),
        name="checkin-toggle",
    ),
    path(
        "verwaltung/<slug:slug>/serie/<int:number>/",
        series.SeriesManageView.as_view(),
        name="series",
    ),
]
