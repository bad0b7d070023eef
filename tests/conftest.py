"""The personas and the world every test package shares, and the suite's ground rules.

Personas (as healthchecks' Alice, Bob and Charlie), built by ``tests/factories.py``:

============================  ======================================  ====================
who                           page client (``django.test.Client``)    API client
============================  ======================================  ====================
Alice, organizer of           ``alice_client``                        ``alice_api``
``tournament``
Bob, organizer of             ``bob_client``                          ``bob_api``
``other_tournament`` only
the captain of table 1        ``client`` on the table's link          ``captain_api``
the captain of table 2        ``client`` on the table's link          ``other_captain_api``
the public (no credentials)   ``client`` (pytest-django)              ``public_api``
============================  ======================================  ====================

The world: ``tournament`` (Alice's public "Herbstturnier", slug ``herbst``, three series),
``tables`` (series 1 running with two tables of four, ``table`` is the first), ``world``
(series 1 drawn: thirteen named players at tables of four, four and five) and
``other_tournament`` (Bob's). A test that needs another shape calls the builders of
``tests/factories.py`` itself.

Every test runs on its own: its own cache keys, its own media directory, tasks in-process.
The suite runs in parallel (``pytest -n auto``, see the Makefile); a test never writes into
the working tree or uses a fixed port.
"""

from __future__ import annotations

import copy
import gc
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from freezegun import freeze_time
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

from tests.browser.contexts import close_context
from tests.factories import (
    World,
    api_client,
    build_world,
    make_tournament,
    make_user,
    page_client,
)
from tournaments.models import Series, Table, Tournament

