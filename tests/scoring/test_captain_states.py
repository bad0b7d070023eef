"""States in which a sheet's forms can no longer be used: the captain's phone then sees the
sheet read-only with a note, never a form the server would refuse."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from common.actors import ORGANIZER, Actor
from scoring.doors import CAPTAIN
from scoring.models import Game, ScoreSheet
from scoring.services.closing import close_series
from scoring.services.sheet import confirm_sheet, submit_sheet
from tests.factories import RE_WINS as NORMAL
from tests.factories import make_tournament, organize, play, running_table
from tournaments.models import Table

SOLOS = [{"contract": "solo", "solo": "damen", "re": [s], "re_points": 121} for s in (2, 3, 4, 1)]
SUBMITTER = Actor(CAPTAIN, seat=4, device="submitting-phone-0001")


@pytest.fixture
def table(db: None) -> Table:
    return running_table(make_tournament())


def url(table: Table, suffix: str = "") -> str:
    return f"/tisch/{table.captain_token}/{suffix}"


def shown(html: bytes) -> str:
    """The page from <main> on: not its script (inside the page, it names every link)."""
    return html.decode().split("<main", 1)[1]


def english(client: Client, device: str = "") -> Client:
    client.cookies["django_language"] = "en"
    if device:
        client.cookies["doko_device"] = device
    return client


def fresh(table: Table) -> Table:
    return Table.objects.select_related("series__tournament").get(pk=table.pk)


def full_sheet(table: Table) -> None:
    play(table, [NORMAL] * 20 + SOLOS)


def submitted(table: Table) -> None:
    full_sheet(table)
    submit_sheet(fresh(table), seat=4, expected_version=None, actor=SUBMITTER)


def confirmed(table: Table) -> None:
    submitted(table)
    other = Actor(CAPTAIN, seat=2, device="other-phone-0002")
    confirm_sheet(fresh(table), seat=2, actor=other)


def test_confirmed_sheet_shows_a_game_read_only_with_a_note(client: Client, table) -> None:
    confirmed(table)
    response = english(client).get(url(table, "spiel/3/"))
    html = shown(response.content)
    assert response.status_code == 200
    assert "The sheet is confirmed: games can no longer be corrected here." in html
    assert "Game 3" in html and "Re wins" in html  # the game as saved, explained
    assert 'class="game-form"' not in html and "Save correction" not in html
    assert "/spiel/1/" not in html  # no correction links on the sheet either
    assert "loeschen/" not in html


def test_submitted_sheet_shows_a_game_read_only(client: Client, table) -> None:
    submitted(table)
    html = english(client).get(url(table, "spiel/24/")).content.decode()
    assert "The sheet has been submitted: games can no longer be corrected here." in html
    assert 'class="game-form"' not in html


def test_a_correction_refused_meanwhile_leads_to_the_game_read_only(client: Client, table) -> None:
    """The phone still had the correction form open when another phone submitted."""
    submitted(table)
    before = Game.objects.get(number=2).record
    data = {"contract": "normal", "re_players": ["1", "3"], "re_points": "100", "version": "25"}
    response = english(client).post(url(table, "spiel/2/"), data, follow=True)
    html = response.content.decode()
    assert response.redirect_chain[-1][0] == url(table, "spiel/2/")
    assert "The sheet has been submitted; only the organizers can change it now." in html
    assert "games can no longer be corrected here" in html
    assert Game.objects.get(number=2).record == before


def test_delete_step_is_not_offered_on_a_submitted_sheet(client: Client, table) -> None:
    submitted(table)
    response = english(client).get(url(table, "loeschen/"), follow=True)
    assert response.redirect_chain[-1][0] == url(table)
    assert "The sheet can no longer be changed here." in response.content.decode()
    assert Game.objects.count() == 24


def test_the_submitting_phone_is_told_who_confirms(client: Client, table) -> None:
    submitted(table)
    html = shown(english(client, SUBMITTER.device or "").get(url(table)).content)
    assert "This phone submitted the sheet, so it cannot confirm it." in html
    assert "bestaetigen/" not in html  # no form it may not use
    waiting = html.split('id="waiting-for-confirmation"')[1].split("</div>")[0]
    assert "Vorname1 Nachname1" in waiting and "Vorname2 Nachname2" in waiting
    assert "Vorname4 Nachname4" not in waiting  # the one who submitted


def test_another_phone_gets_the_confirm_form(client: Client, table) -> None:
    submitted(table)
    html = shown(english(client, "other-phone-0002").get(url(table)).content)
    assert "bestaetigen/" in html and "waiting-for-confirmation" not in html


def test_closed_series_captain_page_is_a_read_only_sheet(client: Client, table, alice) -> None:
    play(table, [NORMAL] * 3)
    organize(table.series.tournament, alice)
    close_series(fresh(table).series, actor=Actor(ORGANIZER, user=alice), past_unfinished=True)
    response = english(client).get(url(table))
    html = response.content.decode()
    assert response.status_code == 200
    assert "The series is closed." in html and "Only 3 games were entered." in html
    assert "Results can no longer be entered or changed here." in html
    assert "<form" not in html.split("<main")[1].split("</main>")[0]  # nothing to send
    assert html.count('class="num pos"') > 0  # the games are there
    game = english(client).get(url(table, "spiel/2/")).content.decode()
    assert "The series is closed: games can no longer be corrected here." in game
    assert english(client).post(url(table, "spiel/")).status_code == 403


def test_captain_page_has_no_site_navigation(client: Client, table, alice: User) -> None:
    html = english(client).get(url(table)).content.decode()
    header = html.split("<header")[1].split("</header>")[0]
    assert "Tournaments" not in header and "Log in" not in header
    assert 'name="language"' in header  # the language switch stays
    client.force_login(alice)
    organize(table.series.tournament, alice)
    organizer = client.get(f"/verwaltung/{table.series.tournament.slug}/tisch/{table.pk}/")
    assert "My tournaments" in organizer.content.decode().split("</header>")[0]


def test_organizer_page_of_a_series_not_started_offers_no_entry(
    client: Client, db, alice: User
) -> None:
    table = running_table(make_tournament())
    table.series.status = "drawn"
    table.series.save()
    organize(table.series.tournament, alice)
    english(client).force_login(alice)
    html = client.get(f"/verwaltung/{table.series.tournament.slug}/tisch/{table.pk}/")
    page = html.content.decode()
    assert "The series has not started yet" in page and 'class="game-form"' not in page


# Kontra's card points: the same facts, Re's = 240 - Kontra's.


def entry(**fields: str) -> dict[str, str]:
    return {"contract": "normal", "re_players": ["1", "3"], "version": "0", **fields}


def test_kontra_card_points_are_stored_as_re_card_points(client: Client, table) -> None:
    client.post(url(table, "spiel/"), entry(points_of="kontra", kontra_points="110"))
    game = Game.objects.get()
    assert game.record["re_points"] == 130 and game.winner == "re"


def test_the_box_not_chosen_is_ignored(client: Client, table) -> None:
    client.post(url(table, "spiel/"), entry(points_of="re", re_points="100", kontra_points="999"))
    assert Game.objects.get().record["re_points"] == 100


def test_kontra_card_points_errors_stand_next_to_their_box(client: Client, table) -> None:
    html = english(client).post(url(table, "spiel/"), entry(points_of="kontra")).content.decode()
    box = html.split('class="points-box points-kontra"')[1].split("</div>")[0]
    assert "field-error" in box and "This field is required." in box
    for typed in ("250", "239"):  # out of range (form); Re's 1 Auge is impossible (engine)
        wrong = entry(points_of="kontra", kontra_points=typed)
        html = english(client).post(url(table, "spiel/"), wrong).content.decode()
        box = html.split('class="points-box points-kontra"')[1].split("</div>")[0]
        assert "field-error" in box and f'value="{typed}"' in box, typed
        assert "field-error" not in html.split('class="points-box points-re"')[1].split("</div>")[0]
    assert not Game.objects.exists()


def test_kontra_card_points_preview(client: Client, table) -> None:
    response = english(client).post(
        url(table, "vorschau/"), entry(points_of="kontra", kontra_points="121")
    )
    assert "Kontra wins" in response.content.decode()


def test_sheet_status_for_sanity(table) -> None:
    confirmed(table)
    assert ScoreSheet.objects.get(table=table).status == "confirmed"
