"""Referee calls: the captain calls, a referee of the tournament's club takes and rules (with
Nachspielzeit, a deduction, a confirmed or corrected game), the captain withdraws; who may,
one open call per table, the provisional game, the change log."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from clubs.models import Membership
from common.actors import ORGANIZER, Actor
from common.services import ServiceError
from scoring.doors import CAPTAIN as CAPTAIN_DOOR
from scoring.doors import REFEREE
from scoring.models import AuditEntry, Deduction, Extension, Game, RefereeCall
from scoring.referee_box import latest_call
from scoring.services.entry import save_game
from scoring.services.referee import (
    DeductionOrder,
    call_referee,
    concerned_game,
    provisional_numbers,
    rule_call,
    take_call,
    withdraw_call,
)
from tests.factories import CAPTAIN, RE_WINS, make_tournament, make_user, play
from tournaments.models import Series, Table, Tournament


@pytest.fixture
def rudi(tournament: Tournament) -> User:
    """A referee of the club that owns Alice's tournament."""
    user = make_user("rudi")
    Membership.objects.create(club=tournament.club, user=user, role="referee")
    return user


def _call(table: Table, reason: str = "Karte verworfen", **kwargs: object) -> RefereeCall:
    fresh = Table.objects.select_related("series__tournament").get(pk=table.pk)
    return call_referee(
        fresh, reason=reason, actor=CAPTAIN, link=table.captain_token, **kwargs
    ).call  # type: ignore[arg-type]


def _referee(user: User) -> Actor:
    return Actor(REFEREE, user=user)


def test_a_double_tap_makes_one_call(table: Table) -> None:
    fresh = Table.objects.select_related("series__tournament").get(pk=table.pk)
    first = call_referee(fresh, reason="Streit", actor=CAPTAIN, link=table.captain_token)
    again = call_referee(fresh, reason="Streit", actor=CAPTAIN, link=table.captain_token)
    assert first.created and not again.created
    assert again.call.pk == first.call.pk
    assert RefereeCall.objects.filter(table=table).count() == 1
    assert AuditEntry.objects.filter(action="scoring.referee.called").count() == 1


def test_the_database_keeps_one_open_call_per_table(table: Table) -> None:
    call = _call(table)
    with pytest.raises(IntegrityError), transaction.atomic():
        RefereeCall.objects.create(
            table=table, series=table.series, reason="x", called_at=call.called_at
        )


def test_a_captain_calls_only_for_his_own_table(tables: list[Table]) -> None:
    first, second = tables
    fresh = Table.objects.select_related("series__tournament").get(pk=first.pk)
    with pytest.raises(ServiceError) as refused:
        call_referee(fresh, reason="Streit", actor=CAPTAIN, link=second.captain_token)
    assert refused.value.code == "not_your_table"
    assert not RefereeCall.objects.exists()


def test_a_reason_is_required_and_short(table: Table) -> None:
    for reason in ("   ", "x" * 201):
        with pytest.raises(ServiceError) as refused:
            _call(table, reason)
        assert refused.value.field == "reason"


def test_no_call_while_the_series_is_not_running(table: Table) -> None:
    Series.objects.filter(pk=table.series_id).update(status=Series.Status.CLOSED)
    with pytest.raises(ServiceError):
        _call(table)


def test_a_referee_of_another_club_cannot_take_or_rule(table: Table, bob: User) -> None:
    """Bob owns another club (his tournament's); he is no referee of Alice's club."""
    make_tournament("anderes", organizers=[bob])
    other_referee = make_user("otto")
    Membership.objects.create(
        club=Tournament.objects.get(slug="anderes").club, user=other_referee, role="referee"
    )
    call = _call(table)
    for user in (bob, other_referee):
        with pytest.raises(ServiceError) as refused:
            take_call(call, actor=_referee(user))
        assert refused.value.code == "forbidden"
        with pytest.raises(ServiceError):
            rule_call(call, ruling="Weiter", actor=_referee(user))
    call.refresh_from_db()
    assert call.status == RefereeCall.Status.CALLED


