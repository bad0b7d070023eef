"""The players' totals (``SeriesTotal`` per series, ``TournamentTotal`` over the tournament),
kept equal to the PlayerScore rows.

Every use case that writes or deletes PlayerScore rows calls ``refresh_totals`` in its own
transaction, for the series and players it touched: their totals are recomputed from the rows,
not adjusted by deltas, so a total is right whatever happened before.

Concurrency: a game and a deduction of the same player in one series may be saved at the same
time (they lock different things), and so may his games of two series. The totals are
therefore first created where missing and locked (in registration order, the series totals
before the tournament totals) and only then recomputed, in a later statement: on PostgreSQL
each statement reads what was committed before it began, so the second writer waits for the
first to commit and then sums the first one's rows too. On PostgreSQL the lock is an upsert
that writes nothing (``lock_ctes``), elsewhere ``SELECT … FOR UPDATE``.

``check_totals`` compares every total with a fresh sum of the rows and can repair them.

Once such a transaction commits, ``scoring.signals.totals_changed`` tells the layers above
(a season's stored ranking, for one).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db import connection, transaction
from django.db.models import Count, Model, Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from common.sql import insert_cte, prepared_cursor
from scoring.models import PlayerScore, SeriesTotal, TournamentTotal
from scoring.signals import announce_totals_changed
from tournaments.models import Series, Tournament

#: What a series total keeps, in this order: how many score rows it sums, then the sums.
FIELDS = (
    "entries", "points", "games", "solos", "solos_won", "compulsory", "voluntary_won",
    "deductions",
)  # fmt: skip
ZERO = dict.fromkeys(FIELDS, 0)
#: The sums a tournament total adds up over the series (besides each series' points).
SUMMED = FIELDS[1:]


def summed(scores: QuerySet[PlayerScore]) -> QuerySet[PlayerScore, dict[str, Any]]:
    """One row per (series, player) of ``scores``: the keys, then the sums of ``FIELDS``."""
    return (
        scores.values("series_id", "registration_id", "tournament_id", "series_number")
        .annotate(
            # names differ from the model's fields, which the filters refer to
            s_entries=Count("pk"),
            s_points=Coalesce(Sum("points"), 0),
            s_games=Count("pk", filter=Q(played=True)),
            s_solos=Count("pk", filter=Q(solo=True)),
            s_solos_won=Count("pk", filter=Q(solo=True, won=True)),
            s_compulsory=Count("pk", filter=Q(compulsory=True)),
            s_voluntary_won=Count("pk", filter=Q(solo=True, compulsory=False, won=True)),
            s_deductions=Coalesce(Sum("points", filter=Q(deduction__isnull=False)), 0),
        )
        .order_by()
    )


def _values(row: Mapping[str, Any] | None) -> dict[str, int]:
    return {f: int(row[f"s_{f}"]) for f in FIELDS} if row else dict(ZERO)


def over_series(series: Mapping[int, Mapping[str, int]]) -> dict[str, Any]:
    """A tournament total from a player's series totals (series number → FIELDS); those
    without score rows do not count."""
    counted = {n: v for n, v in series.items() if v["entries"]}
    last = max(counted, default=0)
    return {
        **{f: sum(v[f] for v in counted.values()) for f in SUMMED},
        "series_points": [
            counted[n]["points"] if n in counted else None for n in range(1, last + 1)
        ],
    }


def refresh_totals(series: Series, registration_ids: Iterable[int]) -> None:
    """Recompute the totals of these players in ``series`` and over the tournament from their
    score rows. Call it inside the transaction that changed the rows, after the change.

    On PostgreSQL two statements (``lock_ctes``, ``recompute_sql``); elsewhere the same steps
    through the ORM (SQLite writes one transaction at a time)."""
    ids = sorted(set(registration_ids))
    if not ids:
        return
    with transaction.atomic(savepoint=False):
        if connection.vendor == "postgresql":
            values = sql_values(series, ids)
            with connection.cursor() as cursor:
                cursor.execute(f"WITH {lock_ctes(IDS)} SELECT 1", values)
                cursor.execute(recompute_sql(), values)
            announce_totals_changed(series.tournament_id)
        else:
            _refresh_series(series, ids)
            _refresh_tournament(series.tournament_id, ids)  # announces the change


# --- PostgreSQL -------------------------------------------------------------------------
# A game's entry is the most frequent write: the entry use case folds these pieces into its
# own statements (the lock into the claim of the sheet, the sums into the insert of the
# score rows), so that the totals cost it no statement of their own.

#: The players as a FROM item with the column ``r``: the ``ids`` parameter.
IDS = "unnest(%(ids)s::bigint[]) AS players(r)"


def sql_values(series: Series, ids: list[int]) -> dict[str, Any]:
    """The named parameters of the statements below. The ids go as the text of an array
    (``{1,2,3}``, cast where they are used): psycopg's dumper of a list costs an entry more
    than the server's reading of the text."""
    return {
        "tournament": series.tournament_id, "series": series.pk, "number": series.number,
        "ids": "{" + ",".join(str(int(r)) for r in ids) + "}",
    }  # fmt: skip


