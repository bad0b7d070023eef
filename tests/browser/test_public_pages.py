"""The public pages on a 390 px phone, in German and English: nothing wider than the screen,
every table row under its headings; and the seating search filtering as one types."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import ScoreSheet
from tests.browser.contexts import close_context
from tests.factories import add_players, make_tournament, play, seat_table, set_status
from tournaments.models import Player, Series

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAMES = [
    {"contract": "normal", "re": [1, 3], "re_points": 130, "announcements": {"re": "ansage"}},
    {"contract": "normal", "re": [1, 2], "re_points": 100, "extras": {"re": {"fuchs": 1}}},
    {"contract": "solo", "solo": "damen", "re": [3], "re_points": 150},
]
CHECK = """() => ({
  width: document.documentElement.scrollWidth,
  // Data tables; a table of figures names each row in its first cell and has no header.
  tables: [...document.querySelectorAll('table')].filter(t => t.tHead).map(t => {
    const count = r => [...r.cells].reduce((n, c) => n + c.colSpan, 0);
    return {head: count(t.tHead.rows[0]), rows: [...t.tBodies[0].rows].map(count)};
  }),
})"""


@pytest.fixture
def tournament(db) -> Any:
    """Long names and clubs; series 1 closed, series 2 running with one table finished."""
    tournament = make_tournament(slug="lang", venue="Bürgerhaus Am Markt")
    tournament.name = "Offene Stadtmeisterschaft im Doppelkopf der Vereine"
    tournament.save(update_fields=["name"])
    players = add_players(tournament, 8)
    for registration in players[:2]:
        Player.objects.filter(pk=registration.player_id).update(
            first_name="Klaus-Dieter", last_name="Müller-Lüdenscheidt", club="Doko-Club Testhausen"
        )
    first, second = tournament.series.order_by("number")
    set_status(first, Series.Status.RUNNING)
    play(seat_table(first, players[:4], 1), GAMES)
    play(seat_table(first, players[4:], 2), GAMES)
    set_status(first, Series.Status.CLOSED)
    set_status(second, Series.Status.RUNNING)
    done = seat_table(second, [players[0], players[4], players[1], players[5]], 1)
    play(done, GAMES)
    play(seat_table(second, [players[2], players[6], players[3], players[7]], 2), GAMES)
    ScoreSheet.objects.filter(table=done).update(status=ScoreSheet.Status.SUBMITTED)
    return tournament


PAGES = [
    "/turniere/",
    "/turniere/lang/",
    "/turniere/lang/serie/1/",
    "/turniere/lang/serie/2/?q=m%C3%BCller",
    "/turniere/lang/tabelle/",
    "/turniere/lang/tabelle/?serien=1",
    "/turniere/lang/serie/1/tabelle/",
    "/turniere/lang/serie/2/tabelle/",
    "/turniere/lang/spieler/1/",
    "/turniere/lang/spieler/3/",
]


@pytest.mark.parametrize("language", ["de", "en"])
def test_public_pages_fit_a_phone(live_server, browser, tournament, language: str) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale=language, is_mobile=True, has_touch=True
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    try:
        for path in PAGES:
            assert page.goto(live_server.url + path).status == 200, path
            found = page.evaluate(CHECK)
            assert found["width"] <= 390, (path, found["width"])
            for table in found["tables"]:
                assert table["rows"] and set(table["rows"]) == {table["head"]}, (path, table)
    finally:
        close_context(context)


def test_seating_search_filters_while_typing(live_server, phone, tournament) -> None:
    phone.goto(f"{live_server.url}/turniere/lang/serie/2/")
    lines = phone.locator("[data-seating-line]:visible")
    assert lines.count() == 8
    phone.fill("input[name=q]", "muller")
    assert lines.count() == 2
    assert phone.locator("[data-seating-table]:visible").count() == 1
    assert phone.locator("li.match").count() == 2
    phone.fill("input[name=q]", "niemand")
    assert lines.count() == 0
    assert phone.locator("[data-seating-none]").is_visible()
    phone.fill("input[name=q]", "")
    assert lines.count() == 8 and phone.locator("[data-seating-table]:visible").count() == 2


def test_a_season_page_fits_a_phone_and_opens_a_line(live_server, browser, tmp_path) -> None:
    """130 players (two pages), long names: the first page fits 390 px, a line opened
    loads its explanation; the screenshot is left in ``tmp_path`` for a look."""
    from django.contrib.auth.models import User

    from tests.seasons.helpers import played, season_of

    owner = User.objects.create_user("saisonleiter")
    clubs = {f"Klaus-Dieter{i} Müller-Lüdenscheidt": "Doko-Club Testhausen" for i in range(3)}
    results = {name: [30 - i, 5] for i, name in enumerate(clubs)}
    results.update({f"Spieler{i} Nachname{i}": [i % 40, None] for i in range(127)})
    tournaments = [
        played(owner, "herbst", "2026-10-03", results, clubs=clubs),
        played(owner, "winter", "2026-11-07", {name: [4, 4] for name in list(results)[:20]}),
    ]
    season_of(owner, tournaments, overrides={"min_series": 3}, slug="rangliste", name="Rangliste")
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="de", is_mobile=True, has_touch=True
    )
    context.add_cookies([{"name": "django_language", "value": "de", "url": live_server.url}])
    page = context.new_page()
    try:
        assert page.goto(live_server.url + "/saisons/rangliste/").status == 200
        found = page.evaluate(CHECK)
        assert found["width"] <= 390, found["width"]
        for table in found["tables"]:
            assert table["rows"] and set(table["rows"]) == {table["head"]}, table
        assert page.locator("nav.season-pager a[aria-current=page]").inner_text() == "1"
        first = page.locator("details.season-explanation").first
        first.locator("summary").click()
        first.locator("li.why-counted").first.wait_for()
        assert "zählt" in first.inner_text()
        assert page.evaluate(CHECK)["width"] <= 390
        page.screenshot(path=str(tmp_path / "season.png"), full_page=False)
        page.locator("nav.season-pager").screenshot(path=str(tmp_path / "pager.png"))
        page.fill("input[name=q]", "muller")
        page.locator("form.club-filter button").click()
        page.wait_for_url("**q=muller**")
        assert page.locator("table.season-ranking tbody tr").count() == 3
    finally:
        close_context(context)
    print(tmp_path / "season.png")
