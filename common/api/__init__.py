"""REST API plumbing shared by the apps' endpoints under ``/api/v1/``: strict serializers and
the base view (``base``), the one error envelope and the handlers of Django's error pages
(``errors``), paging (``pagination``), OPTIONS answers (``metadata``) and the OpenAPI schema
helpers (``schema``)."""
