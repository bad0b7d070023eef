"""Entering games through the service: completion by the engine, scoring, refusals,
versions, idempotency, submit and confirm, audit."""

import pytest
from django.contrib.auth.models import User

from common.actors import ORGANIZER, Actor
from common.services import Refusal, ServiceError
from scoring import doors
from scoring.models import AuditEntry, Game, PlayerScore, ScoreSheet
from scoring.services.entry import delete_last_game, save_game
from scoring.services.sheet import confirm_sheet, submit_sheet
from tests.factories import RE_ANNOUNCES_AND_WINS as NORMAL
from tests.factories import make_tournament, running_table
from tournaments.models import Table

CAPTAIN = Actor(doors.CAPTAIN, seat=4, device="phone-of-seat-4")


def fresh(table: Table) -> Table:
    """The table as a new request loads it (its series' state as now stored)."""
    return Table.objects.select_related("series__tournament").get(pk=table.pk)


@pytest.fixture
def table(db):
    return fresh(running_table(make_tournament()))


def test_first_game_is_completed_scored_and_stored(table) -> None:
    result = save_game(table, NORMAL, expected_version=0, actor=CAPTAIN)
    assert result.created and not result.replayed
    game = Game.objects.get(table=table, number=1)
    assert game.dealer == 1 and game.record["seats"] == [1, 2, 3, 4]
    assert (game.winner, game.value) == ("re", 3)  # 1 won + 2 Re
    assert game.scores == {"1": 3, "2": -3, "3": 3, "4": -3}
    points = dict(PlayerScore.objects.filter(game=game).values_list("seat", "points"))
    assert points == {1: 3, 2: -3, 3: 3, 4: -3}
    assert result.sheet["version"] == 1 and result.sheet["next"]["dealer"] == 2
    entry = AuditEntry.objects.get()
    assert entry.action == "scoring.game.created" and entry.after["value"] == 3
    assert entry.via == "captain link table 1, seat 4" and entry.device == "phone-of-seat-4"


def test_invalid_record_is_refused_with_code_and_field(table) -> None:
    with pytest.raises(ServiceError) as info:
        save_game(table, {**NORMAL, "re_points": 250}, actor=CAPTAIN)
    assert (info.value.code, info.value.field) == ("re_points_out_of_range", "re_points")
    assert info.value.refusal is Refusal.INVALID
    assert not Game.objects.exists() and not ScoreSheet.objects.filter(version__gt=0).exists()


def test_a_sent_dealer_is_checked_never_trusted(table) -> None:
    with pytest.raises(ServiceError) as info:
        save_game(table, {**NORMAL, "dealer": 3}, actor=CAPTAIN)
    assert (info.value.code, info.value.field) == ("derived_mismatch", "dealer")
    save_game(table, {**NORMAL, "dealer": 1}, actor=CAPTAIN)  # the right one is fine
    assert Game.objects.get().dealer == 1


def test_compulsory_and_forced_follow_from_the_sheet(table) -> None:
    solo = {"contract": "solo", "solo": "damen", "re": [2], "re_points": 150}
    save_game(table, solo, actor=CAPTAIN)
    assert Game.objects.get(number=1).record["compulsory"] is True  # his first solo
    save_game(table, solo, actor=CAPTAIN)  # same dealer again after a Pflichtsolo
    second = Game.objects.get(number=2)
    assert second.dealer == 1 and second.record["compulsory"] is False  # a Lustsolo now
    with pytest.raises(ServiceError) as info:  # a voluntary solo before his compulsory one
        save_game(table, {**solo, "re": [3], "compulsory": False}, actor=CAPTAIN)
    assert (info.value.code, info.value.field) == ("derived_mismatch", "compulsory")


def test_version_conflict_refuses_the_second_phone(table) -> None:
    save_game(table, NORMAL, expected_version=0, actor=CAPTAIN)
    with pytest.raises(ServiceError) as info:
        save_game(table, NORMAL, expected_version=0, actor=CAPTAIN)
    assert info.value.refusal is Refusal.CONFLICT and info.value.data["version"] == 1
    assert Game.objects.count() == 1


