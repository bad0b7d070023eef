from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.generic import TemplateView

from common.api.schema import DocsView, SchemaView
from config.health import healthz

# Django's error pages: the error JSON under /api/, the usual pages elsewhere.
handler400 = "common.api.errors.bad_request"
handler403 = "common.api.errors.permission_denied"
handler404 = "common.api.errors.page_not_found"
handler500 = "common.api.errors.server_error"

urlpatterns = [
    path("", TemplateView.as_view(template_name="landing.html"), name="landing"),
    path("healthz", healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/v1/schema/", SchemaView.as_view(), name="api-schema"),
    path("api/v1/docs/", DocsView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/v1/", include("config.api_urls")),
    path("", include("clubs.urls")),
    path("", include("cashbox.urls")),
    path("", include("evenings.urls")),
    # Seasons first: /verwaltung/saisons/ is not a tournament's /verwaltung/<slug>/.
    path("", include("seasons.urls")),
    # Leagues too: /verwaltung/ligen/ is not a tournament's /verwaltung/<slug>/.
    path("", include("teams.urls")),
    # Before the tournaments' pages: /verwaltung/import/ is not a tournament's short name.
    path("", include("archive.urls")),
    # And the cash desks: /verwaltung/kasse/ is not a tournament's /verwaltung/<slug>/.
    path("", include("fees.urls")),
    path("", include("tournaments.urls")),
    path("", include("scoring.urls")),
    path("", include("documents.urls")),
    path("", include("hall.urls")),
]
