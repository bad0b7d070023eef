"""Places in a season's stored ranking, computed as the lines are read.

A stored line (``SeasonEntry``) keeps what the ranking orders it by, ``sort_key``
(``seasons.sort_keys``), not its place: a change writes its players' lines only. The reads
compute the rest from the keys of the whole season:

* ``in_order``: the season's lines with their ``position`` (the ranking's order: the larger
  key first, among equal keys the smaller player key), ``rank`` (1 + the lines with a larger
  key: the place of a ranked line) and the keys before and after (``place``); window
  functions over the season, so a filter on ``position`` keeps every line's place in the
  whole season (other filters would rank within the filtered lines: filter by position);
* ``placed_part``: a part of them (of a club's players only), chosen around the statement
  that places them, with the players' names;
* ``named_in_order`` and ``placed_at``: for a search by name, every line's names in the
  ranking's order without the windows (a line's position is its index), and then the chosen
  lines' figures, their places computed from the keys read with the names;
* ``with_place``: any lines, each with the lines of its season before it and whether
  another has the same key, counted beside it (one line of each of several seasons).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from django.db import connection
from django.db.models import Count, Exists, F, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.expressions import Window
from django.db.models.functions import Coalesce, Lag, Lead, Rank, RowNumber

from seasons.models import Season, SeasonEntry
from tournaments.models import Player


class _InOrder(TypedDict):
    position: int
    rank: int
    key_before: bytes | None
    key_after: bytes | None


class _WithPlace(TypedDict):
    lines_before: int
    tied: bool


if TYPE_CHECKING:  # what the reads add to a line (only the type checker subscripts these)
    from django_stubs_ext import WithAnnotations

    InOrder = WithAnnotations[SeasonEntry, _InOrder]
    WithPlace = WithAnnotations[SeasonEntry, _WithPlace]

#: A placed line's columns as ``placed_part`` reads them (the player's names joined after them).
PLACED = (
    "position", "player_id", "ranked", "rank", "sort_key", "key_before", "key_after",
    "value_numerator", "value_denominator", "series", "total", "tournaments", "missing_series",
    "provisional",
)  # fmt: skip

#: The ranking's order: the better line first, among equals the smaller player key.
ORDER = (F("sort_key").desc(), F("player_id").asc())


def in_order(season: Season) -> QuerySet[InOrder]:
    """The season's lines with ``position``, ``rank``, ``key_before`` and ``key_after``."""
    return SeasonEntry.objects.filter(season=season).annotate(
        position=Window(RowNumber(), order_by=ORDER),
        rank=Window(Rank(), order_by=F("sort_key").desc()),
        key_before=Window(Lag("sort_key"), order_by=ORDER),
        key_after=Window(Lead("sort_key"), order_by=ORDER),
    )


def placed_part(season: Season, club: str | None, offset: int, limit: int) -> list[tuple[Any, ...]]:
    """``limit`` lines from ``offset`` on (of the club's players only, ``club``), in the
    ranking's order, as ``seasons.stored.COLUMNS`` (the rows as the database gives them:
    SQLite's truth values as 0 and 1). One statement around ``in_order``'s: every line is
    placed in the whole season before the club's are chosen, and the players' names are
    joined to the chosen lines only (the windows sort narrow rows)."""
    q = connection.ops.quote_name
    lines = in_order(season).values_list(*PLACED)
    chosen: list[str | int] = []
    if club is None:  # the part chosen inside, where the windows' order gives it
        lines, where = lines.order_by(*ORDER)[offset : offset + limit], ""
    else:
        lines, where = lines.order_by(), f"WHERE p.{q('club')} = %s "
        where += f"ORDER BY r.{q('position')} LIMIT %s OFFSET %s"
        chosen = [club, limit, offset]
    sql, params = lines.query.sql_with_params()
    line = ", ".join(f"r.{q(name)}" for name in PLACED[2:])
    names = ", ".join(f"p.{q(name)}" for name in ("first_name", "last_name", "club", "name_form"))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT r.{q('position')}, r.{q('player_id')}, {names}, {line} FROM ({sql}) r "
            f"INNER JOIN {q(Player._meta.db_table)} p ON p.{q('id')} = r.{q('player_id')} "
            f"{where or 'ORDER BY r.' + q('position')}",
            [*params, *chosen],
        )
        return list(cursor.fetchall())


