"""Use cases of team competitions: the league and its settings, teams and squads, the match
days, the line-ups and the team draw. Each runs in one transaction and records a
``LeagueChange``; refusals are ``ServiceError``s.

Each group of a match day plays as a tournament of its own (organized by the league's
owner, one series per series of the day): its seats, games, sheets and standings are a
tournament's. The team draw (``draw_team_series``) takes the place of the plain draw for a
group's series, also when the tournament's own draw is asked for.
"""

from __future__ import annotations

import datetime
import itertools
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs import roles
from clubs.models import Club
from clubs.services import home_club
from common import slugs
from common.actors import Actor
from common.services import Refusal, ServiceError
from teams import schedule as schedule_core
from teams import season_end
from teams import seating as team_seating
from teams.doors import TEAM_CAPTAIN
from teams.models import (
    MAX_DAYS,
    MAX_SEASON_END_PLACES,
    MAX_SERIES_PER_DAY,
    SQUAD_MAX_LIMIT,
    Group,
    GroupTeam,
    League,
    LeagueChange,
    LineUp,
    MatchDay,
    SquadMember,
    Team,
)
from teams.permissions import can_manage, squad_candidates
from teams.rules import OVERRIDES
from teams.scoring import PRESETS
from tournaments import seating
from tournaments.models import Player, Registration, Series, Tournament
from tournaments.names import name_key
from tournaments.services import draw as draw_service
from tournaments.services import registrations as registration_service
from tournaments.services.setup import save_tournament, unique_slug

NAME_MAX_LENGTH = 160
TEAM_NAME_MAX_LENGTH = 120
DESCRIPTION_MAX_LENGTH = 2000
#: Short names a league cannot take: the pages beside the leagues' own.
RESERVED_LEAGUE_SLUGS = frozenset({"neu"})
#: ``Series.draw_mode`` of a series the team draw made.
#: What the team draw writes into ``Series.draw_mode``.
TEAM_DRAW_MODE = "teams"


@dataclass(frozen=True)
class LeagueData:
    """What a league's owner sets; an empty ``slug`` is made from the name."""

    name: str
    slug: str = ""
    kind: str = League.Kind.LEAGUE
    scoring_preset: str = "bundesliga"
    scoring_overrides: dict[str, Any] = field(default_factory=dict)
    squad_max: int = 8
    players_per_team: int = 4
    series_per_day: int = 4
    days: int = 5
    promotion_places: int = 0
    relegation_places: int = 0
    playoff_places: int = 0
    is_public: bool = True
    description: str = ""


@dataclass(frozen=True)
class Substitution:
    """How a team's line-up of a series differs from its previous series: who went out,
    who came in (players, by name order)."""

    team: Team
    series_number: int
    went_out: tuple[Player, ...]
    came_in: tuple[Player, ...]


# -- helpers -------------------------------------------------------------------------------


def _log(league: League, action: str, actor: Actor, before: Any = None, after: Any = None) -> None:
    LeagueChange.objects.create(
        league=league,
        action=action,
        before=before,
        after=after,
        user=actor.user,
        via=actor.describe(),
    )


def _require_manager(league: League, actor: Actor) -> None:
    if actor.user is None or not can_manage(actor.user, league):
        raise ServiceError(
            "not_league_owner",
            _("Only the team competition's owner may change it."),
            refusal=Refusal.FORBIDDEN,
        )


def _too_long(field_name: str, n: int) -> ServiceError:
    return ServiceError(
        f"{field_name}_too_long", _("At most %(n)d characters.") % {"n": n}, field=field_name
    )


