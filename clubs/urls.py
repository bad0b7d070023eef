from django.urls import path

from clubs import views

app_name = "clubs"

urlpatterns = [
    path("verwaltung/vereine/", views.MyClubsView.as_view(), name="mine"),
    path("verwaltung/vereine/einladung/<str:token>/", views.AcceptView.as_view(), name="accept"),
    path("verwaltung/vereine/<slug:club>/", views.ClubView.as_view(), name="detail"),
    path("verwaltung/vereine/<slug:club>/einladen/", views.InviteView.as_view(), name="invite"),
    path(
        "verwaltung/vereine/<slug:club>/einladungen/<int:pk>/zurueckziehen/",
        views.WithdrawInvitationView.as_view(),
        name="withdraw-invitation",
    ),
    path(
        "verwaltung/vereine/<slug:club>/mitglieder/",
        views.MemberActionView.as_view(),
        name="members",
    ),
    path(
        "verwaltung/vereine/<slug:club>/datenschutz/",
        views.PrivacyEditView.as_view(),
        name="privacy-edit",
    ),
    path("vereine/<slug:club>/datenschutz/", views.PrivacyView.as_view(), name="privacy"),
]