def test_a_cashier_and_a_captain_cannot_rule(table: Table, tournament: Tournament) -> None:
    cashier = make_user("carla")
    Membership.objects.create(club=tournament.club, user=cashier, role="cashier")
    call = _call(table)
    for actor in (_referee(cashier), Actor(CAPTAIN_DOOR, seat=4)):
        with pytest.raises(ServiceError):
            rule_call(call, ruling="Weiter", actor=actor)


def test_the_club_referee_takes_and_rules_with_nachspielzeit(table: Table, rudi: User) -> None:
    call = _call(table)
    taken = take_call(call, actor=_referee(rudi))
    assert taken.status == RefereeCall.Status.TAKEN and taken.taken_by == rudi
    assert take_call(call, actor=_referee(rudi)).taken_at == taken.taken_at  # a repeat
    ruled = rule_call(call, ruling="Spiel läuft weiter.", actor=_referee(rudi), extension_minutes=4)
    assert ruled.status == RefereeCall.Status.RULED
    assert ruled.extension_minutes == 4
    extension = Extension.objects.get(table=table)
    assert extension.minutes == 4 and "Karte verworfen" in extension.reason
    actions = list(
        AuditEntry.objects.filter(table=table).order_by("pk").values_list("action", "via")
    )
    assert actions == [
        ("scoring.referee.called", "captain link table 1, seat 4"),
        ("scoring.referee.taken", "referee rudi"),
        ("scoring.clock.extended", "referee rudi"),
        ("scoring.referee.ruled", "referee rudi"),
    ]


def test_the_organizer_may_rule_too(table: Table, alice: User) -> None:
    call = _call(table)
    ruled = rule_call(call, ruling="Weiter.", actor=_referee(alice))
    assert ruled.taken_by == alice and ruled.status == RefereeCall.Status.RULED


def test_a_call_another_referee_took_is_his(table: Table, rudi: User, alice: User) -> None:
    call = _call(table)
    take_call(call, actor=_referee(rudi))
    with pytest.raises(ServiceError) as refused:
        take_call(call, actor=_referee(alice))
    assert refused.value.code == "already_taken" and "rudi" in refused.value.message
    with pytest.raises(ServiceError) as refused:
        rule_call(call, ruling="Weiter", actor=_referee(alice))
    assert refused.value.code == "taken_by_other"


def test_a_ruling_is_required(table: Table, rudi: User) -> None:
    call = _call(table)
    with pytest.raises(ServiceError) as refused:
        rule_call(call, ruling="  ", actor=_referee(rudi))
    assert refused.value.field == "ruling"


def test_a_failed_extension_rolls_the_ruling_back(table: Table, rudi: User) -> None:
    call = _call(table)
    with pytest.raises(ServiceError) as refused:
        rule_call(call, ruling="Weiter", actor=_referee(rudi), extension_minutes=99)
    assert refused.value.field == "minutes"
    call.refresh_from_db()
    assert call.status == RefereeCall.Status.CALLED
    assert not AuditEntry.objects.filter(action="scoring.referee.ruled").exists()


def test_a_ruled_call_cannot_be_ruled_again(table: Table, rudi: User) -> None:
    call = _call(table)
    rule_call(call, ruling="Weiter", actor=_referee(rudi))
    with pytest.raises(ServiceError) as refused:
        rule_call(call, ruling="Nochmal", actor=_referee(rudi))
    assert refused.value.code == "call_closed"
    assert _call(table).pk != call.pk  # the table may call again


def test_a_deduction_goes_through_the_deduction_use_case(table: Table, rudi: User) -> None:
    call = _call(table)
    ruled = rule_call(
        call, ruling="Unsportlich.", actor=_referee(rudi), deduction=DeductionOrder(2, -6)
    )
    deduction = Deduction.objects.get()
    assert ruled.deduction == deduction and deduction.points == -6
    assert deduction.registration == table.seats.get(position=2).registration
    assert AuditEntry.objects.filter(action="scoring.penalty.created").count() == 1


