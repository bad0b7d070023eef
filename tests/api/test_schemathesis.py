"""schemathesis against the live OpenAPI schema, in-process through the WSGI app.

Bounded and repeatable: a fixed seed, derandomized generation and a small number of examples
per operation, for three personas (organizer token, captain token, no credentials), each on a
fresh tournament whose series 1 runs with two tables (one test per persona, so that parallel
workers share the load). Every check of schemathesis is on. The run
must have no server error, and every failed check must be one of the deliberate findings
listed in docs/api.md ("Deliberate schemathesis findings"), matched by DELIBERATE below.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core.handlers.wsgi import WSGIHandler
from django.db import connections
from rest_framework.authtoken.models import Token
from schemathesis.engine import events, from_schema

from clubs.invitations import invite
from teams.models import Group
from teams.services import make_match_days
from tests.teams.helpers import league_with_teams, organizer
from tournaments.models import Table

ROOT = Path(__file__).resolve().parents[2]
SEED = 20261123
MAX_EXAMPLES = 8

# Deliberate findings: (id in docs/api.md, failure code, operation pattern, message pattern).
DELIBERATE = [
    # Pagination is lenient: a limit or offset that is not a number falls back to the default.
    ("lenient-pagination", "ST201", r"^GET ", r"parameter `(offset|limit)` in query"),
    # JSON numbers are accepted for text fields and 0/1 for yes/no fields (DRF's coercion),
    # also inside the items of a list (the reduced fees' labels).
    (
        "json-coercion",
        "ST201",
        r"^(POST|PUT|PATCH) ",
        r"in body - [\w.]+( -> Array with invalid items: [\w.]+)?: Incorrect type",
    ),
    # A schema-valid request can still break a rule the schema cannot express.
    ("domain-rules", "ST202", r"", r"Expected: 2xx"),
]


@dataclass
class Finding:
    code: str
    operation: str
    title: str
    message: str
    status: int | None

    def deliberate(self) -> str | None:
        for name, code, operation, message in DELIBERATE:
            if (
                code == self.code
                and re.search(operation, self.operation)
                and re.search(message, self.message)
                and (code != "ST202" or self.status == 400)
            ):
                return name
        return None


@dataclass
class Run:
    cases: int
    server_errors: int
    findings: dict[tuple[str, str, str], Finding]
    errors: list[str]


def run_schemathesis(headers: dict[str, str], league: dict[str, Any]) -> Run:
    config = schemathesis.Config.from_dict(
        {
            "seed": SEED,
            "generation": {"deterministic": True, "max-examples": MAX_EXAMPLES,
                           "database": "none"},
            "headers": headers,
            # Real addresses: tournament "herbst", series 1 running, table 1, registration 1.
            # Alice's league "liga" (four teams, match days made): its first team and group.
            # Alice's club (her personal one: she is its only member) and an invitation.
            "parameters": {"slug": "herbst", "number": 1, "table": 1, "start_number": 1,
                           "game": 1, **league},
            # The stateful phase is left out: it doubled the time for a few hundred cases.
            # Unexpected methods are covered by test_json_errors.py for every address.
            "phases": {"stateful": {"enabled": False},
                       "coverage": {"unexpected-methods": ["PATCH", "TRACE"]}},
            # 428 Precondition Required is the answer to a missing If-Match (RFC 6585).
            "checks": {"missing_required_header": {
                "expected-statuses": [400, 401, 403, 406, 415, 422, 428]}},
        }
    )  # fmt: skip
    # WSGIHandler, not get_wsgi_application(): that would run django.setup() again and
    # reset the logging configuration.
    schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", WSGIHandler(), config=config)

    @schema.hook("after_call")
    def close_connections(context: object, case: object, response: object) -> None:
        # The requests run in schemathesis' threads and their WSGI answers are not closed, so
        # Django's request_finished never closes those threads' database connections.
        connections.close_all()

    cases = server_errors = 0
    findings: dict[tuple[str, str, str], Finding] = {}
    errors: list[str] = []
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            cases += len(event.recorder.cases)
            for interaction in event.recorder.interactions.values():
                if interaction.response is not None and interaction.response.status_code >= 500:
                    server_errors += 1
            for case_id, checks in event.recorder.checks.items():
                for check in checks:
                    if check.failure_info is None:
                        continue
                    failure = check.failure_info.failure
                    interaction = event.recorder.interactions.get(case_id)
                    status = (
                        interaction.response.status_code
                        if interaction and interaction.response
                        else None
                    )
                    key = (failure.code, failure.operation or "", failure.title)
                    findings.setdefault(
                        key, Finding(failure.code, failure.operation or "", failure.title,
                                     failure.message, status))  # fmt: skip
        elif isinstance(event, events.NonFatalError):
            errors.append(f"{event.label}: {event.value!r}")
        elif isinstance(event, events.FatalError):
            errors.append(repr(event.exception))
    return Run(cases, server_errors, findings, errors)


@pytest.fixture
def short_connections(monkeypatch: pytest.MonkeyPatch) -> None:
    """schemathesis sends its requests from a thread of its own: close that thread's database
    connection after every request, so none is left open when the test database is dropped."""
    for alias in connections:
        monkeypatch.setitem(connections.settings[alias], "CONN_MAX_AGE", 0)


@pytest.fixture
def quiet_request_log() -> Iterator[None]:
    """Thousands of refused requests: keep Django's per-request warnings out of the output."""
    logger = logging.getLogger("django.request")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


