from django.core.management.base import BaseCommand, CommandError, CommandParser

from seasons.entries import refresh_season_entries
from seasons.models import Season


class Command(BaseCommand):
    help = (
        "Compute the stored ranking (the players' lines their pages show) of every season "
        "again, or of one with --season."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--season", metavar="SLUG", help="only this season")

    def handle(self, *args: object, **options: object) -> None:
        seasons = Season.objects.order_by("pk")
        if options["season"]:
            slug = str(options["season"])
            seasons = seasons.filter(slug=slug)
            if not seasons.exists():
                raise CommandError(f"No season with the short name '{slug}'.")
        for season in seasons:
            refresh_season_entries(season)
            lines = season.entries.count()
            self.stdout.write(f"{season.slug}: {lines} line(s)")
        self.stdout.write(self.style.SUCCESS("Stored rankings refreshed."))
