"""The project's URLs with the API included (until ``config/urls.py`` includes it itself)."""

from django.urls import include, path

from config.urls import urlpatterns as project_urlpatterns

urlpatterns = list(project_urlpatterns)
if not any(getattr(p, "namespace", None) == "api" for p in urlpatterns):
    urlpatterns.insert(0, path("api/v1/", include("config.api_urls")))
