"""Entering games through the service: scoring, refusals, versions, idempotency, audit."""

import pytest
from django.contrib.auth.models import User

from scoring.models import AuditEntry, Game, PlayerScore, ScoreSheet
from scoring.services import Actor, EntryError
from scoring.services.entry import delete_last_game, save_game
from scoring.services.sheet import confirm_sheet, submit_sheet
from tests.factories import make_tournament, running_table

CAPTAIN = Actor("captain", seat=4)
NORMAL = {"contract": "normal", "re": [1, 3], "announcements": {"re": "ansage"}, "re_points": 130}


@pytest.fixture
def table(db):
    return running_table(make_tournament())


def test_first_game_is_scored_and_stored(table) -> None:
    result = save_game(table.pk, NORMAL, dealer=1, expected_version=0, actor=CAPTAIN)
    assert result.status == 201
    game = Game.objects.get(table=table, number=1)
    assert (game.winner, game.value) == ("re", 3)  # 1 won + 2 Re
    assert game.scores == {"1": 3, "2": -3, "3": 3, "4": -3}
    points = dict(PlayerScore.objects.filter(game=game).values_list("seat", "points"))
    assert points == {1: 3, 2: -3, 3: 3, 4: -3}
    assert result.body["sheet"]["version"] == 1
    assert result.body["sheet"]["next"]["dealer"] == 2
    entry = AuditEntry.objects.get()
    assert entry.action == "scoring.game.created" and entry.after["value"] == 3
    assert entry.via == "captain link table 1, seat 4"


def test_invalid_record_is_refused_with_code_and_field(table) -> None:
    with pytest.raises(EntryError) as info:
        save_game(table.pk, {**NORMAL, "re_points": 250}, dealer=1, actor=CAPTAIN)
    assert (info.value.code, info.value.field) == ("re_points_out_of_range", "re_points")
    assert not Game.objects.exists()


def test_wrong_dealer_is_refused(table) -> None:
    with pytest.raises(EntryError) as info:
        save_game(table.pk, NORMAL, dealer=3, actor=CAPTAIN)
    assert (info.value.code, info.value.field) == ("dealer_wrong", "dealer")


def test_version_conflict_refuses_the_second_phone(table) -> None:
    save_game(table.pk, NORMAL, dealer=1, expected_version=0, actor=CAPTAIN)
    with pytest.raises(EntryError) as info:
        save_game(table.pk, NORMAL, dealer=2, expected_version=0, actor=CAPTAIN)
    assert info.value.status == 409 and info.value.data["version"] == 1
    assert Game.objects.count() == 1


def test_retry_with_same_key_creates_nothing_twice(table) -> None:
    first = save_game(table.pk, NORMAL, dealer=1, expected_version=0, actor=CAPTAIN,
                      idempotency_key="k1")  # fmt: skip
    again = save_game(table.pk, NORMAL, dealer=1, expected_version=0, actor=CAPTAIN,
                      idempotency_key="k1")  # fmt: skip
    assert again.replayed and again.body == first.body and again.status == 201
    assert Game.objects.count() == 1
    with pytest.raises(EntryError) as info:
        save_game(table.pk, {**NORMAL, "re_points": 100}, dealer=1, actor=CAPTAIN,
                  idempotency_key="k1")  # fmt: skip
    assert info.value.code == "idempotency_key_reused"


def test_correction_keeps_history_in_audit(table) -> None:
    save_game(table.pk, NORMAL, dealer=1, actor=CAPTAIN)
    save_game(table.pk, {**NORMAL, "re_points": 100}, dealer=1, number=1, actor=CAPTAIN)
    game = Game.objects.get()
    assert game.winner == "kontra" and game.revision == 2
    corrected = AuditEntry.objects.get(action="scoring.game.corrected")
    assert corrected.before["winner"] == "re" and corrected.after["winner"] == "kontra"


def test_game_number_must_exist_or_be_next(table) -> None:
    with pytest.raises(EntryError) as info:
        save_game(table.pk, NORMAL, dealer=1, number=3, actor=CAPTAIN)
    assert info.value.code == "game_number_out_of_range"