def _tables() -> dict[str, str]:
    return {
        "st": SeriesTotal._meta.db_table,
        "tt": TournamentTotal._meta.db_table,
        "ps": PlayerScore._meta.db_table,
    }


def lock_ctes(players: str, after: str = "true") -> str:
    """Two CTEs that create the missing series and tournament totals of ``players`` (a FROM
    item with the column ``r``) and lock them all (``DO UPDATE … WHERE false`` locks without
    writing): the series totals first, each in registration order, and only once ``after``
    (a condition that reads an earlier CTE, whose locks come first) has been evaluated."""
    return """
        series_rows AS (
            INSERT INTO {st} AS t (tournament_id, series_id, series_number, registration_id,
                entries, points, games, solos, solos_won, compulsory, voluntary_won, deductions)
            SELECT %(tournament)s, %(series)s, %(number)s, r, 0, 0, 0, 0, 0, 0, 0, 0
              FROM {players} WHERE {after} ORDER BY r
            ON CONFLICT (series_id, registration_id) DO UPDATE SET entries = t.entries
             WHERE false
            RETURNING 1
        ), tournament_rows AS (
            INSERT INTO {tt} AS t (tournament_id, registration_id, points, games, solos,
                solos_won, compulsory, voluntary_won, deductions, series_points)
            SELECT %(tournament)s, r, 0, 0, 0, 0, 0, 0, 0, '[]'
              FROM {players} WHERE (SELECT count(*) FROM series_rows) >= 0 ORDER BY r
            ON CONFLICT (registration_id) DO UPDATE SET points = t.points WHERE false
            RETURNING 1
        )
    """.format(**_tables(), players=players, after=after)  # every value is a parameter


