from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.services.series_totals import check_totals
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Compare every player's series totals with a fresh sum of his score rows and list "
        "each difference; --fix recomputes the differing totals."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--fix", action="store_true", help="repair the differing totals")
        parser.add_argument("--tournament", metavar="SLUG", help="only this tournament")

    def handle(self, *args: object, **options: object) -> None:
        tournament = None
        if options["tournament"]:
            slug = str(options["tournament"])
            tournament = Tournament.objects.filter(slug=slug).first()
            if tournament is None:
                raise CommandError(f"No tournament with the short name '{slug}'.")
        fix = bool(options["fix"])
        found = check_totals(tournament, fix=fix)
        named = Tournament.objects.filter(pk__in={d.tournament_id for d in found})
        slugs = dict(named.values_list("pk", "slug"))
        for difference in found:
            self.stdout.write(f"{slugs.get(difference.tournament_id)}: {difference.describe()}")
        if not found:
            self.stdout.write(self.style.SUCCESS("All totals match their score rows."))
        elif fix:
            self.stdout.write(self.style.SUCCESS(f"Repaired {len(found)} total(s)."))
        else:
            raise CommandError(f"{len(found)} total(s) differ from their score rows; use --fix.")
