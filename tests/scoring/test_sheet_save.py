"""A game saved from the sheet page: one replay of the sheet, and with the page's script
(htmx, or the outbox's request) one round trip that answers the updated sheet."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from rules.replay import Replay
from scoring.models import Game, ScoreSheet
from tests.factories import RE_WINS as NORMAL
from tests.factories import make_tournament, play, running_table
from tournaments.models import Table

HTMX = {"HTTP_HX_REQUEST": "true"}
SOLOS = [{"contract": "solo", "solo": "damen", "re": [s], "re_points": 121} for s in (2, 3, 4, 1)]


@pytest.fixture
def table(db: None) -> Table:
    return running_table(make_tournament())


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per replay of a sheet (every replay is one ``rules.replay.Replay``)."""
    made: list[int] = []
    original = Replay.__init__

    def counting(self: Replay, *args: Any, **kwargs: Any) -> None:
        made.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(Replay, "__init__", counting)
    return made


def url(table: Table, suffix: str = "") -> str:
    return f"/tisch/{table.captain_token}/{suffix}"


def form(**fields: Any) -> dict[str, Any]:
    data = {"contract": "normal", "re_players": ["1", "3"], "re_points": "130", "version": "0"}
    return {"idempotency_key": "key-0001", **data, **fields}


def main_part(html: str) -> str:
    """The sheet's main part from the heading on, without what changes per answer (the
    form's idempotency key, the CSRF token)."""
    part = html[html.index('<hgroup class="captain-head">') :]
    part = part.split("</main>")[0]
    part = re.sub(r'name="idempotency_key" value="\w+"', "KEY", part)
    return re.sub(r'name="csrfmiddlewaretoken" value="\w+"', "CSRF", part).strip()


def test_a_plain_form_post_still_redirects(
    client: Client, table: Table, replays: list[int]
) -> None:
    response = client.post(url(table, "spiel/"), form())
    assert response.status_code == 302 and response["Location"] == url(table)
    assert len(replays) == 1  # the save's own
    page = client.get(url(table)).content.decode()
    assert "Spiel 1 gespeichert: Wert 1." in page and len(replays) == 2


