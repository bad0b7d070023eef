import logging
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from types import FrameType

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, connections

from hall.backups import backup_while_running, make_backup
from hall.kit import (
    SERVE_MARK,
    HallError,
    HallPlan,
    default_workers,
    ensure_certificate,
    ensure_secret_key,
    gunicorn_command,
    hall_environment,
    phone_address,
    print_address,
    static_sources_digest,
)

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = (
        "Serve Doko-Turnier for real on the local network: migrate, collect the static "
        "files, run gunicorn with DEBUG off, print the address as text and QR code, back up "
        "after every closed series and every 15 minutes while a series runs. Ctrl-C stops."
    )
    requires_system_checks = []  # checked in hall mode, after the step that sets it up

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="0.0.0.0", help="listen address (0.0.0.0)")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--https", action="store_true", help="TLS with a self-signed certificate"
        )
        parser.add_argument("--workers", type=int, default=default_workers())
        parser.add_argument("--threads", type=int, default=4, help="threads per worker")
        parser.add_argument(
            "--data-dir", default=str(settings.BASE_DIR / "var" / "hall"),
            help="secret key and certificate (var/hall)",
        )  # fmt: skip
        backups = settings.BACKUP_DIR or str(settings.BASE_DIR / "var" / "backups")
        parser.add_argument(
            "--backup-dir", default=backups, help="where backups go (BACKUP_DIR, else var/backups)"
        )
        parser.add_argument("--keep", type=int, default=settings.BACKUP_KEEP)
        parser.add_argument(
            "--no-input", action="store_false", dest="interactive",
            help="ask nothing (no prompt for a first organizer account)",
        )  # fmt: skip

    def handle(self, *args: object, **options: object) -> None:
        plan = self._plan(options)
        if os.environ.get(SERVE_MARK) != "1":
            self._prepare_and_restart(plan, bool(options["interactive"]))
        if settings.DEBUG or not settings.HALL_MODE:
            raise CommandError("The hall step runs with HALL_MODE=1 and DEBUG=0 only.")
        self._serve(plan, bool(options["interactive"]))

    def _plan(self, options: dict[str, object]) -> HallPlan:
        numbers = {name: options[name] for name in ("port", "workers", "threads", "keep")}
        if not all(isinstance(n, int) and n > 0 for n in numbers.values()):
            raise CommandError("--port, --workers, --threads and --keep must be positive.")
        bind = str(options["host"])
        return HallPlan(
            bind=bind,
            port=int(str(options["port"])),
            address=phone_address(bind),
            https=bool(options["https"]),
            workers=int(str(options["workers"])),
            threads=int(str(options["threads"])),
            data_dir=Path(str(options["data_dir"])).resolve(),
            backup_dir=Path(str(options["backup_dir"])).resolve(),
            keep=int(str(options["keep"])),
        )

    def _prepare_and_restart(self, plan: HallPlan, interactive: bool) -> None:
        """Secret key, certificate, environment; then this command again in hall mode."""
        try:
            key = ensure_secret_key(plan.secret_file)
            if plan.https:
                ensure_certificate(plan)
        except (HallError, OSError) as error:
            raise CommandError(str(error)) from error
        env = hall_environment(plan, key, os.environ)
        argv = [sys.executable, str(settings.BASE_DIR / "manage.py"), "hall",
                "--host", plan.bind, "--port", str(plan.port),
                "--workers", str(plan.workers), "--threads", str(plan.threads),
                "--data-dir", str(plan.data_dir), "--backup-dir", str(plan.backup_dir),
                "--keep", str(plan.keep)]  # fmt: skip
        if plan.https:
            argv.append("--https")
        if not interactive:
            argv.append("--no-input")
        sys.stdout.flush()
        sys.stderr.flush()
        os.execve(sys.executable, argv, env)

    def _serve(self, plan: HallPlan, interactive: bool) -> None:
        self.stdout.write("Checking the configuration, migrating, collecting static files…")
        call_command("check", deploy=True, fail_level="ERROR")
        call_command("migrate", interactive=False, verbosity=0)
        self._collect_static()
        if connection.vendor == "sqlite":
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA journal_mode")
                mode = cursor.fetchone()
            self.stdout.write(f"SQLite database {settings.DATABASES['default']['NAME']} "
                              f"(journal mode {mode[0] if mode else '?'}).")  # fmt: skip
        self._first_account(interactive)
        connections.close_all()  # gunicorn's workers open their own

        server = subprocess.Popen(gunicorn_command(plan), cwd=settings.BASE_DIR,
                                  start_new_session=True)  # fmt: skip
        stopping = threading.Event()

        def stop(signum: int, frame: FrameType | None) -> None:
            stopping.set()
            if server.poll() is None:
                server.send_signal(signal.SIGTERM)  # graceful: requests in progress finish

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        timer = threading.Thread(target=self._timer, args=(plan, stopping), daemon=True)
        timer.start()
        print_address(plan, sys.stdout)
        code = server.wait()
        stopping.set()
        timer.join(timeout=60)
        try:
            made = make_backup(plan.backup_dir, plan.keep)
        except Exception as error:
            self.stderr.write(f"The last backup failed: {error}")
        else:
            if made is not None:
                self.stdout.write(f"Last backup: {made.path}")
        self.stdout.write("The hall server has stopped.")
        if code not in (0, -signal.SIGTERM):
            raise CommandError(f"gunicorn ended with status {code}.")

    def _collect_static(self) -> None:
        """collectstatic when a static source changed since the last run."""
        root = Path(settings.STATIC_ROOT)
        stamp = root / ".hall-sources"
        digest = static_sources_digest()
        if (root / "staticfiles.json").exists() and stamp.exists() and stamp.read_text() == digest:
            return
        call_command("collectstatic", interactive=False, verbosity=0)
        stamp.write_text(digest)

    def _timer(self, plan: HallPlan, stopping: threading.Event) -> None:
        """A backup every BACKUP_INTERVAL_MINUTES while a series runs; the only timer, and
        the folder's lock keeps it apart from the backups after a closed series."""
        while not stopping.wait(settings.BACKUP_INTERVAL_MINUTES * 60):
            try:
                made = backup_while_running(plan.backup_dir, plan.keep)
            except Exception:
                logger.exception("The timed backup failed.")
                continue
            if made is not None:
                self.stdout.write(f"Backup: {made.path}")

    def _first_account(self, interactive: bool) -> None:
        if get_user_model().objects.exists():
            return
        if interactive and sys.stdin.isatty():
            self.stdout.write("No account yet: create the organizer's login.")
            call_command("createsuperuser")
        else:
            self.stdout.write(
                "No account yet: create one with `manage.py createsuperuser` (with the same "
                "DATABASE_URL), then log in as the organizer."
            )
