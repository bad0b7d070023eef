"""Long names, clubs, contracts and penalty reasons are printed in full, in every document
kind and both languages: broken into lines or set smaller, never cut."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth.models import User

from common.actors import ORGANIZER, Actor
from documents import services
from documents.models import GeneratedDocument
from scoring.services.deductions import add_deduction
from scoring.services.entry import save_game
from tests.documents.pdftools import pdf_text, stored_pdf
from tests.factories import World, build_world, make_tournament
from tournaments.models import Table

pytestmark = pytest.mark.django_db

Kind = GeneratedDocument.Kind

TOURNAMENT = "Offene Stadtmeisterschaft der Doppelkopffreunde Mönchengladbach-Rheydt 2026"
VENUE = "Bürgerhaus Mönchengladbach-Rheydt, Großer Saal im Obergeschoss"
LONG_FIRST, LONG_LAST = "Klaus-Dieter", "Müller-Lüdenscheidt"
LONG_CLUB = "Doko-Club Testhausen-Niederrheinische Tiefebene e.V."
PLAYERS = [
    (LONG_FIRST, LONG_LAST, LONG_CLUB),
    ("Anna-Katharina", "von Hohenzollern-Sigmaringen", "Spielgemeinschaft Doppelkopf Nord"),
    ("Bernd", "Bäcker", ""),
    ("Carla", "Czerwinski", "Kreuz-Bube Köln"),
    ("Dieter", "Dörfler", ""),
    ("Erika", "Eichhorn", "Karlchen e.V."),
    ("Fritz", "Fischer", ""),
    ("Gisela", "Groß", ""),
    ("Hans", "Hübner", ""),
]
GAME_REASON = "Karte vorzeitig ausgespielt, Schiedsrichterentscheid nach Rücksprache"
PENALTY_REASON = "Unsportliches Verhalten gegenüber der Turnierleitung nach Ermahnung"


@pytest.fixture
def event(alice: User) -> World:
    """Series 1 running: table 1 with four players (the long name at seat 1), table 2 with
    five; table 1 has a game with penalty points (and a reason), a silent Hochzeit, and a
    deduction outside the games."""
    tournament = make_tournament(
        "lang", 3, name=TOURNAMENT, starts_on=dt.date(2026, 10, 3), venue=VENUE,
        organizers=[alice],
    )  # fmt: skip
    event = build_world(tournament, (4, 5), names=PLAYERS)
    actor = Actor(ORGANIZER, user=alice)
    table = Table.objects.select_related("series__tournament").get(pk=event.tables[0].pk)
    penalties = [
        {"seat": 1, "points": -3},
        {"seat": 2, "points": 1},
        {"seat": 3, "points": 1},
        {"seat": 4, "points": 1},
    ]
    normal = {"contract": "normal", "re": [2, 4], "re_points": 130}
    save_game(table, {**normal, "penalties": penalties}, actor=actor, reason=GAME_REASON)
    save_game(table, {"contract": "stille_hochzeit", "re": [3], "re_points": 150}, actor=actor)
    add_deduction(event.series, event.registrations[0], -2, PENALTY_REASON, actor)
    return event


def _flat(text: str) -> str:
    """Text as read from the PDF, whitespace (line breaks) normalised; a line broken after
    a hyphen is joined again."""
    return re.sub(r"-\s+", "-", " ".join(text.split()))


def _document(capture, kind, event, language):
    series = event.series if kind == Kind.PRINT_PACK else None
    with capture(execute=True):
        document = services.request_document(kind, event.tournament, series, language=language)
    document.refresh_from_db()
    assert document.status == "done", document.error
    return stored_pdf(document)


@pytest.mark.parametrize("language", ["de", "en"])
def test_print_pack_prints_long_names_and_clubs_in_full(
    event, django_capture_on_commit_callbacks, tmp_path, language
) -> None:
    pdf = _document(django_capture_on_commit_callbacks, Kind.PRINT_PACK, event, language)
    (tmp_path / f"pack-{language}.pdf").write_bytes(pdf)
    text = _flat(pdf_text(pdf, tmp_path, raw=True))
    # alphabetical seating list, "last, first"
    assert f"{LONG_LAST}, {LONG_FIRST}" in text
    assert "von Hohenzollern-Sigmaringen, Anna-Katharina" in text
    # by table, table card, score sheet: "first last"
    assert text.count(f"{LONG_FIRST} {LONG_LAST}") >= 4
    assert text.count(TOURNAMENT) >= 3
    assert VENUE in text
    referee = "Schiedsrichter (Strafpunkte)" if language == "de" else "Referee (penalty points)"
    assert referee in text
    assert "…" not in text


@pytest.mark.parametrize("language", ["de", "en"])
def test_results_print_long_names_clubs_contracts_and_penalties_in_full(
    event, django_capture_on_commit_callbacks, tmp_path, language
) -> None:
    pdf = _document(django_capture_on_commit_callbacks, Kind.RESULTS, event, language)
    (tmp_path / f"results-{language}.pdf").write_bytes(pdf)
    text = _flat(pdf_text(pdf, tmp_path, raw=True))
    assert f"{LONG_FIRST} {LONG_LAST}" in text
    assert text.count(LONG_CLUB) >= 2  # final standings and the series' standings
    assert "Spielgemeinschaft Doppelkopf Nord" in text
    silent = "Stille Hochzeit" if language == "de" else "Silent Hochzeit"
    assert silent in text
    # the game with penalty points: who, how many, why
    assert f"{LONG_FIRST} {LONG_LAST} -3 ({GAME_REASON})" in text
    # the deduction outside the games: a row of its own with the reason
    assert f"{LONG_FIRST} {LONG_LAST} -2 ({PENALTY_REASON})" in text
    assert "…" not in text
