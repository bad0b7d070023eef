"""``manage.py seating``: print a complete seating plan for players 1..N (no database)."""

from __future__ import annotations

import json
import secrets
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.seating import SeatingError, TournamentPlan, draw_tournament


class Command(BaseCommand):
    help = "Print a seating plan for players numbered 1..N without touching the database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, help="number of players N")
        parser.add_argument("--series", type=int, required=True, help="number of series R")
        parser.add_argument("--seed", type=int, help="seed (random when left out; printed)")
        parser.add_argument("--format", choices=["json", "text"], default="json")

    def handle(self, *args: Any, **options: Any) -> None:
        seed = options["seed"] if options["seed"] is not None else secrets.randbelow(2**31)
        try:
            plan = draw_tournament(options["players"], options["series"], seed)
        except SeatingError as exc:
            raise CommandError(exc.message) from exc
        if options["format"] == "json":
            self.stdout.write(json.dumps(plan.to_dict()))
        else:
            self.stdout.write(render_text(plan))


def render_text(plan: TournamentPlan) -> str:
    lines = [f"Seed {plan.seed}, algorithm version {plan.version}, repeats {plan.repeats}"]
    for series in plan.series:
        lines.append("")
        lines.append(f"Series {series.series} (repeats {series.repeats})")
        for number, table in enumerate(series.tables, start=1):
            seats = "  ".join(f"{player:>3}" for player in table)
            lines.append(f"  Table {number:>3}: {seats}")
    return "\n".join(lines)
