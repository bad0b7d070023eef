"""The organizer's overview tells a tournament that has not started what comes next."""

from __future__ import annotations

from django.contrib.auth.models import User

from tests.factories import add_players, make_tournament, page_client, set_status


def hint(html: str) -> str:
    return html.split('id="next-step"')[1].split("</article>")[0] if "next-step" in html else ""


def test_next_step_follows_the_tournament_until_it_runs(alice: User) -> None:
    tournament = make_tournament(organizers=[alice], status="draft")
    client = page_client(alice, language="en")
    page = f"/verwaltung/{tournament.slug}/"
    assert "register the players" in hint(client.get(page).content.decode())
    add_players(tournament, 8)
    step = hint(client.get(page).content.decode())
    assert "draw series 1" in step and f"/verwaltung/{tournament.slug}/serie/1/" in step
    first = tournament.series.get(number=1)
    set_status(first, "drawn")
    step = hint(client.get(page).content.decode())
    assert "print the pack of series 1" in step
    assert f"/verwaltung/{tournament.slug}/serie/1/druck/" in step
    set_status(first, "running")
    assert hint(client.get(page).content.decode()) == ""
