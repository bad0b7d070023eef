"""Announcements: only the tournament's organizers make and withdraw them, the text is one
line of 1 to 200 characters (refused on the field otherwise), both are in the change log."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from freezegun import freeze_time

from common.actors import ORGANIZER, Actor
from common.changelog import ACTIONS
from common.services import Refusal, ServiceError
from hall.demo import ANNOUNCEMENT, announce_in_demo
from hall.models import Announcement
from hall.services import MADE, WITHDRAWN, announce, withdraw
from scoring.demo import build_demo
from scoring.doors import CAPTAIN
from scoring.models import AuditEntry
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee(alice: User) -> Actor:
    return Actor(ORGANIZER, user=alice)


def test_an_announcement_is_shown_and_logged(tournament: Tournament, referee: Actor) -> None:
    note = announce(tournament, "  Mittagspause\n bis   13:30  ", actor=referee)
    assert note.text == "Mittagspause bis 13:30"  # one line
    assert note.active and note.created_by == referee.user
    entry = AuditEntry.objects.get(action=MADE)
    assert (entry.tournament_id, entry.table, entry.reason) == (tournament.pk, None, note.text)
    assert entry.user == referee.user
    assert {MADE, WITHDRAWN} <= set(ACTIONS)  # the change log has words for both


@pytest.mark.parametrize(
    ("text", "code"),
    [("", "announcement_empty"), (" \n\t ", "announcement_empty"),
     ("x" * 201, "announcement_too_long")],
)  # fmt: skip
def test_the_text_is_refused_on_its_field(
    tournament: Tournament, referee: Actor, text: str, code: str
) -> None:
    with pytest.raises(ServiceError) as refused:
        announce(tournament, text, actor=referee)
    assert (refused.value.code, refused.value.field) == (code, "text")
    assert refused.value.refusal == Refusal.INVALID
    assert not Announcement.objects.exists() and not AuditEntry.objects.exists()


def test_two_hundred_characters_are_fine(tournament: Tournament, referee: Actor) -> None:
    assert len(announce(tournament, "ä" * 200, actor=referee).text) == 200


@pytest.mark.parametrize("who", ["bob", "nobody"])
def test_only_the_tournaments_organizers(
    tournament: Tournament, referee: Actor, bob: User, who: str
) -> None:
    stranger = Actor(ORGANIZER, user=bob) if who == "bob" else Actor(CAPTAIN, seat=1)
    with pytest.raises(ServiceError) as refused:
        announce(tournament, "Hallo", actor=stranger)
    assert refused.value.refusal == Refusal.FORBIDDEN
    note = announce(tournament, "Hallo", actor=referee)
    with pytest.raises(ServiceError) as refused:
        withdraw(note, actor=stranger)
    assert refused.value.refusal == Refusal.FORBIDDEN
    note.refresh_from_db()
    assert note.active


def test_withdrawn_once(tournament: Tournament, referee: Actor) -> None:
    note = announce(tournament, "Hallo", actor=referee)
    with freeze_time("2026-11-28 12:00:00"):
        done = withdraw(note, actor=referee)
        again = withdraw(note, actor=referee)
    assert not done.active and again.ended_at == done.ended_at
    assert AuditEntry.objects.filter(action=WITHDRAWN).count() == 1


def test_the_demo_tournament_has_an_announcement() -> None:
    """The hall's part of the demo (the receiver ``build_demo`` calls through
    ``demo_built``; the other apps' parts are left out: the league takes seconds)."""
    tournament = build_demo(players=13, series=2, seed=5, extras=False)
    announce_in_demo(sender=build_demo, tournament=tournament)
    (note,) = Announcement.objects.filter(tournament=tournament)
    assert note.active and note.text == ANNOUNCEMENT
    running = tournament.series.get(number=2)
    assert running.status == "running" and running.starts_at is not None