def recompute_sql(inserted: str = "", returning: str = "") -> str:
    """One statement: the players' series totals summed from their score rows, and their
    tournament totals from those and their totals of the other series (what ``summed`` and
    ``over_series`` compute). ``inserted``: a CTE named ``inserted`` that inserts score rows
    of the series and returns them (their own statement does not see them otherwise), after
    the CTEs it needs; ``returning``: what each updated tournament totals row returns.

    It must run after the locks (``lock_ctes``), in a later statement: it then reads every
    writer before us.

    It reads only the players' own rows, however many play: their score rows and series
    totals are sought player by player (a LATERAL subquery that ``OFFSET 0`` keeps whole),
    and their tournament totals by the ids. Left to the planner, with its plan made on
    young tables, each save read every score row and total of the series (3,800 score rows
    by the last round in a hall of 40 tables; ``tests/scoring/test_save_reads.py`` counts
    them)."""
    new = "UNION ALL SELECT * FROM inserted" if inserted else ""
    return """
        WITH players(r) AS (SELECT unnest(%(ids)s::bigint[])), {inserted_cte} scores AS (
            SELECT s.* FROM players, LATERAL (
                SELECT registration_id, points, played, solo, compulsory, won, deduction_id
                  FROM {ps}
                 WHERE tournament_id = %(tournament)s AND series_number = %(number)s
                       AND series_id = %(series)s AND registration_id = players.r
                OFFSET 0
            ) AS s
            {new}
        ), sums AS (
            SELECT players.r AS registration_id,
                   count(s.registration_id) AS entries,
                   coalesce(sum(s.points), 0) AS points,
                   count(*) FILTER (WHERE s.played) AS games,
                   count(*) FILTER (WHERE s.solo) AS solos,
                   count(*) FILTER (WHERE s.solo AND s.won) AS solos_won,
                   count(*) FILTER (WHERE s.compulsory) AS compulsory,
                   count(*) FILTER (WHERE s.solo AND NOT s.compulsory AND s.won)
                       AS voluntary_won,
                   coalesce(sum(s.points) FILTER (WHERE s.deduction_id IS NOT NULL), 0)
                       AS deductions
              FROM players LEFT JOIN scores s ON s.registration_id = players.r
             GROUP BY players.r
        ), written AS (
            UPDATE {st} AS t
               SET entries = s.entries, points = s.points, games = s.games, solos = s.solos,
                   solos_won = s.solos_won, compulsory = s.compulsory,
                   voluntary_won = s.voluntary_won, deductions = s.deductions
              FROM sums s
             WHERE t.registration_id = s.registration_id AND t.id = ANY(ARRAY(
                   SELECT own.id FROM players, LATERAL (
                       SELECT id FROM {st}
                        WHERE series_id = %(series)s AND registration_id = players.r OFFSET 0
                   ) AS own))
        ), every_series AS (
            SELECT registration_id, series_number, points, games, solos, solos_won,
                   compulsory, voluntary_won, deductions
              FROM {st}
             WHERE registration_id = ANY(%(ids)s::bigint[]) AND series_id <> %(series)s
                   AND entries > 0
            UNION ALL
            SELECT registration_id, %(number)s, points, games, solos, solos_won,
                   compulsory, voluntary_won, deductions
              FROM sums WHERE entries > 0
        ), overall AS (
            SELECT players.r AS registration_id,
                   coalesce(sum(e.points), 0) AS points, coalesce(sum(e.games), 0) AS games,
                   coalesce(sum(e.solos), 0) AS solos,
                   coalesce(sum(e.solos_won), 0) AS solos_won,
                   coalesce(sum(e.compulsory), 0) AS compulsory,
                   coalesce(sum(e.voluntary_won), 0) AS voluntary_won,
                   coalesce(sum(e.deductions), 0) AS deductions,
                   coalesce((
                       SELECT CAST(json_agg(p.points ORDER BY n) AS text)
                         FROM generate_series(1, max(e.series_number)) AS n
                         LEFT JOIN every_series p
                              ON p.registration_id = players.r AND p.series_number = n
                   ), '[]') AS series_points
              FROM players LEFT JOIN every_series e ON e.registration_id = players.r
             GROUP BY players.r
        )
        UPDATE {tt} AS t
           SET points = o.points, games = o.games, solos = o.solos, solos_won = o.solos_won,
               compulsory = o.compulsory, voluntary_won = o.voluntary_won,
               deductions = o.deductions, series_points = o.series_points
          FROM overall o
         WHERE t.registration_id = o.registration_id
               AND t.registration_id = ANY(%(ids)s::bigint[])
        {returning}
    """.format(
        **_tables(),
        new=new,
        inserted_cte=f"{inserted}," if inserted else "",
        returning=f"RETURNING {returning}" if returning else "",
    )  # table names from the models; every value is a parameter


class NewScore(NamedTuple):
    """A score row of a game, to insert with ``save_with_totals``."""

    registration_id: int
    seat: int
    points: int
    played: bool
    solo: bool
    compulsory: bool
    won: bool


def scores_json(scores: Sequence[NewScore]) -> str:
    """The score rows as one JSON array of objects, one parameter instead of an array per
    column (psycopg dumps a list in Python, element by element)."""
    return json.dumps([dict(zip(NewScore._fields, row, strict=True)) for row in scores])


def compact(sql: str) -> str:
    """``sql`` with every run of white space one blank, and none after a comma or an opening
    parenthesis, before a closing one or around an equals sign: the long statements of an
    entry stay short enough for psycopg to keep their conversion (it converts longer ones
    anew each time). For SQL without comments and without blanks in its literals."""
    assert "--" not in sql and "/*" not in sql
    single = " ".join(sql.split())
    return single.replace(", ", ",").replace("( ", "(").replace(" )", ")").replace(" = ", "=")


