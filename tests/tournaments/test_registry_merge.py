"""One person, one player: merging two entries of a registry, by its keepers only."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.urls import reverse

from clubs import roles
from clubs.models import Membership
from common.services import Refusal, ServiceError
from tests.concurrency import race
from tests.factories import (
    add_players,
    api_client,
    make_tournament,
    make_user,
    organize,
    page_client,
)
from tournaments.models import Player, Registration, RegistryChange, Tournament
from tournaments.services.registry import merge_players, possible_duplicates
from tournaments.services.setup import save_tournament, unique_slug

pytestmark = pytest.mark.django_db


def two_tournaments(alice: User) -> tuple[Tournament, Tournament]:
    return (
        make_tournament("herbst", organizers=[alice]),
        make_tournament("winter", organizers=[alice]),
    )


def twice(alice: User) -> tuple[Registration, Registration]:
    """Hans Müller in the autumn tournament, "H. Mueller" with his club and DDV number in
    the winter one: two players of Alice's registry for one person."""
    autumn, winter = two_tournaments(alice)
    (first,) = add_players(autumn, names=[("Hans", "Müller")])
    (second,) = add_players(winter, names=[("H.", "Müller", "DK Köln")])
    Player.objects.filter(pk=second.player_id).update(ddv_number="4711", email="h@example.org")
    return first, second


def test_merge_moves_registrations_fills_details_and_logs(alice: User) -> None:
    first, second = twice(alice)
    keep, duplicate = first.player, second.player

    merged = merge_players(alice, keep, duplicate)

    assert merged.pk == keep.pk
    assert not Player.objects.filter(pk=duplicate.pk).exists()
    assert set(Registration.objects.filter(player=keep).values_list("pk", flat=True)) == {
        first.pk,
        second.pk,
    }
    keep.refresh_from_db()
    # His own name stays; what he lacked comes from the duplicate.
    assert (keep.first_name, keep.club, keep.ddv_number, keep.email) == (
        "Hans",
        "DK Köln",
        "4711",
        "h@example.org",
    )
    (change,) = RegistryChange.objects.all()
    assert change.owner_id == alice.pk and change.user_id == alice.pk
    assert change.action == "tournaments.player.merged" and change.player_id == keep.pk
    assert change.before["merged"]["first_name"] == "H."
    assert change.before["kept"]["club"] == ""
    assert change.before["registrations"] == [second.pk]
    assert change.after["ddv_number"] == "4711"


def test_both_registered_in_one_tournament_are_two_people(alice: User) -> None:
    autumn, _ = two_tournaments(alice)
    a, b = add_players(autumn, names=[("Hans", "Müller"), ("Hans", "Müller")])
    with pytest.raises(ServiceError) as refused:
        merge_players(alice, a.player, b.player)
    assert refused.value.code == "both_registered" and refused.value.field == "duplicate"
    assert "Turnier herbst" in refused.value.message
    assert Player.objects.count() == 2 and not RegistryChange.objects.exists()


def test_different_ddv_numbers_are_two_people(alice: User) -> None:
    first, second = twice(alice)
    Player.objects.filter(pk=first.player_id).update(ddv_number="1234")
    first.player.refresh_from_db()
    with pytest.raises(ServiceError) as refused:
        merge_players(alice, first.player, second.player)
    assert refused.value.code == "ddv_number_differs"
    assert Player.objects.count() == 2


def test_a_player_is_not_merged_with_himself(alice: User) -> None:
    first, _ = twice(alice)
    with pytest.raises(ServiceError) as refused:
        merge_players(alice, first.player, first.player)
    assert refused.value.code == "same_player"


def test_only_the_registry_keepers_merge(alice: User, bob: User) -> None:
    """The registry is the club's: its organizers merge (design decision 14); a cashier
    of the club and the organizer of another club do not."""
    first, second = twice(alice)
    club = first.tournament.club
    carol, dave = make_user("carol"), make_user("dave")
    Membership.objects.create(club=club, user=carol, role=roles.CASHIER)
    for user in (bob, carol):
        with pytest.raises(ServiceError) as refused:
            merge_players(user, first.player, second.player)
        assert refused.value.refusal is Refusal.NOT_FOUND
    assert Player.objects.count() == 2
    organize(first.tournament, dave)  # an organizer of the club: keeps its registry
    merge_players(dave, first.player, second.player)
    assert Player.objects.count() == 1


def test_players_of_two_registries_are_not_merged(alice: User, bob: User) -> None:
    first, _ = twice(alice)
    (bobs,) = add_players(make_tournament("bobs", organizers=[bob]), names=[("Hans", "Müller")])
    admin = User.objects.create_superuser("root", password="x")
    with pytest.raises(ServiceError) as refused:
        merge_players(admin, first.player, bobs.player)
    assert refused.value.code == "other_registry"


