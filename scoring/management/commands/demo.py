from django.core.management.base import BaseCommand, CommandError, CommandParser

from common.services import ServiceError
from scoring.demo import build_demo
from tournaments.demo import DEMO_PASSWORD, DEMO_SLUG, DEMO_USER
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Create (or recreate) the demo tournament 'demo' and the organizer 'demo'."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=46)
        parser.add_argument("--series", type=int, default=3)
        parser.add_argument("--seed", type=int, default=2026)
        parser.add_argument(
            "--if-missing", action="store_true", help="do nothing when the demo already exists"
        )

    def handle(self, *args: object, **options: int | bool) -> None:
        if options["if_missing"] and Tournament.objects.filter(slug=DEMO_SLUG).exists():
            self.stdout.write("The demo tournament exists already.")
            return
        players, series = int(options["players"]), int(options["series"])
        if players < 8 or not 1 <= series <= 20:
            raise CommandError("Use at least 8 players and 1 to 20 series.")
        try:
            tournament = build_demo(players=players, series=series, seed=int(options["seed"]))
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo tournament '{tournament.name}' at /turniere/{DEMO_SLUG}/ with "
                f"{players} players and {series} series. Organizer login: "
                f"{DEMO_USER} / {DEMO_PASSWORD}"
            )
        )