@functools.cache
def _save_sql(game_cte: str, also_cte: str) -> str:
    """The statement of ``save_with_totals``, built once per shape: with the CTE that inserts
    a new game (else the game's id is a parameter) and the one that inserts the audit
    entry, if given."""
    game_id = "(SELECT id FROM new_game)" if game_cte else "%(game)s"
    inserted = """
        inserted AS (
            INSERT INTO {ps} (tournament_id, series_id, series_number, registration_id,
                game_id, deduction_id, seat, points, played, solo, compulsory, won)
            SELECT %(tournament)s, %(series)s, %(number)s, u.registration_id, {game_id}, NULL,
                   u.seat, u.points, u.played, u.solo, u.compulsory, u.won
              FROM json_to_recordset(%(scores)s::json)
                   AS u(registration_id bigint, seat int, points int, played bool, solo bool,
                        compulsory bool, won bool)
            RETURNING registration_id, points, played, solo, compulsory, won, deduction_id
        )
    """.format(**_tables(), game_id=game_id)  # the rows: ``scores_json``
    ctes = [cte for cte in (game_cte, inserted, also_cte) if cte]
    return compact(recompute_sql(", ".join(ctes), returning=game_id if game_cte else ""))


def save_with_totals(
    series: Series,
    game: Model,
    scores: Sequence[NewScore],
    locked: list[int],
    also: Model | None = None,
    answers: dict[str, Any] | None = None,
) -> None:
    """Insert a game's score rows (of ``series``) and recompute the totals of the ``locked``
    players (their totals locked by an earlier statement, see ``lock_ctes``) in one
    statement, which also inserts the unsaved ``also`` (the change's audit entry) and, if
    unsaved, the ``game`` of the rows (its id then set on it). PostgreSQL only. ``answers``:
    those of the receivers' questions (``scoring.signals.ask_with_totals``), read in this
    transaction, for the announcement of the change."""
    values = sql_values(series, locked)
    new = game.pk is None
    game_cte = ""
    if new:
        game_cte, game_values = insert_cte(game, "new_game", returning="id")
        values.update(game_values)
    else:
        values["game"] = game.pk
    also_cte = ""
    if also is not None:
        also_cte, also_values = insert_cte(also, "also")
        values.update(also_values)
    values["scores"] = scores_json(scores)
    with prepared_cursor() as cursor:
        cursor.execute(_save_sql(game_cte, also_cte), values)
        if new:
            # Every locked player's totals row is updated, so each row names the game.
            found = cursor.fetchone()
            assert found is not None, "no totals row updated"
            game.pk = found[0]
            game._state.adding, game._state.db = False, connection.alias
    announce_totals_changed(series.tournament_id, answers)


def _refresh_series(series: Series, ids: list[int]) -> None:
    def rows(values: dict[int, dict[str, int]]) -> list[SeriesTotal]:
        return [
            SeriesTotal(
                tournament_id=series.tournament_id,
                series_id=series.pk,
                series_number=series.number,
                registration_id=r,
                **values.get(r, ZERO),
            )
            for r in ids
        ]

    # Create the missing rows and lock them all first: the sums below then see every
    # writer before us.
    SeriesTotal.objects.bulk_create(rows({}), ignore_conflicts=True)
    locked = SeriesTotal.objects.select_for_update().filter(
        series_id=series.pk, registration_id__in=ids
    )
    list(locked.order_by("registration_id").values_list("pk"))
    scores = PlayerScore.objects.filter(
        tournament_id=series.tournament_id,
        series_number=series.number,
        series_id=series.pk,
        registration_id__in=ids,
    )
    sums = {row["registration_id"]: _values(row) for row in summed(scores)}
    SeriesTotal.objects.bulk_create(
        rows(sums), update_conflicts=True, unique_fields=["series", "registration"],
        update_fields=list(FIELDS),
    )  # fmt: skip


def _refresh_tournament(tournament_id: int, ids: list[int]) -> None:
    def rows(values: dict[int, dict[str, Any]]) -> list[TournamentTotal]:
        return [
            TournamentTotal(tournament_id=tournament_id, registration_id=r, **values.get(r, {}))
            for r in ids
        ]

    TournamentTotal.objects.bulk_create(rows({}), ignore_conflicts=True)
    locked = TournamentTotal.objects.select_for_update().filter(registration_id__in=ids)
    list(locked.order_by("registration_id").values_list("pk"))
    series: dict[int, dict[int, dict[str, int]]] = {r: {} for r in ids}
    for row in SeriesTotal.objects.filter(registration_id__in=ids).values(
        "registration_id", "series_number", *FIELDS
    ):
        series[row["registration_id"]][row["series_number"]] = row
    TournamentTotal.objects.bulk_create(
        rows({r: over_series(s) for r, s in series.items()}), update_conflicts=True,
        unique_fields=["registration"], update_fields=[*SUMMED, "series_points"],
    )  # fmt: skip
    announce_totals_changed(tournament_id)


