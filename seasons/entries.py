"""A season's stored ranking (``SeasonEntry``, what a player's page reads):
``refresh_season_entries`` brings it up to date. The use cases of ``seasons.services`` call
it in their transaction, the task ``seasons.refresh`` and the management command
``refresh_seasons`` outside one. It imports neither of them.

A refresh computes every line (``season_lines``), or, asked by the task after results
changed, only the lines of the players of the tournaments whose results changed since the
stored ranking (``changed_lines``): the others' lines are kept as stored. A line keeps what
the ranking orders it by (``seasons.sort_keys``), not its place, which the reads compute
(``seasons.placed``): either way only the lines whose own figures changed are written, not
those whose place moved with them.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

from django.db import connection, transaction
from django.utils import timezone

from seasons.models import Season, SeasonEntry, SeasonTournament
from seasons.ranking import Line, RankingRule, Standing, standing
from seasons.rules import ranking_rule
from seasons.sort_keys import sort_keys
from seasons.standings import changed_lines, collector_paused, reference_date, season_lines


@dataclass(frozen=True, slots=True)
class _State:
    requested: int  # refresh requests counted (``request_refresh``)
    done: int  # the requests the stored ranking covers
    at: datetime.datetime | None  # when it was last written
    reference: datetime.date | None  # the reference date it was computed for


def _state(season: Season, *, lock: bool = False) -> _State | None:
    found = Season.objects.select_for_update() if lock else Season.objects
    row = (
        found.filter(pk=season.pk)
        .values_list("entries_requested", "entries_done", "entries_at", "entries_reference")
        .first()
    )
    return None if row is None else _State(*row)


def refresh_season_entries(
    season: Season, *, requested: int | None = None, only_changed: bool = False
) -> bool:
    """Bring the season's ``SeasonEntry`` rows up to date with its ranking, in one
    transaction; False when there was nothing to do.

    ``requested``: the refresh a task was queued for (``request_refresh``). It is skipped
    when a refresh that read the results after that request has been stored meanwhile, and
    so is the writing when one that read them later than this one was stored while it
    computed.

    ``only_changed``: compute only the lines of the players of the tournaments whose results
    changed since the stored ranking (``SeasonTournament.results_changed``), when it was
    computed for the same reference date; this runs with the season locked (two refreshes
    take turns; the second finds its request covered). The whole ranking is computed before
    the season is locked: the lock only orders the writes (a request counted meanwhile waits
    for the write, not for the ranking); when another refresh was stored meanwhile, it is
    computed again, locked."""
    state = _state(season)
    if state is None or (requested is not None and state.done >= requested):
        return False
    reference = reference_date(season)
    with collector_paused():
        if only_changed and _in_part(state, reference):
            with transaction.atomic():
                locked = _state(season, lock=True)
                if locked is None or (requested is not None and locked.done >= requested):
                    return False
                stored = _stored(season)
                if _in_part(locked, reference):
                    rows = _rows_in_part(season, locked, stored)
                else:
                    rows = _rows(ranking_rule(season), season_lines(season))
                _write(season, rows, stored, locked, locked.requested, reference)
            return True
        covers = state.requested  # every request so far was committed before the reads
        rows = _rows(ranking_rule(season), season_lines(season))
        with transaction.atomic():
            locked = _state(season, lock=True)
            if locked is None or (requested is not None and locked.done >= covers):
                return False
            if locked.at != state.at:
                # Another refresh was stored while this one computed, maybe from later
                # reads: computed again, locked, so that nothing older overwrites it.
                covers = locked.requested
                rows = _rows(ranking_rule(season), season_lines(season))
            _write(season, rows, _stored(season), locked, covers, reference)
    return True


def _in_part(state: _State, reference: datetime.date) -> bool:
    """Whether the stored lines can be kept for the players whose results did not change:
    they were computed for the same reference date (a window moves with it)."""
    return state.at is not None and state.reference == reference


#: SeasonEntry's columns as a refresh writes them, after the season.
ENTRY_COLUMNS = (
    ("player_id", "bigint"), ("value_numerator", "bigint"), ("value_denominator", "bigint"),
    ("series", "int"), ("total", "bigint"), ("tournaments", "int"), ("missing_series", "int"),
    ("ranked", "bool"), ("provisional", "bool"), ("best_result", "bigint"),
    ("sort_key", "bytea"),
)  # fmt: skip
NAMES = tuple(name for name, _type in ENTRY_COLUMNS)
_SORT_KEY = NAMES.index("sort_key")
Row = tuple[int | bool | bytes | None, ...]


def _player(row: Row) -> int:
    return cast(int, row[0])


def _columns(line: Line, one: Standing, key: bytes) -> Row:
    """A line's row; ``one``: its standing, whose figures the row keeps as well."""
    return (
        line.player, line.value.numerator, line.value.denominator, line.series, line.total,
        one.tournaments, line.missing_series, one.qualified, line.provisional, one.best_result,
        key,
    )  # fmt: skip


