"""``python manage.py print_results <slug> -o results.pdf``: the result report."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from documents import services
from documents.management.commands._common import write
from documents.models import GeneratedDocument
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write the result report (standings and every table's digital score sheet)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's short name")
        parser.add_argument("-o", "--output", required=True, help="PDF file to write")
        parser.add_argument("--language", default="de", choices=["de", "en"])

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tournament = Tournament.objects.get(slug=options["slug"])
        except Tournament.DoesNotExist as exc:
            raise CommandError(f"Not found: {exc}") from exc
        document = services.request_document(
            GeneratedDocument.Kind.RESULTS, tournament, language=options["language"], queue=False
        )
        pages = write(document, options["output"])
        self.stdout.write(f"{options['output']}: {pages} pages")
