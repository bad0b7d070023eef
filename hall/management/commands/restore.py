from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from hall.backups import BackupError, restore_backup


class Command(BaseCommand):
    help = (
        "Bring back a backup made by `backup` into this database, then migrate it to this "
        "code's schema. Refuses a database that holds data unless --force. Stop the server "
        "first."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup (.sqlite3 or .pgdump)")
        parser.add_argument(
            "--force", action="store_true", help="replace a database that holds data"
        )

    def handle(self, *args: object, **options: object) -> None:
        path = Path(str(options["file"]))
        try:
            restore_backup(path, force=bool(options["force"]))
        except (BackupError, OSError) as error:
            raise CommandError(f"Not restored: {error}") from error
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write(self.style.SUCCESS(f"Restored {path.name}; the database is migrated."))
