"""Organizer pages in the states where their forms no longer apply: the progress board of a
closed series stops refreshing; the close page leads to each unconfirmed sheet."""

from __future__ import annotations

from django.contrib.auth.models import User

from common.actors import ORGANIZER, Actor
from scoring.services.closing import close_series
from tests.factories import make_tournament, page_client, running_table
from tournaments.models import Series


def test_closed_progress_board_stops_refreshing(alice: User) -> None:
    tournament = make_tournament(organizers=[alice])
    running_table(tournament)
    board = f"/verwaltung/{tournament.slug}/serie/1/fortschritt/"
    client = page_client(alice, language="en")
    running = client.get(board).content.decode()
    assert 'hx-trigger="every 10s"' in running and "refreshes every 10 seconds" in running
    series = Series.objects.get(tournament=tournament, number=1)
    close_series(series, actor=Actor(ORGANIZER, user=alice), past_unfinished=True)
    closed = client.get(board).content.decode()
    assert "hx-trigger" not in closed and "refreshes every 10 seconds" not in closed
    assert "no longer refreshes" in closed
    polled = client.get(board, HTTP_HX_REQUEST="true")  # a board left open while it closed
    assert polled.status_code == 286  # htmx stops polling, and shows the answer
    assert "no longer refreshes" in polled.content.decode()


def test_close_page_links_each_unconfirmed_table_to_its_sheet(alice: User) -> None:
    tournament = make_tournament(organizers=[alice])
    first, second = running_table(tournament), running_table(tournament, number=2)
    html = page_client(alice, language="en").get(
        f"/verwaltung/{tournament.slug}/serie/1/abschliessen/"
    )
    page = html.content.decode()
    for table in (first, second):
        assert (
            f'href="/verwaltung/{tournament.slug}/tisch/{table.pk}/">table {table.number}' in page
        )


def test_deductions_before_the_draw_offer_no_empty_form(alice: User) -> None:
    tournament = make_tournament(organizers=[alice])
    client = page_client(alice, language="en")
    page = client.get(f"/verwaltung/{tournament.slug}/serie/1/strafen/").content.decode()
    assert "Nobody is seated in this series yet" in page and "Record deduction" not in page
    running_table(tournament)
    page = client.get(f"/verwaltung/{tournament.slug}/serie/1/strafen/").content.decode()
    assert "Record deduction" in page and "Nobody is seated" not in page
