"""The evening's pages: the organizer's way from a new group to a closed evening, the
table's page through its link (quick and full entry, errors next to their field, nothing
typed lost, a retried POST), the result's privacy."""

from __future__ import annotations

import re

from django.urls import reverse

from clubs.models import Club
from evenings.models import Evening, EveningGame, EveningTable, Group
from tests.evenings.conftest import make_evening, make_group, playing, user
from tests.factories import page_client


def test_the_organizer_runs_an_evening(club_a: Club) -> None:
    client = page_client(user("otto"), language="de")
    groups = reverse("evenings:groups", args=["a"])
    response = client.post(
        groups,
        {"name": "Donnerstagsrunde", "profile": "haus_mit_bock", "cents_per_point": "10",
         "settlement": "transfers"},
    )  # fmt: skip
    assert response.status_code == 302
    group = Group.objects.get(slug="donnerstagsrunde")
    members = reverse("evenings:members", args=["a", group.slug])
    names = "Anna A\nBert B\nCarl C\nDora D\nEmil E\nFritz F"
    assert client.post(members, {"names": names}).status_code == 302
    page = client.get(reverse("evenings:group", args=["a", group.slug]))
    assert "Mitglieder (6)" in page.content.decode()
    response = client.post(
        reverse("evenings:group", args=["a", group.slug]), {"date": "2026-11-26", "end": "open"}
    )
    evening = Evening.objects.get(group=group)
    assert response["Location"].endswith(f"/abend/{evening.pk}/")
    players = [str(m.player_id) for m in group.memberships.all()]
    response = client.post(
        reverse("evenings:tables", args=["a", group.slug, evening.pk]),
        {"players": players, "tables": "1", "how": "draw"},
    )
    assert response.status_code == 302
    page = client.get(reverse("evenings:evening", args=["a", group.slug, evening.pk]))
    table = EveningTable.objects.get(evening=evening)
    assert table.token in page.content.decode()
    assert "data:image/svg+xml" in page.content.decode()  # the link's QR code


def test_too_few_players_for_the_tables_is_said_next_to_the_field(club_a: Club) -> None:
    group = make_group(club_a, 4)
    evening, _ = make_evening(group)
    client = page_client(user("olga"), language="de")
    players = [str(m.player_id) for m in group.memberships.all()]
    response = client.post(
        reverse("evenings:tables", args=["a", group.slug, evening.pk]),
        {"players": players, "tables": "2", "how": "draw"},
    )
    assert response.status_code == 400
    assert "Jeder Tisch braucht 4 bis 7 Spieler" in response.content.decode()


def _quick_post(table: EveningTable, number: int, key: str, winners: list[int], value: str) -> dict:  # type: ignore[type-arg]
    return {"kind": "quick", "q-key": key, "q-number": str(number),
            "q-winners": [str(w) for w in winners], "q-value": value}  # fmt: skip


def test_the_table_enters_a_quick_game_through_its_link(club_a: Club) -> None:
    group = make_group(club_a, 6)
    _, (table,) = make_evening(group)
    client = page_client(language="de")
    url = reverse("evenings:table", args=[table.token])
    page = client.get(url).content.decode()
    assert "gibt" in page and "setzt aus" in page
    who = playing(table)
    data = _quick_post(table, 1, "key-1", who[:2], "3")
    assert client.post(url, data).status_code == 302
    assert client.post(url, data).status_code == 302  # the retried POST: the same game
    assert EveningGame.objects.filter(table=table).count() == 1
    game = EveningGame.objects.get(table=table)
    assert game.points[str(who[0])] == 3


def test_a_wrong_quick_entry_keeps_what_was_typed(club_a: Club) -> None:
    group = make_group(club_a, 4)
    _, (table,) = make_evening(group)
    client = page_client(language="de")
    url = reverse("evenings:table", args=[table.token])
    who = playing(table)
    response = client.post(url, _quick_post(table, 1, "k", who[:1], "5"))
    assert response.status_code == 400
    html = response.content.decode()
    assert "Wählen Sie die zwei Gewinner" in html
    assert re.search(r'value="5"[^>]*checked', html)  # the value stays tapped
    assert not EveningGame.objects.exists()