def test_retry_with_same_key_answers_the_original_outcome(table) -> None:
    first = save_game(table, NORMAL, expected_version=0, actor=CAPTAIN, idempotency_key="k1")
    again = save_game(table, NORMAL, expected_version=0, actor=CAPTAIN, idempotency_key="k1")
    assert again.replayed and again.to_json() == first.to_json() and again.created
    assert Game.objects.count() == 1 and AuditEntry.objects.count() == 1
    with pytest.raises(ServiceError) as info:
        save_game(table, {**NORMAL, "re_points": 100}, expected_version=0, actor=CAPTAIN,
                  idempotency_key="k1")  # fmt: skip
    assert info.value.code == "idempotency_key_reused"


def test_retry_without_version_is_caught_by_the_key(table) -> None:
    """Even a client that sends no version cannot store a game twice with one key."""
    save_game(table, NORMAL, actor=CAPTAIN, idempotency_key="k2")
    again = save_game(table, NORMAL, actor=CAPTAIN, idempotency_key="k2")
    assert again.replayed and Game.objects.count() == 1


def test_correction_keeps_history_in_audit(table) -> None:
    save_game(table, NORMAL, actor=CAPTAIN)
    save_game(table, {**NORMAL, "re_points": 100}, number=1, actor=CAPTAIN)
    game = Game.objects.get()
    assert game.winner == "kontra" and game.revision == 2
    corrected = AuditEntry.objects.get(action="scoring.game.corrected")
    assert corrected.before["winner"] == "re" and corrected.after["winner"] == "kontra"


def test_game_number_must_exist_or_be_next(table) -> None:
    with pytest.raises(ServiceError) as info:
        save_game(table, NORMAL, number=3, actor=CAPTAIN)
    assert info.value.code == "game_number_out_of_range"


def test_captain_link_only_while_series_running(table) -> None:
    table.series.status = "closed"
    table.series.save()
    with pytest.raises(ServiceError) as info:
        save_game(fresh(table), NORMAL, actor=CAPTAIN)
    assert info.value.refusal is Refusal.FORBIDDEN


def test_organizer_corrects_closed_series_only_with_reason(table, alice: User) -> None:
    save_game(table, NORMAL, actor=CAPTAIN)
    table.series.status = "closed"
    table.series.save()
    organizer = Actor(ORGANIZER, user=alice)
    with pytest.raises(ServiceError) as info:
        save_game(fresh(table), NORMAL, number=1, actor=organizer)
    assert info.value.code == "reason_required"
    save_game(fresh(table), {**NORMAL, "re_points": 60}, number=1, actor=organizer,
              reason="Schiedsrichterentscheid")  # fmt: skip
    entry = AuditEntry.objects.get(action="scoring.game.corrected")
    assert entry.reason == "Schiedsrichterentscheid" and entry.user.username == "alice"


def test_delete_last_game_checks_the_number_under_the_lock(table) -> None:
    save_game(table, NORMAL, actor=CAPTAIN)
    save_game(table, {**NORMAL, "re": [2, 4]}, actor=CAPTAIN)
    with pytest.raises(ServiceError) as info:
        delete_last_game(table, number=1, expected_version=2, actor=CAPTAIN)
    assert info.value.code == "not_last_game" and Game.objects.count() == 2
    delete_last_game(table, number=2, expected_version=2, actor=CAPTAIN)
    assert list(Game.objects.values_list("number", flat=True)) == [1]
    assert PlayerScore.objects.count() == 4
    assert AuditEntry.objects.filter(action="scoring.game.deleted").count() == 1


def test_submit_refused_while_series_incomplete(table) -> None:
    save_game(table, NORMAL, actor=CAPTAIN)
    with pytest.raises(ServiceError) as info:
        submit_sheet(table, seat=4, expected_version=None, actor=CAPTAIN)
    assert info.value.code == "sheet_has_errors"
    codes = {f["code"] for f in info.value.data["findings"]}
    assert {"too_few_games", "compulsory_solo_missing"} <= codes


def full_series_payloads() -> list[dict]:
    """24 valid games at a four-player table: 20 normal games, then four forced solos (the
    engine finds out who is forced; the table reports only the soloist)."""
    games = [NORMAL] * 20
    dealer = 1  # after 20 normal games seat 1 deals again; forced from the dealer's left
    for _ in range(4):
        forced = dealer % 4 + 1
        games.append({"contract": "solo", "solo": "damen", "re": [forced], "re_points": 121})
        dealer = dealer % 4 + 1
    return games


