"""The OpenAPI schema: generated without warnings, valid, and served beside the API."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from rest_framework.test import APIClient


@pytest.mark.django_db
def test_schema_validates_without_warnings(tmp_path: Path) -> None:
    target = tmp_path / "schema.yml"
    call_command(
        "spectacular", "--validate", "--fail-on-warn",
        "--file", str(target),
    )  # fmt: skip
    schema = yaml.safe_load(target.read_text())
    paths = schema["paths"]
    games = "/api/v1/tournaments/{slug}/series/{number}/tables/{table}/games/"
    assert set(paths[games]) >= {"get", "post"}
    headers = {p["name"] for p in paths[games]["post"]["parameters"] if p["in"] == "header"}
    assert headers == {"If-Match", "Idempotency-Key"}
    assert "tableAuth" in schema["components"]["securitySchemes"]
    # A merge that lost its race to another request is 409 (tournaments.services.registry).
    merge = paths["/api/v1/players/{id}/merge/"]["post"]["responses"]
    assert {"200", "400", "401", "404", "409"} <= set(merge)


def test_schema_is_served(public_api: APIClient) -> None:
    response = public_api.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert "/api/v1/tournaments/" in response.json()["paths"]
