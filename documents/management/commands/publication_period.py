"""``python manage.py publication_period [--dry-run]``: what the clubs' publication periods
hide (DSGVO): every tournament whose public pages show its players anonymized, and its
stored documents deleted (the nightly task does the same)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from documents.forgetting import forget_expired_documents
from tournaments.models import Tournament
from tournaments.publication import expired_tournaments, retention_ends


class Command(BaseCommand):
    help = (
        "List the tournaments whose names the publication period hides; "
        "delete their stored documents."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="only list, delete no stored document"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        found: list[tuple[Tournament, int | None]]
        if options["dry_run"]:
            found = [(t, None) for t in expired_tournaments()]
        else:
            found = [(t, n) for t, n in forget_expired_documents()]
        for tournament, deleted in found:
            ends = retention_ends(tournament)
            line = f"{tournament.slug}: {tournament.name}, anonymized since {ends}"
            if deleted is not None:
                line += f", {deleted} stored documents deleted"
            self.stdout.write(line)
        self.stdout.write(f"{len(found)} tournaments anonymized")
