"""Use cases of seasons: create or change a season, attach or detach a tournament. Each runs
in one transaction and records a ``SeasonChange``; refusals are ``ServiceError``s.

And the requests for the season's stored ranking (``SeasonEntry``): the changes above rewrite
it in their transaction (``seasons.entries.refresh_season_entries``), a change of an attached
tournament's results asks for it (``request_refresh``, a task per season). The arrows run
services → tasks → entries, never back."""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import F, OuterRef, Subquery
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as KombuOperationalError

from clubs import roles
from clubs.models import Club
from clubs.services import home_club
from common import slugs
from common.actors import Actor
from common.services import Refusal, ServiceError
from common.sql import prepared_cursor
from seasons.entries import refresh_season_entries
from seasons.models import Season, SeasonChange, SeasonTournament
from seasons.permissions import attachable_tournaments, can_manage
from seasons.ranking import PRESETS
from seasons.rules import OVERRIDES
from seasons.tasks import refresh_season
from tournaments.models import Tournament
from tournaments.permissions import TOURNAMENTS

logger = logging.getLogger(__name__)

NAME_MAX_LENGTH = 160
DESCRIPTION_MAX_LENGTH = 2000


@dataclass(frozen=True)
class SeasonData:
    """What a season's owner sets; an empty ``slug`` is made from the name."""

    name: str
    preset: str = "ddv_rangliste"
    slug: str = ""
    rule_overrides: dict[str, Any] = field(default_factory=dict)
    reference_date: datetime.date | None = None
    is_public: bool = True
    description: str = ""


def unique_season_slug(name: str, *, exclude_pk: int | None = None) -> str:
    """The short name a season's name suggests, unique among the seasons."""
    others = Season.objects.exclude(pk=exclude_pk) if exclude_pk else Season.objects.all()
    return slugs.unique_slug_in(others, slugs.slug_from_name(name, "saison"))


def _check(data: SeasonData, season: Season | None) -> SeasonData:
    """The data as it will be saved, or the first problem as a ServiceError on its field."""
    name = data.name.strip()
    if not name:
        raise ServiceError("name_required", _("Give the season a name."), field="name")
    if len(name) > NAME_MAX_LENGTH:
        raise ServiceError(
            "name_too_long",
            _("At most %(n)d characters.") % {"n": NAME_MAX_LENGTH},
            field="name",
        )
    if data.preset not in PRESETS:
        raise ServiceError(
            "unknown_preset",
            _("Choose one of: %(known)s.") % {"known": ", ".join(PRESETS)},
            field="preset",
        )
    OVERRIDES.refuse_invalid(data.rule_overrides)
    if len(data.description) > DESCRIPTION_MAX_LENGTH:
        raise ServiceError(
            "description_too_long",
            _("At most %(n)d characters.") % {"n": DESCRIPTION_MAX_LENGTH},
            field="description",
        )
    slug = data.slug.strip() or unique_season_slug(name, exclude_pk=season.pk if season else None)
    slugs.refuse_invalid(slug)
    return SeasonData(
        name=name,
        preset=data.preset,
        slug=slug,
        rule_overrides=dict(data.rule_overrides),
        reference_date=data.reference_date,
        is_public=data.is_public,
        description=data.description,
    )


def _snapshot(season: Season) -> dict[str, Any]:
    return {
        "name": season.name,
        "slug": season.slug,
        "preset": season.preset,
        "rule_overrides": season.rule_overrides,
        "reference_date": season.reference_date.isoformat() if season.reference_date else None,
        "is_public": season.is_public,
        "description": season.description,
    }


def _log(season: Season, action: str, actor: Actor, before: Any = None, after: Any = None) -> None:
    SeasonChange.objects.create(
        season=season,
        action=action,
        before=before,
        after=after,
        user=actor.user,
        via=actor.describe(),
    )


