"""A season's stored ranking as its page and API read it: a page of lines, found by name and
club, with the season's tournaments apart; and one line's explanation, asked for on its own.

The page reads ``SeasonEntry`` rows (``seasons.entries.refresh_season_entries`` keeps them),
never the results behind them: a fixed number of statements whatever the number of players
(the lines of one page in the ranking's order with their places, computed from the season's
keys as they are read, ``seasons.placed``, and the players' names; how many there are, the
clubs, which of the page's players have a page of their own). A search by name reads the
season's names and keeps those ``tournaments.names.found`` finds, as every name search does;
a club's lines are chosen the same way, so that each keeps its place in the whole season.
The names are the players' own (a corrected name shows at once, without a refresh).

A line's explanation (which results count, and why not) reads only the tournaments of that
player: ``seasons.standings.player_explanation``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, replace
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Case, Count, OuterRef, Subquery, Value, When
from django.utils.translation import gettext as _

from seasons.models import Season, SeasonEntry, SeasonTournament
from seasons.placed import named_in_order, place, placed_at, placed_part
from seasons.ranking import Basis, RankingRule, window_opens
from seasons.rules import ranking_rule
from seasons.standings import TournamentInfo, exact_value, reference_date
from tournaments.finality import open_series_count
from tournaments.models import Registration, Tournament
from tournaments.names import folded, found, search_words
from tournaments.permissions import TOURNAMENTS, visible_tournaments
from tournaments.publication import shown_name

PAGE_SIZE = 100
NEWEST_TOURNAMENTS = 10  # the page lists these; the season's tournament page every one


@dataclass(frozen=True, slots=True)
class ListedLine:
    """A player's stored line with his name and club as they are now."""

    player: int
    name: str
    club: str
    position: int
    place: int | None
    shared: bool
    value: Decimal | int  # the average per series (2 places) or the counted sum
    series: int
    total: int
    tournaments: int
    missing_series: int
    provisional: bool  # a result shown but not counted yet ("vorläufig")
    has_page: bool  # he has a public result, so a page of his own

    @property
    def ranked(self) -> bool:
        return self.place is not None

    @property
    def counted_any(self) -> bool:
        return self.tournaments > 0


@dataclass(frozen=True)
class StoredRanking:
    season: Season
    rule: RankingRule
    reference: datetime.date
    window_opens: datetime.date | None
    computed_at: datetime.datetime | None  # None: nothing stored yet
    lines: tuple[ListedLine, ...]  # the asked part, in the ranking's order
    count: int  # lines that match the club and the search
    clubs: tuple[str, ...]  # every club of the season's players, for the filter
    club: str | None
    query: str

    @property
    def ranked(self) -> tuple[ListedLine, ...]:
        return tuple(ln for ln in self.lines if ln.ranked)

    @property
    def unranked(self) -> tuple[ListedLine, ...]:
        return tuple(ln for ln in self.lines if not ln.ranked)

    @property
    def average(self) -> bool:
        return self.rule.basis is Basis.SERIES_AVERAGE


COLUMNS = (
    "position", "player_id", "player__first_name", "player__last_name", "player__club",
    "player__name_form",
    "ranked", "rank", "sort_key", "key_before", "key_after", "value_numerator",
    "value_denominator", "series", "total", "tournaments", "missing_series", "provisional",
)  # fmt: skip


