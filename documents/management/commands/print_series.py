"""``python manage.py print_series <slug> <series> -o pack.pdf``: the print pack of a series."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from documents import services
from documents.management.commands._common import write
from documents.models import GeneratedDocument
from tournaments.models import Series, Tournament


class Command(BaseCommand):
    help = "Write the print pack (seating list, table cards, score sheets) of a series."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's short name")
        parser.add_argument("series", type=int, help="the series number")
        parser.add_argument("-o", "--output", required=True, help="PDF file to write")
        parser.add_argument("--language", default="de", choices=["de", "en"])

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tournament = Tournament.objects.get(slug=options["slug"])
            series = Series.objects.get(tournament=tournament, number=options["series"])
        except (Tournament.DoesNotExist, Series.DoesNotExist) as exc:
            raise CommandError(f"Not found: {exc}") from exc
        document = services.request_document(
            GeneratedDocument.Kind.PRINT_PACK,
            tournament,
            series,
            language=options["language"],
            queue=False,
        )
        pages = write(document, options["output"])
        self.stdout.write(f"{options['output']}: {pages} pages")