def test_captain_link_only_while_series_running(table) -> None:
    table.series.status = "closed"
    table.series.save()
    with pytest.raises(EntryError) as info:
        save_game(table.pk, NORMAL, dealer=1, actor=CAPTAIN)
    assert info.value.status == 403


def test_organizer_corrects_closed_series_only_with_reason(table) -> None:
    save_game(table.pk, NORMAL, dealer=1, actor=CAPTAIN)
    table.series.status = "closed"
    table.series.save()
    organizer = Actor("organizer", user=User.objects.create_user("org"))
    with pytest.raises(EntryError) as info:
        save_game(table.pk, NORMAL, dealer=1, number=1, actor=organizer)
    assert info.value.code == "reason_required"
    save_game(table.pk, {**NORMAL, "re_points": 60}, dealer=1, number=1, actor=organizer,
              reason="Schiedsrichterentscheid")  # fmt: skip
    entry = AuditEntry.objects.get(action="scoring.game.corrected")
    assert entry.reason == "Schiedsrichterentscheid" and entry.user.username == "org"


def test_delete_last_game(table) -> None:
    save_game(table.pk, NORMAL, dealer=1, actor=CAPTAIN)
    delete_last_game(table.pk, expected_version=1, actor=CAPTAIN)
    assert not Game.objects.exists() and not PlayerScore.objects.exists()
    assert AuditEntry.objects.filter(action="scoring.game.deleted").exists()


def test_submit_refused_while_series_incomplete(table) -> None:
    save_game(table.pk, NORMAL, dealer=1, actor=CAPTAIN)
    with pytest.raises(EntryError) as info:
        submit_sheet(table.pk, seat=4, expected_version=None, actor=CAPTAIN)
    assert info.value.code == "sheet_has_errors"
    codes = {f["code"] for f in info.value.data["findings"]}
    assert {"too_few_games", "compulsory_solo_missing"} <= codes


def full_series_payloads() -> list[tuple[dict, int]]:
    """24 valid games at a four-player table: 20 normal games, then four forced solos."""
    games = []
    dealer = 1
    for _ in range(20):
        games.append((NORMAL, dealer))
        dealer = dealer % 4 + 1
    # after 20 normal games seat 1 deals again; forced players from dealer's left
    for _ in range(4):
        forced = dealer % 4 + 1
        games.append((
            {"contract": "solo", "solo": "damen", "compulsory": True, "forced": True,
             "re": [forced], "re_points": 121},
            dealer,
        ))  # fmt: skip
        dealer = dealer % 4 + 1
    return games


def test_full_series_submit_and_confirm(table) -> None:
    for payload, dealer in full_series_payloads():
        save_game(table.pk, payload, dealer=dealer, actor=CAPTAIN)
    submit_sheet(table.pk, seat=4, expected_version=None, actor=CAPTAIN)
    with pytest.raises(EntryError) as info:
        confirm_sheet(table.pk, seat=4, actor=CAPTAIN)
    assert info.value.code == "same_player"
    confirm_sheet(table.pk, seat=2, actor=Actor("captain", seat=2))
    sheet = ScoreSheet.objects.get(table=table)
    assert sheet.status == "confirmed" and sheet.confirmed_by_seat == 2
    with pytest.raises(EntryError) as info:
        save_game(table.pk, NORMAL, dealer=1, number=1, actor=CAPTAIN)
    assert info.value.code == "sheet_submitted"
    total = sum(PlayerScore.objects.values_list("points", flat=True))
    assert total == 0


def test_five_player_table_dealer_sits_out(db) -> None:
    table = running_table(make_tournament(slug="five"), size=5)
    save_game(table.pk, {**NORMAL, "re": [2, 3]}, dealer=1, actor=CAPTAIN)
    game = Game.objects.get()
    assert game.scores == {"1": 0, "2": 3, "3": 3, "4": -3, "5": -3}
    sitter = PlayerScore.objects.get(game=game, seat=1)
    assert not sitter.played and not sitter.won
