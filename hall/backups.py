"""Backups of the whole database, and bringing one back.

A backup is one file in a folder of the director's choice, named by the time it was made
(UTC), so that the newest sorts last: ``doko-2026-11-27_081502.sqlite3`` made by SQLite's
online backup API (a consistent copy while the hall keeps writing), or
``doko-2026-11-27_081502.pgdump`` made by ``pg_dump --format=custom`` (one snapshot). It is
written under a temporary name and renamed when complete, so a backup that is interrupted
leaves no file that looks whole. The newest ``keep`` are kept, older ones deleted.

One backup at a time per folder: a lock file in it (``flock``) is taken without waiting; a
backup that finds it taken is skipped (the one running is as new). The web processes (after
a closed series) and the hall's timer share the folder, so they never write at once.

Restoring refuses a database that holds data (anything beyond what ``migrate`` writes)
unless forced, then migrates the restored data forward to this code's schema.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import logging
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import connections

logger = logging.getLogger(__name__)

PREFIX = "doko-"
SUFFIXES = (".sqlite3", ".pgdump")
LOCK_NAME = ".backup.lock"
#: Tables that ``migrate`` fills by itself: a database with rows only there is empty.
MIGRATE_TABLES = frozenset({"django_migrations", "django_content_type", "auth_permission"})


class BackupError(Exception):
    """A backup or a restore could not be made; the message says why, in words."""


@dataclass(frozen=True)
class Backup:
    path: Path
    kept: int  # backups in the folder after pruning
    deleted: tuple[Path, ...]


def engine(using: str = "default") -> str:
    vendor = connections[using].vendor
    if vendor not in ("sqlite", "postgresql"):
        raise BackupError(f"Backups support SQLite and PostgreSQL, not {vendor}.")
    return vendor


@contextlib.contextmanager
def folder_lock(directory: Path) -> Iterator[bool]:
    """True while this process holds the folder's backup lock; False when another
    backup holds it (nothing waits)."""
    directory.mkdir(parents=True, exist_ok=True)
    with (directory / LOCK_NAME).open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def backups(directory: Path) -> list[Path]:
    """The backups in ``directory``, oldest first."""
    if not directory.is_dir():
        return []
    return sorted(
        p
        for p in directory.iterdir()
        if p.is_file() and p.name.startswith(PREFIX) and p.suffix in SUFFIXES
    )


def _target(directory: Path, suffix: str, now: datetime.datetime) -> Path:
    stem = PREFIX + now.strftime("%Y-%m-%d_%H%M%S")
    path = directory / f"{stem}{suffix}"
    number = 1
    while path.exists():  # two backups in one second: the later one sorts after
        path = directory / f"{stem}_{number:02d}{suffix}"
        number += 1
    return path


def make_backup(
    directory: Path, keep: int, *, using: str = "default", now: datetime.datetime | None = None
) -> Backup | None:
    """Write a backup of the database ``using`` into ``directory`` and keep the newest
    ``keep``. None when another backup into the same folder is running."""
    vendor = engine(using)
    moment = now or datetime.datetime.now(tz=datetime.UTC)
    with folder_lock(directory) as locked:
        if not locked:
            return None
        target = _target(directory, ".sqlite3" if vendor == "sqlite" else ".pgdump", moment)
        partial = target.with_name(f".{target.name}.partial")
        try:
            if vendor == "sqlite":
                _sqlite_backup(using, partial)
            else:
                _pg_dump(connections[using].settings_dict, partial)
            with partial.open("rb") as written:
                os.fsync(written.fileno())
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)
        everything = backups(directory)
        old = tuple(everything[:-keep]) if len(everything) > keep else ()
        for path in old:
            path.unlink(missing_ok=True)
        return Backup(target, len(everything) - len(old), old)


def _sqlite_backup(using: str, partial: Path) -> None:
    connection = connections[using]
    if connection.in_atomic_block:
        # SQLite refuses to copy from a connection in the middle of its own write (IMMEDIATE
        # makes every transaction one), and Python's backup would wait for it forever.
        raise BackupError("A backup of SQLite runs outside of a transaction only.")
    connection.ensure_connection()
    source = connection.connection
    destination = sqlite3.connect(partial)
    try:
        # Copies every page in one step: a consistent snapshot, even while others write.
        source.backup(destination)
        destination.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
    finally:
        destination.close()


def _pg_environment(settings_dict: Mapping[str, object]) -> dict[str, str]:
    env = dict(os.environ)
    for key, name in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER"),
                      ("PASSWORD", "PGPASSWORD"), ("NAME", "PGDATABASE")):  # fmt: skip
        value = settings_dict.get(key)
        if value:
            env[name] = str(value)
    return env


def _pg_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise BackupError(f"{name} is not installed (Debian: apt install postgresql-client).")
    return path


def _run(command: list[str], env: dict[str, str]) -> None:
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=3600)
    if result.returncode != 0:
        raise BackupError(result.stderr.strip() or f"{command[0]} exited {result.returncode}")


def _pg_dump(settings_dict: Mapping[str, object], partial: Path) -> None:
    _run([_pg_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges",
          f"--file={partial}"], _pg_environment(settings_dict))  # fmt: skip


# --- restore ----------------------------------------------------------------------------


def data_tables(using: str = "default") -> list[str]:
    """The tables of ``using`` that hold rows beyond what ``migrate`` writes."""
    connection = connections[using]
    names = connection.introspection.table_names()
    full = []
    with connection.cursor() as cursor:
        for name in names:
            if name in MIGRATE_TABLES:
                continue
            cursor.execute(f"SELECT 1 FROM {connection.ops.quote_name(name)} LIMIT 1")
            if cursor.fetchone() is not None:
                full.append(name)
    return full


def restore_backup(path: Path, *, force: bool = False, using: str = "default") -> None:
    """Bring back the backup ``path`` into the database ``using``. Refuses a database with
    data unless ``force``. The caller migrates afterwards."""
    vendor = engine(using)
    if not path.is_file():
        raise BackupError(f"No backup at {path}.")
    expected = ".sqlite3" if vendor == "sqlite" else ".pgdump"
    if path.suffix != expected:
        raise BackupError(
            f"{path.name} is not a backup of this kind of database ({expected} expected)."
        )
    full = data_tables(using)
    if full and not force:
        tables = ", ".join(full[:5]) + (", …" if len(full) > 5 else "")
        raise BackupError(
            f"The database is not empty ({tables}); --force replaces it with the backup."
        )
    if vendor == "sqlite":
        _sqlite_restore(path, using)
    else:
        _pg_restore(path, using)


def _sqlite_restore(path: Path, using: str) -> None:
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        check = source.execute("PRAGMA quick_check").fetchone()
    except sqlite3.DatabaseError as error:
        source.close()
        raise BackupError(f"{path.name} is not a readable SQLite backup.") from error
    try:
        if check is None or check[0] != "ok":
            raise BackupError(f"{path.name} is damaged.")
        connection = connections[using]
        connection.ensure_connection()
        # The backup API in reverse: the live database's pages replaced in one step.
        source.backup(connection.connection)
    finally:
        source.close()
    connections[using].close()


def _pg_restore(path: Path, using: str) -> None:
    connection = connections[using]
    has_tables = bool(connection.introspection.table_names())
    connection.close()
    command = [_pg_tool("pg_restore"), "--no-owner", "--no-privileges", "--exit-on-error",
               "--single-transaction"]  # fmt: skip
    if has_tables:
        command += ["--clean", "--if-exists"]
    env = _pg_environment(connection.settings_dict)
    _run([*command, f"--dbname={env.get('PGDATABASE', '')}", str(path)], env)


# --- the automatic backups --------------------------------------------------------------


def configured_folder() -> Path | None:
    folder: str | None = settings.BACKUP_DIR
    return Path(folder) if folder else None


def backup_after_close(sender: object, **kwargs: object) -> None:
    """Receiver of ``scoring.signals.series_closed``: a backup when a folder is configured.
    The close is committed already; a failed backup is logged and never undoes it."""
    folder = configured_folder()
    if folder is None:
        return
    try:
        made = make_backup(folder, settings.BACKUP_KEEP)
    except Exception:
        logger.exception("The backup after closing series %s failed.", kwargs.get("series_id"))
        return
    if made is not None:
        logger.info("Backup after closing series %s: %s", kwargs.get("series_id"), made.path)


def backup_while_running(folder: Path, keep: int) -> Backup | None:
    """The timer's backup: only while a series runs (nothing changes otherwise)."""
    from tournaments.models import Series

    try:
        if not Series.objects.filter(status=Series.Status.RUNNING).exists():
            return None
        return make_backup(folder, keep)
    finally:
        connections.close_all()
