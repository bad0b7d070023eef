from django.urls import path

from archive import views

app_name = "archive"

urlpatterns = [
    # Public (like the standings)
    path(
        "turniere/<slug:slug>/export/tabelle/",
        views.StandingsExportView.as_view(),
        name="standings",
    ),
    path(
        "turniere/<slug:slug>/serie/<int:number>/export/tabelle/",
        views.SeriesStandingsExportView.as_view(),
        name="series-standings",
    ),
    path("turniere/<slug:slug>/export/spiele/", views.GamesExportView.as_view(), name="games"),
    # Organizers
    path("verwaltung/import/", views.ImportView.as_view(), name="import"),
    path("verwaltung/import/<int:pk>/", views.ImportStatusView.as_view(), name="import-status"),
    path("verwaltung/<slug:slug>/archiv/", views.ArchiveDownloadView.as_view(), name="download"),
    path(
        "verwaltung/spieler/<int:pk>/daten/",
        views.PlayerDataView.as_view(),
        name="player-data",
    ),
]
