"""The stored lines keep what the ranking orders them by (``sort_key``) instead of their
place and position, which the reads compute: a change writes its players' lines only. The
keys of the stored lines are computed from their stored figures (backwards: the places and
positions from the keys).

What it needs of the ranking (each preset's tie-breaks, the key's layout) is frozen here, as
``seasons.rules.ranking_rule`` and ``seasons.sort_keys`` had it when this migration was
written: a later change to those modules must not change what this migration does
(``tests/seasons/test_sort_key_migration.py`` holds the two to the same keys today)."""

import struct
from collections import defaultdict
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from django.db import migrations

FIGURES = (
    "pk", "player_id", "value_numerator", "value_denominator", "series", "total",
    "tournaments", "best_result", "ranked",
)  # fmt: skip


#: The presets' tie-breaks (``seasons.ranking.PRESETS``); an unknown preset ranks as the first.
_PRESET_TIEBREAKS: dict[str, tuple[str, ...]] = {
    "ddv_rangliste": ("series", "total"),
    "best_n": ("best_result", "tournaments"),
    "placement_points": ("best_result", "tournaments"),
}
#: The figures a tie-break may name (``seasons.ranking.TIEBREAKS``).
_TIEBREAKS = ("series", "total", "tournaments", "best_result")
_SIGN = 1 << 63
_ALL = (1 << 64) - 1

#: A line's figures as this migration reads them: player, value, series, total,
#: tournaments, best result, ranked.
_Line = tuple[int, Fraction, int, int, int, int, bool]


def _tiebreak(preset: str, overrides: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The season's tie-breaks: its preset's, or the ones its overrides store."""
    name = preset if preset in _PRESET_TIEBREAKS else "ddv_rangliste"
    value = (overrides or {}).get("tiebreak", _PRESET_TIEBREAKS[name])
    return tuple(value) if isinstance(value, list) else value


def _double_bits(value: Fraction) -> int:
    bits: int = struct.unpack(">Q", struct.pack(">d", float(value) + 0.0))[0]
    return bits ^ _ALL if bits & _SIGN else bits | _SIGN


def _keys(tiebreak: tuple[str, ...], lines: Iterable[_Line]) -> dict[int, bytes]:
    """Every line's sort key: group, value as a double, the value's order among values of
    the same double, then the tie-breaks; player -> key."""
    every = list(lines)
    by_double: dict[float, set[Fraction]] = defaultdict(set)
    for line in every:
        by_double[float(line[1])].add(line[1])
    orders = {
        value: index
        for values in by_double.values()
        if len(values) > 1
        for index, value in enumerate(sorted(values), start=1)
    }
    keys = {}
    for player, value, series, total, tournaments, best, ranked in every:
        figures = {"series": series, "total": total, "tournaments": tournaments,
                   "best_result": best}  # fmt: skip
        ties = [figures[name] + _SIGN for name in tiebreak if name in _TIEBREAKS]
        group = 2 if ranked else 1 if tournaments > 0 else 0
        keys[player] = struct.pack(
            f">BQI{len(ties)}Q", group, _double_bits(value), orders.get(value, 0), *ties
        )
    return keys


def keys_from_figures(apps: Any, schema_editor: Any) -> None:
    Season = apps.get_model("seasons", "Season")
    SeasonEntry = apps.get_model("seasons", "SeasonEntry")
    for season in Season.objects.order_by("pk").iterator():
        rows = list(SeasonEntry.objects.filter(season=season).values_list(*FIGURES))
        lines = [
            (player, Fraction(numerator, denominator), series, total, tournaments, best, ranked)
            for _pk, player, numerator, denominator, series, total, tournaments, best, ranked
            in rows
        ]  # fmt: skip
        keys = _keys(_tiebreak(season.preset, season.rule_overrides), lines)
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
