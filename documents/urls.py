"""Organizer URLs of the documents app; include with ``path("", include("documents.urls"))``."""

from django.urls import path

from documents import views

app_name = "documents"

urlpatterns = [
    path(
        "verwaltung/<slug:slug>/serie/<int:number>/druck/",
        views.SeriesDocumentsView.as_view(),
        name="series",
    ),
    path(
        "verwaltung/<slug:slug>/ergebnisse/druck/",
        views.ResultsDocumentView.as_view(),
        name="results",
    ),
    path(
        "verwaltung/dokumente/<int:pk>/status/", views.DocumentStatusView.as_view(), name="status"
    ),
    path(
        "verwaltung/dokumente/<int:pk>/pdf/", views.DocumentDownloadView.as_view(), name="download"
    ),
]
