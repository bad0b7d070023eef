"""A team group's print pack names the teams: each player's team beside his name on the
seating lists, the table cards and the score sheets, and the group (league, match day,
group) as the title. An ordinary tournament prints as before, with no team word."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from documents import pipeline, services
from documents.builders import load_series
from documents.data import SeatInfo, SeriesInfo, TableInfo, fingerprint
from documents.models import GeneratedDocument
from teams.models import Group, LineUp, Team
from teams.services import draw_team_series, make_match_days
from tests.documents.pdftools import pdf_text, stored_pdf
from tests.teams.helpers import league_with_teams, line_up_all, organizer
from tournaments.models import Series

pytestmark = pytest.mark.django_db

Kind = GeneratedDocument.Kind

LONG_TEAM = "Doppelkopffreunde Mönchengladbach-Rheydt Kreuz-Damen II"


def _flat(text: str) -> str:
    """PDF text with whitespace normalised and a line broken after a hyphen joined again."""
    return re.sub(r"-\s+", "-", " ".join(text.split()))


@pytest.fixture
def group(alice: User) -> Group:
    """Match day 1 of "Bundesliga" (eight teams, two groups of four): the series 1 of team
    0's group drawn from the line-ups, one player of each team at every table. Team 0 has
    a long name."""
    league, teams, players = league_with_teams(
        alice, 8, name="Bundesliga", days=1, series_per_day=2
    )
    Team.objects.filter(pk=teams[0].pk).update(name=LONG_TEAM)
    make_match_days(league, actor=organizer(alice))
    group = Group.objects.select_related("tournament").get(match_day__league=league, teams=teams[0])
    line_up_all(group, teams, players, 1, alice)
    draw_team_series(group.tournament.series.get(number=1))
    return group


def _print_pack(capture, series: Series, language: str = "en") -> bytes:
    with capture(execute=True):
        document = services.request_document(
            Kind.PRINT_PACK, series.tournament, series, language=language
        )
    document.refresh_from_db()
    assert document.status == "done", document.error
    return stored_pdf(document)


def _seated_teams(series: Series) -> dict[int, list[tuple[str, str]]]:
    """Table number → (player's name, his team's name) in seat order, read from the seats
    and the series' line-ups."""
    team_of = dict(
        LineUp.objects.filter(series_number=series.number, group__tournament=series.tournament)
        .values_list("registration_id", "team__name")
    )  # fmt: skip
    tables: dict[int, list[tuple[str, str]]] = {}
    for seat in series.seats.select_related("table", "registration__player").order_by(
        "table__number", "position"
    ):
        player = seat.registration.player
        name = f"{player.first_name} {player.last_name}"
        tables.setdefault(seat.table.number, []).append((name, team_of[seat.registration_id]))
    return tables


def test_a_team_groups_print_pack_names_the_teams(
    group, django_capture_on_commit_callbacks, tmp_path
) -> None:
    series = group.tournament.series.get(number=1)
    pdf = _print_pack(django_capture_on_commit_callbacks, series)
    pages = [_flat(page) for page in pdf_text(pdf, tmp_path, raw=True).split("\f")][:10]
    alpha, by_table, cards, sheets = pages[0], pages[1], pages[2:6], pages[6:10]
    tables = _seated_teams(series)
    assert sorted(tables) == [1, 2, 3, 4]
    title = f"Bundesliga, match day 1, group {group.number}"
    for number, seats in tables.items():
        # the team draw: one player of each of the group's four teams at every table
        assert len({team for _name, team in seats}) == 4
        for name, team in seats:
            # "T3 P0" plays for "T3"; team 0 has the long name
            assert team == (LONG_TEAM if name.startswith("T0 ") else name.split()[0])
            first, last = name.split()
            assert f"{last}, {first} ({team})" in alpha
            assert f"{name} ({team})" in by_table
            assert f"{name} ({team})" in sheets[number - 1]  # the seat list
        # the sheet's column heads: name, then team below it; the card: each name, and
        # each team below it
        assert " ".join(f"{name} {team}" for name, team in seats) in sheets[number - 1]
        card = " ".join(f"{i} {name}" for i, (name, _team) in enumerate(seats, start=1))
        assert f"{card} {' '.join(team for _name, team in seats)}" in cards[number - 1]
    assert LONG_TEAM in str(tables)
    for page in pages:
        # the group is the title, in the document's language
        assert title in page or title.upper() in page
        assert "…" not in page