def test_possible_duplicates_same_last_name_first_names_begin_alike(alice: User) -> None:
    autumn, _ = two_tournaments(alice)
    regs = add_players(
        autumn,
        names=[
            ("Hans", "Müller"),
            ("Hans-Peter", "MÜLLER"),
            ("H.", "Mueller"),  # written out: another last name for the list's order
            ("Anna", "Müller"),
            ("Hans", "Schmidt"),
        ],
    )
    players = [r.player for r in regs]
    groups = possible_duplicates(players)
    assert [{p.first_name for p in g} for g in groups] == [{"Hans", "Hans-Peter"}]
    # Two DDV numbers: never offered together.
    Player.objects.filter(pk=players[0].pk).update(ddv_number="1")
    Player.objects.filter(pk=players[1].pk).update(ddv_number="2")
    assert possible_duplicates(list(Player.objects.filter(pk__in=[p.pk for p in players]))) == []


def test_registry_page_lists_own_players_and_suggestions(alice: User, bob: User) -> None:
    twice(alice)
    add_players(make_tournament("bobs", organizers=[bob]), names=[("Bernd", "Bobs")])
    response = page_client(alice, language="en").get(reverse("tournaments:registry"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Possibly the same person" in html
    assert "Müller, Hans" in html and "Müller, H." in html
    assert "Bobs" not in html
    found = page_client(alice, language="en").get(reverse("tournaments:registry"), {"q": "köln"})
    table = found.content.decode().split("<h2>Players</h2>")[1]
    assert "Müller, H." in table and "Müller, Hans<" not in table


def test_merge_page_merges_and_refusal_stays_next_to_the_field(alice: User) -> None:
    first, second = twice(alice)
    url = reverse("tournaments:registry-player", args=[first.player_id])
    client = page_client(alice, language="en")
    page = client.get(url)
    assert page.status_code == 200 and "Turnier winter" not in page.content.decode()

    Player.objects.filter(pk=first.player_id).update(ddv_number="1234")
    refused = client.post(url, {"duplicate": second.player_id})
    assert refused.status_code == 200
    assert "different DDV numbers" in refused.content.decode()
    assert f'value="{second.player_id}" selected' in refused.content.decode()

    Player.objects.filter(pk=first.player_id).update(ddv_number="")
    done = client.post(url, {"duplicate": second.player_id})
    registry = f"{reverse('tournaments:registry')}?club={first.tournament.club_id}"
    assert done.status_code == 302 and done.url == registry
    assert Registration.objects.filter(player_id=first.player_id).count() == 2


@pytest.mark.parametrize("junk", ["", "abc", "-1", "99999999999999999999", "\x00"])
def test_merge_page_junk_is_a_message(alice: User, junk: str) -> None:
    first, _ = twice(alice)
    url = reverse("tournaments:registry-player", args=[first.player_id])
    response = page_client(alice, language="en").post(url, {"duplicate": junk})
    assert response.status_code == 200
    assert Player.objects.count() == 2


def test_merge_page_is_the_owners(alice: User, bob: User) -> None:
    first, second = twice(alice)
    url = reverse("tournaments:registry-player", args=[first.player_id])
    assert page_client(bob).get(url).status_code == 404
    assert page_client(bob).post(url, {"duplicate": second.player_id}).status_code == 404
    anonymous = page_client().get(url)
    assert anonymous.status_code == 302 and "/login/" in anonymous.url
    assert Player.objects.count() == 2


def test_api_merge(alice: User, bob: User) -> None:
    first, second = twice(alice)
    url = f"/api/v1/players/{first.player_id}/merge/"
    assert api_client(user=bob).post(url, {"duplicate": second.player_id}).status_code == 404
    bad = api_client(user=alice).post(url, {"duplicate": "x"}, format="json")
    assert bad.status_code == 400
    response = api_client(user=alice).post(url, {"duplicate": second.player_id}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["ddv_number"] == "4711"
    again = api_client(user=alice).post(url, {"duplicate": second.player_id}, format="json")
    assert again.status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_two_merges_of_one_pair_at_once_make_one(alice: User) -> None:
    for trial in range(5):
        autumn = make_tournament(f"a{trial}", organizers=[alice])
        winter = make_tournament(f"w{trial}", organizers=[alice])
        (a,) = add_players(autumn, names=[("Hans", f"Müller{trial}")])
        (b,) = add_players(winter, names=[("Hans", f"Müller{trial}")])
        pa, pb = a.player, b.player
        outcomes = race(
            lambda pa=pa, pb=pb: merge_players(alice, pa, pb),
            lambda pa=pa, pb=pb: merge_players(alice, pb, pa),
        )
        errors = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(errors) == 1 and isinstance(errors[0], ServiceError), outcomes
        assert errors[0].refusal is Refusal.CONFLICT
        survivor = Player.objects.get(last_name=f"Müller{trial}")
        assert survivor.registrations.count() == 2
    assert RegistryChange.objects.count() == 5


def test_a_tournament_cannot_take_the_registrys_address(alice: User) -> None:
    """/verwaltung/spieler/ is the registry: a tournament named so could not be managed."""
    tournament = Tournament(name="Spieler", slug="spieler", starts_on=datetime.date(2026, 12, 5))
    with pytest.raises(ServiceError) as refused:
        save_tournament(tournament, organizer=alice)
    assert refused.value.code == "slug_reserved" and refused.value.field == "slug"
    assert "spieler-2" in refused.value.message
    assert unique_slug("Spieler") == "spieler-2"
