"""Personas and builders for the tournaments tests (built in code, no JSON fixtures)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tournaments.models import Tournament
from tournaments.services.lifecycle import ensure_series


@pytest.fixture
def alice(db) -> User:
    """Organizer of the tournament under test."""
    return User.objects.create_user("alice", password="pw-alice-123")


@pytest.fixture
def bob(db) -> User:
    """Organizer of another tournament."""
    return User.objects.create_user("bob", password="pw-bob-123")


@pytest.fixture
def tournament(alice: User) -> Tournament:
    t = Tournament.objects.create(
        name="Herbstturnier", slug="herbst", starts_on=datetime.date(2026, 11, 28), series_count=3
    )
    t.organizers.add(alice)
    ensure_series(t)
    return t


@pytest.fixture
def other_tournament(bob: User) -> Tournament:
    t = Tournament.objects.create(
        name="Anderes Turnier", slug="anderes", starts_on=datetime.date(2026, 12, 5)
    )
    t.organizers.add(bob)
    return t


@pytest.fixture
def alice_client(alice: User) -> Client:
    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def bob_client(bob: User) -> Client:
    client = Client()
    client.force_login(bob)
    return client
