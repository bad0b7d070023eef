from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from hall.backups import BackupError, configured_folder, make_backup


class Command(BaseCommand):
    help = (
        "Write a consistent, timestamped copy of the whole database into a folder (SQLite's "
        "online backup, pg_dump for PostgreSQL) and keep the newest N."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dir", metavar="DIR", help="the folder (default: BACKUP_DIR)")
        parser.add_argument(
            "--keep", type=int, metavar="N", help="backups to keep (default: BACKUP_KEEP)"
        )

    def handle(self, *args: object, **options: object) -> None:
        folder = Path(str(options["dir"])) if options["dir"] else configured_folder()
        if folder is None:
            raise CommandError("Name the folder: --dir DIR (or set BACKUP_DIR).")
        keep = options["keep"] if isinstance(options["keep"], int) else settings.BACKUP_KEEP
        if keep < 1:
            raise CommandError("--keep must be at least 1.")
        try:
            made = make_backup(folder, keep)
        except (BackupError, OSError) as error:
            raise CommandError(f"No backup: {error}") from error
        if made is None:
            raise CommandError(f"Another backup into {folder} is running; try again.")
        self.stdout.write(self.style.SUCCESS(f"Backup written: {made.path}"))
        for old in made.deleted:
            self.stdout.write(f"Deleted the older backup {old.name} (keeping {keep}).")
