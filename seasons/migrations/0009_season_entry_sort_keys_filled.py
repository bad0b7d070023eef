"""The stored lines keep what the ranking orders them by (``sort_key``) instead of their
place and position, which the reads compute: a change writes its players' lines only. The
keys of the stored lines are computed from their stored figures (backwards: the places and
positions from the keys)."""

from fractions import Fraction
from typing import Any

from django.db import migrations

from seasons.ranking import Standing
from seasons.rules import ranking_rule
from seasons.sort_keys import sort_keys

FIGURES = (
    "pk", "player_id", "value_numerator", "value_denominator", "series", "total",
    "tournaments", "best_result", "ranked",
)  # fmt: skip


def keys_from_figures(apps: Any, schema_editor: Any) -> None:
    Season = apps.get_model("seasons", "Season")
    SeasonEntry = apps.get_model("seasons", "SeasonEntry")
    for season in Season.objects.order_by("pk").iterator():
        rows = list(SeasonEntry.objects.filter(season=season).values_list(*FIGURES))
        standings = [
            Standing(
                player=player, value=Fraction(numerator, denominator), series=series,
                total=total, tournaments=tournaments, best_result=best, qualified=ranked,
            )
            for _pk, player, numerator, denominator, series, total, tournaments, best, ranked
            in rows
        ]  # fmt: skip
        keys = sort_keys(ranking_rule(season), standings)
        SeasonEntry.objects.bulk_update(
            [SeasonEntry(pk=row[0], sort_key=keys[row[1]]) for row in rows],
            ["sort_key"],
            batch_size=1000,
        )


def places_from_keys(apps: Any, schema_editor: Any) -> None:
    SeasonEntry = apps.get_model("seasons", "SeasonEntry")
    Season = apps.get_model("seasons", "Season")
    for season in Season.objects.order_by("pk").iterator():
        entries = sorted(
            SeasonEntry.objects.filter(season=season),
            key=lambda e: (bytes(e.sort_key), -e.player_id),
            reverse=True,
        )
        keys = [bytes(e.sort_key) for e in entries]
        place = 0
        for index, entry in enumerate(entries):
            if not index or keys[index - 1] != keys[index]:
                place = index + 1
            entry.position = index + 1
            entry.place = place if entry.ranked else None
            entry.shared = entry.ranked and (
                (index > 0 and keys[index - 1] == keys[index])
                or (index + 1 < len(keys) and keys[index + 1] == keys[index])
            )
        SeasonEntry.objects.bulk_update(
            entries, ["position", "place", "shared"], batch_size=1000
        )




class Migration(migrations.Migration):
    dependencies = [
        ("seasons", "0008_season_entry_sort_key"),
    ]

    operations = [
        migrations.RunPython(keys_from_figures, places_from_keys),
    ]
