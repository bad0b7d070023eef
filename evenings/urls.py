from django.urls import path

from evenings import views

app_name = "evenings"

GROUPS = "verwaltung/vereine/<slug:club>/runden/"
GROUP = f"{GROUPS}<slug:runde>/"

urlpatterns = [
    path(GROUPS, views.GroupsView.as_view(), name="groups"),
    path(GROUP, views.GroupView.as_view(), name="group"),
    path(f"{GROUP}mitglieder/", views.MembersView.as_view(), name="members"),
    path(f"{GROUP}abend/<int:evening>/", views.EveningView.as_view(), name="evening"),
    path(f"{GROUP}abend/<int:evening>/tische/", views.TablesView.as_view(), name="tables"),
    path(f"{GROUP}abend/<int:evening>/schliessen/", views.CloseView.as_view(), name="close"),
    path(f"{GROUP}abend/<int:evening>/kasse/", views.BookView.as_view(), name="book"),
    path(
        "runden/<slug:club>/<slug:runde>/abend/<int:evening>/",
        views.ResultView.as_view(),
        name="result",
    ),
    path("spielabend/tisch/<str:token>/", views.TableView.as_view(), name="table"),
    path("spielabend/tisch/<str:token>/loeschen/", views.UndoView.as_view(), name="undo"),
]
