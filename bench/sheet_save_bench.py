"""A game saved on the captain page: the server's cost of what the phone needs next, in-process.

Each table of a throwaway test database (PostgreSQL when DATABASE_URL points there, else
SQLite) gets a full series of 24 games, entered through Django's test client the way a phone
does it, one of these ways per table, the ways interleaved game by game:

- ``page``: the page's script (the outbox, online, nothing waiting) posts the game to the sync
  endpoint asking for the page's main part in the answer (``X-Outbox-Page: main``), one
  request (checked: the answer has ``page_html``), naming the parts it keeps a copy of
  (``X-Sheet-Parts``) as js/sheet.js does: those of the page it shows, first the page loaded
  once before the series (not timed), then each answer's;
- ``htmx``: the page's form through htmx (``HX-Request``), one request;
- ``reload``: the post, then the page loaded again (the sync endpoint's answer and a GET, as
  the outbox did before the answer brought the page; without JavaScript the form's POST, the
  redirect and the GET cost the same);
- ``api``: ``POST /api/v1/.../games/`` with the table's token (the baseline of the same run).

The forms are posted URL-encoded, as the page's scripts send them.

Prints, per way, the median and p90 of the process CPU time per game (the client's share is
small and the same for all) and the ratios against ``api`` and ``reload``; ``--profile WAY``
also profiles that way's saves (cProfile by CPU time). It is not a test.

Run it as the deploy runs (``DEBUG`` off: no SQL logged, templates without their debug
information): ``DEBUG=0 SECRET_KEY=… ALLOWED_HOSTS=testserver SECURE_SSL_REDIRECT=0
STATIC_ROOT=<after collectstatic>``; with ``DEBUG`` on it measures the development server.

    .venv/bin/python bench/sheet_save_bench.py --tables 4
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import re
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._django import setup, test_database

WAYS = ("page", "htmx", "reload", "api")
#: How the page's scripts post a form (``URLSearchParams``).
FORM = "application/x-www-form-urlencoded"
SOLO = {"contract": "solo", "solo": "damen", "re_points": "121"}
#: A part the page shows, whole (``data-keep="…"``) or as the phone's copy (``data-kept``).
SHOWN_PART = re.compile(r'data-ke(?:ep|pt)="([0-9a-f]{12})"')


def shown_parts(html: str) -> str:
    """``X-Sheet-Parts`` of a phone showing ``html`` (js/sheet.js ``parts()``)."""
    return ",".join(dict.fromkeys(SHOWN_PART.findall(html)))


def facts_for(nxt: dict[str, Any], number: int) -> dict[str, Any]:
    """The next game's form fields: the forced or a compulsory solo when due, else normal."""
    soloist = nxt.get("forced") or (
        number % 6 == 0 and (nxt.get("compulsory_allowed") or [None])[0]
    )
    if soloist:
        return {**SOLO, "soloist": str(soloist)}
    seats = [s for s in range(1, 5)]
    pair = [seats[number % 4], seats[(number + 1) % 4]]
    return {"contract": "normal", "re_players": [str(s) for s in pair], "re_points": "130"}


