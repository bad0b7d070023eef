from django.urls import path

from cashbox import views

app_name = "cashbox"

CLUB = "verwaltung/vereine/<slug:club>/"

urlpatterns = [
    path(f"{CLUB}kasse/", views.LedgerView.as_view(), name="ledger"),
    path(f"{CLUB}kasse/export/", views.ExportView.as_view(), name="export"),
    path(f"{CLUB}kasse/<int:pk>/storno/", views.ReverseView.as_view(), name="reverse"),
    path(f"{CLUB}abrechnung/", views.SettlementView.as_view(), name="settlement"),
]
