"""The individual ranking of a hand-built league (``teams.individual_standings``), its page,
its CSV and XLSX and its API: eight teams of five, two match days of two groups, two series
a day; the series points are written by hand, ranked by hand. T0's first player plays one
series only (he is ranked by his total, first); two players share a place; a series still
running is shown, not counted. The statements are as many for one day as for two."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openpyxl import load_workbook
from rest_framework.test import APIClient

from scoring.models import SeriesTotal
from teams.individual_standings import individual_ranking
from teams.models import Group, League, LineUp, Team
from teams.services import make_match_days, set_line_up
from tests.factories import page_client
from tests.teams.helpers import league_with_teams, organizer
from tournaments.models import Player, Series

pytestmark = pytest.mark.django_db

#: (team, player) → points of day 1 series 1, day 1 series 2, day 2 series 1, day 2 series 2;
#: everybody else who plays scores 0. T0 P0 plays day 1 series 1 only.
POINTS = {
    (0, 0): (45,),
    (0, 1): (30, 10, -5, 5),  # 40, best 30, last 5
    (4, 1): (10, 30, 5, -5),  # 40, best 30, last -5
    (2, 2): (20, 0, 0, 0),  # 20, best 20, last 0
    (6, 2): (0, 0, 0, 20),  # 20, best 20, last 20
    (3, 3): (0, 15, 0, 0),  # 15: equal to T5 P3 on everything
    (5, 3): (0, 15, 0, 0),
    (7, 0): (-20, -20, -20, -20),
}
#: Ranked by hand: (place, name, team, series, total); 25 players on 0 share place 8.
EXPECTED = [
    (1, "T0 P0", "T0", 1, 45),  # fewer series: by the total, not the average
    (2, "T0 P1", "T0", 4, 40),  # best 30 as T4 P1, last 5 against -5
    (3, "T4 P1", "T4", 4, 40),
    (4, "T6 P2", "T6", 4, 20),  # best 20 as T2 P2, last 20 against 0
    (5, "T2 P2", "T2", 4, 20),
    (6, "T3 P3", "T3", 4, 15),  # equal on everything: shared
    (6, "T5 P3", "T5", 4, 15),
]
ZEROS = 25
LAST = (33, "T7 P0", "T7", 4, -80)


def line_up(league: League, teams: list[Team], players: list[list[Player]], owner: User) -> None:
    """Everybody's first four in every series, but T0 brings in P4 for P0 after day 1's
    first series; the fifth players of the other teams never play."""
    for group in Group.objects.filter(match_day__league=league).select_related("match_day"):
        in_group = set(group.group_teams.values_list("team_id", flat=True))
        for number in (1, 2):
            for team, members in zip(teams, players, strict=True):
                if team.pk not in in_group:
                    continue
                late = team.position == 0 and (group.match_day.number, number) != (1, 1)
                chosen = members[1:] if late else members[:4]
                set_line_up(group, team, number, chosen, actor=organizer(owner))


def enter(league: League, day: int, status: str = Series.Status.CLOSED) -> None:
    """Day ``day``'s series totals as POINTS has them; its series set to ``status``."""
    for line in LineUp.objects.filter(
        group__match_day__league=league, group__match_day__number=day
    ).select_related("player", "group__tournament", "team"):
        team, player = int(line.player.first_name[1:]), int(line.player.last_name[1:])
        points = POINTS.get((team, player))
        index = (day - 1) * 2 + line.series_number - 1
        series = Series.objects.get(tournament=line.group.tournament, number=line.series_number)
        SeriesTotal.objects.create(
            tournament=line.group.tournament,
            series=series,
            series_number=line.series_number,
            registration=line.registration,
            entries=24,
            games=24,
            points=points[index] if points else 0,
            solos=1,
            solos_won=1 if team == 0 else 0,
        )
    Series.objects.filter(
        tournament__team_group__match_day__league=league,
        tournament__team_group__match_day__number=day,
    ).update(status=status)