@dataclass(frozen=True)
class Difference:
    """A total that is not the sum of its score rows: what is stored (None: no row) and
    what the rows give. ``series_number`` None: the player's tournament total."""

    tournament_id: int
    series_id: int | None
    series_number: int | None
    registration_id: int
    stored: dict[str, Any] | None
    fresh: dict[str, Any]

    def describe(self) -> str:
        stored = self.stored or _empty(self.fresh)
        changed = ", ".join(
            f"{f} {stored[f]} → {self.fresh[f]}" for f in self.fresh if stored[f] != self.fresh[f]
        )
        where = f"series {self.series_number}" if self.series_number else "tournament total"
        missing = "missing" if self.stored is None else ""
        return f"{where}, registration {self.registration_id}: " + (
            f"{missing} ({changed})" if missing else changed
        )


def _empty(values: Mapping[str, Any]) -> dict[str, Any]:
    return {f: [] if f == "series_points" else 0 for f in values}


def differences(tournament: Tournament | None = None) -> list[Difference]:
    """Every total (of ``tournament``, or of all) that differs from a fresh sum of its rows;
    a missing total counts as zero, so only one with rows behind it is reported missing."""
    scores = PlayerScore.objects.all()
    series_totals = SeriesTotal.objects.all()
    tournament_totals = TournamentTotal.objects.all()
    if tournament is not None:
        scores = scores.filter(tournament=tournament)
        series_totals = series_totals.filter(tournament=tournament)
        tournament_totals = tournament_totals.filter(tournament=tournament)
    fresh = {(r["series_id"], r["registration_id"]): r for r in summed(scores)}
    stored = {
        (r["series_id"], r["registration_id"]): r
        for r in series_totals.values(
            "series_id", "registration_id", "tournament_id", "series_number", *FIELDS
        )
    }
    found = []
    per_player: dict[tuple[int, int], dict[int, dict[str, int]]] = {}
    for key in sorted(fresh.keys() | stored.keys()):
        row = stored.get(key)
        kept = {f: row[f] for f in FIELDS} if row else None
        new = _values(fresh.get(key))
        source = fresh.get(key) or row
        assert source is not None
        tournament_id, number = source["tournament_id"], source["series_number"]
        per_player.setdefault((tournament_id, key[1]), {})[number] = new
        if (kept or ZERO) != new:
            found.append(Difference(tournament_id, key[0], number, key[1], kept, new))
    overall = {
        (r["tournament_id"], r["registration_id"]): r
        for r in tournament_totals.values(
            "tournament_id", "registration_id", *SUMMED, "series_points"
        )
    }
    for key in sorted(per_player.keys() | overall.keys()):
        total = overall.get(key)
        kept_total = {f: total[f] for f in (*SUMMED, "series_points")} if total else None
        new_total = over_series(per_player.get(key, {}))
        if (kept_total or _empty(new_total)) != new_total:
            found.append(Difference(key[0], None, None, key[1], kept_total, new_total))
    return found


@transaction.atomic
def check_totals(tournament: Tournament | None = None, *, fix: bool = False) -> list[Difference]:
    """The totals that differ from their score rows; with ``fix`` recomputed (under the
    locks ``refresh_totals`` takes, so a game saved meanwhile is not lost)."""
    found = differences(tournament)
    if fix:
        by_series: dict[int, set[int]] = {}
        by_tournament: dict[int, set[int]] = {}
        for d in found:
            if d.series_id is None:
                by_tournament.setdefault(d.tournament_id, set()).add(d.registration_id)
            else:
                by_series.setdefault(d.series_id, set()).add(d.registration_id)
        for series in Series.objects.filter(pk__in=by_series).order_by("pk"):
            refresh_totals(series, by_series[series.pk])  # their tournament totals too
        for tournament_id, ids in sorted(by_tournament.items()):
            _refresh_tournament(tournament_id, sorted(ids))
    return found
