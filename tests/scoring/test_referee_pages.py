"""Referee calls in the pages: the captain calls from his phone (the reason kept and the
error next to it when something is wrong), the board shows the call, the club's referee
takes and rules it on the referee page (errors next to their fields, nothing typed lost),
the captain sees the ruling."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from clubs.models import Membership
from scoring.models import Extension, Game, RefereeCall
from tests.factories import RE_WINS, build_world, make_user, page_client, play, started
from tests.factories import World as FactoryWorld
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def hall(tournament: Tournament) -> FactoryWorld:
    return started(build_world(tournament, (4, 4)))


@pytest.fixture
def rudi(tournament: Tournament) -> User:
    user = make_user("rudi")
    Membership.objects.create(club=tournament.club, user=user, role="referee")
    return user


def captain_url(table: Table, rest: str = "") -> str:
    return f"/tisch/{table.captain_token}/{rest}"


def test_the_captain_calls_and_sees_the_ruling(hall: FactoryWorld, rudi: User) -> None:
    table = hall.tables[0]
    phone = page_client(language="en")
    page = phone.get(captain_url(table)).content.decode()
    assert "Call the referee" in page and 'name="reason"' in page
    answer = phone.post(captain_url(table, "schiri/"), {"reason": "Karte verworfen"})
    assert answer.status_code == 302
    again = phone.post(captain_url(table, "schiri/"), {"reason": "Karte verworfen"})
    assert again.status_code == 302  # a double tap: the same call
    assert RefereeCall.objects.filter(table=table).count() == 1
    page = phone.get(captain_url(table)).content.decode()
    assert "Referee called at" in page and "Karte verworfen" in page
    assert 'name="reason"' not in page  # no second call while one is open
    play(table, [RE_WINS])
    page = phone.get(captain_url(table)).content.decode()
    assert "provisional-mark" in page and "Game 1 is provisional until the ruling." in page

    referee = page_client(rudi, language="en")
    board = referee.get("/verwaltung/herbst/schiedsrichter/").content.decode()
    assert "Karte verworfen" in board and "Take the call" in board
    call = RefereeCall.objects.get()
    url = f"/verwaltung/herbst/schiedsrichter/{call.pk}/"
    assert referee.post(url, {"action": "take"}).status_code == 302
    assert "The referee is on the way" in phone.get(captain_url(table, "schiri/")).content.decode()
    prefix = f"c{call.pk}"
    answer = referee.post(
        url, {f"{prefix}-ruling": "Gewertet wie eingetragen.", f"{prefix}-minutes": "5"}
    )
    assert answer.status_code == 302
    assert Extension.objects.get(table=table).minutes == 5
    page = phone.get(captain_url(table)).content.decode()
    assert "Gewertet wie eingetragen." in page and "Nachspielzeit: +5 minutes." in page
    assert "provisional-mark" not in page and "Game 1 is confirmed." in page
    assert "Call the referee" in page  # the table may call again


def test_a_call_without_reason_keeps_what_was_typed(hall: FactoryWorld) -> None:
    table = hall.tables[0]
    phone = page_client(language="en")
    answer = phone.post(captain_url(table, "schiri/"), {"reason": " ", "game_number": "3"})
    assert answer.status_code == 400
    page = answer.content.decode()
    assert 'id="call_reason-errors"' in page and "at most 200 characters" in page
    assert 'value="3"' in page and '<details class="referee-form" open>' in page
    assert not RefereeCall.objects.exists()


def test_the_captain_withdraws(hall: FactoryWorld) -> None:
    table = hall.tables[0]
    phone = page_client(language="en")
    phone.post(captain_url(table, "schiri/"), {"reason": "Streit"})
    phone.post(captain_url(table, "schiri/"), {"action": "withdraw"})
    assert RefereeCall.objects.get().status == "withdrawn"


def test_the_board_shows_open_calls(hall: FactoryWorld, alice_client: Client) -> None:
    table = hall.tables[1]
    page_client().post(captain_url(table, "schiri/"), {"reason": "Revoke?"})
    alice_client.cookies["django_language"] = "en"
    board = alice_client.get("/verwaltung/herbst/serie/1/fortschritt/").content.decode()
    assert (
        'id="schiri-rufe"' in board and "Revoke?" in board and "<strong>Table 2</strong>" in board
    )
    assert "Take and rule" in board


def test_a_ruling_with_errors_comes_back_with_them(hall: FactoryWorld, rudi: User) -> None:
    table = hall.tables[0]
    page_client().post(captain_url(table, "schiri/"), {"reason": "Streit"})
    call = RefereeCall.objects.get()
    referee = page_client(rudi, language="en")
    p = f"c{call.pk}"
    answer = referee.post(
        f"/verwaltung/herbst/schiedsrichter/{call.pk}/",
        {f"{p}-ruling": "Unsportlich, Abzug.", f"{p}-minutes": "99", f"{p}-deduction_seat": "2"},
    )
    assert answer.status_code == 400
    page = answer.content.decode()
    assert "Unsportlich, Abzug." in page  # nothing typed is lost
    assert f'id="id_{p}-minutes-errors"' in page and "0 to 60 minutes" in page
    assert f'id="id_{p}-deduction_points-errors"' in page
    assert RefereeCall.objects.get().status == "called"


def test_a_referee_of_another_club_gets_403(hall: FactoryWorld, bob: User) -> None:
    table = hall.tables[0]
    page_client().post(captain_url(table, "schiri/"), {"reason": "Streit"})
    call = RefereeCall.objects.get()
    stranger = page_client(bob)
    assert stranger.get("/verwaltung/herbst/schiedsrichter/").status_code == 403
    answer = stranger.post(f"/verwaltung/herbst/schiedsrichter/{call.pk}/", {"action": "take"})
    assert answer.status_code == 403
    assert RefereeCall.objects.get().status == "called"


def test_another_tables_link_cannot_reach_this_call(hall: FactoryWorld) -> None:
    first, second = hall.tables
    page_client().post(captain_url(first, "schiri/"), {"reason": "Streit"})
    page_client().post(captain_url(second, "schiri/"), {"action": "withdraw"})
    assert RefereeCall.objects.get().status == "called"
    assert not Game.objects.exists()


def test_the_referee_finds_the_calls_from_his_tournaments_list(
    hall: FactoryWorld, rudi: User, alice_client: Client
) -> None:
    """He keeps none of the club's tournaments: they are listed apart, with their calls."""
    from django.urls import reverse

    mine = page_client(rudi, language="en").get(reverse("tournaments:mine")).content.decode()
    assert "Tournaments you referee" in mine and "Herbstturnier" in mine
    assert 'href="/verwaltung/herbst/schiedsrichter/">Referee calls</a>' in mine
    assert (
        "Tournaments you referee"
        not in alice_client.get(reverse("tournaments:mine")).content.decode()
    )


