from django.urls import path

from tournaments.views import public

app_name = "tournaments"

urlpatterns = [
    path("turniere/", public.TournamentListView.as_view(), name="list"),
    path("turniere/<slug:slug>/", public.TournamentDetailView.as_view(), name="detail"),
]
