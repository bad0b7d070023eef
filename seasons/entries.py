"""A season's stored ranking (``SeasonEntry``, what a player's page reads):
``refresh_season_entries`` rewrites it from ``season_lines``. The use cases of
``seasons.services`` call it in their transaction, the task ``seasons.refresh`` and the
management command ``refresh_seasons`` outside one. It imports neither of them."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.db import connection, transaction
from django.utils import timezone

from seasons.models import Season, SeasonEntry
from seasons.ranking import Line
from seasons.standings import season_lines


def refresh_season_entries(season: Season, *, requested: int | None = None) -> bool:
    """Rewrite the season's ``SeasonEntry`` rows from its ranking, in one transaction;
    False when there was nothing to do.

    ``requested``: the refresh a task was queued for (``request_refresh``). It is skipped
    when a refresh that read the results after that request has been stored meanwhile, and
    so is the writing when one that read them later than this one was stored while it
    computed. The ranking is computed before the season is locked: the lock only orders the
    writes (a request counted meanwhile waits for the write, not for the ranking)."""
    counted = (
        Season.objects.filter(pk=season.pk).values_list("entries_requested", "entries_done").first()
    )
    if counted is None or (requested is not None and counted[1] >= requested):
        return False
    covers = counted[0]  # every request so far was committed before the ranking's reads
    lines = season_lines(season)
    with transaction.atomic():
        done = (
            Season.objects.select_for_update()
            .filter(pk=season.pk)
            .values_list("entries_done", flat=True)
            .first()
        )
        if done is None or (requested is not None and done >= covers):
            return False
        now = timezone.now()
        SeasonEntry.objects.filter(season=season).delete()
        _store(season, lines, now)
        Season.objects.filter(pk=season.pk).update(entries_done=max(done, covers), entries_at=now)
    return True


#: SeasonEntry's columns as ``_store`` writes them, after the season.
ENTRY_COLUMNS = (
    ("player_id", "bigint"), ("place", "int"), ("shared", "bool"),
    ("value_numerator", "bigint"), ("value_denominator", "bigint"), ("series", "int"),
    ("total", "bigint"), ("tournaments", "int"), ("missing_series", "int"), ("ranked", "bool"),
    ("position", "int"), ("provisional", "bool"),
)  # fmt: skip


def _columns(position: int, line: Line) -> tuple[int | bool | None, ...]:
    return (
        line.player, line.place, line.shared, line.value.numerator, line.value.denominator,
        line.series, line.total, len(line.counted), line.missing_series, line.ranked,
        position, line.provisional,
    )  # fmt: skip


def _store(season: Season, lines: Sequence[Line], now: datetime.datetime) -> None:
    """Insert the lines as the season's entries: on PostgreSQL one statement of arrays, each
    passed as one text (a season of 10,000 players in some 50 ms instead of 600 through the
    ORM)."""
    rows = [_columns(position, line) for position, line in enumerate(lines, start=1)]
    if not rows:
        return
    if connection.vendor != "postgresql":
        names = [name for name, _type in ENTRY_COLUMNS]
        SeasonEntry.objects.bulk_create(
            (SeasonEntry(season=season, computed_at=now, **dict(zip(names, row, strict=True)))
             for row in rows),
            batch_size=2000,
        )  # fmt: skip
        return
    columns = ", ".join(name for name, _type in ENTRY_COLUMNS)
    # Each column one text of values ("" for None): psycopg adapts a list value by value,
    # which took longer than the ranking's writing itself.
    arrays = ", ".join(f"string_to_array(%s, ',', '')::{kind}[]" for _name, kind in ENTRY_COLUMNS)
    with connection.cursor() as cursor:
        # The names come from the model and ENTRY_COLUMNS; every value is a parameter.
        cursor.execute(
            f"INSERT INTO {SeasonEntry._meta.db_table} (season_id, computed_at, {columns}) "
            f"SELECT %s, %s, * FROM unnest({arrays})",
            [season.pk, now, *(_text(column) for column in zip(*rows, strict=True))],
        )


def _text(column: Sequence[int | bool | None]) -> str:
    """Whole numbers and truth values as PostgreSQL reads them in an array, None as ""."""
    return ",".join(
        "" if v is None else ("t" if v else "f") if isinstance(v, bool) else str(v) for v in column
    )


def stored_once(season: Season) -> Season:
    """The season with its stored ranking: computed here, through the same refresh, when
    it was never stored (a season from before the pages read it, or one the refresh has
    not reached yet); the season as read again afterwards."""
    if season.entries_at is None:
        refresh_season_entries(season)
        season.refresh_from_db(fields=["entries_requested", "entries_done", "entries_at"])
    return season
