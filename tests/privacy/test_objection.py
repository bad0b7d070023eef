"""An objection: the player's identity goes, every result stays; his data export."""

from __future__ import annotations

import json

import pytest
from django.core.files.base import ContentFile

from archive.player_data import player_data
from clubs import roles
from clubs.models import Membership
from common.services import ServiceError
from documents.models import GeneratedDocument
from hall.board import seating_pages
from scoring.standings import overall_standings, series_standings
from tests.factories import RE_WINS, build_world, make_tournament, make_user, play
from tournaments.models import NameForm, Player, RegistryChange
from tournaments.services.privacy import ANONYMIZED, anonymize_player
from tournaments.services.registry import correct_player

NAMES = [("Anna", "Schmidt"), ("Bernd", "Meier"), ("Carla", "Weber"), ("Dieter", "Roth")]
GAMES = [{**RE_WINS, "dealer": 1}, {"contract": "normal", "re": [2, 4], "re_points": 90}]


def _without_names(lines: list[dict[str, object]]) -> list[dict[str, object]]:
    return [{k: v for k, v in line.items() if k != "name"} for line in lines]


@pytest.mark.django_db(transaction=True)
def test_anonymizing_leaves_every_standings_table_identical_except_the_name() -> None:
    orga = make_user("orga")
    tournament = make_tournament("cup", organizers=[orga])
    world = build_world(tournament, (4, 4), names=[*NAMES, *NAMES])
    for table in world.tables:
        play(table, GAMES)
    player = world.registrations[0].player
    player.email, player.ddv_number = "anna@example.org", "12345"
    player.save()
    correct_player(orga, player, {"club": "Kreuz Bube"})
    stored = GeneratedDocument.objects.create(
        tournament=tournament, kind="results", language="de", fingerprint="x" * 64
    )
    stored.file.save("results.pdf", ContentFile(b"%PDF Anna Schmidt"), save=True)
    tables = [
        overall_standings(tournament),
        overall_standings(tournament, keeper=True),
        series_standings(world.series),
    ]

    anonymize_player(orga, player)

    after = [
        overall_standings(tournament),
        overall_standings(tournament, keeper=True),
        series_standings(world.series),
    ]
    for before_lines, after_lines in zip(tables, after, strict=True):
        assert _without_names(before_lines) == _without_names(after_lines)
        changed = [
            (b["name"], a["name"])
            for b, a in zip(before_lines, after_lines, strict=True)
            if b["name"] != a["name"]
        ]
        assert [a for _, a in changed] == ["Spieler 1"]
    player.refresh_from_db()
    assert (player.first_name, player.last_name, player.email, player.ddv_number) == ("",) * 4
    assert player.name_form == NameForm.ANONYMOUS
    log = list(RegistryChange.objects.filter(player=player).order_by("pk"))
    assert log[-1].action == ANONYMIZED
    assert "Schmidt" not in json.dumps([(c.before, c.after) for c in log])
    assert not GeneratedDocument.objects.filter(pk=stored.pk).exists()
    for lines in after:  # the other Anna Schmidt (start number 5) did not object
        names = {line["start_number"]: line["name"] for line in lines}
        assert names[1] == "Spieler 1" and names[5] == "Anna Schmidt"
    seated = [line.name for page in seating_pages(world.series) for line in page.lines]
    assert "Spieler 1" in seated and seated.count("Schmidt, Anna") == 1


@pytest.mark.django_db
def test_only_the_registry_keepers_anonymize_and_export() -> None:
    """The club's registry: its organizers decide; its cashier and another club's organizer
    do not (design decision 14)."""
    orga, co, cashier, other = (make_user(n) for n in ("orga", "co", "cashier", "other"))
    tournament = make_tournament("cup", organizers=[orga, co])
    make_tournament("elsewhere", organizers=[other])
    Membership.objects.create(club=tournament.club, user=cashier, role=roles.CASHIER)
    player = build_world(tournament, (4,), names=NAMES).registrations[0].player
    for user in (cashier, other):
        with pytest.raises(ServiceError):
            anonymize_player(user, player)
        with pytest.raises(ServiceError):
            player_data(user, player)
    assert Player.objects.get(pk=player.pk).last_name == "Schmidt"
    assert player_data(co, player)["player"]["last_name"] == "Schmidt"
    anonymize_player(co, player)
    assert Player.objects.get(pk=player.pk).last_name == ""


@pytest.mark.django_db
def test_the_data_export_holds_his_details_registrations_and_results() -> None:
    orga = make_user("orga")
    tournament = make_tournament("cup", organizers=[orga])
    world = build_world(tournament, (4,), names=NAMES)
    play(world.tables[0], GAMES)
    player = world.registrations[0].player
    data = player_data(orga, player)
    assert data["player"]["last_name"] == "Schmidt"
    assert data["player"]["name_form"] == "full"
    [registration] = data["registrations"]
    assert registration["tournament"]["slug"] == "cup"
    assert registration["start_number"] == 1
    line = next(ln for ln in overall_standings(tournament) if ln["start_number"] == 1)
    assert registration["total"]["points"] == line["total"]
    assert [s["series"] for s in registration["series"]] == [1]
    json.dumps(data)  # JSON as it is handed out


@pytest.mark.django_db
def test_the_owner_anonymizes_from_the_registry_page_after_confirming() -> None:
    from django.urls import reverse

    from tests.factories import page_client

    orga = make_user("orga")
    tournament = make_tournament("cup", organizers=[orga])
    player = build_world(tournament, (4,), names=NAMES).registrations[0].player
    client = page_client(orga)
    page = client.get(reverse("tournaments:registry-player", args=[player.pk])).content.decode()
    assert reverse("tournaments:registry-player-anonymize", args=[player.pk]) in page
    download = client.get(reverse("archive:player-data", args=[player.pk]))
    assert json.loads(download.content)["player"]["last_name"] == "Schmidt"
    url = reverse("tournaments:registry-player-anonymize", args=[player.pk])
    client.post(url, {})
    assert Player.objects.get(pk=player.pk).last_name == "Schmidt"  # not confirmed
    client.post(url, {"confirm": "anonymize"})
    assert Player.objects.get(pk=player.pk).last_name == ""
    other = page_client(make_user("other"))
    assert other.get(reverse("archive:player-data", args=[player.pk])).status_code == 404
