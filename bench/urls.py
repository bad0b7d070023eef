"""The product's URLs with ``POST /api/v1/bench/ping/`` in front (before the API's catch-all
404), for ``bench.settings`` only."""

from django.urls import include, path

from config import urls as product

handler400 = product.handler400
handler403 = product.handler403
handler404 = product.handler404
handler500 = product.handler500

urlpatterns = [path("api/v1/", include("bench.pingapp.urls")), *product.urlpatterns]