@pytest.fixture
def league(alice: User) -> League:
    league, teams, players = league_with_teams(
        alice, 8, squad=5, slug="dmm", days=2, series_per_day=2
    )
    make_match_days(league, actor=organizer(alice))
    line_up(league, teams, players, alice)
    return league


def figures(league: League) -> list[tuple[int | None, str, str, int, int]]:
    return [
        (
            line.figures.place,
            f"{line.player.first_name} {line.player.last_name}",
            line.team.name,
            line.figures.series,
            line.figures.total,
        )
        for line in individual_ranking(league).lines
    ]


def test_ranked_by_hand(league: League) -> None:
    enter(league, 1)
    enter(league, 2)
    found = figures(league)
    assert found[:7] == EXPECTED
    assert [(place, total) for place, _n, _t, _s, total in found[7:-1]] == [(8, 0)] * ZEROS
    assert found[-1] == LAST
    ranking = individual_ranking(league)
    first, second = ranking.lines[0], ranking.lines[1]
    assert (str(first.average), first.figures.best_series, first.figures.last_series) == (
        "45.00",
        45,
        45,
    )
    assert (str(second.average), second.figures.games, second.figures.solos_won) == (
        "10.00",
        96,
        4,
    )
    assert [line.figures.shared for line in ranking.lines[5:8]] == [True, True, True]
    assert not any(line.figures.shared for line in ranking.lines[:5])
    # T0 P4 came in after the first series: three series of 0, among the zeros.
    late = next(line for line in ranking.lines if line.player.last_name == "P4")
    assert (late.figures.place, late.figures.series) == (8, 3)
    assert not ranking.provisional
    # Every series point counted once: 45 + 40 + 40 + 20 + 20 + 15 + 15 - 80.
    assert sum(line.figures.total for line in ranking.lines) == 115
    assert ranking.series_counted == 1 + 3 + 31 * 4


def test_a_running_series_is_shown_not_counted(league: League) -> None:
    enter(league, 1)
    enter(league, 2)
    # Day 2's series 2 of T0 P1's group is still running: his 5 points wait.
    group = LineUp.objects.get(
        player__first_name="T0", player__last_name="P1", group__match_day__number=2,
        series_number=2,
    ).group  # fmt: skip
    Series.objects.filter(tournament=group.tournament, number=2).update(
        status=Series.Status.RUNNING
    )
    ranking = individual_ranking(league)
    assert ranking.provisional
    top = [(line.player.first_name, line.player.last_name) for line in ranking.lines[:3]]
    assert top == [("T0", "P0"), ("T4", "P1"), ("T0", "P1")]
    waiting = ranking.lines[2].figures
    assert (waiting.total, waiting.series, waiting.open_series, waiting.open_points) == (
        35,
        3,
        1,
        5,
    )
    body = page_client(language="en").get("/ligen/dmm/einzelwertung/").content.decode()
    assert "Provisional: a series is still running." in body
    assert "1 running series (5 points) not counted yet" in body


def test_statements_do_not_grow_with_the_groups(league: League) -> None:
    enter(league, 1)
    with CaptureQueriesContext(connection) as one_day:
        assert len(individual_ranking(league).lines) == 33
    enter(league, 2)
    with CaptureQueriesContext(connection) as two_days:
        individual_ranking(league)
    assert len(one_day) == len(two_days) == 2
    client = page_client(language="en")
    with CaptureQueriesContext(connection) as page:
        assert client.get("/ligen/dmm/einzelwertung/").status_code == 200
    assert len(page) <= 6, [q["sql"] for q in page]


