from django.urls import path

from scoring.views import captain

app_name = "scoring"

urlpatterns = [
    path("tisch/<str:token>/", captain.TableHomeView.as_view(), name="captain"),
    path("tisch/<str:token>/spiel/", captain.GameSaveView.as_view(), name="captain-game"),
    path(
        "tisch/<str:token>/spiel/<int:number>/",
        captain.GameSaveView.as_view(),
        name="captain-correct",
    ),
    path("tisch/<str:token>/vorschau/", captain.PreviewView.as_view(), name="captain-preview"),
    path("tisch/<str:token>/loeschen/", captain.DeleteLastView.as_view(), name="captain-delete"),
    path("tisch/<str:token>/abgeben/", captain.SubmitView.as_view(), name="captain-submit"),
    path("tisch/<str:token>/bestaetigen/", captain.ConfirmView.as_view(), name="captain-confirm"),
]
