"""Team competitions (Mannschaftswettbewerbe): leagues, teams and their squads, match days,
groups and line-ups.

Each group of a match day is a ``Tournament``: its series, tables, seats, captain entry,
score sheets, PDFs, hall display and individual standings are those of any tournament. What
this app adds is who plays for which team (``SquadMember``, ``LineUp``) and how the teams'
results add up (``teams.scoring``, read in ``teams.standings``).
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from common.models import ChangeLog
from tournaments.models import Player, Registration, Tournament, new_seed, new_token

SQUAD_MAX_LIMIT = 12
MAX_DAYS = 30
MAX_SERIES_PER_DAY = 20
#: Places at most that go up, go down or play the relegation play-off (each).
MAX_SEASON_END_PLACES = 20

#: Series a group plays per match day. The DDV's texts give the Bundesliga's "double match
#: days" without their number of series; the DMM's group stage plays four. Four is also the
#: most series a group of four teams of four plays without two players meeting twice
#: (``teams.seating``): every player has met each player of the other teams once.
DEFAULT_SERIES_PER_DAY = 4


class League(models.Model):
    """A team competition: a league over several match days, or the group stage of a team
    championship. It belongs to its ``club``; its players come from the registry of ``owner``
    (who created it), who also organizes every group's tournament. The scoring is the preset
    ``scoring_preset`` of ``teams.scoring.PRESETS`` with the overrides ``scoring_overrides``
    (``teams.rules``).
    A championship's (or a league's) knockout after the group stage is its ``Knockout``; its
    rounds are match days of the stage ``knockout``."""

    class Kind(models.TextChoices):
        LEAGUE = "league", _("league")
        CHAMPIONSHIP = "championship", _("team championship (group stage)")

    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("short name (in links)"), max_length=60, unique=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="leagues",
        verbose_name=_("owner"),
    )
    # The club that owns it (``common.ownership``); none: kept by superusers only.
    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="leagues",
        verbose_name=_("club"),
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.LEAGUE)
    scoring_preset = models.CharField(_("team scoring"), max_length=40, default="bundesliga")
    scoring_overrides = models.JSONField(_("scoring overrides"), default=dict, blank=True)
    squad_max = models.PositiveSmallIntegerField(
        _("players per squad at most"),
        default=8,
        validators=[MinValueValidator(1), MaxValueValidator(SQUAD_MAX_LIMIT)],
    )
    players_per_team = models.PositiveSmallIntegerField(
        _("players per team and series"),
        default=4,
        validators=[MinValueValidator(4), MaxValueValidator(5)],
    )
    series_per_day = models.PositiveSmallIntegerField(
        _("series per match day"),
        default=DEFAULT_SERIES_PER_DAY,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_SERIES_PER_DAY)],
    )
    days = models.PositiveSmallIntegerField(
        _("match days"), default=5, validators=[MinValueValidator(1), MaxValueValidator(MAX_DAYS)]
    )
    seed = models.BigIntegerField(_("schedule seed"), default=new_seed)
    # The season's end (``teams.season_end``): the first places go up (Aufstieg), the last
    # go down (Abstieg), the play-off places just above them play the Relegation.
    promotion_places = models.PositiveSmallIntegerField(
        _("places going up (promotion)"),
        default=0,
        validators=[MaxValueValidator(MAX_SEASON_END_PLACES)],
    )
    relegation_places = models.PositiveSmallIntegerField(
        _("places going down (relegation)"),
        default=0,
        validators=[MaxValueValidator(MAX_SEASON_END_PLACES)],
    )
    playoff_places = models.PositiveSmallIntegerField(
        _("relegation play-off places"),
        default=0,
        validators=[MaxValueValidator(MAX_SEASON_END_PLACES)],
    )
    is_public = models.BooleanField(_("public"), default=True)
    description = models.TextField(_("description"), blank=True, max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("team competition")
        verbose_name_plural = _("team competitions")
        constraints = [
            models.CheckConstraint(
                condition=Q(squad_max__gte=1) & Q(squad_max__lte=SQUAD_MAX_LIMIT),
                name="league_squad_max_range",
            ),
            models.CheckConstraint(
                condition=Q(players_per_team__gte=4) & Q(players_per_team__lte=5),
                name="league_players_per_team_range",
            ),
            models.CheckConstraint(
                condition=Q(series_per_day__gte=1) & Q(series_per_day__lte=MAX_SERIES_PER_DAY),
                name="league_series_per_day_range",
            ),
            models.CheckConstraint(
                condition=Q(days__gte=1) & Q(days__lte=MAX_DAYS), name="league_days_range"
            ),
            models.CheckConstraint(
                condition=Q(promotion_places__lte=MAX_SEASON_END_PLACES)
                & Q(relegation_places__lte=MAX_SEASON_END_PLACES)
                & Q(playoff_places__lte=MAX_SEASON_END_PLACES),
                name="league_season_end_places_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Team(models.Model):
    """A team (Mannschaft) of a league. ``position`` is its index in the schedule
    (``teams.schedule``: team 0, 1, …), given in the order the teams were added."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=120)
    club = models.CharField(_("club"), max_length=120, blank=True)
    # A Spielgemeinschaft (SG): a team formed by two clubs names the second one here; its
    # squad may hold players of both clubs.
    partner_club = models.CharField(_("second club (SG)"), max_length=120, blank=True)
    position = models.PositiveSmallIntegerField(_("position in the schedule"))
    # The team captain's private link (no account), as a table captain's: he names the
    # team's line-ups through it.
    captain_token = models.CharField(max_length=40, unique=True, default=new_token)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "position"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="team_name_unique_per_league"),
            models.UniqueConstraint(
                fields=["league", "position"], name="team_position_unique_per_league"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def club_label(self) -> str:
        """The team's club as shown beside its name: "SG Club A / Club B" for a team of
        two clubs (Spielgemeinschaft), else its club."""
        return sg_label(self.club, self.partner_club)


def sg_label(club: str, partner_club: str) -> str:
    """ "SG Club A / Club B" when a second club is named, else the club."""
    if partner_club:
        return f"SG {club} / {partner_club}" if club else f"SG {partner_club}"
    return club


class SquadMember(models.Model):
    """A player of a team's squad. ``league`` repeats the team's league so that the database
    refuses a player in two teams of one league."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="squad")
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="squads")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["team", "player__last_name", "player__first_name"]
        verbose_name = _("squad member")
        verbose_name_plural = _("squad members")
        constraints = [
            models.UniqueConstraint(
                fields=["league", "player"], name="squad_player_one_team_per_league"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.player}"


class MatchDay(models.Model):
    """A match day (Spieltag) of a league: its groups play on the same day, at one venue
    each. A knockout round is a match day of the stage ``knockout`` (its groups are the
    round's matches); its number continues after the group stage's days. Everything of the
    league itself (table, schedule, team page, season end) reads the group stage only
    (``GROUP_STAGE``)."""

    class Stage(models.TextChoices):
        GROUP = "group", _("group stage")
        KNOCKOUT = "knockout", _("knockout")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="match_days")
    number = models.PositiveSmallIntegerField(_("number"))
    date = models.DateField(_("date"), null=True, blank=True)
    stage = models.CharField(_("stage"), max_length=10, choices=Stage.choices, default=Stage.GROUP)
    knockout_round = models.PositiveSmallIntegerField(_("knockout round"), null=True, blank=True)

    class Meta:
        ordering = ["league", "number"]
        verbose_name = _("match day")
        verbose_name_plural = _("match days")
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="match_day_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="match_day_number_positive"),
            models.CheckConstraint(
                condition=Q(stage="group", knockout_round__isnull=True)
                | Q(stage="knockout", knockout_round__gte=1),
                name="match_day_knockout_round_with_stage",
            ),
            # Two requests advancing at once cannot both make a round.
            models.UniqueConstraint(
                fields=["league", "knockout_round"],
                condition=Q(stage="knockout"),
                name="knockout_round_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league} – {_('match day')} {self.number}"


class Group(models.Model):
    """The teams that meet on a match day at one venue. Its play is the ``tournament``."""

    match_day = models.ForeignKey(MatchDay, on_delete=models.CASCADE, related_name="groups")
    number = models.PositiveSmallIntegerField(_("number"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    tournament = models.OneToOneField(
        Tournament, on_delete=models.PROTECT, related_name="team_group"
    )
    teams: models.ManyToManyField[Team, GroupTeam] = models.ManyToManyField(
        Team, through="GroupTeam", related_name="groups"
    )

    class Meta:
        ordering = ["match_day", "number"]
        verbose_name = _("group")
        verbose_name_plural = _("groups")
        constraints = [
            models.UniqueConstraint(fields=["match_day", "number"], name="group_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="group_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.match_day} – {_('group')} {self.number}"


class GroupTeam(models.Model):
    """A team in a group; ``order`` is its column in the group (0, 1, …)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="group_teams")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="group_entries")
    order = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["group", "order"]
        constraints = [
            models.UniqueConstraint(fields=["group", "team"], name="group_team_once"),
            models.UniqueConstraint(fields=["group", "order"], name="group_team_order_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.group}: {self.team}"


class LineUp(models.Model):
    """A player named to play one series of a group for his team (Aufstellung); ``order``
    is his place in the line-up (1, 2, …), for showing it; the team draw seats players by
    who they are, not by this order (``teams.seating.points_by_identity``). ``registration`` is
    the player's in the group's tournament."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="line_ups")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="line_ups")
    series_number = models.PositiveSmallIntegerField(_("series"))
    order = models.PositiveSmallIntegerField(_("order"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="line_ups")
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="line_ups"
    )
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    set_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["group", "series_number", "team", "order"]
        verbose_name = _("line-up")
        verbose_name_plural = _("line-ups")
        constraints = [
            models.UniqueConstraint(
                fields=["group", "series_number", "player"], name="line_up_player_once"
            ),
            models.UniqueConstraint(
                fields=["group", "series_number", "team", "order"], name="line_up_order_unique"
            ),
            models.CheckConstraint(
                condition=Q(series_number__gte=1), name="line_up_series_positive"
            ),
            models.CheckConstraint(condition=Q(order__gte=1), name="line_up_order_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.group} / {self.series_number}: {self.team} {self.order} {self.player}"


#: The match days (and, prefixed, the groups) that make the league's own table and schedule.
GROUP_STAGE = Q(stage=MatchDay.Stage.GROUP)
IN_GROUP_STAGE = Q(match_day__stage=MatchDay.Stage.GROUP)


class Knockout(models.Model):
    """A league's knockout after its group stage (``teams.knockout``): its settings, and
    once started the seeds (team ids, best first) it was built from. Its rounds are match
    days of the stage ``knockout``; who advances is read from their groups' results
    (``teams.bracket``), with a ``KnockoutDecision`` where a tie lay across the cut."""

    class Seeding(models.TextChoices):
        TABLE = "table", _("by the group stage's table")
        DRAW = "draw", _("drawn")

    league = models.OneToOneField(League, on_delete=models.CASCADE, related_name="knockout")
    match_size = models.PositiveSmallIntegerField(_("teams per match"), default=4)
    advance = models.PositiveSmallIntegerField(_("teams advancing per match"), default=2)
    seeding = models.CharField(
        _("seeding"), max_length=10, choices=Seeding.choices, default=Seeding.TABLE
    )
    seed = models.BigIntegerField(_("draw seed"), default=new_seed)
    seeds = models.JSONField(default=list)  # team ids, best seed first
    byes = models.JSONField(default=list)  # team ids going straight to round 2
    started_at = models.DateTimeField(null=True, blank=True)
    champion = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("knockout")
        verbose_name_plural = _("knockouts")
        constraints = [
            models.CheckConstraint(
                condition=Q(match_size__in=(2, 4))
                & Q(advance__gte=1)
                & Q(advance__lt=models.F("match_size")),
                name="knockout_format_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league} – {_('knockout')}"


class KnockoutDecision(models.Model):
    """The order the league decided for teams sharing a place across a knockout match's
    cut: ``ranking`` is the match's full ranking (lists of team ids, best place first)."""

    group = models.OneToOneField(Group, on_delete=models.CASCADE, related_name="decision")
    ranking = models.JSONField()
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("knockout decision")
        verbose_name_plural = _("knockout decisions")

    def __str__(self) -> str:
        return f"{self.group}: {self.ranking}"


class LeagueChange(ChangeLog):
    """Every change to a team competition: who, when, through which door, before and
    after (as ``seasons.SeasonChange``)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="changes")

    class Meta(ChangeLog.Meta):
        verbose_name = _("change of a team competition")
        verbose_name_plural = _("changes of team competitions")

    def __str__(self) -> str:
        return f"{self.league}: {self.action}"
