"""The organizer's progress board: per table games entered, open findings, sheet state."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from rules.series import Severity
from scoring.models import Game, ScoreSheet
from scoring.rulesets import ruleset_for
from scoring.services.sheet import review
from tournaments.models import Series


def series_progress(series: Series) -> dict[str, Any]:
    """Three queries whatever the number of tables: tables with seats, sheets, games."""
    ruleset = ruleset_for(series.tournament)
    tables = list(series.tables.prefetch_related("seats__registration__player"))
    sheets = {s.table_id: s for s in ScoreSheet.objects.filter(table__series=series)}
    records: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for game in (
        Game.objects.filter(series=series)
        .order_by("table_id", "number")
        .only("table_id", "record", "dealer")
    ):
        records[game.table_id].append({**game.record, "dealer": game.dealer})
    rows = []
    for table in tables:
        seats = list(table.seats.all())
        size = len(seats)
        # Tables without an entry yet have no sheet row: an unsaved one stands in.
        sheet = sheets.get(table.pk) or ScoreSheet(table=table, mode=series.tournament.entry_mode)
        nxt, findings = review(table, sheet, records.get(table.pk, []), size)
        rows.append(
            {
                "table": table,
                "players": [s.registration.player for s in seats],
                "entered": nxt["games_played"],
                "expected": ruleset.total_games(size),
                "finished": nxt["finished"],
                "errors": [f for f in findings if f["severity"] == Severity.ERROR.value],
                "warnings": [f for f in findings if f["severity"] == Severity.WARNING.value],
                "status": ScoreSheet.Status(sheet.status).label,
                "confirmed": sheet.status == ScoreSheet.Status.CONFIRMED,
                "closed_unconfirmed": sheet.closed_unconfirmed,
                "timeout": sheet.timeout,
                "last_activity": sheet.last_activity,
            }
        )
    return {
        "rows": rows,
        "entered": sum(r["entered"] for r in rows),
        "expected": sum(r["expected"] for r in rows),
        "confirmed": sum(1 for r in rows if r["confirmed"]),
    }
