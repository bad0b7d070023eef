"""The player registry belongs to a club (design decision 14): the club's owners and
organizers read and change its players, nobody else sees them (404); a new player lands in
the registry of the club whose tournament, evening or league he is created from; the
registry page and the API choose and filter by club."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from clubs import roles
from clubs.models import Club, Membership
from clubs.services import personal_club
from common.actors import ORGANIZER, Actor
from evenings import services as evenings
from teams.services import LeagueData, add_team, create_league
from teams.squads import add_new_player
from tests.factories import add_players, api_client, make_tournament, make_user, page_client
from tournaments.models import Player, Tournament
from tournaments.permissions import kept_players, readable_players
from tournaments.services.registrations import PlayerData, register

pytestmark = pytest.mark.django_db

API = "/api/v1/players/"
SECRET = "geheim@example.org"


@pytest.fixture
def club_a(alice: User) -> Club:
    """Alice's club "Dulle" (not her personal one), with a tournament and a player."""
    club = Club.objects.create(name="Dulle", slug="dulle")
    Membership.objects.create(club=club, user=alice, role=roles.OWNER)
    return club


def tournament_of(club: Club, slug: str, organizer: User) -> Tournament:
    tournament = make_tournament(slug, club=club)
    tournament.organizers.add(organizer)
    return tournament


@pytest.fixture
def hans(club_a: Club, alice: User) -> Player:
    tournament = tournament_of(club_a, "dulle-cup", alice)
    registration = register(
        tournament, PlayerData("Hans", "Huber", club="DK Dulle", ddv_number="4711", email=SECRET)
    )
    return registration.player


def test_a_new_player_lands_in_the_club_of_his_tournament(
    hans: Player, club_a: Club, alice: User
) -> None:
    assert hans.registry_club_id == club_a.pk and hans.owner_id == alice.pk
    assert hans.club == "DK Dulle"  # the name of his own club stays what it was
    # Alice's personal club's tournament has its own registry: another Hans, same number.
    mine = make_tournament("meins", organizers=[alice])
    other = register(mine, PlayerData("Hans", "Huber", ddv_number="4711")).player
    assert other.pk != hans.pk and other.registry_club_id == personal_club(alice).pk


def test_a_new_evening_member_lands_in_the_club_of_the_group(club_a: Club, alice: User) -> None:
    actor = Actor(ORGANIZER, user=alice)
    group = evenings.create_group(club_a, evenings.GroupData(name="Donnerstag"), actor=actor)
    (member,) = evenings.add_members(group, new_names=["Olga Ott"], actor=actor)
    assert member.player.registry_club_id == club_a.pk


def test_a_new_squad_player_lands_in_the_club_of_the_league(club_a: Club, alice: User) -> None:
    actor = Actor(ORGANIZER, user=alice)
    league = create_league(LeagueData(name="Liga"), club=club_a, actor=actor)
    team = add_team(league, "Füchse", club="DK Dulle", actor=actor)
    member = add_new_player(team, "Tina", "Tau", "", actor=actor)
    assert member.player.registry_club_id == club_a.pk


def test_another_clubs_organizer_sees_nothing_of_the_registry(
    hans: Player, bob: User, bob_client: Client, bob_api: APIClient
) -> None:
    make_tournament("bobs", organizers=[bob])  # Bob organizes in his own club
    assert not readable_players(bob).filter(pk=hans.pk).exists()
    for url in (
        reverse("tournaments:registry-player", args=[hans.pk]),
        reverse("archive:player-data", args=[hans.pk]),
        f"{API}{hans.pk}/",
    ):
        response = (bob_api if url.startswith("/api/") else bob_client).get(url)
        assert response.status_code == 404, url
    assert bob_api.patch(f"{API}{hans.pk}/", {"club": "X"}, format="json").status_code == 404
    for response in (
        bob_client.get(reverse("tournaments:registry")),
        bob_client.get(reverse("tournaments:registry"), {"club": hans.registry_club_id}),
        bob_api.get(API),
        bob_api.get(API, {"registry_club": hans.registry_club_id}),
    ):
        assert response.status_code == 200
        body = response.content.decode()
        assert "Huber" not in body and SECRET not in body and "4711" not in body