def _headers(persona: str, alice: User, table: Table) -> dict[str, str]:
    # The WSGI transport hands the answer over as it is and does not inflate gzip, which
    # the app sends to a client that accepts it (GZipMiddleware): ask for plain bodies.
    plain = {"Accept-Encoding": "identity"}
    if persona == "captain":
        return {**plain, "Authorization": f"Table {table.captain_token}"}
    if persona == "organizer":
        return {**plain, "Authorization": f"Token {Token.objects.create(user=alice).key}"}
    return plain


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("persona", ["captain", "public", "organizer"])
def test_schemathesis_finds_nothing_but_deliberate_findings(
    persona: str,
    alice: User,
    table: Table,
    quiet_request_log: None,
    short_connections: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    tournament = table.series.tournament
    tournament.is_public = True
    tournament.save(update_fields=["is_public"])
    league, teams, _players = league_with_teams(alice, 4, slug="liga", days=2)
    make_match_days(league, actor=organizer(alice))
    group = Group.objects.filter(match_day__league=league).order_by("pk")[0]
    invitation = invite(tournament.club, "organizer", actor=organizer(alice))
    run = run_schemathesis(
        _headers(persona, alice, table),
        {"league": "liga", "team": teams[0].pk, "group": group.pk,
         "club": tournament.club.slug, "user": alice.username, "invitation": invitation.pk},
    )  # fmt: skip
    assert not run.errors, run.errors
    totals: Counter[str] = Counter(cases=run.cases, server_errors=run.server_errors)
    unexpected: list[str] = []
    for finding in run.findings.values():
        name = finding.deliberate()
        totals[f"deliberate {name}" if name else "failed"] += 1
        if name is None:
            unexpected.append(
                f"{persona}: {finding.code} {finding.operation}: {finding.title} "
                f"(status {finding.status})\n    {finding.message[:300]}"
            )
    with capsys.disabled():
        print(f"\nschemathesis as {persona}:", dict(sorted(totals.items())))
    assert run.cases > 1000
    assert run.server_errors == 0
    assert not unexpected, "\n".join(unexpected)


def test_the_deliberate_findings_are_documented() -> None:
    documented = (ROOT / "docs" / "api.md").read_text()
    for name, *_ in DELIBERATE:
        assert f"`{name}`" in documented, f"deliberate finding {name} is not in docs/api.md"