def test_an_htmx_save_answers_the_sheet_with_a_fresh_form(
    client: Client, table: Table, replays: list[int]
) -> None:
    response = client.post(url(table, "spiel/"), form(), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and len(replays) == 1
    assert "<html" not in html and "<title>" in html
    assert "Spiel 1 gespeichert: Wert 1." in html  # the flash, above the sheet
    assert '<tr data-number="1"' in html and "Spiel 2" in html
    key = re.search(r'name="idempotency_key" value="(\w+)"', html)
    assert key is not None and key.group(1) != "key-0001"  # the next game's form
    assert 'name="re_points"' in html and 'value="130"' not in html
    assert 'name="version" value="1"' in html
    assert Game.objects.get().value == 1
    # What the save answered is what the page shows when it is loaded again.
    assert main_part(html) == main_part(client.get(url(table)).content.decode())


def test_the_last_game_saved_through_htmx_answers_the_step_to_submit(
    client: Client, table: Table, replays: list[int]
) -> None:
    play(table, [NORMAL] * 20 + SOLOS[:3])
    replays.clear()
    solo = form(contract="solo", solo="damen", soloist="1", re_players=[], re_points="121")
    response = client.post(url(table, "spiel/"), {**solo, "version": "23"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and len(replays) == 1, html[:2000]
    assert "Liste abgeben" in html and 'name="re_points"' not in html
    assert main_part(html) == main_part(client.get(url(table)).content.decode())


def test_an_htmx_save_with_errors_keeps_what_was_typed(client: Client, table: Table) -> None:
    response = client.post(url(table, "spiel/"), form(re_points="100", re_tricks="1"), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert "Diese Stiche können diese Augen nicht enthalten." in html
    assert 'value="100"' in html and 'name="idempotency_key" value="key-0001"' in html
    assert not Game.objects.exists()


def test_an_htmx_save_on_a_changed_sheet_is_a_conflict(client: Client, table: Table) -> None:
    play(table, [NORMAL])
    response = client.post(url(table, "spiel/"), form(version="0"), **HTMX)
    html = response.content.decode()
    assert response.status_code == 409 and "<html" not in html
    assert "auf einem anderen Gerät geändert" in html and 'value="130"' in html
    assert Game.objects.count() == 1


def test_an_htmx_correction_goes_back_to_the_sheets_address(client: Client, table: Table) -> None:
    play(table, [NORMAL, NORMAL])
    response = client.post(url(table, "spiel/1/"), form(version="2"), **HTMX)
    assert response.status_code == 200 and response["HX-Push-Url"] == url(table)
    html = response.content.decode()
    assert "Spiel 1 korrigiert." in html and "Spiel 3" in html


def test_an_htmx_save_on_a_submitted_sheet_loads_the_page(client: Client, table: Table) -> None:
    play(table, [NORMAL])
    ScoreSheet.objects.filter(table=table).update(status=ScoreSheet.Status.SUBMITTED)
    response = client.post(url(table, "spiel/"), form(version="1"), **HTMX)
    assert response.status_code == 200 and response["HX-Redirect"] == url(table)
    assert Game.objects.count() == 1


def test_the_outbox_gets_the_page_in_its_answer_when_it_asks(
    client: Client, table: Table, replays: list[int]
) -> None:
    sync = url(table, "ausgang/")
    plain = client.post(sync, form(number="1"))
    assert plain.status_code == 201 and "page_html" not in plain.json()
    replays.clear()
    asked = client.post(
        sync, form(number="2", version="1", idempotency_key="key-0002"), HTTP_X_OUTBOX_PAGE="main"
    )
    answer = asked.json()
    assert asked.status_code == 201 and answer["status"] == "accepted" and len(replays) == 1
    html = answer["page_html"]
    assert '<tr data-number="2"' in html and "Spiel 3" in html
    assert "Spiel 2 gespeichert: Wert 1." in html and 'name="version" value="2"' in html
    assert main_part(html) == main_part(client.get(url(table)).content.decode())
    # The position and the game's row are read from the page the answer built.
    assert answer["sheet_version"] == 2 and answer["next_number"] == 3
    assert answer["number"] == 2 and answer["value"] == 1
    assert answer["row_html"].startswith('<tr data-number="2"')


def test_the_outbox_answer_leaves_out_the_parts_the_phone_shows(
    client: Client, table: Table
) -> None:
    """The next game's blank form and the outbox's section come back as the page showed
    them: the phone names their digests and keeps its copies (scoring/swap_parts.py)."""
    shown = client.get(url(table)).content.decode()
    digests = re.findall(r'data-keep="([0-9a-f]{12})"', shown)
    assert len(digests) == 3  # the form, the referee's box and the outbox's section
    sync = url(table, "ausgang/")
    asked = client.post(
        sync,
        form(number="1"),
        HTTP_X_OUTBOX_PAGE="main",
        HTTP_X_SHEET_PARTS=",".join(digests),
    )
    html = asked.json()["page_html"]
    assert asked.status_code == 201
    assert re.findall(r'<template data-kept="([0-9a-f]{12})"></template>', html) == digests
    assert "game-form" not in html and 'id="outbox"' not in html and 'id="schiri"' not in html
    assert '<tr data-number="1"' in html and "Spiel 2" in html and 'id="sheet-data"' in html
    whole = client.get(url(table)).content.decode()
    for code in digests:  # the page as loaded now has the same parts
        assert f'data-keep="{code}"' in whole
    fresh = client.post(
        sync,
        form(number="2", version="1", idempotency_key="key-0002"),
        HTTP_X_OUTBOX_PAGE="main",
    )
    assert "game-form" in fresh.json()["page_html"]  # nothing named: everything comes


def test_a_five_player_tables_next_form_comes_whole(client: Client, db: None) -> None:
    """The seat that sits out moves with the dealer: the next game's form has other seats."""
    five = running_table(make_tournament(slug="five"), size=5)
    shown = client.get(url(five)).content.decode()
    digests = re.findall(r'data-keep="([0-9a-f]{12})"', shown)
    asked = client.post(
        url(five, "ausgang/"),
        form(number="1", sitting_out="1", re_players=["2", "3"]),
        HTTP_X_OUTBOX_PAGE="main",
        HTTP_X_SHEET_PARTS=",".join(digests),
    )
    html = asked.json()["page_html"]
    assert asked.status_code == 201
    assert 'class="game-form"' in html and 'name="sitting_out" value="2"' in html
    assert 'id="outbox"' not in html  # the outbox's section is the same


def test_the_captain_page_previews_and_saves_by_its_own_script(
    client: Client, table: Table
) -> None:
    """No htmx on the captain page: js/sheet.js (in js/captain.js) asks data-preview after a
    pause (400 ms after a change, 1 s after a keystroke; tests/browser/test_sheet_swap.py)
    and saves."""
    html = client.get(url(table)).content.decode()
    preview = html.split('id="preview"')[1].split(">")[0]
    assert f'data-preview="{url(table, "vorschau/")}"' in preview
    assert "htmx.min.js" not in html and "<script nonce=" in html and "/css/captain.css" in html
    form = html.split('<form method="post" action="' + url(table, "spiel/"))[1].split(">")[0]
    assert "hx-" not in form