def test_a_cashier_of_the_club_keeps_no_registry(hans: Player, club_a: Club) -> None:
    carla = make_user("carla")
    Membership.objects.create(club=club_a, user=carla, role=roles.CASHIER)
    assert not kept_players(carla).exists() and not readable_players(carla).exists()
    client = page_client(carla)
    assert client.get(reverse("tournaments:registry-player", args=[hans.pk])).status_code == 404
    assert "Huber" not in client.get(reverse("tournaments:registry")).content.decode()


def test_an_organizer_who_joins_the_club_reads_and_changes_its_players(
    hans: Player, club_a: Club, bob: User
) -> None:
    make_tournament("bobs", organizers=[bob])  # his personal club
    Membership.objects.create(club=club_a, user=bob, role=roles.ORGANIZER)
    api = api_client(user=bob)
    assert api.get(f"{API}{hans.pk}/").json()["email"] == SECRET
    changed = api.patch(f"{API}{hans.pk}/", {"club": "DK Kassel"}, format="json")
    assert changed.status_code == 200 and changed.json()["registry_club"] == club_a.pk
    listed = api.get(API, {"registry_club": club_a.pk}).json()
    assert [p["last_name"] for p in listed["results"]] == ["Huber"]

    client = page_client(bob, language="en")
    page = client.get(reverse("tournaments:registry"), {"club": club_a.pk})
    assert page.status_code == 200 and page.context["club"] == club_a
    assert [p.pk for p in page.context["players"]] == [hans.pk]
    # Two registries to keep: the page offers the choice, his personal club by default.
    assert {c.pk for c in page.context["clubs"]} == {club_a.pk, personal_club(bob).pk}
    assert 'name="club"' in page.content.decode()
    default = client.get(reverse("tournaments:registry"))
    assert default.context["club"] == personal_club(bob)
    assert "Huber" not in default.content.decode()
    player_page = client.get(reverse("tournaments:registry-player", args=[hans.pk]))
    assert player_page.status_code == 200 and "Dulle" in player_page.content.decode()


def test_the_registry_page_ignores_a_club_that_is_not_his(
    hans: Player, alice_client: Client, bob: User
) -> None:
    """A foreign or broken choice shows the default registry (no 500, no oracle)."""
    make_tournament("bobs", organizers=[bob])
    for choice in (str(personal_club(bob).pk), "abc", "\x00", "9" * 40, ""):
        page = alice_client.get(reverse("tournaments:registry"), {"club": choice})
        assert page.status_code == 200
        assert page.context["club"] in (personal_club(page.wsgi_request.user), hans.registry_club)


def test_the_registry_page_lists_only_the_chosen_club(
    hans: Player, club_a: Club, alice: User, alice_client: Client
) -> None:
    add_players(make_tournament("meins", organizers=[alice]), names=[("Olga", "Ott")])
    dulle = alice_client.get(reverse("tournaments:registry"), {"club": club_a.pk})
    assert [p.last_name for p in dulle.context["players"]] == ["Huber"]
    personal = alice_client.get(reverse("tournaments:registry"))
    assert personal.context["club"] == personal_club(alice)
    assert [p.last_name for p in personal.context["players"]] == ["Ott"]


def test_the_api_refuses_a_broken_club_filter_next_to_the_field(
    hans: Player, alice_api: APIClient
) -> None:
    response = alice_api.get(API, {"registry_club": "x"})
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "registry_club"
    everything = alice_api.get(API).json()["results"]
    assert [p["registry_club"] for p in everything] == [hans.registry_club_id]


def test_a_merge_stays_inside_one_clubs_registry(
    hans: Player, club_a: Club, alice: User, alice_api: APIClient
) -> None:
    (mine,) = add_players(make_tournament("meins", organizers=[alice]), names=[("Hans", "Hub")])
    response = alice_api.post(
        f"{API}{hans.pk}/merge/", {"duplicate": mine.player_id}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "other_registry"