def test_the_referee_corrects_the_game_concerned(hall: FactoryWorld, rudi: User) -> None:
    """Through the game's own form and the correction use case; then the ruling records the
    game as corrected. Errors come back next to their fields."""
    table = hall.tables[0]
    play(table, [RE_WINS])
    page_client().post(
        captain_url(table, "schiri/"), {"reason": "Augen falsch", "game_number": "1"}
    )
    call = RefereeCall.objects.get()
    referee = page_client(rudi, language="en")
    url = f"/verwaltung/herbst/schiedsrichter/{call.pk}/korrektur/"
    page = referee.get(url).content.decode()
    assert "Correct game 1" in page and 'name="re_points" value="130"' in page
    facts = {"contract": "normal", "re_players": ["1", "3"], "points_of": "re"}
    wrong = referee.post(url, {**facts, "re_points": "250"})
    assert wrong.status_code == 400 and 'id="id_re_points-errors"' in wrong.content.decode()
    answer = referee.post(url, {**facts, "re_points": "110"})
    assert answer.status_code == 302
    game = Game.objects.get(table=table, number=1)
    assert game.winner == "kontra" and game.revision == 2
    p = f"c{call.pk}"
    referee.post(f"/verwaltung/herbst/schiedsrichter/{call.pk}/", {f"{p}-ruling": "Kontra."})
    call.refresh_from_db()
    assert call.verdict == "corrected" and call.ruled_game == 1
    # once ruled there is nothing more to correct here
    assert referee.get(url).status_code == 302
