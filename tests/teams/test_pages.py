"""Team competition pages: the public table (shared victory points as 3.5), match days with
their groups, a team's line-ups with who came in and went out; private leagues and junk
addresses are not found; the owner's pages keep what was typed and say what is wrong next
to the field; nobody else may open them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.services import personal_club
from teams.models import League, LineUp, SquadMember, Team
from tests.factories import page_client, set_status
from tests.teams.helpers import finish_day, league_with_teams
from tests.teams.played import Played, played_league
from tournaments.models import Player, Series

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(alice: User) -> Played:
    return played_league(alice)


def english(user: User | None = None) -> Client:
    return page_client(user, language="en")


def test_a_running_day_is_provisional_and_not_in_the_table(played: Played) -> None:
    """Series 1 closed, series 2 still open: the group's result is shown as provisional,
    the table counts nothing of it; the individual ranking counts the closed series and
    marks the shared places with "="."""
    response = english().get("/ligen/liga/")
    assert response.context["table"].teams == ()
    body = response.content.decode()
    assert "Provisional: a series is still running." in body
    assert "No match day is finished yet: a running day counts once all its series" in body
    figures = [line.figures for line in response.context["individual"].lines]
    assert [line.total for line in figures] == [1] * 8 + [-1] * 8
    assert [line.place for line in figures] == [1] * 8 + [9] * 8
    players = body[body.index('class="striped league-players"') :]
    assert players.count('<span aria-hidden="true">=</span>') == 16
    assert "Order in the table: victory points, then game points, then head-to-head" in body


def test_a_running_series_does_not_count_for_the_players(played: Played) -> None:
    set_status(played.group.tournament.series.get(number=1), Series.Status.RUNNING)
    ranking = english().get("/ligen/liga/").context["individual"]
    assert [
        (line.figures.place, line.figures.series, line.figures.open_series)
        for line in ranking.lines
    ] == [(None, 0, 1)] * 16


def test_league_page_shows_the_table_shared_points_and_the_groups(played: Played) -> None:
    finish_day(played.group)
    response = english().get("/ligen/liga/")
    assert response.status_code == 200
    table = response.context["table"]
    assert [(line.team.name, str(line.victory_points), line.points) for line in table.teams] == [
        ("T0", "7/2", 4), ("T1", "7/2", 4), ("T2", "3/2", -4), ("T3", "3/2", -4),
    ]  # fmt: skip
    body = response.content.decode()
    assert "<strong>3.5</strong>" in body and "<strong>1.5</strong>" in body
    slug = played.group.tournament.slug
    for link in (f"/turniere/{slug}/", f"/turniere/{slug}/tabelle/", f"/turniere/{slug}/halle/"):
        assert f'href="{link}"' in body
    # The individual ranking: the eight players of teams 0 and 1 on +1, the others on -1.
    individual = response.context["individual"]
    assert [line.figures.total for line in individual.lines] == [1] * 8 + [-1] * 8
    assert 'href="/ligen/liga/einzelwertung/"' in body
    assert "/verwaltung/ligen/" not in body  # no owner's links for visitors


def test_german_page_writes_shared_points_with_a_comma(played: Played) -> None:
    finish_day(played.group)
    body = page_client(language="de").get("/ligen/liga/").content.decode()
    assert "<strong>3,5</strong>" in body


def test_team_page_marks_who_came_in_and_went_out(played: Played) -> None:
    team, members = played.teams[0], played.players[0]
    response = english().get(f"/ligen/liga/teams/{team.pk}/")
    assert response.status_code == 200
    (day,) = response.context["days"]
    first, second = day["series"]
    assert list(first["players"]) == members[:4] and not first["came_in"]
    assert second["came_in"] == {members[4]} and list(second["went_out"]) == [members[0]]
    body = response.content.decode()
    assert body.count('class="sub-in"') == 1 and body.count('class="sub-out"') == 1
    assert "victory points: 3.5" in body


@pytest.mark.parametrize(
    "path",
    [
        "/ligen/keine/",
        "/ligen/liga/teams/999999/",
        "/ligen/liga/teams/99999999999999999999/",
        "/ligen/liga/teams/abc/",
        "/verwaltung/ligen/liga/gruppen/99999999999999999999/",
    ],
)
def test_junk_addresses_are_not_found(played: Played, alice: User, path: str) -> None:
    assert page_client(alice).get(path).status_code == 404


def test_a_team_of_another_league_is_not_found_under_this_one(played: Played, bob: User) -> None:
    other = played_league(bob, slug="andere")
    assert english().get(f"/ligen/liga/teams/{other.teams[0].pk}/").status_code == 404


def test_a_private_league_exists_for_its_owner_only(alice: User, bob: User) -> None:
    played_league(alice, slug="geheim", is_public=False)
    for path in ("/ligen/geheim/", f"/ligen/geheim/teams/{Team.objects.first().pk}/"):  # type: ignore[union-attr]
        assert english().get(path).status_code == 404
        assert english(bob).get(path).status_code == 404
        assert english(alice).get(path).status_code == 200
    assert "geheim" not in english().get("/ligen/").content.decode()


def test_league_page_queries_do_not_grow_with_the_games(played: Played, alice: User) -> None:
    client = english()
    client.get("/ligen/liga/")
    with CaptureQueriesContext(connection) as first:
        client.get("/ligen/liga/")
    played_league(alice, slug="zweite")
    with CaptureQueriesContext(connection) as again:
        client.get("/ligen/zweite/")
    assert len(again) == len(first)


# -- the owner's pages --------------------------------------------------------------------------


def test_owner_pages_are_the_owners(played: Played, alice: User, bob: User) -> None:
    group = played.group.pk
    paths = [
        "/verwaltung/ligen/liga/bearbeiten/",
        "/verwaltung/ligen/liga/mannschaften/",
        "/verwaltung/ligen/liga/spieltage/",
        f"/verwaltung/ligen/liga/gruppen/{group}/",
    ]
    for path in paths:
        assert english(alice).get(path).status_code == 200, path
        assert english(bob).get(path).status_code == 403, path
        assert english(bob).post(path, {}).status_code == 403, path
        assert english().get(path)["Location"].startswith("/login/"), path
    assert "Liga" in english(alice).get("/verwaltung/ligen/").content.decode()
    assert "Liga" not in english(bob).get("/verwaltung/ligen/").content.decode()


def test_create_form_keeps_input_and_errors_sit_at_their_field(alice: User) -> None:
    client = english(alice)
    data = {
        "name": "Bezirksliga", "kind": "league", "scoring_preset": "bundesliga",
        "victory_points_4": "4, 3, x", "squad_max": "8", "players_per_team": "4",
        "series_per_day": "4", "days": "5",
    }  # fmt: skip
    response = client.post("/verwaltung/ligen/neu/", data)
    assert response.status_code == 200
    form = response.context["form"]
    assert list(form.errors) == ["victory_points_4"]
    assert 'value="Bezirksliga"' in response.content.decode()
    # A table that rises with the place is the service's refusal, also next to the field.
    response = client.post("/verwaltung/ligen/neu/", {**data, "victory_points_4": "1, 2, 3, 4"})
    assert list(response.context["form"].errors) == ["victory_points_4"]
    response = client.post("/verwaltung/ligen/neu/", {**data, "victory_points_4": "6, 4, 2, 0"})
    assert response.status_code == 302
    league = League.objects.get(name="Bezirksliga")
    assert league.scoring_overrides == {"victory_points": [[6, 4, 2, 0]]}
    assert response["Location"] == "/verwaltung/ligen/bezirksliga/mannschaften/"
    edit = client.get("/verwaltung/ligen/bezirksliga/bearbeiten/").content.decode()
    assert 'value="6, 4, 2, 0"' in edit


def test_teams_page_adds_teams_and_players(alice: User) -> None:
    client = english(alice)
    client.post("/verwaltung/ligen/neu/", {
        "name": "Kreisliga", "kind": "league", "scoring_preset": "bundesliga", "squad_max": "5",
        "players_per_team": "4", "series_per_day": "2", "days": "3",
    })  # fmt: skip
    url = "/verwaltung/ligen/kreisliga/mannschaften/"
    assert client.post(url, {"action": "add_team", "team-name": "Füchse"}).status_code == 302
    response = client.post(url, {"action": "add_team", "team-name": "füchse", "team-club": "X"})
    assert response.status_code == 400
    assert 'value="X"' in response.content.decode()  # the club typed is kept
    assert response.context["team_form"].errors["name"]
    team = Team.objects.get(name="Füchse")
    hans = Player.objects.create(
        owner=alice, registry_club=personal_club(alice), first_name="Hans", last_name="Huber"
    )
    found = client.get(f"{url}?team={team.pk}&q=hub").context["teams"][0]["found"]
    assert found == [hans]
    assert (
        client.post(url, {"action": "add_player", "team": team.pk, "player": hans.pk}).status_code
        == 302
    )
    # A new player: the names are required, what was typed stays.
    response = client.post(
        url, {"action": "new_player", "team": team.pk, f"new{team.pk}-first_name": "Ida"}
    )
    assert response.status_code == 400
    assert 'value="Ida"' in response.content.decode()
    client.post(url, {
        "action": "new_player", "team": team.pk,
        f"new{team.pk}-first_name": "Ida", f"new{team.pk}-last_name": "Imhof",
    })  # fmt: skip
    assert sorted(str(m.player) for m in SquadMember.objects.filter(team=team)) == [
        str(hans), str(Player.objects.get(first_name="Ida")),
    ]  # fmt: skip
    member = SquadMember.objects.get(player=hans)
    # Removing asks first: the page again, the question next to his name, nothing removed.
    asked = client.post(url, {"action": "remove_player", "team": team.pk, "member": member.pk})
    assert asked.status_code == 200
    assert "Remove Hans Huber from the squad of Füchse?" in asked.content.decode()
    assert SquadMember.objects.filter(player=hans).exists()
    client.post(
        url, {"action": "remove_player", "team": team.pk, "member": member.pk, "confirmed": "1"}
    )
    assert not SquadMember.objects.filter(player=hans).exists()
    # Junk: another owner's player, unknown ids, a team of nobody.
    stranger = Player.objects.create(first_name="Fremd", last_name="Ling")
    response = client.post(url, {"action": "add_player", "team": team.pk, "player": stranger.pk})
    assert response.status_code == 400
    junks = [
        {"action": "add_player", "team": "x"},
        {"action": "nonsense", "team": team.pk},
        {"action": "remove_player", "team": team.pk, "member": "99999999999999"},
    ]
    for junk in junks:
        assert client.post(url, junk).status_code in (302, 400, 404)


def test_line_up_form_keeps_the_choice_and_says_why(played: Played, alice: User) -> None:
    client = english(alice)
    url = f"/verwaltung/ligen/liga/gruppen/{played.group.pk}/"
    team, members = played.teams[0], played.players[0]
    series_2 = f"s2t{team.pk}-players"
    # Series 2 is not drawn: two players are too few (four, or three with one missing).
    response = client.post(
        url, {"series": 2, "team": team.pk, series_2: [members[0].pk, members[1].pk]}
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "Name 4 players" in body
    assert body.count("checked") >= 2  # the two chosen stay chosen
    before = list(LineUp.objects.filter(group=played.group, team=team, series_number=2))
    assert len(before) == 4
    chosen = [m.pk for m in members[:4]]
    response = client.post(url, {"series": 2, "team": team.pk, series_2: chosen})
    assert response.status_code == 302
    assert sorted(
        LineUp.objects.filter(group=played.group, team=team, series_number=2).values_list(
            "player_id", flat=True
        )
    ) == sorted(chosen)
    # Junk: an unknown series or team goes back with a message, never a 500.
    for junk in ({"series": "x"}, {"series": 99}, {"series": 2, "team": "99999999999999"}):
        assert client.post(url, junk).status_code == 302


def test_group_page_draws_a_series(played: Played, alice: User) -> None:
    client = english(alice)
    url = f"/verwaltung/ligen/liga/gruppen/{played.group.pk}/"
    series = played.group.tournament.series.get(number=2)
    # Series 1 is not closed, but drawing the next one needs it drawn only.
    response = client.post(url, {"series": 2, "action": "draw"}, follow=True)
    assert response.status_code == 200
    series.refresh_from_db()
    assert series.status == "drawn"
    assert series.tables.count() == 4


def test_schedule_page_makes_the_match_days(alice: User) -> None:
    league, _teams, _players = league_with_teams(alice, 8, slug="acht", days=2)
    client = english(alice)
    response = client.post("/verwaltung/ligen/acht/spieltage/", follow=True)
    assert response.status_code == 200
    assert league.match_days.count() == 2
    context = response.context
    # 2 days of 2 groups of 6 pairs = 24 meetings of the 28 pairs; day 2 repeats at least four
    # (each of its groups takes two teams of each group of day 1), and the search gets there.
    assert (context["repeats"], context["never_met"]) == (4, 8)


def test_a_squad_is_pasted_as_a_list_with_errors_per_line(alice: User) -> None:
    _league, teams, _players = league_with_teams(alice, 2, squad=0, slug="paste", squad_max=12)
    team = teams[0]
    url = "/verwaltung/ligen/paste/mannschaften/"
    known = Player.objects.create(
        owner=alice,
        registry_club=personal_club(alice),
        first_name="Hans",
        last_name="Huber",
        club="A",
    )
    other = Player.objects.create(
        owner=alice, registry_club=personal_club(alice), first_name="Olga", last_name="Ott"
    )
    client = english(alice)
    client.post(url, {"action": "add_player", "team": teams[1].pk, "player": other.pk})
    pasted = "Hans Huber\nIda\n\nOlga Ott\nKarl Kern, SV Nord\nhans huber"
    field = f"list{team.pk}-players"
    response = client.post(url, {"action": "add_list", "team": team.pk, field: pasted})
    assert response.status_code == 400
    errors = response.context["teams"][0]["squad_list"].errors["players"]
    assert errors == [
        "Line 2: Give the first and the last name.",
        "Line 4: Olga Ott already plays for T1 in this competition.",
        "Line 6: Named twice (line 1).",
    ]
    body = response.content.decode()
    assert "Karl Kern, SV Nord" in body  # nothing typed is lost
    assert not SquadMember.objects.filter(team=team).exists()  # all or nothing
    # A full squad in one go, from a spreadsheet (tabs) with its header line; one more
    # than the squad takes is refused on its line, and nothing is added.
    rows = ["Vorname\tNachname\tVerein", "Hans\tHuber\tA"]
    rows += [f"Spieler{i}\tNummer{i}\tSV {i % 3}" for i in range(12)]
    response = client.post(url, {"action": "add_list", "team": team.pk, field: "\n".join(rows)})
    assert response.status_code == 400
    assert response.context["teams"][0]["squad_list"].errors["players"] == [
        "Line 14: The squad of T0 is full (12 players)."
    ]
    assert not SquadMember.objects.filter(team=team).exists()
    assert not Player.objects.filter(first_name="Spieler0").exists()
    response = client.post(
        url, {"action": "add_list", "team": team.pk, field: "\n".join(rows[:-1])}
    )
    assert response.status_code == 302
    squad = SquadMember.objects.filter(team=team)
    assert squad.count() == 12
    assert squad.filter(player=known).exists()  # found in the registry, not made again
    assert Player.objects.filter(owner=alice, first_name="Hans").count() == 1
    assert Player.objects.get(first_name="Spieler7").club == "SV 1"
    assert "12 players added to T0." in client.get(url).content.decode()


def test_match_days_dated_out_of_order_are_saved_with_a_warning(alice: User) -> None:
    league, _teams, _players = league_with_teams(alice, 8, squad=0, slug="acht", days=3)
    client = english(alice)
    client.post("/verwaltung/ligen/acht/spieltage/")
    days = list(league.match_days.order_by("number"))
    data = {"action": "places"}
    for day, date in zip(days, ["2026-03-01", "2026-01-10", "2026-04-01"], strict=True):
        data[f"day{day.pk}-date"] = date
    for day in days:
        for group in day.groups.all():
            data[f"group{group.pk}-venue"] = ""
    response = client.post("/verwaltung/ligen/acht/spieltage/", data, follow=True)
    body = response.content.decode()
    assert "Some match days are dated before an earlier one" in body
    assert [e["date_warning"] != "" for e in response.context["days"]] == [False, True, False]
    assert "This date is before that of match day 1 (03/01/2026)." in body
    assert [d.date.isoformat() for d in league.match_days.order_by("number")] == [
        "2026-03-01", "2026-01-10", "2026-04-01",
    ]  # fmt: skip