# Hypothesis runs are repeatable: the examples come from a hash of the test, not from chance,
# no example database replays failures of an earlier run, and no deadline depends on the speed
# of the machine. A test's own @settings override single values and keep the rest of the
# profile. HYPOTHESIS_PROFILE=explore searches with new random examples (run it on purpose,
# then pin what it finds with @example).
hypothesis_settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
hypothesis_settings.register_profile("explore", derandomize=False, deadline=None, max_examples=500)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# --- Ground rules ---------------------------------------------------------------------------


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` starts one worker more than there are cores. Many tests mostly wait: the
    browser tests on Chromium and on polls and countdowns in real time (the hall display
    alone some 45 s), others on subprocesses, servers and timeouts. With one worker per core
    the two cores of the reference machine were busy only about half of the run.
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still sets the number."""
    configured = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "")
    if configured.isdigit() and int(configured) > 0:
        return int(configured)
    return len(os.sched_getaffinity(0)) + 1


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """For the parallel run (``-n auto --dist loadgroup``, see the Makefile):

    * the tests marked ``slow`` go first (after pytest-django's own order, which would put
      the pure seating sweeps last), then the other browser tests: the workers start with
      the long tests and those that mostly wait, and the short ones fill the gaps, instead
      of one sweep or browser run going on alone at the end;
    * the tests marked ``broker`` run one after the other on one worker: each starts a real
      Celery worker (on a queue of its own), and two of them at once on a small machine
      would compete for the processor their time limits are measured against.
    """
    for item in items:
        if item.get_closest_marker("broker"):
            item.add_marker(pytest.mark.xdist_group("broker"))
    items.sort(
        key=lambda item: (
            item.get_closest_marker("slow") is None,
            item.get_closest_marker("browser") is None,
        )
    )


def pytest_collection_finish(session: pytest.Session) -> None:
    """The cyclic garbage collector leaves alone what every test shares: the modules, Django's
    registries and the collected tests are moved out of its sight (``gc.freeze``), and it
    runs after 10,000 new objects instead of 700. On a third of the suite it then took 2 s
    instead of 3.1 to 4.0 s, of some 23 s of processor time. Reference counting still frees
    at once whatever is not in a cycle."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


@pytest.fixture(scope="session", autouse=True)
def _fast_passwords() -> Iterator[None]:
    """Passwords hashed with a fast hasher: the production one (PBKDF2) takes a sizeable
    fraction of a second per login, by design. What the tests check (a right password lets
    in, a wrong one counts as a failure) does not depend on the hasher."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(scope="session", autouse=True)
def _no_rendering_ahead() -> Iterator[None]:
    """No print pack rendered ahead after each draw, swap or rename: in the eager tasks of
    the tests it would render inside the change. The tests of rendering ahead turn it on."""
    with override_settings(DOCUMENT_PRERENDER=False):
        yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """The test databases are dropped at the end even if a connection is still open: a live
    server's request thread holds one as long as the browser keeps its socket, and on
    PostgreSQL ``DROP DATABASE`` refuses while another session uses the database, so one
    failed browser test became a second error at the end of the run."""
    yield
    from django.db import connections

    with django_db_blocker.unblock():
        for connection in connections.all():
            if connection.vendor != "postgresql":
                continue
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            connection.close()


@pytest.fixture(autouse=True)
def _browser_contexts_closed(request: pytest.FixtureRequest) -> Iterator[None]:
    """A browser test that fails before it closes its pages leaves them open, with their
    polls and kept-alive sockets to the live server, into the next test; they are closed."""
    # Taken before the test: at teardown a test's own fixture of that name may be gone.
    browser = request.getfixturevalue("browser") if "browser" in request.fixturenames else None
    yield
    for context in list(getattr(browser, "contexts", ())):  # Playwright's, not a Client
        close_context(context)


@pytest.fixture(autouse=True)
def _celery_eager(request: pytest.FixtureRequest) -> Iterator[None]:
    """Tasks run in-process in tests, even when a broker is configured, except in tests
    marked ``broker`` that exercise the real round trip."""
    from config.celery import app

    if request.node.get_closest_marker("broker"):
        yield
        return
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def _german() -> Iterator[None]:
    """Every test starts in the default language. A request in English through the test
    client leaves English active in the test's thread (the locale middleware activates it and
    nothing switches back), so a later test on the same worker would read English messages."""
    from django.conf import settings as django_settings
    from django.utils import translation

    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _own_cache(settings) -> None:  # type: ignore[no-untyped-def]
    """Each test counts failed links and credentials in a cache of its own: the Redis cache of
    the PostgreSQL run is shared by tests, workers and runs, and is never flushed."""
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["KEY_PREFIX"] = f"test-{uuid.uuid4().hex}"
    settings.CACHES = caches


@pytest.fixture(autouse=True)
def _own_media(settings, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Generated documents go to a directory of the test's own, never into the working tree
    (where parallel workers and other tests would see them)."""
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def throttle_window() -> Iterator[None]:
    """The address throttle counts failures in windows of the wall clock
    (``TOKEN_FAILURE_WINDOW``, a multiple of a minute): a test that counts them runs from the
    start of a window, time running as usual, so no window ends while it counts (one did
    on a slow CI run, and a refusal it expected never came)."""
    with freeze_time("2026-11-28 10:00:00", tick=True):
        yield


# --- Personas -------------------------------------------------------------------------------


@pytest.fixture
def alice(db: None) -> User:
    """Organizer of ``tournament``; password ``pw-alice-123``."""
    return make_user("alice")


@pytest.fixture
def bob(db: None) -> User:
    """An organizer, but not of Alice's tournament; password ``pw-bob-123``."""
    return make_user("bob")


@pytest.fixture
def alice_client(alice: User) -> Client:
    return page_client(alice)


@pytest.fixture
def bob_client(bob: User) -> Client:
    return page_client(bob)


@pytest.fixture
def alice_api(alice: User) -> APIClient:
    return api_client(user=alice)


@pytest.fixture
def bob_api(bob: User) -> APIClient:
    return api_client(user=bob)


@pytest.fixture
def captain_api(table: Table) -> APIClient:
    """The captain of table 1, on his phone."""
    return api_client(table=table, device="captain-phone")


@pytest.fixture
def other_captain_api(tables: list[Table]) -> APIClient:
    """The captain of table 2: a valid token, but not for table 1."""
    return api_client(table=tables[1])


@pytest.fixture
def public_api(db: None) -> APIClient:
    return api_client()


# --- The world ------------------------------------------------------------------------------


@pytest.fixture
def tournament(alice: User) -> Tournament:
    """Alice's public tournament ``herbst`` with three planned series."""
    return make_tournament("herbst", 3, name="Herbstturnier", organizers=[alice])


@pytest.fixture
def other_tournament(bob: User) -> Tournament:
    """Bob's tournament ``anderes``."""
    return make_tournament(
        "anderes", name="Anderes Turnier", starts_on="2026-12-05", organizers=[bob]
    )


@pytest.fixture
def tables(tournament: Tournament) -> list[Table]:
    """Series 1 running with two tables of four: players 1-4 and 5-8."""
    return build_world(tournament).tables


@pytest.fixture
def table(tables: list[Table]) -> Table:
    return tables[0]


NAMES = [
    ("Anna", "Albers"), ("Bernd", "Bäcker"), ("Carla", "Czerwinski"), ("Dieter", "Dörfler"),
    ("Erika", "Eichhorn"), ("Fritz", "Fischer"), ("Gisela", "Groß"), ("Hans", "Hübner"),
    ("Ida", "Iwanowa"), ("Jürgen", "Jäger"), ("Karin", "Krüger"), ("Lothar", "Löwenthal"),
    ("Maria", "Müller"),
]  # fmt: skip


@pytest.fixture
def world(tournament: Tournament) -> World:
    """Series 1 drawn, not started: thirteen named players (umlauts and ß included) at
    tables 1 and 2 with four players and table 3 with five."""
    return build_world(tournament, (4, 4, 5), names=NAMES, status=Series.Status.DRAWN)
