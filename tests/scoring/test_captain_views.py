"""The captain's pages through the HTML forms."""

import pytest
from django.test import Client

from scoring.models import Game, ScoreSheet
from tests.factories import make_tournament, organize, running_table


@pytest.fixture
def table(db):
    return running_table(make_tournament())


def url(table, suffix: str = "") -> str:
    return f"/tisch/{table.captain_token}/{suffix}"


def form(**fields) -> dict:
    data = {"contract": "normal", "re_players": ["1", "3"], "re_points": "130", "version": "0"}
    data.update(fields)
    return data


def test_page_shows_next_game_and_dealer(client: Client, table) -> None:
    html = client.get(url(table)).content.decode()
    assert "Spiel 1" in html and "Nachname1" in html
    assert 'name="idempotency_key"' in html


def test_enter_game_and_see_running_totals(client: Client, table) -> None:
    response = client.post(url(table, "spiel/"), form(idempotency_key="a1"))
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.value == 1 and game.dealer == 1
    html = client.get(url(table)).content.decode()
    assert "Spiel 2" in html


def test_double_submit_with_same_key_saves_once(client: Client, table) -> None:
    client.post(url(table, "spiel/"), form(idempotency_key="same"))
    client.post(url(table, "spiel/"), form(idempotency_key="same"))
    assert Game.objects.count() == 1


def test_errors_next_to_field_keep_input(client: Client, table) -> None:
    response = client.post(url(table, "spiel/"), form(re_points="250", re_tricks="3"))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'value="250"' in html
    assert 'id="id_re_points"' in html and "field-error" in html
    assert not Game.objects.exists()


def test_engine_error_lands_on_its_field(client: Client, table) -> None:
    response = client.post(url(table, "spiel/"), form(re_points="100", re_tricks="1"))
    html = response.content.decode()
    assert "Diese Stiche können diese Augen nicht enthalten." in html
    assert 'value="100"' in html


def test_stale_version_gets_conflict(client: Client, table) -> None:
    client.post(url(table, "spiel/"), form(idempotency_key="x1"))
    response = client.post(url(table, "spiel/"), form(idempotency_key="x2", version="0"))
    assert response.status_code == 409
    assert Game.objects.count() == 1


