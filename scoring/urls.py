from django.urls import URLPattern, path
from django.views import View

from scoring.views import (
    captain,
    organizer,
    organizer_actions,
    outbox,
    outbox_organizer,
    public,
    referee,
    statistics,
    worker,
)

app_name = "scoring"


def sheet_paths(prefix: str, name: str, views: tuple[type[View], ...]) -> list[URLPattern]:
    """The same sheet pages under the captain's link and under the organizer's pages:
    ``views`` are home, game, preview, delete, submit, confirm and the clock of one door."""
    home, game, preview, delete, submit, confirm, clock = (view.as_view() for view in views)
    return [
        path(f"{prefix}", home, name=name),
        path(f"{prefix}spiel/", game, name=f"{name}-game"),
        path(f"{prefix}spiel/<int:number>/", game, name=f"{name}-correct"),
        path(f"{prefix}vorschau/", preview, name=f"{name}-preview"),
        path(f"{prefix}loeschen/", delete, name=f"{name}-delete"),
        path(f"{prefix}abgeben/", submit, name=f"{name}-submit"),
        path(f"{prefix}bestaetigen/", confirm, name=f"{name}-confirm"),
        path(f"{prefix}uhr/", clock, name=f"{name}-clock"),
    ]


CAPTAIN = (
    captain.CaptainHomeView,
    captain.CaptainGameView,
    captain.CaptainPreviewView,
    captain.CaptainDeleteView,
    captain.CaptainSubmitView,
    captain.CaptainConfirmView,
    captain.CaptainClockView,
)
ORGANIZER = (
    captain.OrganizerHomeView,
    captain.OrganizerGameView,
    captain.OrganizerPreviewView,
    captain.OrganizerDeleteView,
    captain.OrganizerSubmitView,
    captain.OrganizerConfirmView,
    captain.OrganizerClockView,
)


urlpatterns = [
    path("tisch/sw.js", worker.CaptainWorkerView.as_view(), name="captain-sw"),
    *sheet_paths("tisch/<str:token>/", "captain", CAPTAIN),
    path("tisch/<str:token>/ausgang/", outbox.CaptainOutboxView.as_view(), name="captain-outbox"),
    path("tisch/<str:token>/schiri/", referee.CaptainRefereeView.as_view(), name="captain-referee"),
    *sheet_paths("verwaltung/<slug:slug>/tisch/<int:table_id>/", "sheet", ORGANIZER),
    # Public
    path("turniere/<slug:slug>/tabelle/", public.StandingsView.as_view(), name="standings"),
    path(
        "turniere/<slug:slug>/serie/<int:number>/tabelle/",
        public.StandingsView.as_view(),
        name="series-standings",
    ),
    path(
        "turniere/<slug:slug>/serie/<int:number>/uhr/",
        public.SeriesClockView.as_view(),
        name="series-clock",
    ),
    path(
        "turniere/<slug:slug>/statistik/",
        statistics.StatisticsView.as_view(),
        name="statistics",
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
        "verwaltung/<slug:slug>/serie/<int:number>/konflikte/",
        outbox_organizer.OutboxConflictsView.as_view(),
        name="outbox-conflicts",
    ),
    path(
        "verwaltung/<slug:slug>/serie/<int:number>/uebergabe/",
        outbox_organizer.HandoverView.as_view(),
        name="outbox-handover",
    ),
    # The referee calls: the club's referees, owners and organizers
    path(
        "verwaltung/<slug:slug>/schiedsrichter/",
        referee.RefereeCallsView.as_view(),
        name="referee-calls",
    ),
    path(
        "verwaltung/<slug:slug>/schiedsrichter/<int:pk>/",
        referee.RefereeCallView.as_view(),
        name="referee-call",
    ),
    path(
        "verwaltung/<slug:slug>/schiedsrichter/<int:pk>/korrektur/",
        referee.RefereeCorrectView.as_view(),
        name="referee-correct",
    ),
    path(
        "verwaltung/<slug:slug>/serie/<int:number>/strafen/",
        organizer_actions.DeductionView.as_view(),
        name="deductions",
    ),
]