#: A line as a search reads every one: its player, its key and the player's names.
NAMED = (
    "player_id", "sort_key", "player__first_name", "player__last_name", "player__club",
    "player__name_form",
)  # fmt: skip
#: The figures of a chosen line (``placed_at``), after its player.
FIGURES = (
    "player_id", "ranked", "value_numerator", "value_denominator", "series", "total",
    "tournaments", "missing_series", "provisional",
)  # fmt: skip


def named_in_order(season: Season) -> list[tuple[Any, ...]]:
    """Every line of the season as ``NAMED``, in the ranking's order (the index
    ``season_entry_order`` gives it): the line at index ``i`` has the position ``i + 1``. No
    window: the names are read once, in one pass over the season's lines."""
    lines = SeasonEntry.objects.filter(season=season).order_by(*ORDER).values_list(*NAMED)
    return list(lines)


def placed_at(
    season: Season, lines: Sequence[tuple[Any, ...]], chosen: Sequence[int]
) -> list[tuple[Any, ...]]:
    """The lines at the indexes ``chosen`` (ascending) of ``named_in_order``'s list, as
    ``seasons.stored.COLUMNS``: their places from the keys of the whole list (the rank is one
    more than the lines with a larger key: the index of the first line with the same key),
    their figures read by player (one statement, the chosen lines only)."""
    if not chosen:
        return []
    keys = [bytes(line[1]) for line in lines]
    figures = {
        row[0]: row[1:]
        for row in SeasonEntry.objects.filter(
            season=season, player_id__in=[lines[i][0] for i in chosen]
        )
        .order_by()
        .values_list(*FIGURES)
    }
    rows = []
    first = 0  # the index where the run of the chosen line's key starts
    for index in chosen:
        if first > index or keys[first] != keys[index]:
            first = index
            while first and keys[first - 1] == keys[index]:
                first -= 1
        before = keys[index - 1] if index else None
        after = keys[index + 1] if index + 1 < len(keys) else None
        player, key, first_name, last_name, club, form = lines[index]
        ranked, *rest = figures[player]
        rows.append(
            (index + 1, player, first_name, last_name, club, form, ranked, first + 1, key,
             before, after, *rest)
        )  # fmt: skip
    return rows


def place(ranked: bool, rank: int, key: Any, before: Any, after: Any) -> tuple[int | None, bool]:
    """A line's place (None: not ranked) and whether it is shared, from ``in_order``."""
    if not ranked:
        return None, False
    key = bytes(key)
    return rank, any(other is not None and bytes(other) == key for other in (before, after))


def with_place(entries: QuerySet[SeasonEntry]) -> QuerySet[WithPlace]:
    """The lines, each with ``lines_before`` (of its season, with a larger key: its place
    is one more when it is ranked) and ``tied`` (another line has the same key)."""
    before = (
        SeasonEntry.objects.filter(season=OuterRef("season"), sort_key__gt=OuterRef("sort_key"))
        .order_by()
        .values("season")
        .annotate(n=Count("pk"))
        .values("n")
    )
    same = SeasonEntry.objects.filter(
        season=OuterRef("season"), sort_key=OuterRef("sort_key")
    ).exclude(player=OuterRef("player"))
    return entries.annotate(
        lines_before=Coalesce(Subquery(before, output_field=IntegerField()), Value(0)),
        tied=Exists(same),
    )


def counted_place(ranked: bool, lines_before: int, tied: bool) -> tuple[int | None, bool]:
    """A line's place (None: not ranked) and whether it is shared, from ``with_place``."""
    return (lines_before + 1, tied) if ranked else (None, False)


def placed_entries(season: Season) -> list[tuple[InOrder, int | None, bool]]:
    """Every line of the season in the ranking's order, with its place and whether it is
    shared (one statement; the pages read a part, ``seasons.stored``)."""
    return [
        (entry, *place(entry.ranked, entry.rank, entry.sort_key, entry.key_before, entry.key_after))
        for entry in in_order(season).order_by("position")
    ]
