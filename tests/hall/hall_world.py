"""A small hall world in the database named by the environment (DATABASE_URL), for the
tests that run the hall server or the backup drill in subprocesses.

    python tests/hall/hall_world.py --tables 4

Migrates, then: Alice (password ``pw-alice-123``) organizes tournament ``halle`` with two
series; series 1 has two tables of four played through (24 games each), submitted,
confirmed and closed (the close sends ``series_closed``: a backup when BACKUP_DIR is set),
with one deduction; series 2 runs with ``--tables`` tables of four, two games at table 1.
Prints JSON: the slug and the captain tokens of series 2, table 1 first.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FORCED = [{"contract": "solo", "solo": "damen", "re": [s], "re_points": 121} for s in (2, 3, 4, 1)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=4)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)

    from common.actors import ORGANIZER, Actor
    from scoring import doors
    from scoring.services.closing import close_series
    from scoring.services.deductions import add_deduction
    from scoring.services.sheet import confirm_sheet, submit_sheet
    from tests.factories import RE_WINS as NORMAL
    from tests.factories import build_world, make_tournament, make_user, play
    from tournaments.models import Table

    alice = make_user("alice")
    organizer = Actor(ORGANIZER, user=alice)
    captain = Actor(doors.CAPTAIN, seat=4, device="phone-4")
    tournament = make_tournament(slug="halle", organizers=[alice])
    first = build_world(tournament, (4, 4))
    for table in first.tables:
        play(table, [NORMAL] * 20 + FORCED, captain)
        fresh = Table.objects.select_related("series__tournament").get(pk=table.pk)
        submit_sheet(fresh, seat=4, expected_version=24, actor=captain)
        fresh = Table.objects.select_related("series__tournament").get(pk=table.pk)
        confirm_sheet(fresh, seat=1, actor=Actor(doors.CAPTAIN, seat=1, device="phone-1"))
    add_deduction(first.series, first.registrations[0], -5, "late", organizer)
    close_series(first.series, actor=organizer)
    second = build_world(tournament, (4,) * args.tables, series=2)
    play(second.tables[0], [NORMAL, NORMAL], captain)
    print(json.dumps({"slug": tournament.slug, "tokens": [t.captain_token for t in second.tables]}))


if __name__ == "__main__":
    main()