def _whole(value: Any, low: int, high: int, field_name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ServiceError(
            f"invalid_{field_name}",
            _("Give a whole number from %(low)d to %(high)d.") % {"low": low, "high": high},
            field=field_name,
        )


def unique_league_slug(name: str, *, exclude_pk: int | None = None) -> str:
    """The short name a league's name suggests, unique among the leagues."""
    others = League.objects.exclude(pk=exclude_pk) if exclude_pk else League.objects.all()
    return slugs.unique_slug_in(others, slugs.slug_from_name(name, "liga"), RESERVED_LEAGUE_SLUGS)


def _check(data: LeagueData, league: League | None) -> LeagueData:
    """The data as it will be saved, or the first problem as a ServiceError on its field."""
    name = data.name.strip()
    if not name:
        raise ServiceError("name_required", _("Give the team competition a name."), field="name")
    if len(name) > NAME_MAX_LENGTH:
        raise _too_long("name", NAME_MAX_LENGTH)
    if data.kind not in League.Kind.values:
        raise ServiceError(
            "unknown_kind",
            _("Choose one of: %(known)s.") % {"known": ", ".join(League.Kind.values)},
            field="kind",
        )
    if data.scoring_preset not in PRESETS:
        raise ServiceError(
            "unknown_preset",
            _("Choose one of: %(known)s.") % {"known": ", ".join(PRESETS)},
            field="scoring_preset",
        )
    OVERRIDES.refuse_invalid(data.scoring_overrides)
    _whole(data.squad_max, 1, SQUAD_MAX_LIMIT, "squad_max")
    _whole(data.players_per_team, 4, 5, "players_per_team")
    if data.squad_max < data.players_per_team:
        raise ServiceError(
            "squad_too_small",
            _("A squad must hold at least the %(n)d players of a series.")
            % {"n": data.players_per_team},
            field="squad_max",
        )
    _whole(data.series_per_day, 1, MAX_SERIES_PER_DAY, "series_per_day")
    _whole(data.days, 1, MAX_DAYS, "days")
    _check_season_end(data, league)
    if len(data.description) > DESCRIPTION_MAX_LENGTH:
        raise _too_long("description", DESCRIPTION_MAX_LENGTH)
    slug = data.slug.strip() or unique_league_slug(name, exclude_pk=league.pk if league else None)
    slugs.refuse_invalid(slug)
    if slug in RESERVED_LEAGUE_SLUGS:
        raise ServiceError(
            "slug_reserved",
            _("“%(slug)s” names a page of the app; “%(free)s” is free.")
            % {"slug": slug, "free": unique_league_slug(slug)},
            field="slug",
        )
    return LeagueData(
        name=name,
        slug=slug,
        kind=data.kind,
        scoring_preset=data.scoring_preset,
        scoring_overrides=dict(data.scoring_overrides),
        squad_max=data.squad_max,
        players_per_team=data.players_per_team,
        series_per_day=data.series_per_day,
        days=data.days,
        promotion_places=data.promotion_places,
        relegation_places=data.relegation_places,
        playoff_places=data.playoff_places,
        is_public=data.is_public,
        description=data.description,
    )


def _check_season_end(data: LeagueData, league: League | None) -> None:
    """Each count a whole number from 0; with teams in the league, the places going up,
    down and into the play-off together at most its teams (``teams.season_end``). A league
    without teams yet is checked when the table is made (the marks say "too few teams")."""
    for key in ("promotion_places", "relegation_places", "playoff_places"):
        _whole(getattr(data, key), 0, MAX_SEASON_END_PLACES, key)
    teams = league.teams.count() if league is not None else 0
    places = season_end.Places(
        up=data.promotion_places, down=data.relegation_places, playoff=data.playoff_places
    )
    if teams and season_end.check_places(places, teams):
        field_name = "relegation_places" if places.up + places.down > teams else "playoff_places"
        raise ServiceError(
            "too_many_season_end_places",
            ngettext(
                "The league has %(n)d team: at most %(n)d place can go up, go down or play "
                "the relegation play-off together.",
                "The league has %(n)d teams: at most %(n)d places can go up, go down or play "
                "the relegation play-off together.",
                teams,
            )
            % {"n": teams},
            field=field_name,
        )


def _snapshot(league: League) -> dict[str, Any]:
    return {key: getattr(league, key) for key in LeagueData.__dataclass_fields__}


def _save(league: League) -> None:
    slugs.save_with_unique_slug(
        league,
        lambda free: (
            _("Another team competition has this short name; “%(free)s” is free.") % {"free": free}
        ),
    )


def has_match_days(league: League) -> bool:
    return MatchDay.objects.filter(league=league).exists()


# -- the league ------------------------------------------------------------------------------


@transaction.atomic
def create_league(data: LeagueData, *, actor: Actor, club: Club | None = None) -> League:
    """A new team competition created by the actor, in his ``club`` (by default his personal
    club); its players come from his registry."""
    if actor.user is None or not actor.user.is_authenticated:
        raise ServiceError(
            "login_required", _("Log in to create a team competition."), refusal=Refusal.FORBIDDEN
        )
    checked = _check(data, None)
    home = home_club(actor.user, roles.LEAGUES, club)
    league = League(owner=actor.user, club=home, **asdict(checked))
    _save(league)
    _log(league, "teams.league.created", actor, after=_snapshot(league))
    return league


#: Settings the match days are made from: fixed once they exist.
_FIXED_BY_SCHEDULE = ("players_per_team", "series_per_day", "days")


@transaction.atomic
def change_league(league: League, data: LeagueData, *, actor: Actor) -> League:
    """New settings for a league (its owner's). The number of days, of series per day and
    of players per team cannot change once the match days are made."""
    _require_manager(league, actor)
    league = League.objects.select_for_update().get(pk=league.pk)
    checked = _check(data, league)
    if has_match_days(league):
        for key in _FIXED_BY_SCHEDULE:
            if getattr(checked, key) != getattr(league, key):
                raise ServiceError(
                    "fixed_by_schedule",
                    _("The match days are made; this cannot change any more."),
                    field=key,
                )
    before = _snapshot(league)
    for key, value in asdict(checked).items():
        setattr(league, key, value)
    _save(league)
    after = _snapshot(league)
    if after != before:
        _log(league, "teams.league.changed", actor, before=before, after=after)
    return league


# -- teams and squads --------------------------------------------------------------------------


@transaction.atomic
def add_team(
    league: League, name: str, *, club: str = "", partner_club: str = "", actor: Actor
) -> Team:
    """A new team at the end of the league's list; not once the match days are made.
    ``partner_club``: the second club of a Spielgemeinschaft (shown "SG Club A / Club B")."""
    _require_manager(league, actor)
    league = League.objects.select_for_update().get(pk=league.pk)
    name = name.strip()
    if not name:
        raise ServiceError("name_required", _("Give the team a name."), field="name")
    if len(name) > TEAM_NAME_MAX_LENGTH:
        raise _too_long("name", TEAM_NAME_MAX_LENGTH)
    club, partner_club = _clubs(club, partner_club)
    if has_match_days(league):
        raise ServiceError(
            "schedule_made",
            _("The match days are made; no team can join any more."),
            refusal=Refusal.CONFLICT,
        )
    if league.teams.filter(name__iexact=name).exists():
        raise ServiceError(
            "team_name_taken", _("The league has a team of this name already."), field="name"
        )
    highest = league.teams.aggregate(m=Max("position"))["m"]
    team = Team.objects.create(
        league=league,
        name=name,
        club=club,
        partner_club=partner_club,
        position=0 if highest is None else highest + 1,
    )
    after = {"team": team.pk, "name": name, "club": club}
    if partner_club:
        after["partner_club"] = partner_club
    _log(league, "teams.team.added", actor, after=after)
    return team


def _clubs(club: str, partner_club: str) -> tuple[str, str]:
    """A team's club and the second club of a Spielgemeinschaft, stripped and checked."""
    club, partner_club = club.strip(), partner_club.strip()
    if len(club) > TEAM_NAME_MAX_LENGTH:
        raise _too_long("club", TEAM_NAME_MAX_LENGTH)
    if len(partner_club) > TEAM_NAME_MAX_LENGTH:
        raise _too_long("partner_club", TEAM_NAME_MAX_LENGTH)
    if partner_club and not club:
        raise ServiceError(
            "sg_without_club",
            _("Name the first club too: a Spielgemeinschaft is formed by two clubs."),
            field="club",
        )
    if partner_club and partner_club.casefold() == club.casefold():
        raise ServiceError(
            "sg_same_club",
            _("The second club must be another club than the first."),
            field="partner_club",
        )
    return club, partner_club


@transaction.atomic
def change_team_clubs(team: Team, *, club: str, partner_club: str, actor: Actor) -> Team:
    """A team's club and the second club of a Spielgemeinschaft (none: ""), at any time:
    two clubs that join forces mid-season keep the team, its squad and its results."""
    team = Team.objects.select_for_update().select_related("league").get(pk=team.pk)
    _require_manager(team.league, actor)
    club, partner_club = _clubs(club, partner_club)
    before = {"club": team.club, "partner_club": team.partner_club}
    team.club, team.partner_club = club, partner_club
    after = {"club": club, "partner_club": partner_club}
    if after != before:
        team.save(update_fields=["club", "partner_club"])
        _log(
            team.league,
            "teams.team.changed",
            actor,
            before={"team": team.pk, **before},
            after={"team": team.pk, **after},
        )
    return team


@transaction.atomic
def add_squad_member(team: Team, player: Player | int, *, actor: Actor) -> SquadMember:
    """Put a player of the registry of the league's club into the team's squad. Refused when another
    team of the league has him or the squad is full (the team row is locked, so two
    additions at once cannot both take the last place)."""
    team = Team.objects.select_for_update().select_related("league").get(pk=team.pk)
    league = team.league
    _require_manager(league, actor)
    pk = player if isinstance(player, int) else player.pk
    found = squad_candidates(league).filter(pk=pk).first()
    if found is None:
        raise ServiceError("player_not_found", _("Player not found."), refusal=Refusal.NOT_FOUND)
    other = SquadMember.objects.filter(league=league, player=found).select_related("team").first()
    if other is not None:
        raise ServiceError(
            "player_in_other_team",
            _("%(player)s already plays for %(team)s in this competition.")
            % {"player": found, "team": other.team},
            field="player",
        )
    if team.squad.count() >= league.squad_max:
        raise ServiceError(
            "squad_full",
            _("The squad of %(team)s is full (%(n)d players).")
            % {"team": team, "n": league.squad_max},
            field="player",
        )
    try:
        with transaction.atomic():
            member = SquadMember.objects.create(team=team, league=league, player=found)
    except IntegrityError as exc:  # another team took him meanwhile
        raise ServiceError(
            "player_in_other_team",
            _("%(player)s already plays for another team in this competition.") % {"player": found},
            field="player",
        ) from exc
    _log(
        league,
        "teams.squad.added",
        actor,
        after={"team": team.pk, "player": found.pk, "name": str(found)},
    )
    return member


@transaction.atomic
def remove_squad_member(member: SquadMember, *, actor: Actor) -> None:
    """Take a player out of his squad; refused once he is in a line-up of his team."""
    member = SquadMember.objects.select_related("team", "league", "player").get(pk=member.pk)
    _require_manager(member.league, actor)
    Team.objects.select_for_update().get(pk=member.team_id)
    if LineUp.objects.filter(team_id=member.team_id, player_id=member.player_id).exists():
        raise ServiceError(
            "player_lined_up",
            _("%(player)s is in a line-up of %(team)s and stays in the squad.")
            % {"player": member.player, "team": member.team},
            refusal=Refusal.CONFLICT,
        )
    member.delete()
    _log(
        member.league,
        "teams.squad.removed",
        actor,
        before={"team": member.team_id, "player": member.player_id, "name": str(member.player)},
    )


# -- match days --------------------------------------------------------------------------------


def _group_name(league: League, day: int, group: int) -> str:
    return _("%(league)s, match day %(day)d, group %(group)d") % {
        "league": league.name,
        "day": day,
        "group": group,
    }


def make_group(
    league: League, match_day: MatchDay, number: int, name: str, teams: Sequence[Team]
) -> Group:
    """A group of ``match_day`` with its own tournament (organized by the league's owner,
    in the league's club, one series per series of the day) and ``teams`` in that order.
    The group stage's days and the knockout's matches are made by it."""
    tournament = Tournament(
        name=name[:NAME_MAX_LENGTH],
        slug=unique_slug(name),
        starts_on=match_day.date or timezone.localdate(),
        series_count=league.series_per_day,
        is_public=league.is_public,
        status=Tournament.Status.REGISTRATION,
        club=league.club,  # the league's club keeps its groups
    )
    save_tournament(tournament, organizer=league.owner)
    group = Group.objects.create(match_day=match_day, number=number, tournament=tournament)
    GroupTeam.objects.bulk_create(
        GroupTeam(group=group, team=team, order=order) for order, team in enumerate(teams)
    )
    return group


@transaction.atomic
def make_match_days(
    league: League,
    *,
    actor: Actor,
    dates: Sequence[datetime.date | None] = (),
) -> schedule_core.Schedule:
    """Make (or make again) the league's match days from ``teams.schedule``: per day its
    groups, each with its tournament and teams. ``dates[d]`` is the date of day d + 1, if
    known. Refused once a series of any group is drawn. Returns the schedule (its repeated
    meetings and pairs that never meet)."""
    _require_manager(league, actor)
    league = League.objects.select_for_update().select_related("owner").get(pk=league.pk)
    if MatchDay.objects.filter(league=league, stage=MatchDay.Stage.KNOCKOUT).exists():
        raise ServiceError(
            "knockout_started",
            _("The knockout has started; the match days stay as they are."),
            refusal=Refusal.CONFLICT,
        )
    if (
        Series.objects.filter(tournament__team_group__match_day__league=league)
        .exclude(status=Series.Status.PLANNED)
        .exists()
    ):
        raise ServiceError(
            "series_drawn",
            _("A group has drawn its tables already; the match days stay as they are."),
            refusal=Refusal.CONFLICT,
        )
    teams = list(league.teams.order_by("position"))
    try:
        plan = schedule_core.make_schedule(len(teams), league.days, league.seed)
    except schedule_core.ScheduleError as exc:
        if exc.code == "no_group_split":
            below, above = exc.params.get("below"), exc.params["above"]
            message = ngettext(
                "%(n)d team cannot be split into groups of four and five; %(above)d teams can.",
                "%(n)d teams cannot be split into groups of four and five; %(above)d teams can.",
                len(teams),
            ) % {"n": len(teams), "above": above}
            if below:
                message = ngettext(
                    "%(n)d team cannot be split into groups of four and five; %(below)d or "
                    "%(above)d teams can.",
                    "%(n)d teams cannot be split into groups of four and five; %(below)d or "
                    "%(above)d teams can.",
                    len(teams),
                ) % {"n": len(teams), "below": below, "above": above}
            raise ServiceError(exc.code, message, refusal=Refusal.CONFLICT) from exc
        raise
    old = list(Tournament.objects.filter(team_group__match_day__league=league))
    MatchDay.objects.filter(league=league).delete()
    for tournament in old:
        tournament.delete()
    for d, day in enumerate(plan.days, start=1):
        date = dates[d - 1] if d - 1 < len(dates) else None
        match_day = MatchDay.objects.create(league=league, number=d, date=date)
        for g, members in enumerate(day, start=1):
            make_group(league, match_day, g, _group_name(league, d, g), [teams[i] for i in members])
    _log(
        league,
        "teams.match_days.made",
        actor,
        after={
            "days": [[list(group) for group in day] for day in plan.days],
            "repeats": plan.repeats,
            "method": str(plan.method),
            "seed": plan.seed,
        },
    )
    return plan


@transaction.atomic
def change_match_day(match_day: MatchDay, *, date: datetime.date | None, actor: Actor) -> MatchDay:
    """The date of a match day; its groups' tournaments move to it."""
    match_day = MatchDay.objects.select_for_update().select_related("league").get(pk=match_day.pk)
    _require_manager(match_day.league, actor)
    before = match_day.date.isoformat() if match_day.date else None
    match_day.date = date
    match_day.save(update_fields=["date"])
    if date is not None:
        Tournament.objects.filter(team_group__match_day=match_day).update(starts_on=date)
    _log(
        match_day.league,
        "teams.match_day.changed",
        actor,
        before={"day": match_day.number, "date": before},
        after={"day": match_day.number, "date": date.isoformat() if date else None},
    )
    return match_day


@transaction.atomic
def change_group(group: Group, *, venue: str, actor: Actor) -> Group:
    """Where a group plays (its tournament's venue too)."""
    group = Group.objects.select_for_update().select_related("match_day__league").get(pk=group.pk)
    league = group.match_day.league
    _require_manager(league, actor)
    venue = venue.strip()
    if len(venue) > 200:
        raise _too_long("venue", 200)
    before = group.venue
    group.venue = venue
    group.save(update_fields=["venue"])
    Tournament.objects.filter(pk=group.tournament_id).update(venue=venue)
    _log(
        league,
        "teams.group.changed",
        actor,
        before={"group": group.pk, "venue": before},
        after={"group": group.pk, "venue": venue},
    )
    return group


@transaction.atomic
def change_places(
    league: League,
    *,
    dates: Mapping[int, datetime.date | None],
    venues: Mapping[int, str],
    actor: Actor,
) -> int:
    """Several match days' dates and groups' venues at once (match day id → date, group id →
    venue), all or none; ids of another league are refused. Returns how many changed."""
    _require_manager(league, actor)
    days = {d.pk: d for d in MatchDay.objects.filter(league=league, pk__in=list(dates))}
    groups = {g.pk: g for g in Group.objects.filter(match_day__league=league, pk__in=list(venues))}
    if len(days) != len(dates) or len(groups) != len(venues):
        raise ServiceError(
            "not_in_league",
            _("Only this league's match days and groups."),
            refusal=Refusal.NOT_FOUND,
        )
    changed = 0
    for pk, date in dates.items():
        if days[pk].date != date:
            change_match_day(days[pk], date=date, actor=actor)
            changed += 1
    for pk, venue in venues.items():
        if groups[pk].venue != venue.strip():
            change_group(groups[pk], venue=venue, actor=actor)
            changed += 1
    return changed


# -- line-ups ------------------------------------------------------------------------------------


def line_up_size(group: Group, league: League) -> int:
    """Players a team names per series: the league's number, five in a group of five teams
    (so that every table seats one player of each team: five tables of five)."""
    return max(league.players_per_team, group.group_teams.count())


@transaction.atomic
def set_line_up(
    group: Group,
    team: Team,
    series_number: int,
    players: Sequence[Player | int],
    *,
    actor: Actor,
) -> list[LineUp]:
    """Name who plays series ``series_number`` of ``group`` for ``team``, in order (the team
    draw seats them by it). Registers each in the group's tournament (checked in) if not yet.
    Exactly ``line_up_size`` players of the team's squad; one fewer when a player is missing
    (the draw then makes tables of five). Refused once the series is drawn."""
    group = (
        Group.objects.select_for_update()
        .select_related("match_day__league", "tournament")
        .get(pk=group.pk)
    )
    league = group.match_day.league
    # The team captain's link proves who he is for ``team`` (the view found the team by
    # it), as a table captain's link does for his table.
    if actor.via != TEAM_CAPTAIN:
        _require_manager(league, actor)
    if not group.group_teams.filter(team=team).exists():
        raise ServiceError(
            "team_not_in_group",
            _("%(team)s does not play in this group.") % {"team": team},
            refusal=Refusal.NOT_FOUND,
        )
    series = Series.objects.filter(tournament=group.tournament, number=series_number).first()
    if series is None:
        raise ServiceError(
            "no_such_series",
            _("The group plays series 1 to %(n)d.") % {"n": league.series_per_day},
            field="series",  # as the pages and the API call it
        )
    if series.status != Series.Status.PLANNED:
        raise ServiceError(
            "series_drawn",
            _("Series %(n)d is drawn already; its line-ups stay as they are.")
            % {"n": series_number},
            refusal=Refusal.CONFLICT,
        )
    ids = [p if isinstance(p, int) else p.pk for p in players]
    size = line_up_size(group, league)
    if len(set(ids)) != len(ids):
        raise ServiceError("player_twice", _("Name each player once."), field="players")
    if not size - 1 <= len(ids) <= size:
        raise ServiceError(
            "line_up_size",
            _("Name %(n)d players (or %(m)d when one is missing).") % {"n": size, "m": size - 1},
            field="players",
        )
    squad = {
        m.player_id: m.player for m in team.squad.select_related("player").filter(player__in=ids)
    }
    outside = [pk for pk in ids if pk not in squad]
    if outside:
        raise ServiceError(
            "not_in_squad",
            _("Only players of the squad of %(team)s can play for it.") % {"team": team},
            field="players",
        )
    registered = {
        r.player_id: r
        for r in Registration.objects.filter(tournament=group.tournament, player__in=ids)
    }
    for pk in ids:
        if pk not in registered:
            registered[pk] = registration_service.register(
                group.tournament,
                registration_service.PlayerData(first_name="", last_name=""),
                existing_player=squad[pk],
                checked_in=True,
            )
    before = list(
        LineUp.objects.filter(group=group, team=team, series_number=series_number).values_list(
            "player_id", flat=True
        )
    )
    LineUp.objects.filter(group=group, team=team, series_number=series_number).delete()
    line_up = LineUp.objects.bulk_create(
        LineUp(
            group=group,
            team=team,
            series_number=series_number,
            order=order,
            player=squad[pk],
            registration=registered[pk],
            set_by=actor.user,
        )
        for order, pk in enumerate(ids, start=1)
    )
    _log(
        league,
        "teams.line_up.set",
        actor,
        before={"group": group.pk, "team": team.pk, "series": series_number, "players": before}
        if before
        else None,
        after={"group": group.pk, "team": team.pk, "series": series_number, "players": ids},
    )
    return line_up


def substitutions(group: Group, team: Team) -> list[Substitution]:
    """The team's changes between consecutive series of the group that both have a line-up
    (one query)."""
    by_series: dict[int, dict[int, Player]] = defaultdict(dict)
    for line in LineUp.objects.filter(group=group, team=team).select_related("player"):
        by_series[line.series_number][line.player_id] = line.player
    return substitutions_from(team, by_series)


def substitutions_from(team: Team, by_series: dict[int, dict[int, Player]]) -> list[Substitution]:
    """``substitutions`` from line-ups already loaded: series number → player id → player."""
    changes: list[Substitution] = []
    numbers = sorted(by_series)
    for previous, current in itertools.pairwise(numbers):
        if current != previous + 1:
            continue
        before, now = by_series[previous], by_series[current]
        went_out = tuple(sorted((p for pk, p in before.items() if pk not in now), key=_name_key))
        came_in = tuple(sorted((p for pk, p in now.items() if pk not in before), key=_name_key))
        if went_out or came_in:
            changes.append(Substitution(team, current, went_out, came_in))
    return changes


def _name_key(player: Player) -> tuple[tuple[str, str, str, str], int]:
    return (name_key(player), player.pk)


# -- the team draw -------------------------------------------------------------------------------


def _team_draw(series: Series, seed: int | None) -> seating.Plan | None:
    """The plain draw's stand-in (``draw.DRAWS``): the team draw for a group's
    series, None for any other."""
    group = Group.objects.filter(tournament_id=series.tournament_id).first()
    if group is None:
        return None
    return _draw_group_series(group, series, seed)


def register_team_draw() -> None:
    """Route the tournaments' own draw of a group's series to the team draw (once)."""
    draw_service.DRAWS.register(
        draw_service.DrawPlugin(mode=TEAM_DRAW_MODE, draw=_team_draw, line_up=True)
    )


@transaction.atomic
def draw_team_series(series: Series, *, seed: int | None = None) -> seating.Plan:
    """Seat a group's series: one player of each team per table, each player by who he is
    (not by his place in the line-up), no two players meeting twice over the day's series
    where the numbers allow. The same checks as any draw (an earlier series drawn, this
    one not started). Refused with the team's name when a line-up is missing or
    incomplete."""
    series = Series.objects.select_for_update().select_related("tournament").get(pk=series.pk)
    draw_service.check_can_draw(series, "random")
    group = Group.objects.filter(tournament_id=series.tournament_id).first()
    if group is None:
        raise ServiceError(
            "not_a_team_group",
            _("This series belongs to no group of a team competition."),
            refusal=Refusal.CONFLICT,
        )
    return _draw_group_series(group, series, seed)


def _draw_group_series(group: Group, series: Series, seed: int | None) -> seating.Plan:
    league = League.objects.get(match_days__groups=group)
    size = line_up_size(group, league)
    entries = list(group.group_teams.select_related("team").order_by("order"))
    # team -> series number -> start numbers in line-up order, for the day up to this series
    lines: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for team_id, number, start_number in (
        LineUp.objects.filter(group=group, series_number__lte=series.number)
        .order_by("series_number", "order")
        .values_list("team_id", "series_number", "registration__start_number")
    ):
        lines[team_id][number].append(start_number)
    teams: list[list[int]] = []
    for entry in entries:
        named = lines[entry.team_id]
        if len(named[series.number]) < size - 1:
            raise ServiceError(
                "line_up_missing",
                _("%(team)s has not named its %(n)d players for series %(series)d.")
                % {"team": entry.team, "n": size, "series": series.number},
                refusal=Refusal.CONFLICT,
            )
        # Seated by who they are: each player keeps his place of the day's earlier series,
        # whatever order this line-up names him in (``points_by_identity``).
        history_of_team = [named[n] for n in range(1, series.number + 1)]
        teams.append(list(team_seating.points_by_identity(history_of_team, size)))
    seed = seed if seed is not None else series.tournament.draw_seed
    history = draw_service.history_before(series)
    pairs = draw_service.keep_apart_pairs(series.tournament)
    unhonoured: tuple[seating.Unhonoured, ...]
    if all(len(team) == size for team in teams) and len(teams) == size:
        day = team_seating.seat_teams(teams, series.number, seed, keep_apart=pairs)
        tables = [list(table) for table in day.series[series.number - 1]]
        repeats = seating.count_repeats(tables, history)
        unhonoured = tuple(e for e in day.unhonoured if e.series == series.number)
    else:
        try:
            uneven = team_seating.seat_uneven(
                teams, history, seed, keep_apart=pairs, series=series.number
            )
        except team_seating.TeamSeatingError as exc:
            raise ServiceError(
                exc.code,
                _("%(n)d players cannot be split into tables of four and five.")
                % {"n": sum(len(team) for team in teams)},
                refusal=Refusal.CONFLICT,
            ) from exc
        tables = [list(table) for table in uneven.tables]
        repeats = uneven.repeats
        unhonoured = uneven.unhonoured
    plan = seating.Plan(
        series=series.number, tables=tables, repeats=repeats, seed=seed, unhonoured=unhonoured
    )
    draw_service.write_plan(
        series,
        tables,
        seed=seed,
        mode=TEAM_DRAW_MODE,
        repeats=repeats,
        version=plan.version,
        unhonoured=unhonoured,
    )
    return plan
