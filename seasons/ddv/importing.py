"""A DDV ranking tournament's report (``seasons.ddv.files.to_json``) imported into a season
on the ranking keeper's server, without retyping.

The report becomes a finished tournament of the season's club whose series are closed and
whose players carry the reported points per series (``TournamentTotal``, what a season
ranks; there are no games behind them). Its players are the season owner's: matched by DDV
number, else created in his registry. The import is idempotent: the same report again
changes nothing, a corrected report of the same tournament replaces the results."""

from __future__ import annotations

import datetime
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.actors import Actor
from common.services import Refusal, ServiceError
from scoring.models import TournamentTotal
from seasons.ddv.check import Facts, qualification
from seasons.ddv.files import FORMAT, VERSION
from seasons.ddv.report import reason_text
from seasons.entries import refresh_season_entries
from seasons.models import DdvImport, Season, SeasonChange, SeasonTournament
from seasons.permissions import can_manage
from tournaments.models import (
    NameForm,
    Player,
    Registration,
    Series,
    Tiebreak,
    Tournament,
)
from tournaments.services.setup import unique_slug

FIELD = "report"
MAX_PLAYERS = 2000
MAX_SERIES = 20


@dataclass(frozen=True)
class ImportedPlayer:
    first_name: str
    last_name: str
    club: str
    ddv_number: str
    series_points: tuple[int | None, ...]
    name_form: str


@dataclass(frozen=True)
class ImportedReport:
    source: str
    name: str
    starts_on: datetime.date
    ends_on: datetime.date | None
    venue: str
    director: str
    referee: str
    ruleset: str
    series_count: int
    tiebreak: tuple[str, ...]
    players: tuple[ImportedPlayer, ...]


@dataclass(frozen=True)
class Outcome:
    tournament: Tournament
    created: bool  # a new tournament in the season
    unchanged: bool  # the same report was imported before: nothing done
    new_players: int  # players added to the owner's registry


def _refuse(message: str) -> ServiceError:
    return ServiceError("invalid_ddv_report", message, field=FIELD)


def _text(data: dict[str, Any], key: str, limit: int, *, required: bool = False) -> str:
    value = data.get(key, "")
    if value is None:
        value = ""
    if not isinstance(value, str) or len(value) > limit or (required and not value.strip()):
        raise _refuse(_("The report's field “%(key)s” is missing or not valid.") % {"key": key})
    return value.strip()