def test_preview_shows_value_without_saving(client: Client, table) -> None:
    response = client.post(
        url(table, "vorschau/"),
        form(re_announcement="ansage"),
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert "Re gewinnt" in html and "<strong>3</strong>" in html
    assert not Game.objects.exists()


def test_solo_compulsory_is_derived(client: Client, table) -> None:
    client.post(
        url(table, "spiel/"),
        {"contract": "solo", "solo": "damen", "soloist": "3", "re_points": "150", "version": "0"},
    )
    game = Game.objects.get()
    assert game.record["compulsory"] is True and game.record["forced"] is False
    assert game.scores == {"1": -1, "2": -1, "3": 3, "4": -1}


def test_correct_a_game(client: Client, table) -> None:
    client.post(url(table, "spiel/"), form())
    page = client.get(url(table, "spiel/1/")).content.decode()
    assert 'value="130"' in page
    client.post(url(table, "spiel/1/"), form(re_points="100", version="1"))
    assert Game.objects.get().winner == "kontra"


def test_link_refused_outside_running_series(client: Client, table) -> None:
    table.series.status = "drawn"
    table.series.save()
    assert client.get(url(table)).status_code == 403
    table.series.status = "closed"
    table.series.save()
    assert client.get(url(table)).status_code == 200  # the sheet, read-only
    assert client.post(url(table, "spiel/"), form()).status_code == 403
    assert client.get("/tisch/unknown-token/").status_code == 404


def test_submit_refused_with_findings(client: Client, table) -> None:
    client.post(url(table, "spiel/"), form())
    response = client.post(url(table, "abgeben/"), {"seat": "4", "version": "1"}, follow=True)
    assert ScoreSheet.objects.get().status == "open"
    assert "flash-error" in response.content.decode()


@pytest.fixture
def paper_table(db):
    return running_table(make_tournament(slug="paper", entry_mode="transcription"))


def test_transcription_row_is_checked_and_stored(client: Client, paper_table) -> None:
    page = client.get(url(paper_table)).content.decode()
    assert 'name="points_1"' in page and 'name="contract"' not in page
    response = client.post(
        url(paper_table, "spiel/"),
        {"points_1": "3", "points_2": "-3", "points_3": "3", "points_4": "-3", "version": "0"},
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.scores == {"1": 3, "2": -3, "3": 3, "4": -3} and game.value == 3


def test_transcription_row_sum_error_next_to_the_row(client: Client, paper_table) -> None:
    response = client.post(
        url(paper_table, "spiel/"),
        {"points_1": "3", "points_2": "-3", "points_3": "3", "points_4": "-1", "version": "0"},
    )
    html = response.content.decode()
    assert "Die Zeile ergibt nicht null (Summe 2)." in html
    assert 'value="-1"' in html
    assert not Game.objects.exists()


def test_transcribed_compulsory_solo(client: Client, paper_table) -> None:
    client.post(
        url(paper_table, "spiel/"),
        {"points_1": "-1", "points_2": "3", "points_3": "-1", "points_4": "-1",
         "soloist": "2", "compulsory": "on", "version": "0"},
    )  # fmt: skip
    game = Game.objects.get()
    assert game.record["soloist"] == 2 and game.record["compulsory"] is True
    html = client.get(url(paper_table)).content.decode()
    assert "Spiel 2" in html  # a compulsory solo: the same dealer deals again


def test_preview_of_a_solo_speaks_of_the_soloist(client: Client, table) -> None:
    response = client.post(
        url(table, "vorschau/"),
        {"contract": "solo", "solo": "damen", "soloist": "2", "re_points": "100", "version": "0"},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert "Der Solist verliert" in html
    assert '<abbr title="Vorname2 Nachname2">Vorname2 N.</abbr> -3' in html


def test_a_get_never_writes(client: Client, table) -> None:
    assert client.get(url(table)).status_code == 200
    assert not ScoreSheet.objects.exists()


def test_resent_form_after_a_lost_answer_returns_the_saved_game(client: Client, db) -> None:
    """The phone lost the answer and sends the same form again: the dealer and the seat
    sitting out have moved on since, yet the game is recognised, not stored twice."""
    five = running_table(make_tournament(slug="five"), size=5)
    sent = form(re_players=["2", "3"], idempotency_key="lost-answer", sitting_out="1")
    first = client.post(url(five, "spiel/"), sent)
    again = client.post(url(five, "spiel/"), sent, follow=True)
    assert first.status_code == 302 and again.redirect_chain[0][1] == 302
    assert Game.objects.count() == 1 and ScoreSheet.objects.get().version == 1
    assert "Spiel 1 war schon gespeichert." in again.content.decode()
    # A new key is a new game, checked against the sheet as it is now (seat 2 sits out).
    refused = client.post(url(five, "spiel/"), {**sent, "idempotency_key": "next", "version": "1"})
    assert refused.status_code == 200 and Game.objects.count() == 1


def test_deleting_the_last_game_asks_first(client: Client, table) -> None:
    client.post(url(table, "spiel/"), form(idempotency_key="g1"))
    client.post(url(table, "spiel/"), form(idempotency_key="g2", version="1"))
    page = client.get(url(table, "loeschen/")).content.decode()
    assert "Spiel 2 löschen?" in page and 'name="number" value="2"' in page
    assert Game.objects.count() == 2  # asking deletes nothing
    client.post(url(table, "loeschen/"), {"number": "2", "version": "2"})
    assert list(Game.objects.values_list("number", flat=True)) == [1]
    stale = client.post(url(table, "loeschen/"), {"number": "2", "version": "3"}, follow=True)
    assert Game.objects.count() == 1 and "flash-error" in stale.content.decode()


def test_preview_names_a_value_out_of_range_at_once(client: Client, table) -> None:
    response = client.post(url(table, "vorschau/"), form(re_points="250"), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "240" in html and "field-error" in html


def fill_sheet(table) -> None:
    from common.actors import Actor
    from scoring.doors import CAPTAIN
    from scoring.services.entry import save_game
    from tournaments.models import Table

    solos = [
        {"contract": "solo", "solo": "damen", "re": [s], "re_points": 121} for s in (2, 3, 4, 1)
    ]
    captain = Actor(CAPTAIN, seat=4, device="another-phone")
    for facts in [{"contract": "normal", "re": [1, 3], "re_points": 130}] * 20 + solos:
        save_game(Table.objects.get(pk=table.pk), facts, actor=captain)


def test_confirmation_needs_another_phone(client: Client, table) -> None:
    fill_sheet(table)
    client.get(url(table))  # the captain's phone gets its device cookie
    client.post(url(table, "abgeben/"), {"seat": "4", "version": "24"})
    assert ScoreSheet.objects.get().status == "submitted"
    same_phone = client.post(url(table, "bestaetigen/"), {"seat": "2"}, follow=True)
    assert ScoreSheet.objects.get().status == "submitted"
    assert "flash-error" in same_phone.content.decode()
    other = Client()
    other.get(url(table))
    other.post(url(table, "bestaetigen/"), {"seat": "2"})
    sheet = ScoreSheet.objects.get()
    assert sheet.status == "confirmed" and sheet.confirmed_device != sheet.submitted_device


def test_get_of_the_entry_address_leads_to_the_sheet(client: Client, table) -> None:
    response = client.get(url(table, "spiel/"))
    assert response.status_code == 302 and response["Location"] == url(table)


def test_correcting_a_transcribed_row_at_five_leaves_out_its_sitter(client: Client, db) -> None:
    five = running_table(make_tournament(slug="paper5", entry_mode="transcription"), size=5)
    row = {"points_2": "3", "points_3": "3", "points_4": "-3", "points_5": "-3"}
    client.post(url(five, "spiel/"), {**row, "sitting_out": "1", "version": "0"})
    assert Game.objects.get().dealer == 1
    page = client.get(url(five, "spiel/1/")).content.decode()
    assert 'name="points_2"' in page and 'name="points_1"' not in page


# Names instead of seats, steppers, confirmations and the states of a correction and of a
# closed series. New wording is checked in English (the German catalogue follows it).


def english(client: Client) -> Client:
    client.cookies["django_language"] = "en"
    return client


def play_normal_games(table, count: int) -> None:
    from common.actors import Actor
    from scoring.doors import CAPTAIN
    from scoring.services.entry import save_game
    from tournaments.models import Table

    captain = Actor(CAPTAIN, seat=4, device="another-phone")
    for _ in range(count):
        save_game(
            Table.objects.get(pk=table.pk),
            {"contract": "normal", "re": [1, 3], "re_points": 130},
            actor=captain,
        )


def test_short_names_are_unique_at_the_table() -> None:
    from scoring.sheet_page import short_names

    names = [("Anna", "Schäfer"), ("Anna", "Schulz"), ("Bernd", "Schäfer"), ("Cem", "")]
    assert short_names(names) == [
        ("Anna", "Schä."),
        ("Anna", "Schu."),
        ("Bernd", "S."),
        ("Cem", ""),
    ]
    assert short_names([("Jo", "Ng"), ("Jo", "Ng")]) == [("Jo", "Ng"), ("Jo", "Ng")]


def test_sheet_columns_show_the_players_not_seat_numbers(client: Client, table) -> None:
    client.post(url(table, "spiel/"), form())
    html = client.get(url(table)).content.decode()
    head = html.split('<table class="sheet names">')[1].split("</thead>")[0]
    assert head.count('class="num name"') == 4
    assert (
        '<th class="num name" scope="col" title="Vorname3 Nachname3">'
        '<span class="first">Vorname3</span> <span class="last">N.</span></th>'
    ) in head


def test_finding_messages_name_the_player_where_the_page_knows_the_seating() -> None:
    from django.utils import translation

    from scoring.messages import finding_message

    with translation.override("en"):
        missing = {"seat": 4}
        assert finding_message("compulsory_solo_missing", missing) == (
            "The compulsory solo of seat 4 is missing."
        )
        assert finding_message("compulsory_solo_missing", missing, names={4: "Anna Schäfer"}) == (
            "The compulsory solo of Anna Schäfer is missing."
        )
        dealer = {"expected": 1, "actual": 2}
        assert finding_message("dealer_wrong", dealer, names={1: "Ann", 2: "Bo"}) == (
            "This game is dealt by Ann, not by Bo."
        )
        counts = {"expected": 24, "actual": 3}  # not seats: stay numbers
        assert finding_message("too_few_games", counts, names={3: "X", 24: "Y"}) == (
            "3 of 24 games entered."
        )


def test_forced_solo_names_the_player_in_the_box_and_in_the_error(client: Client, table) -> None:
    play_normal_games(table, 20)  # four compulsory solos open, four games left: forced now
    html = english(client).get(url(table)).content.decode()
    box = html.split('class="next-box')[1].split("</section>")[0]
    assert "Forced solo (Vorführen): the compulsory solo of Vorname2 Nachname2 is due now." in box
    assert " his " not in box
    refused = client.post(url(table, "spiel/"), form(version="20"))
    assert refused.status_code == 200
    assert (
        "A forced solo (Vorführen) is due now: the compulsory solo of Vorname2 Nachname2."
        in refused.content.decode()
    )


def test_solo_preview_speaks_of_soloist_and_opponents(client: Client, table) -> None:
    solo = {"contract": "solo", "solo": "damen", "soloist": "2", "re_points": "150"}
    html = english(client).post(url(table, "vorschau/"), {**solo, "re_announcement": "ansage"})
    html = html.content.decode()
    assert "The soloist wins" in html
    assert '<span class="party party-re">Soloist:</span> game won +1' in html and "Re:" not in html
    losing = client.post(url(table, "vorschau/"), {**solo, "re_points": "100"}).content.decode()
    assert '<span class="party party-kontra">Opponents:</span> game won +1' in losing
    assert "Kontra:" not in losing


def test_preview_says_whose_threshold_scores(client: Client, table) -> None:
    # "Kontra: unter 90 +1" read as if Kontra were under 90: the line names the other side.
    html = client.post(url(table, "vorschau/"), form(re_points="80")).content.decode()
    assert '<span class="party party-kontra">Kontra:</span> Gegenpartei unter 90 +1' in html
    assert "Kontra:</span> unter 90" not in html


def test_correction_page_opens_with_the_saved_game(client: Client, table) -> None:
    client.post(url(table, "spiel/"), form(re_announcement="ansage", re_fuchs="1"))
    html = english(client).get(url(table, "spiel/1/")).content.decode()
    box = html.split('class="next-box')[1].split("</section>")[0]
    assert "Correcting game 1" in box and " left" not in box and "Game 2" not in box
    preview = html.split('id="preview"')[1].split("</div>")[0]
    assert "Re wins" in preview and "<strong>4</strong>" in preview and "fox caught" in preview
    assert 'name="re_fuchs" value="1"' in html
    assert 'name="kontra_fuchs" value="0"' not in html  # zero stays an empty box
    assert '<tr data-number="1" class=" editing">' in html  # the row under correction is marked


def test_saving_confirms_the_game_and_offers_its_correction(client: Client, table) -> None:
    response = english(client).post(url(table, "spiel/"), form(), follow=True)
    html = response.content.decode()
    assert "Game 1 saved: value 1." in html
    assert f'<a href="{url(table, "spiel/1/")}">Correct game 1</a>' in html
    corrected = client.post(url(table, "spiel/1/"), form(version="1"), follow=True)
    assert "Game 1 corrected." in corrected.content.decode()


def test_closed_series_shows_the_final_state_and_no_dead_actions(
    client: Client, table, alice
) -> None:
    from common.actors import ORGANIZER, Actor
    from scoring.services.closing import close_series

    fill_sheet(table)  # all games entered, never submitted
    organize(table.series.tournament, alice)
    close_series(table.series, actor=Actor(ORGANIZER, user=alice), past_unfinished=True)
    english(client).force_login(alice)
    html = client.get(f"/verwaltung/cup/tisch/{table.pk}/").content.decode()
    assert "The series is closed." in html and "The sheet was never submitted." in html
    assert "Check the sheet and submit it." not in html
    for dead in ("abgeben/", "bestaetigen/", 'value="reopen"', 'value="timeout"'):
        assert dead not in html
    assert "/spiel/24/" in html  # corrections stay possible (with a reason)


def test_closed_series_offers_missing_games_behind_a_fold(client: Client, table, alice) -> None:
    from common.actors import ORGANIZER, Actor
    from scoring.services.closing import close_series

    play_normal_games(table, 3)
    organize(table.series.tournament, alice)
    close_series(table.series, actor=Actor(ORGANIZER, user=alice), past_unfinished=True)
    english(client).force_login(alice)
    html = client.get(f"/verwaltung/cup/tisch/{table.pk}/").content.decode()
    box = html.split('class="next-box')[1].split("</section>")[0]
    assert "The series is closed." in box and "Only 3 games were entered." in box
    assert " left" not in box and "Correct game" not in box
    assert '<details class="late-entry">' in html
    assert "Enter missing game 4 (dealer: Vorname4 Nachname4)" in html


def test_extras_and_penalties_are_steppers_without_a_prefilled_zero(client: Client, table) -> None:
    html = english(client).get(url(table)).content.decode()
    fox = html.split('name="re_fuchs"')[0].rsplit("<input", 1)[1] + html.split('name="re_fuchs"')[1]
    fox = fox.split(">")[0]
    assert "data-stepper" in fox and 'placeholder="0"' in fox and "value=" not in fox
    assert 'min="0"' in fox and 'max="4"' in fox and 'aria-label="Re: Fox caught"' in fox
    assert 'data-less="one less"' in fox and 'data-more="one more"' in fox
    penalty = html.split('name="penalty_2"')[1].split(">")[0]
    assert "data-stepper" in penalty and 'min="-30"' in penalty
    extras = html.split('<table class="extras">')[1].split("</table>")[0]
    assert extras.count("<tr>") == 4 and extras.count("<td>") == 6  # kinds by Re, Kontra


def test_entry_pages_keep_their_query_counts(client: Client, table) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url(table))
    for i in range(3):
        client.post(url(table, "spiel/"), form(idempotency_key=f"k{i}", version=str(i)))
    # The sheet's pages read the table's last referee call once (its box, its mark).
    budget = {"": 6, "spiel/2/": 7, "loeschen/": 4}
    for path, most in budget.items():
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url(table, path)).status_code == 200
        assert len(ctx.captured_queries) <= most, path
    with CaptureQueriesContext(connection) as ctx:
        client.post(url(table, "vorschau/"), form())
    assert len(ctx.captured_queries) <= 7