def test_page_lists_players_teams_and_averages(league: League) -> None:
    enter(league, 1)
    enter(league, 2)
    response = page_client(language="en").get("/ligen/dmm/einzelwertung/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "<h1>Individual ranking</h1>" in body
    assert "T0 P0" in body and "45.00" in body and "10.00" in body
    assert body.count('<span aria-hidden="true">=</span>') == 2 + ZEROS
    assert 'href="/ligen/dmm/einzelwertung/export/?format=csv"' in body
    assert f'href="/ligen/dmm/teams/{Team.objects.get(name="T4").pk}/"' in body
    german = page_client(language="de").get("/ligen/dmm/einzelwertung/").content.decode()
    assert "Einzelwertung" in german and "45,00" in german
    league_page = page_client(language="en").get("/ligen/dmm/").content.decode()
    assert 'href="/ligen/dmm/einzelwertung/"' in league_page


def test_private_league_is_not_found_for_others(alice: User, bob: User) -> None:
    league_with_teams(alice, 4, slug="geheim", is_public=False)
    for client in (page_client(), page_client(bob)):
        for url in (
            "/ligen/geheim/einzelwertung/",
            "/ligen/geheim/einzelwertung/export/?format=csv",
            "/api/v1/leagues/geheim/individual/",
        ):
            assert client.get(url).status_code == 404, url
    assert page_client(alice).get("/ligen/geheim/einzelwertung/").status_code == 200
    assert page_client().get("/ligen/nix/einzelwertung/").status_code == 404


def test_csv_and_xlsx(league: League) -> None:
    enter(league, 1)
    enter(league, 2)
    client = page_client(language="en")
    response = client.get("/ligen/dmm/einzelwertung/export/?format=csv")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="dmm-einzelwertung.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:6] == ["Rank", "Player", "Team", "Series", "Points", "Average per series"]
    assert rows[1] == ["1", "T0 P0", "T0", "1", "45", "45,00", "45", "45", "24", "1", "1", "0"]
    assert rows[2][:8] == ["2", "T0 P1", "T0", "4", "40", "10,00", "30", "5"]
    assert [row[0] for row in rows[6:8]] == ["6", "6"]
    assert len(rows) == 1 + 33
    response = client.get("/ligen/dmm/einzelwertung/export/?format=xlsx")
    assert response["Content-Disposition"] == 'attachment; filename="dmm-einzelwertung.xlsx"'
    sheet = load_workbook(io.BytesIO(response.content)).active
    assert sheet is not None
    values = list(sheet.iter_rows(values_only=True))
    assert values[0][:3] == ("Rank", "Player", "Team")
    assert values[1][:6] == (1, "T0 P0", "T0", 1, 45, 45)
    assert values[-1][:5] == (33, "T7 P0", "T7", 4, -80)
    assert client.get("/ligen/dmm/einzelwertung/export/?format=pdf").status_code == 404


def test_api(league: League, public_api: APIClient) -> None:
    enter(league, 1)
    enter(league, 2)
    data = public_api.get("/api/v1/leagues/dmm/individual/").json()
    assert (data["league"], data["provisional"], data["series_counted"]) == ("dmm", False, 128)
    assert data["order"] == ["total", "best_series", "last_series"]
    first = data["players"][0]
    assert first == {
        "place": 1,
        "shared": False,
        "player": Player.objects.get(first_name="T0", last_name="P0").pk,
        "name": "T0 P0",
        "team": Team.objects.get(name="T0").pk,
        "team_name": "T0",
        "points": 45,
        "series": 1,
        "open_series": 0,
        "average": "45.00",
        "best_series": 45,
        "last_series": 45,
        "games": 24,
        "solos": 1,
        "solos_won": 1,
        "open_points": 0,
    }
    assert [(p["place"], p["shared"]) for p in data["players"][5:7]] == [(6, True), (6, True)]
    # The league table's players are the same ranking, in short.
    table = public_api.get("/api/v1/leagues/dmm/table/").json()
    assert [(p["player"], p["place"], p["points"]) for p in table["players"]] == [
        (p["player"], p["place"], p["points"]) for p in data["players"]
    ]
