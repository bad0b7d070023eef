"""The error JSON: shape, language, unknown addresses, methods and media types."""

from __future__ import annotations

from rest_framework.test import APIClient

from tests.api.helpers import API, NORMAL, games_url
from tests.factories import api_client
from tournaments.models import Table


def test_unknown_address_answers_json(public_api: APIClient) -> None:
    response = public_api.get(f"{API}/nothing/here/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert public_api.get(f"{API}/tournaments/none/").json()["error"]["code"] == "not_found"


def test_method_not_allowed(public_api: APIClient, table: Table) -> None:
    response = public_api.patch(games_url(table), {}, format="json")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


def test_messages_german_by_default_english_on_request(table: Table) -> None:
    body = {**NORMAL, "dealer": 1, "re_points": 250}
    headers = {"HTTP_IF_MATCH": "0", "HTTP_IDEMPOTENCY_KEY": "lang"}
    german = api_client(table=table).post(games_url(table), body, format="json", **headers)
    english = api_client(table=table, lang="en").post(
        games_url(table), body, format="json", **headers
    )
    assert english.json()["error"]["message"] == "Re's card points lie between 0 and 240."
    assert german.json()["error"]["message"] != english.json()["error"]["message"]
    assert german.json()["error"]["code"] == english.json()["error"]["code"]
    anonymous = api_client().post(f"{API}/tournaments/", {}, format="json")
    assert anonymous.json()["error"]["message"] == "Anmeldedaten fehlen."


def test_several_field_errors_are_all_listed(alice_api: APIClient) -> None:
    response = alice_api.post(f"{API}/tournaments/", {}, format="json")
    error = response.json()["error"]
    assert error["code"] == "required"
    assert {d["field"] for d in error["details"]} == {"name", "slug", "starts_on"}


def test_huge_numbers_in_the_address_are_not_found(public_api: APIClient, table: Table) -> None:
    response = public_api.get(f"{API}/tournaments/herbst/series/99999999999999999999/tables/")
    assert response.status_code == 404
    assert public_api.get(f"{API}/tournaments/herbst/series/999999999/tables/").status_code == 404


def test_odd_query_strings_and_headers(
    public_api: APIClient, alice_api: APIClient, table: Table
) -> None:
    huge = "9" * 30
    assert public_api.get(f"{API}/tournaments/?offset={huge}&limit={huge}").status_code == 200
    assert public_api.get(f"{games_url(table)}?offset=-5&limit=abc").status_code == 200
    assert alice_api.get(f"{API}/players/?q=a%00b").status_code == 200
    response = public_api.get(f"{API}/tournaments/", HTTP_ACCEPT="text/html")
    assert response.status_code == 406
    assert response.json()["error"]["code"] == "not_acceptable"
    bad = alice_api.post(f"{API}/tournaments/herbst/registrations/", {"player": 2**70},
                         format="json")  # fmt: skip
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "does_not_exist"
    nul = APIClient()
    nul.credentials(HTTP_AUTHORIZATION="Table abc\x00def")
    assert nul.get(games_url(table)).status_code == 401


def test_options_answers_without_introspection(public_api: APIClient, table: Table) -> None:
    for url in (f"{API}/tournaments/", games_url(table), games_url(table, 1), f"{API}/captain/"):
        response = public_api.options(url)
        assert response.status_code in (200, 401), (url, response.status_code)
    assert public_api.options(games_url(table)).json()["name"]