def test_the_game_entered_while_called_is_provisional_until_confirmed(
    table: Table, rudi: User
) -> None:
    play(table, [RE_WINS])
    call = _call(table)  # no number: the next game
    games = list(Game.objects.filter(table=table))
    assert provisional_numbers(table, games) == set()  # not entered yet
    play(table, [RE_WINS])
    games = list(Game.objects.filter(table=table))
    assert concerned_game(call) == 2
    assert provisional_numbers(table, games) == {2}
    ruled = rule_call(call, ruling="Richtig gewertet.", actor=_referee(rudi))
    assert ruled.verdict == RefereeCall.Verdict.CONFIRMED and ruled.ruled_game == 2
    assert provisional_numbers(table, games) == set()


def test_the_ruling_corrects_the_game_through_the_correction(table: Table, rudi: User) -> None:
    play(table, [RE_WINS, RE_WINS])
    call = _call(table, game_number=2)
    games = list(Game.objects.filter(table=table))
    assert provisional_numbers(table, games) == {2}
    kontra_wins = {"contract": "normal", "re": [1, 3], "re_points": 110}
    ruled = rule_call(call, ruling="Kontra gewinnt.", actor=_referee(rudi), correction=kontra_wins)
    assert ruled.verdict == RefereeCall.Verdict.CORRECTED
    game = Game.objects.get(table=table, number=2)
    assert game.winner == "kontra" and game.revision == 2
    corrected = AuditEntry.objects.get(action="scoring.game.corrected")
    assert corrected.reason == "Kontra gewinnt." and corrected.via == "referee rudi"


def test_a_correction_needs_a_game(table: Table, rudi: User) -> None:
    call = _call(table)
    with pytest.raises(ServiceError) as refused:
        rule_call(call, ruling="x", actor=_referee(rudi), correction=RE_WINS)
    assert refused.value.code == "no_game"


def test_the_captain_withdraws_and_the_game_stands(table: Table) -> None:
    play(table, [RE_WINS])
    call = _call(table, game_number=1)
    with pytest.raises(ServiceError):
        withdraw_call(call, actor=CAPTAIN, link="guessed")
    withdrawn = withdraw_call(call, actor=CAPTAIN, link=table.captain_token)
    assert withdrawn.status == RefereeCall.Status.WITHDRAWN
    assert withdraw_call(call, actor=CAPTAIN, link=table.captain_token).status == "withdrawn"
    assert provisional_numbers(table, list(Game.objects.filter(table=table))) == set()
    assert AuditEntry.objects.filter(action="scoring.referee.withdrawn").count() == 1


def test_a_game_corrected_on_the_sheet_while_called_is_ruled_corrected(
    table: Table, rudi: User, alice: User
) -> None:
    """The organizer corrects the game on its sheet (the correction use case) while the
    call is open; the ruling then records it as corrected."""
    play(table, [RE_WINS])
    call = _call(table, game_number=1)
    fresh = Table.objects.select_related("series__tournament").get(pk=table.pk)
    kontra_wins = {"contract": "normal", "re": [1, 3], "re_points": 110}
    save_game(fresh, kontra_wins, number=1, actor=Actor(ORGANIZER, user=alice), reason="Schiri")
    ruled = rule_call(call, ruling="Kontra gewinnt.", actor=_referee(rudi))
    assert ruled.verdict == RefereeCall.Verdict.CORRECTED and ruled.ruled_game == 1


def _fields(call: RefereeCall) -> dict[str, object]:
    return {f.attname: getattr(call, f.attname) for f in RefereeCall._meta.concrete_fields}


def test_the_latest_call_is_read_as_the_orm_reads_it(table: Table, rudi: User) -> None:
    """``latest_call`` (compiled once, scoring/referee_box.py) builds the newest call with
    its deduction, registration and player as ``select_related`` does."""
    assert latest_call(table) is None
    first = _call(table)
    rule_call(first, ruling="Unsportlich.", actor=_referee(rudi), deduction=DeductionOrder(2, -6))
    found = latest_call(table)
    orm = RefereeCall.objects.select_related("deduction__registration__player").get(pk=first.pk)
    assert found is not None and _fields(found) == _fields(orm)
    with CaptureQueriesContext(connection) as queries:
        player = found.deduction.registration.player if found.deduction else None
    assert len(queries) == 0 and player is not None
    assert player == orm.deduction.registration.player if orm.deduction else False
    second = _call(table, reason="Noch einmal")
    found = latest_call(table)
    assert found is not None and found.pk == second.pk and found.deduction is None
