"""Backups: one at a time per folder, the newest N kept, one after every closed series that
never fails the close; restore refuses a database with data; and the drill on a fresh
database (SQLite always, PostgreSQL when DATABASE_URL names it): standings, games and the
change log identical after backup and restore."""

from __future__ import annotations

import datetime
import json
import os
import secrets
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.test import override_settings

from common.actors import ORGANIZER, Actor
from hall import backups
from hall.backups import BackupError, folder_lock, make_backup, restore_backup
from scoring.models import Game
from scoring.services.closing import close_series
from tests.factories import RE_WINS as NORMAL
from tests.factories import build_world, make_tournament, play

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def own_tmp() -> Iterator[Path]:
    """A directory of this test's own: pytest's tmp_path lives under a base that other
    pytest runs on the machine prune while a long test still uses it."""
    with tempfile.TemporaryDirectory(prefix="doko-hall-test-") as path:
        yield Path(path)


MOMENT = datetime.datetime(2026, 11, 28, 10, 0, tzinfo=datetime.UTC)


# A backup copies committed data from outside of a transaction: these tests commit.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def played(alice: User):
    """Alice's series 1 running, one table with two games."""
    world = build_world(make_tournament(slug="bk", organizers=[alice]), (4,))
    play(world.tables[0], [NORMAL, NORMAL])
    return world


def sqlite_only() -> None:
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("the in-process backups read SQLite; PostgreSQL has the drill below")


def test_backup_is_a_consistent_copy_and_only_the_newest_are_kept(played, tmp_path: Path) -> None:
    sqlite_only()
    made = [
        make_backup(tmp_path, 2, now=MOMENT + datetime.timedelta(minutes=m)) for m in (0, 15, 30)
    ]
    assert all(m is not None for m in made)
    names = [p.name for p in backups.backups(tmp_path)]
    assert names == ["doko-2026-11-28_101500.sqlite3", "doko-2026-11-28_103000.sqlite3"]
    assert made[2] is not None and made[2].deleted == (tmp_path / "doko-2026-11-28_100000.sqlite3",)
    with sqlite3.connect(tmp_path / names[-1]) as copy:
        assert copy.execute("SELECT count(*) FROM scoring_game").fetchone() == (2,)
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert not list(tmp_path.glob(".*.partial"))


def test_two_backups_in_one_second_both_kept(played, tmp_path: Path) -> None:
    sqlite_only()
    make_backup(tmp_path, 5, now=MOMENT)
    make_backup(tmp_path, 5, now=MOMENT)
    assert [p.name for p in backups.backups(tmp_path)] == [
        "doko-2026-11-28_100000.sqlite3",
        "doko-2026-11-28_100000_01.sqlite3",
    ]


def test_a_backup_never_runs_twice_at_once(played, tmp_path: Path) -> None:
    sqlite_only()
    with folder_lock(tmp_path) as held:
        assert held
        assert make_backup(tmp_path, 5) is None  # another one is running: skipped
        with pytest.raises(CommandError, match="Another backup"):
            call_command("backup", dir=str(tmp_path))
    assert make_backup(tmp_path, 5) is not None


def test_backup_command_needs_a_folder(played) -> None:
    with override_settings(BACKUP_DIR=None), pytest.raises(CommandError, match="--dir"):
        call_command("backup")


def test_a_closed_series_is_backed_up_after_its_commit(alice: User, tmp_path: Path) -> None:
    sqlite_only()
    world = build_world(make_tournament(slug="bk", organizers=[alice]), (4,))
    with override_settings(BACKUP_DIR=str(tmp_path), BACKUP_KEEP=3):
        close_series(world.series, actor=Actor(ORGANIZER, user=alice), past_unfinished=True)
    [made] = backups.backups(tmp_path)
    with sqlite3.connect(made) as copy:
        status = copy.execute("SELECT status FROM tournaments_series WHERE number = 1")
        assert status.fetchone() == ("closed",)


