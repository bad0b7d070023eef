"""The keep-apart page on a 390 px phone, in German and in English: a pair added by choosing
two players, a refused pair with its error beside the field and both choices kept, the list
with long names. The page passes the every-page checks (no overflow, whole table rows, no
developer text, the right language, axe) and its screenshot is 390 px wide."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser.contexts import close_context
from tests.browser.phone import signed_in_phone, submit
from tests.browser.test_cashbox_phone import png_width
from tests.browser.test_every_page import (
    CHECKS_JS,
    WIDTH,
    Visit,
    axe_problems,
    check_page,
    text_problems,
)
from tests.factories import add_players, make_tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    ("Klaus-Dieter", "Müller-Lüdenscheidt", "Doko-Freunde Münster-Hiltrup"),
    ("Anna-Lena", "Schmidt-Wöhrmann", "Doko-Freunde Münster-Hiltrup"),
    ("Bernd", "Meier"),
    ("Claudia", "Meier"),
    ("Dora", "Becker"),
]


@pytest.mark.parametrize("language", ["de", "en"])
def test_keep_apart_fits_a_phone(
    live_server: Any, browser: Any, language: str, tmp_path: Path
) -> None:
    owner = User.objects.create_user("turnierleitung")
    tournament = make_tournament("herbst", 3, name="Herbstturnier", organizers=[owner])
    players = add_players(tournament, names=NAMES)
    base = live_server.url
    context, page = signed_in_phone(browser, base, language, owner)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    path = f"/verwaltung/{tournament.slug}/getrennt/"
    problems = check_page(
        page, console, Visit("keep-apart", "organizer", "", path, None), language, base
    )

    def checked(name: str) -> None:
        found = page.evaluate(CHECKS_JS)
        if found["scroll"] > WIDTH:
            problems.append(f"{name}: {found['scroll']} px wide: {found['wide']}")
        problems.extend(f"{name}: {p}" for p in found["tables"])
        problems.extend(f"{name}: {p}" for p in text_problems(found["text"], language))
        problems.extend(f"{name}: axe {p}" for p in axe_problems(page))
        shot = tmp_path / f"{name}.png"
        page.screenshot(path=str(shot), full_page=True)
        if png_width(shot) != WIDTH:
            problems.append(f"{name}: screenshot {png_width(shot)} px wide")
        shutil.copy(shot, Path("/tmp") / f"keep-apart-{language}-{name}.png")

    first, second = str(players[0].pk), str(players[1].pk)
    page.select_option("#id_first", first)
    page.select_option("#id_second", second)
    submit(page, "form[novalidate] button[type=submit]")
    assert page.locator("tbody tr").count() == 1
    # The same pair again, in the other order: refused beside the field, choices kept.
    page.select_option("#id_first", second)
    page.select_option("#id_second", first)
    submit(page, "form[novalidate] button[type=submit]")
    assert page.locator("#id_second-errors").is_visible()
    assert page.input_value("#id_first") == second and page.input_value("#id_second") == first
    checked("refused")
    page.select_option("#id_first", str(players[2].pk))
    page.select_option("#id_second", str(players[3].pk))
    submit(page, "form[novalidate] button[type=submit]")
    assert page.locator("tbody tr").count() == 2
    checked("two pairs")
    close_context(context)
    assert not problems, "\n".join(problems)