def test_a_full_entry_through_the_link(club_a: Club) -> None:
    group = make_group(club_a, 4)
    _, (table,) = make_evening(group)
    client = page_client(language="de")
    url = reverse("evenings:table", args=[table.token])
    who = playing(table)
    data = {"kind": "full", "f-key": "f1", "f-number": "1", "f-contract": "normal",
            "f-re": [str(who[0]), str(who[2])], "f-re_points": "120"}  # fmt: skip
    assert client.post(url, data).status_code == 302
    page = client.get(url).content.decode()
    assert "Bock: noch 4 Spiele" in page


def test_a_retried_full_entry_gets_the_first_game_after_the_deal_moved_on(
    club_a: Club,
) -> None:
    group = make_group(club_a, 6)
    _, (table,) = make_evening(group)
    client = page_client(language="de")
    url = reverse("evenings:table", args=[table.token])
    who = playing(table)
    data = {"kind": "full", "f-key": "f1", "f-number": "1", "f-contract": "normal",
            "f-re": [str(who[0]), str(who[2])], "f-re_points": "150"}  # fmt: skip
    first = client.post(url, data, follow=True)
    assert set(playing(table)) != set(who)  # the next game: others play
    again = client.post(url, data, follow=True)
    assert again.redirect_chain == first.redirect_chain
    assert [str(m) for m in again.context["messages"]] == ["Spiel 1 eingetragen."]
    game = EveningGame.objects.get(table=table)
    assert game.points[str(who[0])] > 0 and game.points[str(who[2])] > 0


def test_a_sitting_out_player_as_winner_is_refused_next_to_the_field(club_a: Club) -> None:
    group = make_group(club_a, 5)
    _, (table,) = make_evening(group)
    client = page_client(language="de")
    url = reverse("evenings:table", args=[table.token])
    (out,) = set(table.seats) - set(playing(table))
    response = client.post(url, _quick_post(table, 1, "k", [playing(table)[0], out], "1"))
    assert response.status_code == 400
    assert "Wählen Sie die Gewinner unter den vier, die spielen." in response.content.decode()
    assert not EveningGame.objects.exists()


def test_undo_deletes_the_last_game(club_a: Club) -> None:
    group = make_group(club_a, 4)
    _, (table,) = make_evening(group)
    client = page_client(language="de")
    url = reverse("evenings:table", args=[table.token])
    client.post(url, _quick_post(table, 1, "k", playing(table)[:2], "1"))
    client.post(reverse("evenings:undo", args=[table.token]), {"number": "1"})
    assert not EveningGame.objects.exists()


def test_the_result_is_private_unless_the_group_is_public(club_a: Club) -> None:
    group = make_group(club_a, 4)
    evening, _tables = make_evening(group)
    url = reverse("evenings:result", args=["a", group.slug, evening.pk])
    assert page_client().get(url).status_code == 404
    assert page_client(user("olga")).get(url).status_code == 200
    Group.objects.filter(pk=group.pk).update(is_public=True)
    assert page_client().get(url).status_code == 200


def test_other_members_and_outsiders_see_no_evenings(club_a: Club, club_b: Club) -> None:
    make_group(club_a, 4)
    url = reverse("evenings:groups", args=["a"])
    assert page_client(user("cora")).get(url).status_code == 403
    assert page_client(user("bert")).get(url).status_code == 404
    assert page_client().get(url).status_code == 302


def test_the_group_page_shows_the_season(club_a: Club) -> None:
    from evenings import services
    from tests.evenings.conftest import actor

    group = make_group(club_a, 4)
    evening, (table,) = make_evening(group)
    who = playing(table)
    services.enter_game(table, 1, services.QuickData((who[0], who[1]), 2), actor=actor("olga"))
    services.close_evening(evening, actor=actor("olga"))
    html = (
        page_client(user("olga"), language="de")
        .get(reverse("evenings:group", args=["a", group.slug]))
        .content.decode()
    )
    assert "<h2>Saison</h2>" in html
    assert re.search(r"\+0,10\s€", html.replace("\xa0", " ")), html[html.index("Saison</h2>") :][
        :600
    ]
