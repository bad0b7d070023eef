import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from common.actors import ORGANIZER, Actor
from common.services import ServiceError
from seasons.ddv.importing import import_ddv_report
from seasons.models import Season


class Command(BaseCommand):
    help = (
        "Import a DDV ranking tournament's report (the JSON file its organizers download) "
        "into a season, as one of the season's owners (docs/ddv-report.md). Importing the "
        "same report again changes nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("season", metavar="SEASON", help="the season's short name")
        parser.add_argument("report", type=Path, help="the report's JSON file")
        parser.add_argument("--user", required=True, help="a keeper of the season (username)")

    def handle(self, *args: object, **options: object) -> None:
        season = Season.objects.filter(slug=str(options["season"])).first()
        if season is None:
            raise CommandError(f"No season with the short name '{options['season']}'.")
        user = get_user_model().objects.filter(username=str(options["user"])).first()
        if user is None:
            raise CommandError(f"No user '{options['user']}'.")
        path = options["report"]
        assert isinstance(path, Path)
        try:
            data = json.loads(path.read_text(encoding="utf-8-sig"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise CommandError(f"{path}: not a readable JSON file ({exc})") from exc
        try:
            outcome = import_ddv_report(season, data, actor=Actor(ORGANIZER, user=user))
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        name = outcome.tournament.name
        if outcome.unchanged:
            self.stdout.write(f"{name}: imported before, nothing changed.")
        else:
            verb = "imported" if outcome.created else "replaced"
            self.stdout.write(
                self.style.SUCCESS(
                    f"{name} {verb} as '{outcome.tournament.slug}' "
                    f"({outcome.new_players} new player(s) in the registry)."
                )
            )