def _date(value: Any, key: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(value)
    except (TypeError, ValueError):
        raise _refuse(
            _("The report's field “%(key)s” is missing or not valid.") % {"key": key}
        ) from None


def _points(value: Any) -> tuple[int | None, ...]:
    if (
        not isinstance(value, list)
        or len(value) > MAX_SERIES
        or not all(p is None or (isinstance(p, int) and not isinstance(p, bool)) for p in value)
        or not any(p is not None for p in value)
        or any(p is not None and abs(p) > 10**6 for p in value)
    ):
        raise _refuse(_("A player's points per series are not valid."))
    return tuple(value)


def _player(data: Any) -> ImportedPlayer:
    if not isinstance(data, dict):
        raise _refuse(_("A player's line is not valid."))
    name_form = data.get("name_form", NameForm.FULL)
    if name_form not in NameForm.values:
        name_form = NameForm.ANONYMOUS  # unknown: publish nothing
    return ImportedPlayer(
        first_name=_text(data, "first_name", 80, required=True),
        last_name=_text(data, "last_name", 80, required=True),
        club=_text(data, "club", 120),
        ddv_number=_text(data, "ddv_number", 20),
        series_points=_points(data.get("series_points")),
        name_form=name_form,
    )


def parse_report(data: Any) -> ImportedReport:
    """The report checked field by field; a ``ServiceError`` on ``report`` says what is
    wrong (nothing is imported)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _refuse(_("This is not a DDV report of Doko-Turnier."))
    if data.get("version") != VERSION:
        raise _refuse(_("This version of the DDV report cannot be imported here."))
    source, head, players = data.get("source"), data.get("tournament"), data.get("players")
    if not isinstance(source, dict) or not isinstance(head, dict) or not isinstance(players, list):
        raise _refuse(_("This is not a DDV report of Doko-Turnier."))
    site = _text(source, "site", 200)
    slug = _text(source, "tournament", 60, required=True)
    if not players or len(players) > MAX_PLAYERS:
        raise _refuse(_("The report holds no players, or too many."))
    series_count = head.get("series_count")
    if not isinstance(series_count, int) or not 1 <= series_count <= MAX_SERIES:
        raise _refuse(
            _("The report's field “%(key)s” is missing or not valid.") % {"key": "series_count"}
        )
    tiebreak = head.get("tiebreak") or []
    if not isinstance(tiebreak, list) or not set(tiebreak) <= set(Tiebreak.values):
        raise _refuse(
            _("The report's field “%(key)s” is missing or not valid.") % {"key": "tiebreak"}
        )
    lines = tuple(_player(p) for p in players)
    if any(len(p.series_points) > series_count for p in lines):
        raise _refuse(_("A player's points per series are not valid."))
    numbers = [p.ddv_number for p in lines if p.ddv_number]
    if len(numbers) != len(set(numbers)):
        raise _refuse(_("A DDV number appears twice in the report."))
    starts_on = _date(head.get("starts_on"), "starts_on")
    ends_on = _date(head["ends_on"], "ends_on") if head.get("ends_on") else None
    if ends_on is not None and ends_on < starts_on:
        raise _refuse(
            _("The report's field “%(key)s” is missing or not valid.") % {"key": "ends_on"}
        )
    return ImportedReport(
        source=f"{site}/{slug}",
        name=_text(head, "name", 160, required=True),
        starts_on=starts_on,
        ends_on=ends_on,
        venue=_text(head, "venue", 200),
        director=_text(head, "director", 120),
        referee=_text(head, "referee", 120),
        ruleset=_text(head, "ruleset", 40) or "ddv",
        series_count=series_count,
        tiebreak=tuple(tiebreak),
        players=lines,
    )


def fingerprint(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def _registry_player(
    season: Season, line: ImportedPlayer, known: dict[tuple[str, ...], Player]
) -> tuple[Player, bool]:
    """The player of ``line`` in the registry of the season's club: by DDV number, else
    (re-import) the one this report made before under the same name and club, else a new one
    (created by the season's owner)."""
    if line.ddv_number:
        found = Player.objects.filter(
            registry_club_id=season.club_id, ddv_number=line.ddv_number
        ).first()
        if found is not None:
            return found, False
    else:
        previous = known.get((line.first_name, line.last_name, line.club))
        if previous is not None:
            return previous, False
    created = Player.objects.create(
        registry_club_id=season.club_id,
        owner=season.owner,
        first_name=line.first_name,
        last_name=line.last_name,
        club=line.club,
        ddv_number=line.ddv_number,
        name_form=line.name_form,
    )
    return created, True


def _tournament_fields(report: ImportedReport, season: Season) -> dict[str, Any]:
    return {
        "name": report.name,
        "starts_on": report.starts_on,
        "ends_on": report.ends_on,
        "venue": report.venue,
        "director": report.director,
        "referee": report.referee,
        "ruleset": report.ruleset,
        "series_count": report.series_count,
        "tiebreak": list(report.tiebreak),
        "status": Tournament.Status.FINISHED,
        "is_public": season.is_public,
        "ddv_ranking": True,
    }


@transaction.atomic
def import_ddv_report(season: Season, data: Any, *, actor: Actor) -> Outcome:
    """Import the report ``data`` (the decoded JSON) into ``season``, as its owner."""
    if actor.user is None or not can_manage(actor.user, season):
        raise ServiceError(
            "not_season_owner",
            _("Only the season's owner may change it."),
            refusal=Refusal.FORBIDDEN,
        )
    report = parse_report(data)
    facts = Facts(
        players=len(report.players),
        series=report.series_count,
        ruleset=report.ruleset,
        overrides=False,
        open_series=0,
    )
    reasons = qualification(facts)
    if reasons or data.get("qualifies") is not True:
        texts = [reason_text(reason, facts) for reason in reasons]
        raise ServiceError(
            "not_qualified",
            " ".join(texts or [_("The report says the tournament does not qualify.")]),
            field=FIELD,
            data={"reasons": [str(r) for r in reasons]},
        )
    season = Season.objects.select_for_update().get(pk=season.pk)
    print_ = fingerprint(data)
    before = DdvImport.objects.filter(season=season, source=report.source).first()
    if before is not None and before.fingerprint == print_:
        return Outcome(before.tournament, created=False, unchanged=True, new_players=0)
    fields = _tournament_fields(report, season)
    known: dict[tuple[str, ...], Player] = {}
    if before is None:
        tournament = Tournament.objects.create(
            slug=unique_slug(report.name), club=season.club, **fields
        )
        tournament.organizers.add(season.owner)
    else:
        tournament = before.tournament
        for key, value in fields.items():
            setattr(tournament, key, value)
        tournament.save()
        for registration in Registration.objects.filter(tournament=tournament).select_related(
            "player"
        ):
            p = registration.player
            known[(p.first_name, p.last_name, p.club)] = p
        Registration.objects.filter(tournament=tournament).delete()
        Series.objects.filter(tournament=tournament).delete()
    now = timezone.now()
    Series.objects.bulk_create(
        Series(tournament=tournament, number=n, status=Series.Status.CLOSED, closed_at=now)
        for n in range(1, report.series_count + 1)
    )
    new_players = 0
    for number, line in enumerate(report.players, start=1):
        player, created = _registry_player(season, line, known)
        new_players += created
        registration = Registration.objects.create(
            tournament=tournament, player=player, start_number=number
        )
        TournamentTotal.objects.create(
            tournament=tournament,
            registration=registration,
            points=sum(p for p in line.series_points if p is not None),
            series_points=list(line.series_points),
        )
    DdvImport.objects.update_or_create(
        season=season,
        source=report.source,
        defaults={"tournament": tournament, "fingerprint": print_, "imported_by": actor.user},
    )
    SeasonTournament.objects.get_or_create(
        season=season, tournament=tournament, defaults={"added_by": actor.user}
    )
    SeasonChange.objects.create(
        season=season,
        action="seasons.ddv_report.imported" if before is None else "seasons.ddv_report.replaced",
        after={
            "tournament": tournament.slug,
            "source": report.source,
            "players": len(report.players),
        },
        user=actor.user,
        via=actor.describe(),
    )
    refresh_season_entries(season)
    return Outcome(tournament, created=before is None, unchanged=False, new_players=new_players)
