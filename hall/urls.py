from django.urls import path

from hall import views

app_name = "hall"

urlpatterns = [
    path("turniere/<slug:slug>/halle/", views.DisplayView.as_view(), name="display"),
    path("turniere/<slug:slug>/halle/stand/", views.FragmentView.as_view(), name="fragment"),
    path("verwaltung/<slug:slug>/halle/", views.ManageView.as_view(), name="manage"),
]
