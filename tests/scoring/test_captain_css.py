"""The captain page's own stylesheet (static/css/captain.css, scoring/captain_css.py): made
from Pico and css/app.css as they are now, with every rule of a class the page shows."""

import gzip
import re

import pytest
from django.test import Client

from scoring.captain_css import ROOT, SOURCES, TARGET, captain_css
from tests.factories import make_tournament, running_table
from tournaments.models import Table

CLASS = re.compile(r'class="([^"]*)"')


def url(table: Table, suffix: str = "") -> str:
    return f"/tisch/{table.captain_token}/{suffix}"


def styled(css: str, name: str) -> bool:
    return re.search(rf"\.{re.escape(name)}(?![\w-])", css) is not None


def test_the_committed_stylesheet_is_made_from_the_sources_as_they_are() -> None:
    """After a change of css/app.css or of the captain page: `manage.py captain_css`."""
    assert (ROOT / TARGET).read_text() == captain_css()


def test_it_is_a_fraction_of_what_other_pages_load() -> None:
    sources = "".join((ROOT / s).read_text() for s in SOURCES).encode()
    mine = (ROOT / TARGET).read_bytes()
    packed = len(gzip.compress(mine, 9, mtime=0))
    assert packed < 0.6 * len(gzip.compress(sources, 9, mtime=0)) and packed < 10_000


@pytest.mark.django_db
@pytest.mark.parametrize("size", [4, 5])
def test_every_class_the_captain_page_shows_is_styled_as_on_other_pages(
    client: Client, size: int
) -> None:
    table = running_table(make_tournament(), size=size)
    pages = [client.get(url(table)).content.decode()]
    game = {"contract": "normal", "re_players": ["1", "3"], "re_points": "130", "version": "0"}
    if size == 5:
        game["sitting_out"] = "1"
    pages.append(client.post(url(table, "spiel/"), {**game, "re_points": "250"}).content.decode())
    client.post(url(table, "spiel/"), {**game, "idempotency_key": "k1"})
    pages.append(client.get(url(table)).content.decode())
    pages.append(client.get(url(table, "spiel/1/")).content.decode())
    pages.append(client.post(url(table, "vorschau/"), game).content.decode())
    sources = "".join((ROOT / s).read_text() for s in SOURCES)
    mine = (ROOT / TARGET).read_text()
    shown = {name for html in pages for value in CLASS.findall(html) for name in value.split()}
    missing = sorted(n for n in shown if styled(sources, n) and not styled(mine, n))
    assert not missing, f"run `manage.py captain_css`; captain.css lacks {missing}"
