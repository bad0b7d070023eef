"""Export → import of a whole tournament: the copy ranks every player exactly as the
original; a tampered or broken archive is refused with the row named, never half imported."""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import pytest
from django.contrib.auth.models import User

from archive import services
from archive.export import build_archive
from archive.models import ImportedTournament
from archive.reading import ArchiveRefused
from archive.services import import_archive, import_file
from common.actors import ORGANIZER, Actor
from scoring.demo import build_demo
from scoring.models import AuditEntry, Game, PlayerScore
from scoring.services.series_totals import differences
from scoring.standings import overall_standings, series_standings
from tests.factories import make_user
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db


def standings_of(tournament: Tournament) -> list[Any]:
    """Every line of the overall and of each series' standings, without database ids."""

    def strip(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in line.items() if k != "registration"} for line in lines]

    tables = [strip(overall_standings(tournament))]
    for series in tournament.series.order_by("number"):
        tables.append(strip(series_standings(series)))
    return tables


@pytest.fixture(scope="module")
def demo_archive(django_db_setup: None, django_db_blocker: Any) -> dict[str, Any]:
    """The demo (22 players, three series, the last running) as an archive, with its
    standings; built once, in a transaction rolled back at the end."""
    from django.db import transaction

    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        tournament = build_demo(players=22, series=3, seed=2026, extras=False)
        archive = json.loads(json.dumps(build_archive(tournament)))
        expected = standings_of(tournament)
        transaction.set_rollback(True)
        outer.__exit__(None, None, None)
    return {"archive": archive, "standings": expected}


def importer() -> tuple[Any, Actor]:
    user = User.objects.filter(username="importer").first() or make_user("importer")
    return user, Actor(ORGANIZER, user=user)


def test_round_trip_gives_identical_standings(demo_archive: dict[str, Any]) -> None:
    user, actor = importer()
    archive = demo_archive["archive"]
    imported = import_archive(copy.deepcopy(archive), user, actor)
    tournament = imported.tournament
    assert tournament.slug == "demo"  # the demo was rolled back: the name is free
    assert list(tournament.organizers.all()) == [user]
    assert standings_of(tournament) == demo_archive["standings"]
    assert differences(tournament) == []  # the kept totals agree with the score rows
    games = sum(len(t["games"]) for s in archive["series"] for t in s["tables"])
    assert imported.games == games == Game.objects.filter(series__tournament=tournament).count()
    assert imported.players_new == 22 and imported.players_matched == 0
    source = ImportedTournament.objects.get(tournament=tournament).source
    assert source["source"]["slug"] == "demo" and source["version"] == 2
    entry = AuditEntry.objects.get(tournament=tournament)
    assert entry.action == "archive.tournament.imported" and entry.user == user
    # The copy is private until its organizer publishes it; its archive is the archive of
    # the original, but for that, the export time, the source and the audit (one entry).
    assert archive["tournament"]["is_public"] and not tournament.is_public
    again = json.loads(json.dumps(build_archive(tournament)))
    assert again["tournament"] == {**archive["tournament"], "is_public": False}
    assert again["players"] == archive["players"]
    assert again["series"] == archive["series"]
    assert again["registrations"] == archive["registrations"]


def test_second_import_takes_a_new_slug_and_the_same_players(
    demo_archive: dict[str, Any],
) -> None:
    user, actor = importer()
    first = import_archive(copy.deepcopy(demo_archive["archive"]), user, actor)
    second = import_archive(copy.deepcopy(demo_archive["archive"]), user, actor)
    assert (first.tournament.slug, second.tournament.slug) == ("demo", "demo-2")
    assert second.players_matched == 22 and second.players_new == 0
    hashes = ImportedTournament.objects.values_list("content_hash", flat=True)
    assert len(set(hashes)) == 1 and len(next(iter(hashes))) == 64  # the same archive
    assert Player.objects.filter(owner=user).count() == 22
    assert standings_of(second.tournament) == demo_archive["standings"]


def test_import_of_the_full_demo_is_fast(django_db_blocker: Any) -> None:
    """46 players, 3 series: export, then import, timed (printed with -s)."""
    tournament = build_demo(players=46, series=3, seed=2026, extras=False)
    expected = standings_of(tournament)
    raw = json.dumps(build_archive(tournament)).encode()
    user, actor = importer()
    began = time.perf_counter()
    imported = import_file(raw, user, actor)
    seconds = time.perf_counter() - began
    print(f"\nimport of the demo (46 players, 3 series, {imported.games} games): {seconds:.2f} s")
    assert standings_of(imported.tournament) == expected
    assert seconds < 5


