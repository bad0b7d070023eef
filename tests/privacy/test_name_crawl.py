"""The consent crawl (design decision 13): an anonymous visitor asks every public page and
every public API route (the privacy crawl's route list and URL values), in German and in
English, with every player under one name form; no answer may show more of a name than the
form allows. Seasons and leagues are in: their pages read the same players. The exports are
read as CSV and, asked again with ``?format=xlsx``, as workbooks: every cell of every sheet
(a workbook is zipped XML, so its bytes would never show a name)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.db.models import Q
from django.test import Client
from openpyxl import load_workbook
from rest_framework.test import APIClient

from common.actors import ORGANIZER, Actor
from seasons.services import SeasonData, attach_tournament, create_season
from tests.factories import make_tournament, make_user
from tests.test_privacy_crawl import PUBLIC_ROUTES, SEEN, _league, _paths, _played
from tournaments.models import Player, Tournament


@pytest.fixture
def things(db: None) -> dict[str, Any]:
    alice = make_user("alice")
    actor = Actor(ORGANIZER, user=alice)
    cup = _played(make_tournament("offen-pokal", 2, name="Offenpokal", organizers=[alice]))
    season = create_season(SeasonData(name="Offene Saison", slug="offen-saison"), actor=actor)
    attach_tournament(season, cup, actor=actor)
    league = _league(alice, "offen-liga", "Offenliga", public=True)
    for player in Player.objects.all():  # names found nowhere else on a page
        player.first_name, player.last_name = f"Xaveria{player.pk}z", f"Quellenberg{player.pk}z"
        player.save()
    tournaments = Tournament.objects.filter(Q(pk=cup.pk) | Q(team_group__match_day__league=league))
    return {
        "tournaments": {t.slug: t for t in tournaments},
        "seasons": [season],
        "leagues": [league],
    }


def _cells(workbook: bytes) -> str:
    """Every cell of every sheet of an XLSX answer, as text."""
    book = load_workbook(io.BytesIO(workbook), read_only=True)
    return "\n".join(
        " ".join("" if value is None else str(value) for value in row)
        for sheet in book.worksheets
        for row in sheet.iter_rows(values_only=True)
    )


def _crawl(things: dict[str, Any], language: str) -> dict[str, str]:
    page, api = Client(HTTP_ACCEPT_LANGUAGE=language), APIClient(HTTP_ACCEPT_LANGUAGE=language)
    answers = {}
    for route in PUBLIC_ROUTES:
        client = api if route.name.startswith("api:") else page
        for path, expected in _paths(route, things):
            if expected != SEEN:
                continue
            response = client.get(path)
            assert response.status_code == SEEN, path
            body = b"".join(response.streaming_content) if response.streaming else response.content
            answers[path] = body.decode("utf-8", "replace")
            if route.name.startswith("archive:"):  # the exports, also as a workbook
                workbook = client.get(path, {"format": "xlsx"})
                assert workbook.status_code == SEEN, path
                answers[f"{path}?format=xlsx"] = _cells(workbook.content)
    return answers


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("form", ["full", "initial", "anonymous"])
def test_every_public_answer_shows_what_the_consent_allows(
    things: dict[str, Any], form: str, language: str
) -> None:
    Player.objects.update(name_form=form)
    answers = _crawl(things, language)
    assert len(answers) > 40
    assert sum(path.endswith("?format=xlsx") for path in answers) >= 3
    everything = "\n".join(answers.values())
    players = list(Player.objects.filter(registrations__seats__isnull=False).distinct())
    assert players
    for player in players:
        full = f"{player.first_name} {player.last_name}"
        showing_last = [path for path, text in answers.items() if player.last_name in text]
        showing_first = [path for path, text in answers.items() if player.first_name in text]
        if form == "full":
            assert full in everything
            workbooks = [text for path, text in answers.items() if path.endswith("=xlsx")]
            assert any(full in text for text in workbooks), f"{full} in no workbook"
        elif form == "initial":
            assert not showing_last, f"{player.last_name} on {showing_last}"
            assert f"{player.first_name} Q." in everything
        else:
            assert not showing_last, f"{player.last_name} on {showing_last}"
            assert not showing_first, f"{player.first_name} on {showing_first}"
    if form == "anonymous":
        label = "Spieler" if language == "de" else "Player"
        assert f"{label} 1" in everything
