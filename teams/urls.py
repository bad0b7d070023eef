from django.urls import path

from teams.views import captain, knockout, lists, organizer, public

app_name = "teams"

urlpatterns = [
    # Public
    path("ligen/", lists.LeagueListView.as_view(), name="list"),
    path("ligen/<slug:league>/", public.LeagueDetailView.as_view(), name="detail"),
    path("ligen/<slug:league>/teams/<int:team>/", public.TeamView.as_view(), name="team"),
    path(
        "ligen/<slug:league>/einzelwertung/",
        public.IndividualRankingView.as_view(),
        name="individual",
    ),
    path(
        "ligen/<slug:league>/einzelwertung/export/",
        public.IndividualExportView.as_view(),
        name="individual-export",
    ),
    path("ligen/<slug:league>/ko/", knockout.BracketView.as_view(), name="bracket"),
    path("ligen/<slug:league>/ko/pdf/", knockout.BracketPdfView.as_view(), name="bracket-pdf"),
    # The team captain's private link
    path("mannschaft/<str:team_token>/", captain.TeamCaptainView.as_view(), name="captain"),
    # Owners (before the tournaments' /verwaltung/<slug>/ in config/urls.py)
    path("verwaltung/ligen/", lists.MyLeaguesView.as_view(), name="mine"),
    path("verwaltung/ligen/neu/", organizer.LeagueCreateView.as_view(), name="create"),
    path(
        "verwaltung/ligen/<slug:league>/bearbeiten/",
        organizer.LeagueUpdateView.as_view(),
        name="edit",
    ),
    path(
        "verwaltung/ligen/<slug:league>/mannschaften/",
        organizer.TeamsView.as_view(),
        name="teams",
    ),
    path(
        "verwaltung/ligen/<slug:league>/spieltage/",
        organizer.ScheduleView.as_view(),
        name="schedule",
    ),
    path(
        "verwaltung/ligen/<slug:league>/gruppen/<int:group>/",
        organizer.GroupView.as_view(),
        name="group",
    ),
    path(
        "verwaltung/ligen/<slug:league>/ko/",
        knockout.KnockoutView.as_view(),
        name="knockout",
    ),
]