def test_a_failing_backup_never_fails_the_close(
    alice: User, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    world = build_world(make_tournament(slug="bk", organizers=[alice]), (4,))

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("the USB stick is gone")

    monkeypatch.setattr(backups, "make_backup", broken)
    with override_settings(BACKUP_DIR=str(tmp_path / "gone")):
        close_series(world.series, actor=Actor(ORGANIZER, user=alice), past_unfinished=True)
    world.series.refresh_from_db()
    assert world.series.status == "closed"
    assert "the USB stick is gone" in caplog.text


def test_restore_refuses_a_database_with_data(played, tmp_path: Path) -> None:
    sqlite_only()
    made = make_backup(tmp_path, 5)
    assert made is not None
    with pytest.raises(BackupError, match="not empty"):
        restore_backup(made.path)
    with pytest.raises(CommandError, match="not empty"):
        call_command("restore", str(made.path))
    assert Game.objects.count() == 2


def test_backup_refused_inside_a_transaction(played, tmp_path: Path) -> None:
    sqlite_only()
    with transaction.atomic(), pytest.raises(BackupError, match="outside of a transaction"):
        make_backup(tmp_path, 5)


def test_restore_refuses_what_is_no_backup(played, tmp_path: Path) -> None:
    sqlite_only()
    (tmp_path / "notes.sqlite3").write_text("not a database")
    with pytest.raises(BackupError, match=r"not a readable SQLite backup|damaged"):
        restore_backup(tmp_path / "notes.sqlite3", force=True)
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(BackupError, match="kind of database"):
        restore_backup(tmp_path / "notes.txt", force=True)
    assert Game.objects.count() == 2


# --- the drill: a fresh machine, in subprocesses ---------------------------------------


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


SNAPSHOT = """
import json
from scoring.models import AuditEntry, Game
from scoring.standings import overall_standings
from tournaments.models import Tournament
t = Tournament.objects.get(slug="halle")
print(json.dumps({
    "standings": overall_standings(t),
    "games": list(Game.objects.order_by("pk").values()),
    "log": list(AuditEntry.objects.order_by("pk").values()),
}, default=str, sort_keys=True))
"""


def snapshot(env: dict[str, str]) -> dict[str, object]:
    """Standings, games and change log, and every table's rows (dumpdata)."""
    # The last line: the shell first says how many objects it imported.
    seen: dict[str, object] = json.loads(manage(env, "shell", "-c", SNAPSHOT).splitlines()[-1])
    seen["everything"] = json.loads(manage(env, "dumpdata", "--indent", "0"))
    return seen


def base_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "BACKUP_"))}
    env.pop("DATABASE_URL", None)
    return env


def postgres_url() -> str | None:
    url = os.environ.get("DATABASE_URL", "")
    return url if urlsplit(url).scheme in ("postgres", "postgresql") else None


@pytest.fixture(params=["sqlite", "postgresql"])
def two_databases(request: pytest.FixtureRequest, own_tmp: Path) -> Iterator[tuple[str, str]]:
    tmp_path = own_tmp
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'hall.sqlite3'}", f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
        return
    url = postgres_url()
    if url is None:
        pytest.skip("DATABASE_URL does not name PostgreSQL")
    import psycopg
    from psycopg import sql

    names = [f"doko_drill_{os.getpid()}_{secrets.token_hex(3)}_{n}" for n in ("a", "b")]
    parts = urlsplit(url)
    admin = url.replace("postgres://", "postgresql://", 1)
    with psycopg.connect(admin, autocommit=True) as conn:
        for name in names:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield tuple(  # type: ignore[misc]
            urlunsplit((parts.scheme, parts.netloc, "/" + n, parts.query, "")) for n in names
        )
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            for name in names:
                conn.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
                )


@pytest.mark.slow
def test_drill_backup_then_restore_on_a_fresh_database(
    two_databases: tuple[str, str], own_tmp: Path
) -> None:
    tmp_path = own_tmp
    hall_url, fresh_url = two_databases
    hall = {**base_env(), "DATABASE_URL": hall_url}
    fresh = {**base_env(), "DATABASE_URL": fresh_url}
    world = [sys.executable, str(ROOT / "tests" / "hall" / "hall_world.py"), "--tables", "2"]
    subprocess.run(world, cwd=ROOT, env=hall, check=True, capture_output=True, timeout=600)
    before = snapshot(hall)
    assert len(before["games"]) == 50 and before["log"]  # type: ignore[arg-type]
    manage(hall, "backup", "--dir", str(tmp_path / "backups"), "--keep", "3")
    [made] = backups.backups(tmp_path / "backups")
    manage(fresh, "restore", str(made))
    assert snapshot(fresh) == before
    # A second restore over the data is refused, and forced it gives the same again.
    refused = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "restore", str(made)],
        cwd=ROOT, env=fresh, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert refused.returncode == 1 and "not empty" in refused.stderr
    manage(fresh, "restore", "--force", str(made))
    assert snapshot(fresh) == before
