"""The organizer's dashboard links to what the apps above contribute (``tournaments.dashboard``):
the standings, the printouts, the hall display and the exports, each registered by its app in
``ready()``; the template itself names no upper app."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests.factories import make_tournament, page_client
from tournaments.dashboard import Link, contribute, dashboard_links

pytestmark = pytest.mark.django_db
TEMPLATE = Path(__file__).resolve().parents[2] / "templates/tournaments/organizer/dashboard.html"


def test_the_dashboard_shows_every_contributed_link_in_order(alice: User) -> None:
    tournament = make_tournament("cup", organizers=[alice])
    html = page_client(alice, language="en").get(reverse("tournaments:manage", args=["cup"]))
    text = html.content.decode()
    wanted = [
        reverse("scoring:standings", args=["cup"]),
        reverse("documents:results", args=["cup"]),
        reverse("hall:manage", args=["cup"]),
        reverse("archive:standings", args=["cup"]),
        reverse("archive:games", args=["cup"]),
        reverse("archive:download", args=["cup"]),
    ]
    places = [text.find(f'href="{url}') for url in wanted]
    assert -1 not in places and places == sorted(places)
    assert "for another Doko-Turnier" in text  # the archive's note
    assert dashboard_links(tournament)["group"] == []  # no league: no group link


def test_a_contribution_is_replaced_not_doubled(alice: User) -> None:
    tournament = make_tournament("cup", organizers=[alice])
    before = len(dashboard_links(tournament)["exports"])
    contribute("exports", "probe", lambda t: [Link("probe", "/probe/")], order=99)
    contribute("exports", "probe", lambda t: [Link("probe 2", "/probe/")], order=99)
    try:
        labels = [link.label for link in dashboard_links(tournament)["exports"]]
        assert len(labels) == before + 1 and labels[-1] == "probe 2"
    finally:
        contribute("exports", "probe", lambda t: [], order=99)


def test_the_template_names_no_upper_app() -> None:
    namespaces = set(re.findall(r"{%\s*url\s+'(\w+):", TEMPLATE.read_text()))
    assert namespaces == {"tournaments"}


def test_the_contributed_labels_are_translated(alice: User) -> None:
    make_tournament("cup", organizers=[alice])
    html = page_client(alice, language="de").get(reverse("tournaments:manage", args=["cup"]))
    text = html.content.decode()
    for label in ("Tabelle", "Ergebnisbericht (PDF)", "Hallenanzeige", "Turnierarchiv (JSON)"):
        assert label in text
