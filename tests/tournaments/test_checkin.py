"""The list at the door: the counter follows every check-in tap (htmx, out of band)."""

from __future__ import annotations

import re

from django.test import Client

from tests.factories import add_players
from tournaments.models import Tournament


def counter(html: str) -> tuple[str, int, int]:
    match = re.search(
        r'<p id="checkin-counter"[^>]*?( hx-swap-oob="true")?><strong>(\d+)</strong> / (\d+) ',
        html,
    )
    assert match, html
    return match.group(1) or "", int(match.group(2)), int(match.group(3))


def test_checkin_toggle_sends_the_counter_out_of_band(
    alice_client: Client, tournament: Tournament
) -> None:
    registrations = add_players(tournament, 3, checked_in=False)
    assert counter(alice_client.get("/verwaltung/herbst/einlass/").content.decode()) == ("", 0, 3)

    def toggle(index: int, present: str) -> str:
        response = alice_client.post(
            f"/verwaltung/herbst/einlass/{registrations[index].pk}/",
            {"present": present},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 200
        return response.content.decode()

    html = toggle(0, "1")
    assert f'<li id="checkin-{registrations[0].pk}" class="checkin-row present">' in html
    assert counter(html) == (' hx-swap-oob="true"', 1, 3)
    assert counter(toggle(2, "1")) == (' hx-swap-oob="true"', 2, 3)
    assert counter(toggle(0, "0")) == (' hx-swap-oob="true"', 1, 3)
    # The search answer (hx-get into the list) carries the counter in place, not out of band.
    html = alice_client.get(
        "/verwaltung/herbst/einlass/?q=Nachname3", headers={"HX-Request": "true"}
    ).content.decode()
    assert counter(html) == ("", 1, 3)


def test_checkin_without_htmx_redirects_back(alice_client: Client, tournament: Tournament) -> None:
    (registration,) = add_players(tournament, 1, checked_in=False)
    response = alice_client.post(f"/verwaltung/herbst/einlass/{registration.pk}/", {"present": "1"})
    assert response["Location"] == "/verwaltung/herbst/einlass/"
    registration.refresh_from_db()
    assert registration.checked_in
