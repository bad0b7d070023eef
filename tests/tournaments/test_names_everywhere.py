"""Every list of people sorts as a German list does and every name search finds a name
however it is typed (``tournaments.names``), the same on SQLite and PostgreSQL: the check-in
list, the registrations, the registry, the seating page, the players API, squad search."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from clubs.services import personal_club
from teams.squads import search_candidates
from tests.factories import add_players, seat_table
from tests.teams.helpers import league_with_teams
from tournaments.models import Player, Series, Tournament
from tournaments.names import by_name, found, search_words

NAMES = [("Zoe", "Zander"), ("Ömer", "Öztürk"), ("Bernd", "Brückner"), ("Anna", "Bäcker"),
         ("Hans", "Müller"), ("Eva", "Weiß"), ("Jens", "Strauß"), ("Karl", "Abel")]  # fmt: skip
IN_ORDER = ["Abel", "Bäcker", "Brückner", "Müller", "Öztürk", "Strauß", "Weiß", "Zander"]
# (typed, the one it must find)
SEARCHES = [("muller", "Müller"), ("Mueller", "Müller"), ("MÜLLER", "Müller"),
            ("weiss", "Weiß"), ("Weiss", "Weiß"), ("strauss", "Strauß"), ("oeztuerk", "Öztürk"),
            ("backer", "Bäcker"), ("Baecker", "Bäcker")]  # fmt: skip


def order_in(html: str) -> list[str]:
    positions = {name: html.find(name) for name in IN_ORDER}
    assert all(p >= 0 for p in positions.values()), positions
    return sorted(IN_ORDER, key=positions.__getitem__)


def shown(html: str) -> set[str]:
    return {name for name in IN_ORDER if name in html}


class _P:
    def __init__(self, first: str, last: str) -> None:
        self.first_name, self.last_name = first, last


def test_the_fold_and_the_order() -> None:
    assert [p.last_name for p in by_name(_P(f, last) for f, last in NAMES)] == IN_ORDER
    for typed, name in SEARCHES:
        assert found(search_words(typed), name), typed
    assert found(search_words("er"), "Bauer")  # the folded form is compared as well
    assert not found(search_words("muller"), "Miller")
    assert found(search_words(""), "anyone")


@pytest.fixture
def field(tournament: Tournament) -> Tournament:
    add_players(tournament, names=NAMES)
    return tournament


def test_checkin_list_is_in_german_order_and_finds_every_spelling(
    alice_client: Client, field: Tournament
) -> None:
    page = alice_client.get("/verwaltung/herbst/einlass/").content.decode()
    assert order_in(page) == IN_ORDER
    for typed, name in SEARCHES:
        html = alice_client.get(
            "/verwaltung/herbst/einlass/", {"q": typed}, headers={"HX-Request": "true"}
        ).content.decode()
        assert shown(html) == {name}, typed
    html = alice_client.get("/verwaltung/herbst/einlass/", {"q": "4"}).content.decode()
    assert "Bäcker" in html  # start number 4
    for junk in ("x" * 100_000, "\u0301", "%", "ß" * 3):  # read at most 100 characters
        assert alice_client.get("/verwaltung/herbst/einlass/", {"q": junk}).status_code == 200


def test_registrations_and_registry_find_every_spelling(
    alice_client: Client, field: Tournament
) -> None:
    registry = alice_client.get("/verwaltung/spieler/").content.decode()
    assert order_in(registry) == IN_ORDER
    for typed, name in SEARCHES:
        for url in ("/verwaltung/herbst/spieler/", "/verwaltung/spieler/"):
            page = alice_client.get(url, {"q": typed}).content.decode()
            assert shown(page) == {name}, (url, typed)


def test_seating_page_sorts_and_finds_every_spelling(field: Tournament) -> None:
    series = field.series.get(number=1)
    registrations = list(field.registrations.order_by("start_number"))
    seat_table(series, registrations[:4], 1)
    seat_table(series, registrations[4:], 2)
    Series.objects.filter(pk=series.pk).update(status=Series.Status.RUNNING)
    page = Client().get("/turniere/herbst/serie/1/").content.decode()
    alphabetical = page[page.find('id="nach-name"') : page.find('id="nach-tisch"')]
    assert order_in(alphabetical) == IN_ORDER
    for typed, name in SEARCHES:
        html = Client().get("/turniere/herbst/serie/1/", {"q": typed}).content.decode()
        visible = re.findall(r"<tr data-seating-line[^>]*\"\s*>\s*<td>([^<]*)", html)
        assert {n for n in IN_ORDER if any(n in v for v in visible)} == {name}, typed


def test_players_api_sorts_and_finds_every_spelling(alice: User, field: Tournament) -> None:
    api = APIClient()
    api.force_authenticate(alice)
    names = [p["last_name"] for p in api.get("/api/v1/players/").json()["results"]]
    assert names == IN_ORDER
    for typed, name in SEARCHES:
        found_names = [
            p["last_name"] for p in api.get("/api/v1/players/", {"q": typed}).json()["results"]
        ]
        assert found_names == [name], typed
    page = api.get("/api/v1/players/", {"limit": 3, "offset": 3}).json()
    assert [p["last_name"] for p in page["results"]] == IN_ORDER[3:6]
    assert page["count"] == len(IN_ORDER)


def test_squad_search_sorts_and_finds_every_spelling(alice: User) -> None:
    league, _teams, _players = league_with_teams(alice, 1, squad=0)
    for first, last in NAMES:
        Player.objects.create(
            owner=alice, registry_club=personal_club(alice), first_name=first, last_name=last
        )
    assert [p.last_name for p in search_candidates(league, "")] == IN_ORDER
    for typed, name in SEARCHES:
        assert [p.last_name for p in search_candidates(league, typed)] == [name], typed


PRODUCT = [d for d in ("tournaments", "scoring", "seasons", "teams", "hall", "documents",
                       "archive", "common", "config")]  # fmt: skip
ROOT = Path(__file__).resolve().parents[2]


def test_no_list_of_people_is_sorted_or_searched_by_the_database() -> None:
    # The database's order and case rules differ between SQLite and PostgreSQL; names are
    # sorted with tournaments.names.by_name / name_key and searched with found.
    offending = []
    pattern = re.compile(
        r"""order_by\([^)]*["'](\w+__)*(first|last)_name["']|(first|last)_name__i?(contains|startswith)"""
    )
    for app in PRODUCT:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts or path.name == "names.py":
                continue
            for number, line in enumerate(path.read_text().splitlines(), start=1):
                if pattern.search(line):
                    offending.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offending, "\n".join(offending)
