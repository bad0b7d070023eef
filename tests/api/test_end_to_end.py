"""A whole series through the API: create the tournament, register, draw, start, enter the
games as captains, submit, confirm, close, read the standings."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from tests.api.helpers import API, Entry, full_series, sheet_url
from tests.factories import api_client
from tournaments.models import Table


def test_a_series_through_the_api(alice_api: APIClient, public_api: APIClient) -> None:
    new = {"name": "Pfingstturnier", "slug": "pfingsten", "starts_on": "2027-05-15",
           "series_count": 1}  # fmt: skip
    assert alice_api.post(f"{API}/tournaments/", new, format="json").status_code == 201
    base = f"{API}/tournaments/pfingsten"
    for i in range(8):
        player = {"first_name": f"Spieler{i}", "last_name": f"Nr{i}", "checked_in": True}
        assert alice_api.post(f"{base}/registrations/", player, format="json").status_code == 201

    drawn = alice_api.post(f"{base}/series/1/draw/", {"seed": 7}, format="json")
    assert drawn.status_code == 200 and drawn.json()["table_count"] == 2
    assert alice_api.post(f"{base}/series/1/start/").json()["status"] == "running"
    tables: list[dict[str, Any]] = alice_api.get(f"{base}/series/1/tables/").json()["results"]
    assert len(tables) == 2

    for listed in tables:
        table = Table.objects.get(captain_token=listed["captain_token"])
        captain = api_client(table=table, device=f"phone-{table.number}-4")
        entry = Entry(captain, table)
        for payload, dealer in full_series():
            assert entry.post(payload, dealer).status_code == 201
        submitted = captain.post(sheet_url(table, "submit"), {"seat": 4}, format="json",
                             HTTP_IF_MATCH=str(entry.version))  # fmt: skip
        assert submitted.status_code == 200, submitted.json()
        player = api_client(table=table, device=f"phone-{table.number}-1")
        confirmed = player.post(sheet_url(table, "confirm"), {"seat": 1}, format="json")
        assert confirmed.json()["sheet"]["status"] == "confirmed"

    assert alice_api.post(f"{base}/series/1/close/").json()["status"] == "closed"
    assert public_api.get(f"{base}/").json()["status"] == "finished"

    overall = public_api.get(f"{base}/standings/")
    assert overall.status_code == 200
    rows = overall.json()["rows"]
    assert len(rows) == 8 and sum(r["total"] for r in rows) == 0
    assert all(r["games"] == 24 for r in rows) and all(r["compulsory"] == 1 for r in rows)
    assert [r["place"] for r in rows] == sorted(r["place"] for r in rows)
    series = public_api.get(f"{base}/series/1/standings/").json()
    assert series["series"] == 1 and len(series["rows"]) == 8
