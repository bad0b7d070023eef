"""The per-player totals of a series (``SeriesTotal``), kept equal to the PlayerScore rows.

Every use case that writes or deletes PlayerScore rows calls ``refresh_totals`` in its own
transaction, for the series and players it touched: their totals are recomputed from the rows,
not adjusted by deltas, so a total is right whatever happened before.

Concurrency: a game and a deduction of the same player in one series may be saved at the same
time (they lock different things). ``refresh_totals`` first locks the players' total rows
(creating missing ones, in registration order, one statement) and only then sums the score
rows: on PostgreSQL each statement reads what was committed before it began, so the second
writer waits for the first to commit and then sums the first one's rows too.

``check_totals`` compares every total with a fresh sum of the rows and can repair them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from scoring.models import PlayerScore, SeriesTotal
from tournaments.models import Series, Tournament

#: The sums a total keeps, in this order.
FIELDS = (
    "entries", "points", "games", "solos", "solos_won", "compulsory", "voluntary_won",
    "deductions",
)  # fmt: skip
ZERO = dict.fromkeys(FIELDS, 0)


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
            s_deductions=Coalesce(Sum("points", filter=Q(penalty__isnull=False)), 0),
        )
        .order_by()
    )


def _values(row: dict[str, Any] | None) -> dict[str, int]:
    return {f: int(row[f"s_{f}"]) for f in FIELDS} if row else dict(ZERO)


def refresh_totals(series: Series, registration_ids: Iterable[int]) -> None:
    """Recompute the totals of these players in ``series`` from their score rows. Call it
    inside the transaction that changed the rows, after the change."""
    ids = sorted(set(registration_ids))
    if not ids:
        return

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

    with transaction.atomic():
        # Create or lock every row first: the sums below then see every writer before us.
        SeriesTotal.objects.bulk_create(
            rows({}),
            update_conflicts=True,
            unique_fields=["series", "registration"],
            update_fields=["series_number"],
        )
        scores = PlayerScore.objects.filter(
            tournament_id=series.tournament_id,
            series_number=series.number,
            series_id=series.pk,
            registration_id__in=ids,
        )
        sums = {row["registration_id"]: _values(row) for row in summed(scores)}
        SeriesTotal.objects.bulk_create(
            rows(sums),
            update_conflicts=True,
            unique_fields=["series", "registration"],
            update_fields=list(FIELDS),
        )


@dataclass(frozen=True)
class Difference:
    """A total that is not the sum of its score rows: what is stored (None: no row) and
    what the rows give."""

    tournament_id: int
    series_id: int
    series_number: int
    registration_id: int
    stored: dict[str, int] | None
    fresh: dict[str, int]

    def describe(self) -> str:
        stored = self.stored or ZERO
        changed = ", ".join(
            f"{f} {stored[f]} → {self.fresh[f]}" for f in FIELDS if stored[f] != self.fresh[f]
        )
        return f"series {self.series_number}, registration {self.registration_id}: " + (
            changed if self.stored is not None else f"missing ({changed})"
        )


def differences(tournament: Tournament | None = None) -> list[Difference]:
    """Every total (of ``tournament``, or of all) that differs from a fresh sum of its rows;
    a missing total counts as zero, so only one with rows behind it is reported missing."""
    scores = PlayerScore.objects.all()
    totals = SeriesTotal.objects.all()
    if tournament is not None:
        scores = scores.filter(tournament=tournament)
        totals = totals.filter(tournament=tournament)
    fresh = {(r["series_id"], r["registration_id"]): r for r in summed(scores)}
    stored = {
        (r["series_id"], r["registration_id"]): r
        for r in totals.values(
            "series_id", "registration_id", "tournament_id", "series_number", *FIELDS
        )
    }
    found = []
    for key in sorted(fresh.keys() | stored.keys()):
        row = stored.get(key)
        kept = {f: row[f] for f in FIELDS} if row else None
        new = _values(fresh.get(key))
        if (kept or ZERO) != new:
            source = fresh.get(key) or row
            assert source is not None
            found.append(
                Difference(
                    source["tournament_id"], key[0], source["series_number"], key[1], kept, new
                )
            )
    return found


@transaction.atomic
def check_totals(tournament: Tournament | None = None, *, fix: bool = False) -> list[Difference]:
    """The totals that differ from their score rows; with ``fix`` recomputed (under the
    locks ``refresh_totals`` takes, so a game saved meanwhile is not lost)."""
    found = differences(tournament)
    if fix:
        by_series: dict[int, set[int]] = {}
        for d in found:
            by_series.setdefault(d.series_id, set()).add(d.registration_id)
        for series in Series.objects.filter(pk__in=by_series).order_by("pk"):
            refresh_totals(series, by_series[series.pk])
    return found
