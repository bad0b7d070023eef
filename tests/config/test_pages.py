import pytest
from django.test import Client


@pytest.mark.django_db
def test_landing_page_is_german_by_default(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="de">' in html
    assert "Doppelkopf-Turniere" in html
    assert "/static/vendor/htmx/htmx.min.js" in html


@pytest.mark.django_db
def test_landing_page_switches_to_english(client: Client) -> None:
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"}, follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="en">' in html
    assert "Doppelkopf tournaments, run properly." in html


@pytest.mark.django_db
def test_tournament_list_empty_state(client: Client) -> None:
    response = client.get("/turniere/")
    assert response.status_code == 200
    assert "Noch keine Turniere." in response.content.decode()


def test_no_page_loads_from_a_cdn() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "templates"
    for template in root.rglob("*.html"):
        text = template.read_text()
        assert "https://" not in text and "http://" not in text, template
