"""A club owns tournaments, seasons and leagues; its members keep them through their roles
(``clubs.roles``), answered by the one rule (``common.ownership``)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.urls import reverse

from clubs import roles
from clubs.models import Club, Membership
from clubs.services import clubs_keeping, home_club, personal_club
from common.actors import ORGANIZER, Actor
from common.services import Refusal, ServiceError
from seasons.models import Season
from seasons.permissions import SEASONS
from seasons.services import SeasonData, create_season
from teams.models import League
from teams.permissions import LEAGUES
from teams.services import LeagueData, create_league
from tests.factories import api_client, make_tournament, make_user, page_client
from tournaments.models import Tournament
from tournaments.permissions import TOURNAMENTS

pytestmark = pytest.mark.django_db


def _club(slug: str, **members: str) -> Club:
    club = Club.objects.create(name=slug.title(), slug=slug)
    for username, role in members.items():
        user = User.objects.filter(username=username).first() or make_user(username)
        Membership.objects.create(club=club, user=user, role=role)
    return club


def _user(name: str) -> User:
    return User.objects.get(username=name)


def test_roles_as_data() -> None:
    assert roles.keeping_roles(roles.TOURNAMENTS) == (roles.OWNER, roles.ORGANIZER)
    for kind in (roles.SEASONS, roles.LEAGUES, roles.REGISTRY, roles.EVENINGS):
        assert roles.keeping_roles(kind) == (roles.OWNER, roles.ORGANIZER)
    assert roles.keeping_roles(roles.CASHBOX) == (roles.OWNER, roles.CASHIER)
    assert roles.keeping_roles(roles.FEES) == (roles.OWNER, roles.ORGANIZER, roles.CASHIER)
    payments = roles.keeping_roles(roles.EVENING_PAYMENTS)  # an evening's into the cash box
    assert payments == (roles.OWNER, roles.ORGANIZER, roles.CASHIER)
    rulings = roles.keeping_roles(roles.RULINGS)  # the referee calls of the club's tournaments
    assert rulings == (roles.OWNER, roles.ORGANIZER, roles.REFEREE)
    with pytest.raises(ValueError):
        roles.keeping_roles("bowling")


def test_keepers_of_a_club_keep_its_things_and_nobody_else() -> None:
    a = _club("a", olga="owner", otto="organizer", cora="cashier", rudi="referee")
    b = _club("b", bert="owner")
    private = make_tournament("privat", is_public=False, club=a)
    other = make_tournament("anders", is_public=False, club=b)
    public = make_tournament("offen", club=b)
    for name in ("olga", "otto"):
        assert TOURNAMENTS.may_keep(_user(name), private)
        assert set(TOURNAMENTS.visible(_user(name))) == {private, public}
        assert not TOURNAMENTS.may_keep(_user(name), other)
    for name in ("cora", "rudi"):  # a cashier and a referee see what the public sees
        assert not TOURNAMENTS.may_keep(_user(name), private)
        assert set(TOURNAMENTS.visible(_user(name))) == {public}
    assert set(Tournament.objects.filter(TOURNAMENTS.kept_by(_user("bert")))) == {other, public}
    assert set(TOURNAMENTS.visible(AnonymousUser())) == {public}


def test_a_member_of_two_clubs_keeps_the_things_of_both() -> None:
    _club("a", olga="owner")
    a, b = Club.objects.get(slug="a"), _club("b", bert="owner")
    Membership.objects.create(club=b, user=_user("olga"), role="organizer")
    one = make_tournament("eins", is_public=False, club=a)
    two = make_tournament("zwei", is_public=False, club=b)
    kept = Tournament.objects.filter(TOURNAMENTS.kept_by(_user("olga")))
    assert list(kept.order_by("slug")) == [one, two]  # each once, whatever the joins


def test_a_thing_of_no_club_is_kept_by_superusers_only() -> None:
    lonely = make_tournament("allein", is_public=False)
    admin = User.objects.create_superuser("admin", password="x")
    assert not TOURNAMENTS.may_keep(make_user("olga"), lonely)
    assert TOURNAMENTS.may_keep(admin, lonely)


def test_the_personal_club_is_made_once_with_its_user_as_owner() -> None:
    olga = make_user("olga")
    club = personal_club(olga)
    assert personal_club(olga) == club
    assert (club.name, club.slug, club.personal_of) == ("olga", "olga", olga)
    assert list(club.memberships.values_list("user", "role")) == [(olga.pk, "owner")]
    Club.objects.create(name="Otto", slug="otto")
    otto = User.objects.create_user("otto", first_name="Otto", last_name="")
    assert personal_club(otto).slug == "otto-2"  # the slug taken by another club


def test_new_things_go_to_the_chosen_club_or_the_personal_one() -> None:
    a = _club("a", olga="owner", cora="cashier")
    olga, cora = _user("olga"), _user("cora")
    assert list(clubs_keeping(olga, roles.SEASONS)) == [a]
    assert home_club(olga, roles.SEASONS, a) == a
    season = create_season(SeasonData(name="Saison"), actor=Actor(ORGANIZER, user=olga))
    assert season.club == personal_club(olga) and season.owner == olga
    league = create_league(LeagueData(name="Liga"), actor=Actor(ORGANIZER, user=olga), club=a)
    assert league.club == a
    assert SEASONS.may_keep(olga, season) and LEAGUES.may_keep(olga, league)
    assert not LEAGUES.may_keep(cora, league)
    with pytest.raises(ServiceError) as caught:  # a cashier creates nothing in his club
        create_season(SeasonData(name="Kasse"), actor=Actor(ORGANIZER, user=cora), club=a)
    assert (caught.value.code, caught.value.refusal) == ("not_club_keeper", Refusal.FORBIDDEN)


def test_the_tournament_form_offers_the_clubs_of_a_member_of_several() -> None:
    a = _club("a", olga="organizer")
    olga = _user("olga")
    client = page_client(olga)
    new = reverse("tournaments:create")
    assert "club" not in client.get(new).context["form"].fields  # one club only
    personal_club(olga)
    form = client.get(new).context["form"]
    assert list(form.fields["club"].queryset) == [a, personal_club(olga)]
    data = {
        "name": "Vereinsturnier", "slug": "", "starts_on": "2026-12-01", "ruleset": "ddv",
        "series_count": 2, "entry_mode": "entry", "confirmation": "player", "club": a.pk,
    }  # fmt: skip
    response = client.post(new, data)
    assert response.status_code == 302, response.context["form"].errors
    created = Tournament.objects.get(name="Vereinsturnier")
    assert created.club == a and list(created.organizers.all()) == [olga]


LEAGUE = {
    "name": "Vereinsliga", "kind": "league", "scoring_preset": "bundesliga", "squad_max": "8",
    "players_per_team": "4", "series_per_day": "4", "days": "5",
}  # fmt: skip


@pytest.mark.parametrize(
    ("route", "model", "data"),
    [
        ("seasons:create", Season, {"name": "Vereinssaison", "slug": "", "preset": "best_n"}),
        ("teams:create", League, LEAGUE),
    ],
    ids=["season", "league"],
)
def test_the_season_and_league_forms_offer_the_clubs_too(
    route: str, model: type[Season] | type[League], data: dict[str, str]
) -> None:
    a = _club("a", olga="organizer", cora="cashier")
    olga = _user("olga")
    client = page_client(olga)
    new = reverse(route)
    assert "club" not in client.get(new).context["form"].fields  # one club only
    personal_club(olga)
    assert list(client.get(new).context["form"].fields["club"].queryset) == [
        a, personal_club(olga)
    ]  # fmt: skip
    response = client.post(new, {**data, "club": a.pk})
    assert response.status_code == 302, response.context["form"].errors
    assert model.objects.get(name=data["name"]).club == a
    # A club he does not keep such things in is no choice (his answer stays on the form).
    b = _club("b", bert="owner", olga="cashier")
    refused = client.post(new, {**data, "name": "Fremd", "club": b.pk})
    assert refused.status_code == 200 and "club" in refused.context["form"].errors
    assert refused.context["form"]["name"].value() == "Fremd"
    assert not model.objects.filter(name="Fremd").exists()
    # Left empty, it goes into his personal club.
    assert client.post(new, {**data, "name": "Privat"}).status_code == 302
    assert model.objects.get(name="Privat").club == personal_club(olga)


def test_a_member_of_club_a_sees_nothing_private_of_club_b() -> None:
    a = _club("a", olga="owner", otto="organizer")
    b = _club("b", bert="owner")
    bert = _user("bert")
    make_tournament("geheim", is_public=False, club=b)
    create_season(
        SeasonData(name="S", slug="s-b", is_public=False), actor=Actor(ORGANIZER, user=bert), club=b
    )
    create_league(
        LeagueData(name="L", slug="l-b", is_public=False), actor=Actor(ORGANIZER, user=bert), club=b
    )
    paths = [
        reverse("tournaments:detail", args=["geheim"]),
        reverse("tournaments:manage", args=["geheim"]),
        reverse("seasons:detail", args=["s-b"]),
        reverse("teams:detail", args=["l-b"]),
        reverse("clubs:detail", args=[b.slug]),
        "/api/v1/tournaments/geheim/",
        reverse("api:season-detail", args=["s-b"]),
        reverse("api:league-detail", args=["l-b"]),
    ]
    for name in ("olga", "otto"):
        client = page_client(_user(name))
        assert [client.get(path).status_code for path in paths] == [404, 403] + [404] * 6
    owner = page_client(bert)
    assert all(owner.get(path).status_code == 200 for path in paths)
    assert a.memberships.count() == 2


API_PATHS = ("/api/v1/tournaments/", "/api/v1/seasons/", "/api/v1/leagues/")


def _new(path: str, name: str, **more: str) -> dict[str, str]:
    if "tournaments" in path:
        return {"name": name, "slug": name.lower(), "starts_on": "2026-12-01", **more}
    return {"name": name, **more}


@pytest.mark.parametrize("path", API_PATHS)
def test_the_api_names_and_chooses_the_club(path: str) -> None:
    """``club`` in the API: chosen among the clubs the requester keeps such things in (any
    other is as unknown as one that does not exist), shown on every read, fixed after."""
    a = _club("a", olga="organizer")
    _club("b", bert="owner", olga="cashier")
    olga = _user("olga")
    api = api_client(user=olga, lang="en")
    created = api.post(path, _new(path, "Verein", club="a"), format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["club"] == "a"
    for club in ("b", "nowhere"):
        refused = api.post(path, _new(path, "Fremd", club=club), format="json")
        assert refused.status_code == 400, refused.json()
        assert refused.json()["error"]["field"] == "club", refused.json()
    messages = {
        str(api.post(path, _new(path, "Fremd", club=club), format="json").json()["error"])
        for club in ("b", "nowhere")
    }
    assert len({m.replace("nowhere", "b") for m in messages}) == 1, messages
    mine = api.post(path, _new(path, "Privat"), format="json")
    assert mine.status_code == 201 and mine.json()["club"] == personal_club(olga).slug
    if path == "/api/v1/leagues/":
        return  # a league's settings are changed on its pages only
    slug = created.json()["slug"]
    moved = api.patch(f"{path}{slug}/", {"club": mine.json()["club"]}, format="json")
    assert moved.status_code == 400 and moved.json()["error"]["field"] == "club", moved.json()
    kept = api.patch(f"{path}{slug}/", {"club": "a", "name": "Umbenannt"}, format="json")
    assert kept.status_code == 200 and kept.json()["club"] == "a", kept.json()
    assert a.pk == (
        Tournament.objects.get(slug=slug).club_id
        if "tournaments" in path
        else Season.objects.get(slug=slug).club_id
    )
