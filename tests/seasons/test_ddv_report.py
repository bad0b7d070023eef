"""The DDV ranking tournament's report: the check, the files (CSV, XLSX, PDF, JSON), who may
download it, and the JSON imported into a season on the keeper's server with the same
ranking (docs/ddv-report.md)."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import override_settings
from django.urls import reverse
from openpyxl import load_workbook

from common.services import ServiceError
from scoring.models import TournamentTotal
from seasons.ddv.files import to_json
from seasons.ddv.importing import import_ddv_report
from seasons.ddv.report import build_report
from seasons.models import DdvImport, SeasonChange
from seasons.standings import season_ranking
from tests.documents.pdftools import pdf_text
from tests.factories import api_client, make_user, page_client
from tests.seasons.helpers import organizer, played, season_of
from tournaments.models import Player, Registration, Tournament, TournamentChange

pytestmark = pytest.mark.django_db


def ranking_tournament(owner: User, slug: str, players: int, *, seed: int = 29) -> Tournament:
    """A finished ranking tournament of three series: ``players`` numbered players with
    seeded points, DDV numbers ``D<n>``, two of them tied on points (the tie-breaks
    decide), one who left after two series."""
    rng = random.Random(seed)
    results: dict[str, list[int | None]] = {
        f"Vorname{n} Nachname{n}": [rng.randrange(-40, 160) for _ in range(3)]
        for n in range(1, players + 1)
    }
    results["Vorname2 Nachname2"] = [100, 20, 30]
    results["Vorname3 Nachname3"] = [30, 20, 100]  # same total, other best and last series
    results["Vorname4 Nachname4"] = [80, 60, None]
    clubs = {name: f"Verein {n % 5}" for n, name in enumerate(results, start=1)}
    tournament = played(owner, slug, "2026-11-28", results, clubs=clubs, name="Ranglistenturnier")
    for registration in Registration.objects.filter(tournament=tournament):
        number = registration.player.last_name.removeprefix("Nachname")
        Player.objects.filter(pk=registration.player_id).update(ddv_number=f"D{number}")
    Tournament.objects.filter(pk=tournament.pk).update(
        ddv_ranking=True, venue="Bürgerhaus Kassel", referee="Rita Regel", is_public=True
    )
    tournament.refresh_from_db()
    return tournament


def lines_of(ranking: Any) -> list[tuple[Any, ...]]:
    return [
        (line.place, line.shared, line.name, line.club, line.value, line.series, line.total)
        for line in ranking.lines
    ]


@pytest.mark.parametrize("preset", ["ddv_rangliste", "placement_points"])
def test_a_40_player_report_imported_on_another_server_ranks_the_same(
    alice: User, preset: str
) -> None:
    source = ranking_tournament(alice, "rangliste", 40)
    report = build_report(source)
    assert report.qualifies and len(report.lines) == 40
    with override_settings(SITE_URL="https://verein.example"):
        sent = json.loads(json.dumps(to_json(build_report(source))))
    keeper = make_user("ranglistenwart")
    target = season_of(keeper, slug="ddv", preset=preset)
    known = Player.objects.create(
        owner=keeper, registry_club=target.club, first_name="V", last_name="N", club="Verein 2",
        ddv_number="D7",
    )  # fmt: skip
    outcome = import_ddv_report(target, sent, actor=organizer(keeper))
    assert outcome.created and outcome.new_players == 39  # D7 was in the registry already
    assert Registration.objects.filter(tournament=outcome.tournament, player=known).exists()
    reference = season_of(alice, [source], slug="quelle", preset=preset)
    imported = lines_of(season_ranking(target, places=True))
    # The matched player keeps his registry's name; everybody else reads as at the source.
    expected = [
        (*line[:2], "V N" if line[2] == "Vorname7 Nachname7" else line[2], *line[3:])
        for line in lines_of(season_ranking(reference, places=True))
    ]
    # The same places and values line by line; among equal lines each server orders by its
    # own registry's ids (``seasons.ranking.rank_season``), so the players are compared as a
    # whole.
    assert [(*line[:2], line[4]) for line in imported] == [
        (*line[:2], line[4]) for line in expected
    ]
    assert sorted(imported, key=repr) == sorted(expected, key=repr)
    # The tied pair is ordered by the tie-breaks on both servers.
    places = {line.last_name: line.place for line in report.lines}
    assert places["Nachname2"] != places["Nachname3"]


def test_importing_the_same_report_twice_does_not_double_results(alice: User) -> None:
    sent = to_json(build_report(ranking_tournament(alice, "rangliste", 40)))
    keeper = make_user("ranglistenwart")
    season = season_of(keeper, slug="ddv")
    first = import_ddv_report(season, sent, actor=organizer(keeper))
    again = import_ddv_report(season, json.loads(json.dumps(sent)), actor=organizer(keeper))
    assert again.unchanged and again.tournament == first.tournament
    assert TournamentTotal.objects.filter(tournament=first.tournament).count() == 40
    assert Player.objects.filter(owner=keeper).count() == 40
    # A corrected report replaces the results; nobody is added twice.
    sent["players"][0]["series_points"] = [200, 200, 200]
    corrected = import_ddv_report(season, sent, actor=organizer(keeper))
    assert not corrected.created and not corrected.unchanged
    assert DdvImport.objects.filter(season=season).count() == 1
    assert Registration.objects.filter(tournament=first.tournament).count() == 40
    assert Player.objects.filter(owner=keeper).count() == 40
    lines = season_ranking(season).lines
    assert len(lines) == 40 and max(line.total for line in lines) == 600
    actions = list(SeasonChange.objects.filter(season=season).values_list("action", flat=True))
    assert actions.count("seasons.ddv_report.imported") == 1
    assert actions.count("seasons.ddv_report.replaced") == 1


def test_a_28_player_tournament_is_refused_with_the_reason(alice: User, tmp_path: Path) -> None:
    small = ranking_tournament(alice, "klein", 28)
    page = page_client(alice).get(reverse("seasons:ddv-report", args=[small.slug]))
    assert page.status_code == 200
    assert "Weniger als 32 Spieler: 28 Spieler haben ein Ergebnis." in page.content.decode()
    assert reverse("seasons:ddv-json", args=[small.slug]) not in page.content.decode()
    download = page_client(alice).get(reverse("seasons:ddv-csv", args=[small.slug]), follow=True)
    assert "Weniger als 32 Spieler" in download.content.decode()
    answer = api_client(user=alice, lang="en").get(f"/api/v1/tournaments/{small.slug}/ddv-report/")
    assert answer.status_code == 409 and answer.json()["error"]["reasons"] == ["few_players"]
    assert "Fewer than 32 players: 28 players have a result." in answer.json()["error"]["message"]
    # A report made to look as if it qualified is refused by the keeper's server too.
    forged = {**to_json(build_report(small)), "qualifies": True, "reasons": []}
    keeper = make_user("ranglistenwart")
    with pytest.raises(ServiceError) as refused:
        import_ddv_report(season_of(keeper, slug="ddv"), forged, actor=organizer(keeper))
    assert refused.value.code == "not_qualified" and refused.value.field == "report"
    assert not Tournament.objects.filter(organizers=keeper).exists()


def test_every_reason_is_named(alice: User) -> None:
    tournament = ranking_tournament(alice, "klein", 10)
    Tournament.objects.filter(pk=tournament.pk).update(
        series_count=2, ruleset="house", ddv_ranking=False
    )
    tournament.series.filter(number=2).update(status="running")  # series 3 no longer counts
    text = page_client(alice).get(reverse("seasons:ddv-report", args=[tournament.slug]))
    content = text.content.decode()
    for words in (
        "nicht als DDV-Ranglistenturnier markiert",
        "Weniger als 32 Spieler",
        "Zu wenige Serien: Das Turnier spielt 2",
        "nicht nach dem DDV-Regelwerk",
        "Noch nicht alle Serien sind abgeschlossen",
    ):
        assert words in content


def test_csv_xlsx_and_pdf_carry_the_columns(alice: User, tmp_path: Path) -> None:
    tournament = ranking_tournament(alice, "rangliste", 40)
    client = page_client(alice)
    first = build_report(tournament).lines[0]
    answer = client.get(reverse("seasons:ddv-csv", args=[tournament.slug]))
    assert answer["Content-Disposition"] == 'attachment; filename="rangliste-ddv.csv"'
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig")), delimiter=";"))
    assert ["Ort", "Bürgerhaus Kassel"] in rows and ["Schiedsrichter", "Rita Regel"] in rows
    header = rows.index(
        ["Platz", "Nachname", "Vorname", "Verein", "DDV-Nummer", "Gespielte Serien", "Punkte",
         "Schnitt je Serie"]
    )  # fmt: skip
    assert len(rows) - header - 1 == 40
    average = str(first.average).replace(".", ",")
    assert rows[header + 1] == [
        "1", first.last_name, first.first_name, first.club, first.ddv_number, "3",
        str(first.points), average,
    ]  # fmt: skip
    book = load_workbook(
        io.BytesIO(client.get(reverse("seasons:ddv-xlsx", args=[tournament.slug])).content)
    )
    cells = [[c.value for c in row] for row in book.worksheets[0].iter_rows()]
    at = next(i for i, row in enumerate(cells) if row[0] == "Platz")
    assert cells[at + 1][:7] == [1, first.last_name, first.first_name, first.club,
                                 first.ddv_number, 3, first.points]  # fmt: skip
    assert float(cells[at + 1][7]) == float(first.average)  # a number, not text
    pdf = client.get(reverse("seasons:ddv-pdf", args=[tournament.slug]))
    assert pdf["Content-Type"] == "application/pdf"
    text = pdf_text(pdf.content, tmp_path, raw=True)
    assert "DDV-Ranglistenturnier: Ranglistenturnier" in text
    assert "Rita Regel" in text and "Bürgerhaus Kassel" in text
    assert first.ddv_number in text and "Schnitt je Serie" in text


def test_the_report_is_its_organizers_only(alice: User, bob: User) -> None:
    tournament = ranking_tournament(alice, "rangliste", 40)
    for name in ("seasons:ddv-report", "seasons:ddv-csv", "seasons:ddv-pdf", "seasons:ddv-json"):
        url = reverse(name, args=[tournament.slug])
        assert page_client(bob).get(url).status_code == 404
        assert page_client().get(url)["Location"].startswith("/login/")
    answer = api_client(user=bob).get(f"/api/v1/tournaments/{tournament.slug}/ddv-report/")
    assert answer.status_code == 403
    mine = api_client(user=alice).get(f"/api/v1/tournaments/{tournament.slug}/ddv-report/")
    assert mine.status_code == 200 and len(mine.json()["players"]) == 40
    assert mine.json()["players"][0]["ddv_number"].startswith("D")


def test_the_mark_and_the_names_are_saved_and_logged(alice: User) -> None:
    tournament = ranking_tournament(alice, "rangliste", 40)
    url = reverse("seasons:ddv-report", args=[tournament.slug])
    answer = page_client(alice).post(
        url, {"ddv_ranking": "on", "director": "Dora Direktor", "referee": "Rita Regel"}
    )
    assert answer.status_code == 302
    tournament.refresh_from_db()
    assert tournament.director == "Dora Direktor"
    change = TournamentChange.objects.get(tournament=tournament)
    assert (
        change.action == "tournaments.ddv.changed" and change.after["director"] == "Dora Direktor"
    )
    too_long = page_client(alice).post(url, {"director": "x" * 121})
    assert too_long.status_code == 200 and "höchstens 120 Zeichen" in too_long.content.decode()


def test_the_season_page_imports_an_upload(alice: User) -> None:
    sent = to_json(build_report(ranking_tournament(alice, "rangliste", 40)))
    keeper = make_user("ranglistenwart")
    season = season_of(keeper, slug="ddv")
    client = page_client(keeper)
    url = reverse("seasons:ddv-import", args=[season.slug])
    assert client.get(url).status_code == 200
    upload = io.BytesIO(json.dumps(sent).encode())
    upload.name = "rangliste-ddv.json"
    answer = client.post(url, {"report": upload}, follow=True)
    assert "in die Saison importiert" in answer.content.decode()
    assert len(season_ranking(season).lines) == 40
    junk = io.BytesIO(b"not json")
    junk.name = "x.json"
    refused = client.post(url, {"report": junk})
    assert refused.status_code == 200 and "keine JSON-Datei" in refused.content.decode()
    assert page_client(alice).get(url).status_code == 403  # not her season


def test_the_command_imports_a_report_once(alice: User, tmp_path: Path) -> None:
    sent = to_json(build_report(ranking_tournament(alice, "rangliste", 40)))
    keeper = make_user("ranglistenwart")
    season = season_of(keeper, slug="ddv")
    path = tmp_path / "rangliste-ddv.json"
    path.write_text(json.dumps(sent), encoding="utf-8")
    out = io.StringIO()
    call_command("import_ddv_report", "ddv", str(path), "--user", "ranglistenwart", stdout=out)
    call_command("import_ddv_report", "ddv", str(path), "--user", "ranglistenwart", stdout=out)
    assert "40 new player(s)" in out.getvalue() and "nothing changed" in out.getvalue()
    assert len(season_ranking(season).lines) == 40
    with pytest.raises(CommandError, match=r"Nur der Inhaber der Saison|Only the season"):
        call_command("import_ddv_report", "ddv", str(path), "--user", "alice", stdout=out)


@pytest.mark.parametrize(
    "change",
    [
        {"format": "something else"},
        {"version": 2},
        {"players": []},
        {"players": "all"},
        {"tournament": {"name": "X", "series_count": 3, "starts_on": "gestern"}},
        {"tournament": {"name": "", "series_count": 3, "starts_on": "2026-11-28"}},
        {"tournament": {"name": "X", "series_count": 0, "starts_on": "2026-11-28"}},
        {
            "tournament": {
                "name": "X",
                "series_count": 3,
                "starts_on": "2026-11-28",
                "tiebreak": ["coin"],
            }
        },
        {"source": None},
        {"first_player": {"series_points": [1, 2, 3, 4]}},
        {"first_player": {"series_points": [None, None, None]}},
        {"first_player": {"series_points": [True, 1, 1]}},
        {"first_player": {"first_name": 7}},
        {"first_player": {"ddv_number": "D2"}},  # twice in the report
        {"first_player": {"club": "x" * 121}},
    ],
)
def test_a_broken_report_is_refused_on_its_field(alice: User, change: dict[str, Any]) -> None:
    sent = to_json(build_report(ranking_tournament(alice, "rangliste", 40)))
    first = change.pop("first_player", None)
    sent.update(change)
    if first is not None:
        sent["players"][0].update(first)
    keeper = make_user("ranglistenwart")
    with pytest.raises(ServiceError) as refused:
        import_ddv_report(season_of(keeper, slug="ddv"), sent, actor=organizer(keeper))
    assert refused.value.field == "report" and refused.value.message
    assert not Tournament.objects.filter(organizers=keeper).exists()