def refused(archive: Any) -> list[str]:
    user, actor = importer()
    before = Tournament.objects.count(), PlayerScore.objects.count()
    with pytest.raises(ArchiveRefused) as caught:
        import_archive(archive, user, actor)
    assert (Tournament.objects.count(), PlayerScore.objects.count()) == before
    return [str(p) for p in caught.value.problems]


def first_game(archive: dict[str, Any], series: int = 2, table: int = 3, game: int = 7
               ) -> dict[str, Any]:  # fmt: skip
    s = next(s for s in archive["series"] if s["number"] == series)
    t = next(t for t in s["tables"] if t["number"] == table)
    found: dict[str, Any] = t["games"][game - 1]
    return found


def test_a_game_that_no_longer_scores_is_named(demo_archive: dict[str, Any]) -> None:
    archive = copy.deepcopy(demo_archive["archive"])
    first_game(archive)["record"]["re_points"] = 300
    problems = refused(archive)
    assert len(problems) == 1 and problems[0].startswith("series 2, table 3, game 7: ")


def test_written_in_batches_of_tables(
    demo_archive: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tables per batch: the same standings; a refused game in a later batch of a later
    series rolls back what the earlier batches wrote, and the report still names it."""
    monkeypatch.setattr(services, "CHUNK_TABLES", 2)
    user, actor = importer()
    imported = import_archive(copy.deepcopy(demo_archive["archive"]), user, actor)
    assert standings_of(imported.tournament) == demo_archive["standings"]
    assert differences(imported.tournament) == []
    archive = copy.deepcopy(demo_archive["archive"])
    first_game(archive, series=3, table=5, game=2)["record"]["re_points"] = 300
    first_game(archive, series=2, table=4, game=1)["record"]["re_points"] = -1
    problems = refused(archive)
    assert [p.split(":")[0] for p in problems] == [
        "series 2, table 4, game 1", "series 3, table 5, game 2",
    ]  # fmt: skip


def test_a_flipped_result_is_named(demo_archive: dict[str, Any]) -> None:
    archive = copy.deepcopy(demo_archive["archive"])
    game = first_game(archive)
    game["record"]["re_points"] = 240 - game["record"]["re_points"]  # the other party wins
    problems = refused(archive)
    assert problems and problems[0].startswith("series 2, table 3, game 7: ")
    assert "rules engine" in problems[0]


def test_an_impossible_announcement_is_named(demo_archive: dict[str, Any]) -> None:
    archive = copy.deepcopy(demo_archive["archive"])
    first_game(archive, 1, 2, 3)["record"]["re_announcements"] = ["nonsense"]
    assert refused(archive)[0].startswith("series 1, table 2, game 3: ")


def test_a_seat_out_of_range_is_named(demo_archive: dict[str, Any]) -> None:
    archive = copy.deepcopy(demo_archive["archive"])
    table = archive["series"][0]["tables"][0]
    assert len(table["seats"]) == 4
    table["seats"][3]["position"] = 7
    problems = refused(archive)
    assert "series 1, table 1, seat 7: The table has seats 1 to 4 only." in problems


def test_an_unknown_player_is_named(demo_archive: dict[str, Any]) -> None:
    archive = copy.deepcopy(demo_archive["archive"])
    archive["registrations"][0]["player"] = 999
    assert "registration 1: Player id 999 is not in the archive." in refused(archive)
    archive = copy.deepcopy(demo_archive["archive"])
    archive["series"][1]["tables"][0]["seats"][0]["start_number"] = 5000
    assert any("Start number 5000 is not registered." in p for p in refused(archive))


def test_a_wrong_version_is_refused(demo_archive: dict[str, Any]) -> None:
    archive = copy.deepcopy(demo_archive["archive"])
    archive["version"] = 3
    assert refused(archive) == [
        "version: Archive version 3 cannot be read; this server reads versions 1, 2."
    ]


@pytest.mark.parametrize(
    "junk",
    [[], "text", 5, None, {"format": "doko-turnier-archive"}, {"format": "x", "version": 1}],
)
def test_junk_is_refused(junk: Any) -> None:
    assert refused(junk)


def test_not_json_is_refused() -> None:
    user, actor = importer()
    for raw in (b"\xff\xfe", b"{", b"[" * 100_000):
        with pytest.raises(ArchiveRefused) as caught:
            import_file(raw, user, actor)
        assert [str(p) for p in caught.value.problems] == ["The file is not a JSON archive."]


@pytest.mark.parametrize("reserved", ["spieler", "saisons", "import", "neu"])
def test_an_archive_never_takes_a_management_address(
    demo_archive: dict[str, Any], reserved: str
) -> None:
    """/verwaltung/<reserved>/ is a page of the app, not a tournament."""
    user, actor = importer()
    archive = copy.deepcopy(demo_archive["archive"])
    archive["tournament"]["slug"] = reserved
    assert import_archive(archive, user, actor).tournament.slug == f"{reserved}-2"
