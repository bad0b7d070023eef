"""The public knockout bracket on a 390 px phone and a 1280 px hall screen: rounds stacked
on the phone and side by side on the wide screen, nothing wider than the screen, who
advances and the tie at the cut in words. ``KNOCKOUT_SHOTS=dir`` keeps screenshots."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.contexts import close_context
from tests.teams.knockouts import give_result, group_stage_done, round_groups, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAYOUT = """() => ({
  width: document.documentElement.scrollWidth,
  rounds: [...document.querySelectorAll('.bracket-round')].map(r => {
    const box = r.getBoundingClientRect();
    return {x: box.x, y: box.y};
  }),
})"""


@pytest.mark.parametrize(("width", "language"), [(390, "de"), (1280, "en")])
def test_the_bracket_fits_the_phone_and_the_hall(
    browser: Any, live_server: Any, alice: User, width: int, language: str
) -> None:
    league, _teams, squads = group_stage_done(
        alice, 12, slug="dmm", name="Deutsche Mannschaftsmeisterschaft"
    )
    start(alice, league)
    first = round_groups(league, 1)
    give_result(first[0], {"T4": 10, "T7": 40, "T9": 30, "T11": 0}, squads, alice)
    give_result(first[1], {"T6": 30, "T5": 40, "T8": 30, "T10": 0}, squads, alice)
    context = browser.new_context(viewport={"width": width, "height": 900})
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/ligen/dmm/ko/")
    page.wait_for_selector(".bracket-round")
    shots = os.environ.get("KNOCKOUT_SHOTS")
    if shots:
        page.screenshot(path=f"{shots}/bracket-{width}.png", full_page=True)
    layout = page.evaluate(LAYOUT)
    assert layout["width"] <= width, layout
    rounds = layout["rounds"]
    assert len(rounds) == 3
    if width < 600:
        assert rounds[0]["y"] < rounds[1]["y"] < rounds[2]["y"]  # stacked
    else:
        assert rounds[0]["x"] < rounds[1]["x"] < rounds[2]["x"]  # columns
    text = page.inner_text("main")
    if language == "de":
        assert "weiter" in text and "Entscheidung nötig" in text and "Freilos" in text
    else:
        assert "advances" in text and "Decision needed" in text and "Bye" in text
    close_context(context)
