from django.urls import path

from scoring.views import captain

app_name = "scoring"

urlpatterns = [
    path("tisch/<str:token>/", captain.TableHomeView.as_view(), name="captain"),
]