def _save(season: Season) -> None:
    slugs.save_with_unique_slug(
        season,
        lambda free: _("Another season has this short name; “%(free)s” is free.") % {"free": free},
    )


def _require_manager(season: Season, actor: Actor) -> None:
    if actor.user is None or not can_manage(actor.user, season):
        raise ServiceError(
            "not_season_owner",
            _("Only the season's owner may change it."),
            refusal=Refusal.FORBIDDEN,
        )


def private_attached(season: Season) -> list[Tournament]:
    """The season's tournaments the public may not see (private ones, or groups of a
    private league)."""
    attached = Tournament.objects.filter(seasons=season)
    return list(attached.exclude(pk__in=TOURNAMENTS.public_rows().values("pk")).order_by("name"))


def _refuse_private(tournaments: list[Tournament], field: str) -> None:
    """A public season shows every result it counts: a private tournament is refused."""
    if not tournaments:
        return
    raise ServiceError(
        "private_tournament",
        _(
            "A public season shows the names, players and points of its tournaments; "
            "private tournaments cannot be part of it: %(names)s. Make them public or "
            "the season private."
        )
        % {"names": ", ".join(t.name for t in tournaments)},
        field=field,
        refusal=Refusal.CONFLICT,
    )


@transaction.atomic
def create_season(data: SeasonData, *, actor: Actor, club: Club | None = None) -> Season:
    """A new season created by the actor, in his ``club`` (by default his personal club)."""
    if actor.user is None or not actor.user.is_authenticated:
        raise ServiceError(
            "login_required", _("Log in to create a season."), refusal=Refusal.FORBIDDEN
        )
    checked = _check(data, None)
    home = home_club(actor.user, roles.SEASONS, club)
    season = Season(owner=actor.user, club=home, **asdict(checked))
    _save(season)
    _log(season, "seasons.season.created", actor, after=_snapshot(season))
    return season


@transaction.atomic
def change_season(season: Season, data: SeasonData, *, actor: Actor) -> Season:
    """New settings for a season (its owner's)."""
    _require_manager(season, actor)
    season = Season.objects.select_for_update().get(pk=season.pk)
    checked = _check(data, season)
    if checked.is_public:
        _refuse_private(private_attached(season), "is_public")
    before = _snapshot(season)
    for key, value in asdict(checked).items():
        setattr(season, key, value)
    _save(season)
    after = _snapshot(season)
    if after != before:
        _log(season, "seasons.season.changed", actor, before=before, after=after)
        refresh_season_entries(season)
    return season


@transaction.atomic
def attach_tournament(season: Season, tournament: Tournament, *, actor: Actor) -> bool:
    """Add a tournament of the season's club; False if it was attached already."""
    _require_manager(season, actor)
    if not attachable_tournaments(season).filter(pk=tournament.pk).exists():
        raise ServiceError(
            "not_own_tournament",
            _("Only tournaments of the season's club can be added."),
            field="tournament",
            refusal=Refusal.FORBIDDEN,
        )
    if season.is_public and not TOURNAMENTS.is_public(tournament):
        _refuse_private([tournament], "tournament")
    _attachment, created = SeasonTournament.objects.get_or_create(
        season=season, tournament=tournament, defaults={"added_by": actor.user}
    )
    if created:
        _log(
            season,
            "seasons.tournament.attached",
            actor,
            after={"tournament": tournament.slug, "name": tournament.name},
        )
        refresh_season_entries(season)
    return created


@transaction.atomic
def detach_tournament(season: Season, tournament: Tournament, *, actor: Actor) -> bool:
    """Remove a tournament from the season; False if it was not attached."""
    _require_manager(season, actor)
    deleted, _rows = SeasonTournament.objects.filter(season=season, tournament=tournament).delete()
    if deleted:
        _log(
            season,
            "seasons.tournament.detached",
            actor,
            before={"tournament": tournament.slug, "name": tournament.name},
        )
        refresh_season_entries(season)
    return bool(deleted)


