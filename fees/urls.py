from django.urls import path

from fees import views

app_name = "fees"

urlpatterns = [
    path("verwaltung/kasse/", views.MineView.as_view(), name="mine"),
    path("verwaltung/<slug:slug>/kasse/", views.DeskView.as_view(), name="desk"),
    path("verwaltung/<slug:slug>/kasse/<int:pk>/", views.TapView.as_view(), name="tap"),
    path("verwaltung/<slug:slug>/kasse/bericht/", views.ReportView.as_view(), name="report"),
    path("verwaltung/<slug:slug>/kasse/startgeld/", views.FeesView.as_view(), name="fees"),
    path("verwaltung/<slug:slug>/preisgeld/", views.PrizesView.as_view(), name="prizes"),
    path(
        "verwaltung/<slug:slug>/preisgeld/auszahlung/",
        views.PayoutsView.as_view(),
        name="payouts",
    ),
    path(
        "verwaltung/<slug:slug>/preisgeld/auszahlung.csv",
        views.PayoutsCsvView.as_view(),
        name="payouts-csv",
    ),
    path(
        "verwaltung/<slug:slug>/preisgeld/auszahlung.pdf",
        views.PayoutsPdfView.as_view(),
        name="payouts-pdf",
    ),
]