def stored_ranking(
    season: Season,
    *,
    club: str | None = None,
    query: str = "",
    offset: int = 0,
    limit: int = PAGE_SIZE,
) -> StoredRanking:
    """``limit`` lines of the season's stored ranking from ``offset`` on, of the club's
    players only (``club``) and of those whose name or club holds every word of ``query``;
    each with his place in the whole season."""
    rule = ranking_rule(season)
    reference = reference_date(season)
    words = search_words(query)
    if words:
        # Every line's names in the ranking's order, its position its index + 1; the chosen
        # lines placed from the keys read with them (``seasons.placed``), so that each keeps
        # its place in the whole season.
        named = named_in_order(season)
        # Found by the name as published: a withheld last name is not searchable.
        matching = [
            index for index, (_p, _key, first, last, c, form) in enumerate(named)
            if (club is None or c == club) and found(words, shown_name(first, last, form), c)
        ]  # fmt: skip
        count = len(matching)
        rows = placed_at(season, named, matching[offset : offset + limit])
    else:
        counted = SeasonEntry.objects.filter(season=season)
        count = (counted if club is None else counted.filter(player__club=club)).count()
        rows = placed_part(season, club, offset, limit)
    with_page = _with_page(row[1] for row in rows)
    lines = tuple(
        ListedLine(
            player=player,
            name=shown_name(first, last, form),
            club=player_club,
            position=position,
            place=where[0],
            shared=where[1],
            value=exact_value(rule, numerator, denominator),
            series=series,
            total=total,
            tournaments=tournaments,
            missing_series=missing,
            provisional=bool(provisional),  # as SQLite gives it to ``of_club``
            has_page=player in with_page,
        )
        for (
            position, player, first, last, player_club, form, ranked, rank, key, before, after,
            numerator, denominator, series, total, tournaments, missing, provisional,
        ) in rows
        for where in [place(ranked, rank, key, before, after)]
    )  # fmt: skip
    return StoredRanking(
        season=season,
        rule=rule,
        reference=reference,
        window_opens=window_opens(rule, reference),
        computed_at=season.entries_at,
        lines=lines,
        count=count,
        clubs=season_clubs(season),
        club=club,
        query=query,
    )


def season_clubs(season: Season) -> tuple[str, ...]:
    """The clubs of the season's players, in the order of a German list."""
    clubs = (
        SeasonEntry.objects.filter(season=season)
        .exclude(player__club="")
        .values_list("player__club", flat=True)
        .order_by()
        .distinct()
    )
    return tuple(sorted(clubs, key=lambda c: (folded(c), c)))


def _with_page(players: Iterable[int]) -> set[int]:
    """Those of ``players`` who have a result in a public tournament (their page shows it)."""
    asked = list(players)
    if not asked:
        return set()
    return set(
        Registration.objects.filter(player_id__in=asked)
        .filter(TOURNAMENTS.related_public_q("tournament"))
        .values_list("player_id", flat=True)
        .order_by()
        .distinct()
    )


def season_tournaments(
    season: Season,
    viewer: AbstractBaseUser | AnonymousUser,
    *,
    newest: int | None = None,
) -> tuple[tuple[TournamentInfo, ...], int]:
    """The season's tournaments, newest first (only the ``newest`` ones when given), each
    with its number of players, and how many there are. One made private after it was
    attached is "a private tournament" to whoever may not see it (no name, no link)."""
    attached = SeasonTournament.objects.filter(season=season).values("tournament_id")
    players = (
        Registration.objects.filter(tournament=OuterRef("pk"))
        .order_by()
        .values("tournament")
        .annotate(n=Count("pk"))
        .values("n")
    )
    rows = Tournament.objects.filter(pk__in=attached)
    total = rows.count() if newest is not None else None
    found_rows = (
        rows.annotate(
            players=Subquery(players),
            still_open=open_series_count(),
            seen_public=Case(When(TOURNAMENTS.public_q(), then=Value(True)), default=Value(False)),
        )
        .values_list(
            "pk", "name", "slug", "starts_on", "status", "seen_public", "players", "still_open"
        )
        .order_by("-starts_on", "-pk")
    )
    infos = tuple(
        TournamentInfo(
            pk, name, slug, starts_on, status, is_public, players=players or 0,
            complete=not still_open,
        )
        for pk, name, slug, starts_on, status, is_public, players, still_open in (
            found_rows[:newest] if newest is not None else found_rows
        )
    )  # fmt: skip
    return hidden_from(viewer, infos), total if total is not None else len(infos)


def hidden_from(
    viewer: AbstractBaseUser | AnonymousUser, infos: tuple[TournamentInfo, ...]
) -> tuple[TournamentInfo, ...]:
    """The tournaments as ``viewer`` may see them: a private one he may not see is "a
    private tournament", without name and short name."""
    private = {t.pk for t in infos if not t.is_public}
    if private and viewer.is_authenticated:
        private -= set(
            visible_tournaments(viewer).filter(pk__in=private).values_list("pk", flat=True)
        )
    if not private:
        return infos
    label = str(_("Private tournament"))
    return tuple(replace(t, name=label, slug="") if t.pk in private else t for t in infos)