# --- The stored ranking ---------------------------------------------------------------------


def request_refresh(season_ids: Iterable[int], tournament_ids: Iterable[int]) -> None:
    """Count a refresh request for each season, mark the tournaments' results changed in
    it (``SeasonTournament.results_changed``: the refresh computes their players' lines
    again) and queue a task that refreshes it (the tasks of requests that one refresh covers
    do nothing). Call it after the change has committed."""
    ids = sorted(set(season_ids))
    if not ids:
        return
    with transaction.atomic():
        # The count first: a refresh that reads it finds the marks of every request it
        # covers (they commit together; the count waits for a refresh's write).
        Season.objects.filter(pk__in=ids).update(entries_requested=F("entries_requested") + 1)
        SeasonTournament.objects.filter(season__in=ids, tournament__in=set(tournament_ids)).update(
            results_changed=Subquery(
                Season.objects.filter(pk=OuterRef("season_id")).values("entries_requested")
            )
        )
        counted = list(
            Season.objects.filter(pk__in=ids).values_list("pk", "entries_requested").order_by("pk")
        )
    for pk, requested in counted:
        try:
            refresh_season.delay(pk, requested)
        except (KombuOperationalError, OSError) as exc:
            # The broker is down (publishing fails at once, CELERY_TASK_PUBLISH_RETRY_POLICY).
            # The request counted above stays: the next change's task covers it, else the
            # nightly seasons.refresh_all. Logged once per outage and process, not per game.
            if not _queueing.failing:
                _queueing.failing = True
                logger.warning(
                    "Season refreshes cannot be queued (%s: %s); they wait for the next "
                    "change after the broker is back, or the nightly refresh",
                    type(exc).__name__,
                    exc,
                )
            return
    if _queueing.failing:
        _queueing.failing = False
        logger.warning("Season refreshes are queued again")


class _Queueing:
    """Whether queuing season refreshes failed last time (in this process)."""

    failing = False


_queueing = _Queueing()


_SEASONS_OF = "SELECT DISTINCT season_id FROM {table} WHERE tournament_id IN ({ids})"


def seasons_of_tournament_sql() -> str:
    """The ids of the seasons holding the tournament ``%(tournament)s`` as an SQL array:
    the question ``refresh_after_results`` has the entry's claim of the sheet answer
    (``scoring.signals.ask_with_totals``)."""
    table = SeasonTournament._meta.db_table  # from the model; the id is a parameter
    return (
        f"SELECT coalesce(array_agg(DISTINCT season_id), '{{}}') FROM {table}"
        " WHERE tournament_id = %(tournament)s"
    )


def refresh_after_results(
    sender: object, *, tournament_id: int, seasons: list[int] | None = None, **kwargs: object
) -> None:
    """Receiver of ``scoring.signals.totals_changed``: the seasons holding the tournament
    are to be refreshed. ``seasons``: those the change's transaction read (a game entry's
    claim of the sheet); else a tournament in no season costs one indexed query."""
    if seasons is None:
        refresh_after_players_merged(sender, tournament_ids=[tournament_id])
    elif seasons:
        request_refresh(sorted(seasons), [tournament_id])


def refresh_after_players_merged(
    sender: object, *, tournament_ids: Iterable[int], **kwargs: object
) -> None:
    """Receiver of ``tournaments.signals.players_merged`` (and the one above): the seasons
    holding any of the tournaments are to be refreshed."""
    # After every game: a plain indexed query, without building an ORM query each time.
    ids = list(tournament_ids)
    if not ids:
        return
    sql = _SEASONS_OF.format(
        table=SeasonTournament._meta.db_table, ids=", ".join(["%s"] * len(ids))
    )
    with prepared_cursor() as cursor:  # table name from the model; the ids are parameters
        cursor.execute(sql, ids)
        seasons = [pk for (pk,) in cursor.fetchall()]
    if seasons:
        request_refresh(seasons, ids)