def api_body(fields: dict[str, Any]) -> dict[str, Any]:
    if fields["contract"] == "solo":
        return {
            "contract": "solo",
            "solo": "damen",
            "re": [int(fields["soloist"])],
            "re_points": 121,
        }
    return {"contract": "normal", "re": [int(s) for s in fields["re_players"]], "re_points": 130}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=4, help="tables per way (4)")
    parser.add_argument(
        "--ways",
        default=",".join(WAYS),
        help="some of page,htmx,reload,api (an older tree: reload,api)",
    )
    parser.add_argument(
        "--profile",
        choices=WAYS,
        help="also profile this way's saves (cProfile, CPU time) and print the top functions",
    )
    parser.add_argument(
        "--profile-file", help="also write the profile there (pstats), to read it at leisure"
    )
    parser.add_argument(
        "--clock",
        action="store_true",
        help="the series started at the referee's signal: every page shows the table's clock",
    )
    args = parser.parse_args()
    ways = [w for w in WAYS if w in args.ways.split(",")]
    profile = cProfile.Profile(time.process_time) if args.profile else None
    setup()
    from django.test import Client

    from scoring.services.entry import current_sheet, sheet_state
    from tests.factories import make_tournament, running_table
    from tournaments.models import Table

    with test_database():
        tournament = make_tournament(slug="bench")
        tables = {
            way: [running_table(tournament, number=10 * i + n) for n in range(args.tables)]
            for i, way in enumerate(ways)
        }
        if args.clock:
            from django.utils import timezone

            tournament.series.filter(number=1).update(starts_at=timezone.now())
        client = Client()
        client.get("/")  # warm: URL resolvers, templates, translations
        cpu: dict[str, list[float]] = {way: [] for way in ways}
        # What each phone on the page way shows: the page as loaded, then each answer's.
        shown = {
            table.pk: shown_parts(client.get(f"/tisch/{table.captain_token}/").content.decode())
            for table in tables.get("page", [])
        }

        def state(table: Table) -> dict[str, Any]:
            fresh = Table.objects.select_related("series__tournament").get(pk=table.pk)
            return sheet_state(fresh, current_sheet(fresh))

        def save(way: str, table: Table, number: int) -> Callable[[], None]:
            now = state(table)
            fields = facts_for(now["next"], number)
            base = f"/tisch/{table.captain_token}/"
            version, key = str(now["version"]), uuid.uuid4().hex

            def run() -> None:
                if way == "api":
                    url = f"/api/v1/tournaments/bench/series/1/tables/{table.number}/games/"
                    answer = client.post(
                        url, api_body(fields), content_type="application/json",
                        HTTP_AUTHORIZATION=f"Table {table.captain_token}",
                        HTTP_IDEMPOTENCY_KEY=key, HTTP_IF_MATCH=f'"{version}"',
                    )  # fmt: skip
                    assert answer.status_code == 201, answer.content[:300]
                    return
                form = {**fields, "version": version, "idempotency_key": key}
                if way == "htmx":
                    answer = client.post(
                        f"{base}spiel/", urlencode(form, doseq=True), content_type=FORM,
                        HTTP_HX_REQUEST="true",
                    )  # fmt: skip
                    assert answer.status_code == 200 and b"sheet-rows" in answer.content
                    return
                form["number"] = str(number)
                headers = {}
                if way == "page":
                    headers = {"X-Outbox-Page": "main", "X-Sheet-Parts": shown[table.pk]}
                answer = client.post(
                    f"{base}ausgang/", urlencode(form, doseq=True), content_type=FORM,
                    headers=headers,
                )  # fmt: skip
                assert answer.status_code == 201, answer.content[:300]
                if way == "page":
                    assert "page_html" in answer.json(), "this tree answers no page"
                    shown[table.pk] = shown_parts(answer.json()["page_html"])
                else:
                    assert client.get(base).status_code == 200

            return run

        for number in range(1, 25):
            for n in range(args.tables):
                for way in ways:
                    run = save(way, tables[way][n], number)
                    profiled = profile if way == args.profile else None
                    started = time.process_time()
                    if profiled is not None:
                        profiled.enable()
                    run()
                    if profiled is not None:
                        profiled.disable()
                    cpu[way].append((time.process_time() - started) * 1000)
        median = {way: statistics.median(cpu[way]) for way in ways}
        print(f"games per way: {24 * args.tables} ({args.tables} tables x 24)")
        print("way     median ms  p90 ms   x api   x reload")
        for way in ways:
            p90 = statistics.quantiles(cpu[way], n=10)[-1]
            print(
                f"{way:7} {median[way]:9.2f} {p90:7.2f}"
                f" {median[way] / median.get('api', float('nan')):7.2f}"
                f" {median[way] / median.get('reload', float('nan')):9.2f}"
            )
        if profile is not None:  # its figures are cProfile's, not the medians above
            print(f"\nprofile of {args.profile} (cProfile, CPU time):")
            pstats.Stats(profile).sort_stats("cumulative").print_stats(60)
            if args.profile_file:
                profile.dump_stats(args.profile_file)


if __name__ == "__main__":
    main()
