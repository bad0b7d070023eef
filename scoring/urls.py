from django.urls import path

from scoring.views import organizer, organizer_actions, public
from scoring.views.captain import CaptainDoor, OrganizerDoor, door_views

app_name = "scoring"

CAPTAIN = door_views(CaptainDoor)
ORGANIZER = door_views(OrganizerDoor)


def sheet_paths(prefix: str, views: dict, name: str) -> list:  # type: ignore[type-arg]
    """The same sheet pages under the captain's link and under the organizer's pages."""
    return [
        path(f"{prefix}", views["home"], name=name),
        path(f"{prefix}spiel/", views["game"], name=f"{name}-game"),
        path(f"{prefix}spiel/<int:number>/", views["game"], name=f"{name}-correct"),
        path(f"{prefix}vorschau/", views["preview"], name=f"{name}-preview"),
        path(f"{prefix}loeschen/", views["delete"], name=f"{name}-delete"),
        path(f"{prefix}abgeben/", views["submit"], name=f"{name}-submit"),
        path(f"{prefix}bestaetigen/", views["confirm"], name=f"{name}-confirm"),
    ]


urlpatterns = [
    *sheet_paths("tisch/<str:token>/", CAPTAIN, "captain"),
    *sheet_paths("verwaltung/<slug:slug>/tisch/<int:table_id>/", ORGANIZER, "sheet"),
    # Public
    path("turniere/<slug:slug>/tabelle/", public.StandingsView.as_view(), name="standings"),
    path(
        "turniere/<slug:slug>/serie/<int:number>/tabelle/",
        public.StandingsView.as_view(),
        name="series-standings",
    ),
    path(
        "turniere/<slug:slug>/spieler/<int:start_number>/",
        public.PlayerGamesView.as_view(),
        name="player",
    ),
    # Organizers
    path(
        "verwaltung/<slug:slug>/serie/<int:number>/fortschritt/",
        organizer.ProgressView.as_view(),
        name="progress",
    ),
    path("verwaltung/<slug:slug>/protokoll/", organizer.AuditLogView.as_view(), name="audit"),
    path(
        "verwaltung/<slug:slug>/tisch/<int:table_id>/aktion/",
        organizer_actions.SheetActionView.as_view(),
        name="sheet-action",
    ),
    path(
        "verwaltung/<slug:slug>/serie/<int:number>/zeit/",
        organizer_actions.CallTimeView.as_view(),
        name="call-time",
    ),
    path(
        "verwaltung/<slug:slug>/serie/<int:number>/auslosen/",
        organizer_actions.DrawSeriesView.as_view(),
        name="draw-series",
    ),
    path(
        "verwaltung/<slug:slug>/serie/<int:number>/abschliessen/",
        organizer_actions.CloseSeriesView.as_view(),
        name="close-series",
    ),
    path(
        "verwaltung/<slug:slug>/serie/<int:number>/strafen/",
        organizer_actions.PenaltyView.as_view(),
        name="penalties",
    ),
]