def test_the_title_is_in_the_documents_language(
    group, django_capture_on_commit_callbacks, tmp_path
) -> None:
    series = group.tournament.series.get(number=1)
    group.tournament.name = "Ein anderer Name"
    group.tournament.save(update_fields=["name"])
    pdf = _print_pack(django_capture_on_commit_callbacks, series, language="de")
    text = _flat(pdf_text(pdf, tmp_path, raw=True))
    assert f"Bundesliga, Spieltag 1, Gruppe {group.number}" in text
    assert "Ein anderer Name" not in text


def test_an_ordinary_tournaments_print_pack_has_no_team_words(
    world, django_capture_on_commit_callbacks, tmp_path
) -> None:
    info = load_series(world.series)
    assert info.competition == "" and info.title == world.tournament.name
    assert all(seat.team == "" for table in info.tables for seat in table.seats)
    pdf = _print_pack(django_capture_on_commit_callbacks, world.series)
    text = _flat(pdf_text(pdf, tmp_path, raw=True))
    assert world.tournament.name in text
    for player in world.players:
        assert f"{player.first_name} {player.last_name}" in text
        assert f"{player.first_name} {player.last_name} (" not in text
        assert f"{player.last_name}, {player.first_name} (" not in text
    assert "match day" not in text and "group" not in text.lower()


def test_a_series_without_teams_keeps_its_fingerprint() -> None:
    """The fields for teams stay out of the fingerprint while they are empty: the documents
    stored for ordinary tournaments before teams were printed stay current. The hash is the
    one this series had before (documents.data without the team fields)."""
    seats = (
        SeatInfo(1, "Anna", "Albers", 1, "Club A"),
        SeatInfo(2, "Bernd", "Bäcker", 2),
        SeatInfo(3, "Carla", "Czerwinski", 3),
        SeatInfo(4, "Dieter", "Dörfler", 4, "Karlchen e.V."),
    )
    info = SeriesInfo(
        "Herbstturnier", "herbst", "Bürgerhaus", 2, dt.date(2026, 10, 3),
        dt.datetime(2026, 10, 3, 14, 30), 100, 125,
        (TableInfo(1, "https://doko.example/t/abc", seats, 20, 1),),
    )  # fmt: skip
    before = "4802678ba71827a79726a6206eb8fbbc24fd5f3d20bd80b031beb9e1e2866f50"
    key = ("print_pack", 7, 11, "de", "7", "https://doko.example")
    assert fingerprint(*key, info) == before
    # a team, or a group's title, is part of it
    teamed = dataclasses.replace(seats[0], team="Kreuz")
    table = dataclasses.replace(info.tables[0], seats=(teamed, *seats[1:]))
    assert fingerprint(*key, dataclasses.replace(info, tables=(table,))) != before
    assert fingerprint(*key, dataclasses.replace(info, competition="Liga, 1, 1")) != before


def test_the_fingerprint_changes_with_a_line_up(group, django_capture_on_commit_callbacks) -> None:
    series = group.tournament.series.get(number=1)
    with django_capture_on_commit_callbacks(execute=True):
        document = services.request_document(
            Kind.PRINT_PACK, group.tournament, series, language="en"
        )
    document.refresh_from_db()
    assert pipeline.is_current(document)
    # a seated player's line-up row names him for another team of the group
    row = LineUp.objects.filter(group=group, series_number=1).order_by("pk")[0]
    other = group.teams.exclude(pk=row.team_id).first()
    LineUp.objects.filter(pk=row.pk).update(team=other, order=9)
    assert not pipeline.is_current(document)
    LineUp.objects.filter(pk=row.pk).update(team=row.team, order=row.order)
    assert pipeline.is_current(document)
    # a team renamed
    Team.objects.filter(pk=row.team_id).update(name="Neue Namen")
    assert not pipeline.is_current(document)


def test_a_team_groups_series_loads_in_four_queries(group, django_assert_num_queries) -> None:
    series = group.tournament.series.get(number=1)
    with translation.override("en"), django_assert_num_queries(4):
        info = load_series(series)  # series with its group, tables, seats, line-ups
    assert info.competition == f"Bundesliga, match day 1, group {group.number}"
    assert sum(len(table.seats) for table in info.tables) == 16
    assert all(seat.team for table in info.tables for seat in table.seats)