def _rows(rule: RankingRule, lines: Sequence[Line], kept: Sequence[Row] = ()) -> list[Row]:
    """The lines as stored rows and the ``kept`` stored rows, each with its key under the
    rule (``seasons.sort_keys``; a value's order among those of the same double may change
    with another's, ``seasons.sort_keys.value_orders``)."""
    standings = list(map(standing, lines))
    keys = sort_keys(rule, [*standings, *map(_standing, kept)])
    rows = [_columns(ln, one, keys[ln.player]) for ln, one in zip(lines, standings, strict=True)]
    rows += [(*row[:_SORT_KEY], keys[_player(row)]) for row in kept]
    return rows


def _stored(season: Season) -> dict[int, Row]:
    """The season's stored rows by player."""
    found = SeasonEntry.objects.filter(season=season).order_by().values_list(*NAMES)
    return {_player(row): (*row[:_SORT_KEY], bytes(cast(bytes, row[_SORT_KEY]))) for row in found}


def _standing(row: Row) -> Standing:
    """What a stored line is ordered by."""
    (player, numerator, denominator, series, total, tournaments, _missing, ranked,
     _provisional, best, _key) = cast("tuple[int, ...]", row)  # fmt: skip
    return Standing(
        player=player,
        value=Fraction(numerator, denominator),
        series=series,
        total=total,
        tournaments=tournaments,
        best_result=best,
        qualified=bool(ranked),
    )


def _rows_in_part(season: Season, locked: _State, stored: dict[int, Row]) -> list[Row]:
    """The stored rows with the lines of the changed tournaments' players computed again,
    every other line as stored; the keys of all of them."""
    changed = list(
        SeasonTournament.objects.filter(season=season, results_changed__gt=locked.done)
        .order_by("tournament_id")
        .values_list("tournament_id", flat=True)
    )
    theirs, lines = changed_lines(season, changed) if changed else (set(), [])
    kept = [row for player, row in stored.items() if player not in theirs]
    return _rows(ranking_rule(season), lines, kept)


def _write(
    season: Season,
    rows: list[Row],
    stored: dict[int, Row],
    locked: _State,
    covers: int,
    reference: datetime.date,
) -> None:
    """Write the rows that differ from the ``stored`` ones (read with the season locked),
    and what the stored ranking now covers."""
    now = timezone.now()
    # A line that changed is deleted and inserted again: a row's indexes are written once,
    # not twice, and one statement of each kind writes them all.
    new = {_player(row) for row in rows}
    gone = [player for player, row in stored.items() if player not in new]
    written = [row for row in rows if stored.get(_player(row)) != row]
    gone += [_player(row) for row in written if _player(row) in stored]
    if connection.vendor == "postgresql":
        _write_postgresql(season, gone, written, now)
    else:
        entries = SeasonEntry.objects.filter(season=season)
        for start in range(0, len(gone), 500):  # parameters below SQLite's limit
            entries.filter(player_id__in=gone[start : start + 500]).delete()
        SeasonEntry.objects.bulk_create(
            (SeasonEntry(season=season, computed_at=now, **dict(zip(NAMES, row, strict=True)))
             for row in written),
            batch_size=2000,
        )  # fmt: skip
    Season.objects.filter(pk=season.pk).update(
        entries_done=max(locked.done, covers), entries_at=now, entries_reference=reference
    )


def _write_postgresql(
    season: Season, gone: list[int], written: list[Row], now: datetime.datetime
) -> None:
    """The same in two statements, the rows passed as arrays, each one text (a season of
    10,000 players in some 50 ms instead of 600 through the ORM; psycopg adapts a list value
    by value, which took longer than the ranking's writing itself)."""
    table = SeasonEntry._meta.db_table  # the names come from the model and ENTRY_COLUMNS
    arrays = ", ".join(f"string_to_array(%s, ',', '')::{kind}[]" for _name, kind in ENTRY_COLUMNS)
    with connection.cursor() as cursor:
        if gone:
            cursor.execute(
                f"DELETE FROM {table} WHERE season_id = %s "
                "AND player_id = ANY(string_to_array(%s, ',')::bigint[])",
                [season.pk, _text(gone)],
            )
        if written:
            cursor.execute(
                f"INSERT INTO {table} (season_id, computed_at, {', '.join(NAMES)}) "
                f"SELECT %s, %s, * FROM unnest({arrays})",
                [season.pk, now, *(_text(column) for column in zip(*written, strict=True))],
            )


def _text(column: Sequence[int | bool | bytes | None]) -> str:
    """Whole numbers, truth values and bytes (hexadecimal) as PostgreSQL reads them in an
    array, None as ""."""
    return ",".join(
        ""
        if v is None
        else ("t" if v else "f")
        if isinstance(v, bool)
        else "\\x" + v.hex()
        if isinstance(v, bytes)
        else str(v)
        for v in column
    )


def stored_once(season: Season) -> Season:
    """The season with its stored ranking: computed here, through the same refresh, when
    it was never stored (a season from before the pages read it, or one the refresh has
    not reached yet); the season as read again afterwards."""
    if season.entries_at is None:
        refresh_season_entries(season)
        season.refresh_from_db(fields=["entries_requested", "entries_done", "entries_at"])
    return season