def play_full(table: Table) -> None:
    for payload in full_series_payloads():
        save_game(table, payload, actor=CAPTAIN)


def test_full_series_submit_and_confirm_on_another_phone(table) -> None:
    play_full(table)
    assert Game.objects.filter(record__forced=True).count() == 4
    submit_sheet(table, seat=4, expected_version=None, actor=CAPTAIN)
    with pytest.raises(ServiceError) as info:
        confirm_sheet(table, seat=4, actor=CAPTAIN)
    assert info.value.code == "same_player"
    same_phone = Actor(doors.CAPTAIN, seat=2, device=CAPTAIN.device)
    with pytest.raises(ServiceError) as info:
        confirm_sheet(table, seat=2, actor=same_phone)
    assert info.value.code == "same_device"
    with pytest.raises(ServiceError) as info:
        confirm_sheet(table, seat=2, actor=Actor(doors.CAPTAIN, seat=2))
    assert info.value.code == "device_required"
    confirm_sheet(table, seat=2, actor=Actor(doors.CAPTAIN, seat=2, device="phone-of-seat-2"))
    sheet = ScoreSheet.objects.get(table=table)
    assert sheet.status == "confirmed" and sheet.confirmed_by_seat == 2
    assert (sheet.submitted_device, sheet.confirmed_device) == (
        "phone-of-seat-4",
        "phone-of-seat-2",
    )
    devices = dict(AuditEntry.objects.filter(action__startswith="scoring.sheet").values_list(
        "action", "device"))  # fmt: skip
    assert devices == {
        "scoring.sheet.submitted": "phone-of-seat-4",
        "scoring.sheet.confirmed": "phone-of-seat-2",
    }
    with pytest.raises(ServiceError) as info:
        save_game(table, NORMAL, number=1, actor=CAPTAIN)
    assert info.value.code == "sheet_submitted"
    assert sum(PlayerScore.objects.values_list("points", flat=True)) == 0


def test_retried_submit_and_confirm_succeed_once(table) -> None:
    play_full(table)
    first = submit_sheet(table, seat=4, expected_version=24, actor=CAPTAIN)
    again = submit_sheet(table, seat=4, expected_version=24, actor=CAPTAIN)
    assert not first.replayed and again.replayed and again.sheet["status"] == "submitted"
    player = Actor(doors.CAPTAIN, seat=1, device="phone-of-seat-1")
    confirm_sheet(table, seat=1, actor=player)
    assert confirm_sheet(table, seat=1, actor=player).replayed
    actions = list(AuditEntry.objects.filter(action__startswith="scoring.sheet").values_list(
        "action", flat=True))  # fmt: skip
    assert sorted(actions) == ["scoring.sheet.confirmed", "scoring.sheet.submitted"]


def test_tournament_can_leave_confirmation_to_the_organizers(table, alice: User) -> None:
    tournament = table.series.tournament
    tournament.confirmation = "organizer"
    tournament.save()
    table = fresh(table)
    play_full(table)
    submit_sheet(table, seat=4, expected_version=None, actor=CAPTAIN)
    with pytest.raises(ServiceError) as info:
        confirm_sheet(table, seat=1, actor=Actor(doors.CAPTAIN, seat=1, device="other-phone"))
    assert info.value.code == "organizers_confirm" and info.value.refusal is Refusal.FORBIDDEN
    organizer = Actor(ORGANIZER, user=alice)
    confirm_sheet(table, seat=None, actor=organizer)
    assert ScoreSheet.objects.get().confirmed_by_user.username == "alice"


def test_five_player_table_dealer_sits_out(db) -> None:
    table = fresh(running_table(make_tournament(slug="five"), size=5))
    save_game(table, {**NORMAL, "re": [2, 3]}, actor=CAPTAIN)
    game = Game.objects.get()
    assert game.record["sitting_out"] == 1
    assert game.scores == {"1": 0, "2": 3, "3": 3, "4": -3, "5": -3}
    sitter = PlayerScore.objects.get(game=game, seat=1)
    assert not sitter.played and not sitter.won
    with pytest.raises(ServiceError) as info:  # seat 2 deals now and sits out
        save_game(fresh(table), {**NORMAL, "re": [2, 4]}, actor=CAPTAIN)
    assert (info.value.code, info.value.field) == ("seat_sitting_out", "re.0")
