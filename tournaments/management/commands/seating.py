"""``manage.py seating``: print a complete seating plan for players 1..N (no database)."""

from __future__ import annotations

import json
import secrets
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.seating import (
    SeatingError,
    SeatingOptions,
    SeatingPlayer,
    TournamentPlan,
    draw_plan,
    draw_tournament,
)


def parse_pairs(text: str) -> tuple[tuple[int, int], ...]:
    """``"1-2,5-9"`` → ((1, 2), (5, 9))."""
    pairs = []
    for item in text.split(","):
        if not item.strip():
            continue
        first, sep, second = item.partition("-")
        if not sep:
            raise CommandError(f"A pair is two start numbers with a dash, not {item!r}.")
        try:
            pairs.append((int(first), int(second)))
        except ValueError as exc:
            raise CommandError(f"A pair is two start numbers with a dash, not {item!r}.") from exc
    return tuple(pairs)


class Command(BaseCommand):
    help = "Print a seating plan for players numbered 1..N without touching the database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, help="number of players N")
        parser.add_argument("--series", type=int, required=True, help="number of series R")
        parser.add_argument("--seed", type=int, help="seed (random when left out; printed)")
        parser.add_argument("--format", choices=["json", "text"], default="json")
        parser.add_argument(
            "--keep-apart",
            default="",
            help="pairs who must not share a table, e.g. 1-2,5-9 (adds 'unhonoured' to JSON)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        seed = options["seed"] if options["seed"] is not None else secrets.randbelow(2**31)
        pairs = parse_pairs(options["keep_apart"])
        try:
            if pairs:
                players = [SeatingPlayer(id=i) for i in range(1, options["players"] + 1)]
                plan = draw_plan(
                    players, options["series"], SeatingOptions(seed=seed, keep_apart=pairs)
                )
            else:
                plan = draw_tournament(options["players"], options["series"], seed)
        except SeatingError as exc:
            raise CommandError(exc.message) from exc
        if options["format"] == "json":
            self.stdout.write(json.dumps(plan.to_dict(with_pairs=bool(pairs))))
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
        for entry in series.unhonoured:
            lines.append(f"  Not kept apart: {entry.pair[0]}-{entry.pair[1]} ({entry.reason})")
    return "\n".join(lines)
