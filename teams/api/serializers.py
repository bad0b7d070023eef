"""The team competition resources: settings (strict input), teams with their squads, the
table, a team's days, line-ups."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from clubs import roles
from clubs.api import ClubField
from common.api.base import StrictSerializer, StrictSerializerMixin
from teams.models import League
from teams.rules import OVERRIDABLE
from teams.scoring import PRESETS


class LeagueSerializer(StrictSerializerMixin, serializers.ModelSerializer[League]):
    scoring_preset = serializers.ChoiceField(choices=list(PRESETS), default="bundesliga")
    slug = serializers.CharField(
        max_length=60, required=False, allow_blank=True, help_text="Empty: made from the name."
    )
    scoring_overrides = serializers.DictField(
        required=False,
        help_text="Values that replace the preset's: " + ", ".join(f"`{k}`" for k in OVERRIDABLE),
    )
    owner = serializers.CharField(source="owner.username", read_only=True)
    club = ClubField(roles.LEAGUES)

    class Meta:
        model = League
        fields = [
            "slug", "name", "owner", "kind", "scoring_preset", "scoring_overrides", "squad_max",
            "players_per_team", "series_per_day", "days", "promotion_places",
            "relegation_places", "playoff_places", "is_public", "description",
            "club", "created_at",
        ]  # fmt: skip
        read_only_fields = ["owner", "created_at"]


class PlayerRefSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()


class TeamSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    partner_club = serializers.CharField(
        help_text="The second club of a Spielgemeinschaft (SG); empty for a team of one club."
    )
    club_label = serializers.CharField(
        help_text="The club as shown beside the team's name: “SG Club A / Club B” for an SG."
    )
    position = serializers.IntegerField(help_text="The team's index in the schedule.")
    squad = PlayerRefSerializer(many=True)
    captain_token = serializers.CharField(
        allow_null=True,
        required=False,
        help_text="The team captain's link token (the league's keepers only; else null).",
    )
    captain_url = serializers.CharField(
        allow_null=True,
        required=False,
        help_text="The team captain's page, where he names the line-ups (keepers only).",
    )


class TeamCreateSerializer(StrictSerializer):
    name = serializers.CharField(max_length=120)
    club = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    partner_club = serializers.CharField(
        max_length=120,
        required=False,
        allow_blank=True,
        default="",
        help_text="The second club of a Spielgemeinschaft (SG): shown “SG Club A / Club B”.",
    )
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=10**9 - 1),
        required=False,
        default=list,
        max_length=12,
        help_text="Ids of players of the registry of the league's club for the squad.",
    )


class TeamClubsSerializer(StrictSerializer):
    """A team's club and the second club of a Spielgemeinschaft; left out: as it is."""

    club = serializers.CharField(max_length=120, required=False, allow_blank=True)
    partner_club = serializers.CharField(
        max_length=120,
        required=False,
        allow_blank=True,
        help_text="The second club of a Spielgemeinschaft (SG); empty: a team of one club.",
    )


class TeamDayLineSerializer(serializers.Serializer[Any]):
    team = serializers.IntegerField()
    name = serializers.CharField()
    series_points = serializers.ListField(child=serializers.IntegerField())
    points = serializers.IntegerField()
    place = serializers.IntegerField()
    shared = serializers.BooleanField()
    victory_points = serializers.CharField(help_text='A decimal, "3.5" where a tie shares.')


class GroupResultSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    match_day = serializers.IntegerField()
    number = serializers.IntegerField()
    date = serializers.DateField(allow_null=True)
    venue = serializers.CharField()
    tournament = serializers.CharField(help_text="Short name of the group's tournament.")
    played = serializers.BooleanField()
    final = serializers.BooleanField(
        help_text="Every series closed: the day counts in the table. Played but not final: "
        "a provisional result, not counted yet."
    )
    lines = TeamDayLineSerializer(many=True)


class TableLineSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField()
    shared = serializers.BooleanField()
    team = serializers.IntegerField()
    name = serializers.CharField()
    club_label = serializers.CharField(help_text="“SG Club A / Club B” for an SG, else its club.")
    victory_points = serializers.CharField(help_text='A decimal, "3.5" where a tie shares.')
    points = serializers.IntegerField()
    day_wins = serializers.IntegerField()
    days = serializers.IntegerField(help_text="Match days played.")
    mark = serializers.ChoiceField(
        choices=["up", "playoff", "down", "undecided"],
        allow_null=True,
        help_text="Season end: up (promotion), playoff (relegation play-off), down "
        "(relegation), undecided (a shared place across a cut: a decision is needed), null.",
    )
    mark_between = serializers.ListField(
        child=serializers.CharField(),
        help_text="For an undecided mark: the zones its shared place spans, best first.",
    )


class SeasonEndSerializer(serializers.Serializer[Any]):
    promotion_places = serializers.IntegerField()
    relegation_places = serializers.IntegerField()
    playoff_places = serializers.IntegerField()
    final = serializers.BooleanField(
        help_text="Every match day final. false: the marks follow the current table (provisional)."
    )
    undecided = serializers.BooleanField(help_text="Some mark needs a decision (a tie at a cut).")
    problem = serializers.CharField(
        allow_blank=True,
        help_text="too_few_teams: the table has fewer teams than places to mark; else empty.",
    )


class PlayerLineSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField(allow_null=True, help_text="null: no closed series yet.")
    shared = serializers.BooleanField(help_text="Another player has the same place.")
    player = serializers.IntegerField()
    name = serializers.CharField()
    team = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(help_text="Over his closed series only.")
    series = serializers.IntegerField(help_text="Closed series counted.")
    open_series = serializers.IntegerField(help_text="Running series, not counted yet.")


class IndividualLineSerializer(PlayerLineSerializer):
    team_name = serializers.CharField()
    average = serializers.DecimalField(
        max_digits=8,
        decimal_places=2,
        allow_null=True,
        help_text="Points per closed series, two decimals (shown, not ranked by); null "
        "without a closed series.",
    )
    best_series = serializers.IntegerField(
        allow_null=True, help_text="Best closed series: the first tie-break."
    )
    last_series = serializers.IntegerField(
        allow_null=True, help_text="The player's last closed series: the second tie-break."
    )
    games = serializers.IntegerField()
    solos = serializers.IntegerField()
    solos_won = serializers.IntegerField()
    open_points = serializers.IntegerField(help_text="Points of the running series.")


class IndividualRankingSerializer(serializers.Serializer[Any]):
    league = serializers.CharField()
    order = serializers.ListField(
        child=serializers.CharField(),
        help_text="What ranks, in order: total points, then the tie-breaks.",
    )
    provisional = serializers.BooleanField(help_text="A series somebody played still runs.")
    series_counted = serializers.IntegerField()
    players = IndividualLineSerializer(many=True)


class LeagueTableSerializer(serializers.Serializer[Any]):
    league = serializers.CharField()
    season_end = SeasonEndSerializer(allow_null=True, help_text="null: no final day yet.")
    teams = TableLineSerializer(many=True)
    players = PlayerLineSerializer(many=True)
    groups = GroupResultSerializer(many=True)


class SeriesLineUpSerializer(serializers.Serializer[Any]):
    series = serializers.IntegerField()
    players = PlayerRefSerializer(many=True)
    came_in = serializers.ListField(child=serializers.IntegerField())
    went_out = serializers.ListField(child=serializers.IntegerField())


class TeamDaySerializer(serializers.Serializer[Any]):
    match_day = serializers.IntegerField()
    group = serializers.IntegerField()
    date = serializers.DateField(allow_null=True)
    venue = serializers.CharField()
    played = serializers.BooleanField()
    final = serializers.BooleanField(help_text="Every series closed: the day counts.")
    line_ups = SeriesLineUpSerializer(many=True)
    result = TeamDayLineSerializer(allow_null=True)


class TeamDetailSerializer(TeamSerializer):
    days = TeamDaySerializer(many=True)


class LineUpSerializer(serializers.Serializer[Any]):
    series = serializers.IntegerField()
    team = serializers.IntegerField()
    players = serializers.ListField(child=serializers.IntegerField())


class LineUpInputSerializer(StrictSerializer):
    series = serializers.IntegerField(min_value=1, max_value=100)
    team = serializers.IntegerField(min_value=1, max_value=10**9 - 1)
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=10**9 - 1),
        max_length=12,
        help_text="Ids of squad players, in the order the team draw follows.",
    )


# -- the owner's actions ------------------------------------------------------------------------


class SquadPlayerSerializer(StrictSerializer):
    player = serializers.IntegerField(
        min_value=1,
        max_value=10**9 - 1,
        help_text="Id of a player of the registry of the league's club.",
    )


class NewPlayerSerializer(StrictSerializer):
    """A player new to the registry of the league's club, straight into the squad."""

    first_name = serializers.CharField(max_length=80)
    last_name = serializers.CharField(max_length=80)
    club = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")


class SquadListSerializer(StrictSerializer):
    players = serializers.CharField(
        max_length=20_000,
        help_text="One player a line: “First Last” or “First Last, Club”, or first name, "
        "last name and club separated by tabs or semicolons. Names of the registry are "
        "taken, others added to it; all or nothing.",
    )


class CandidateSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    club = serializers.CharField()


class ScheduleGroupSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    venue = serializers.CharField()
    tournament = serializers.CharField(help_text="Short name of the group's tournament.")
    teams = serializers.ListField(
        child=serializers.IntegerField(), help_text="Team ids, in the group's order."
    )


class MatchDaySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    date = serializers.DateField(allow_null=True)
    dated_before = serializers.IntegerField(
        allow_null=True,
        help_text="The number of an earlier match day dated after this one (allowed, for a "
        "postponed day), or null.",
    )
    groups = ScheduleGroupSerializer(many=True)


class ScheduleSerializer(serializers.Serializer[Any]):
    days = MatchDaySerializer(many=True)
    repeats = serializers.IntegerField(help_text="Meetings of a pair of teams after its first.")
    never_met = serializers.IntegerField(help_text="Pairs of teams that never meet.")


class MakeScheduleSerializer(StrictSerializer):
    """No input: the match days come from the league's teams, days and seed."""


class DayDateSerializer(StrictSerializer):
    number = serializers.IntegerField(min_value=1, max_value=10**9 - 1)
    date = serializers.DateField(allow_null=True, help_text="null: no date yet.")


class GroupVenueSerializer(StrictSerializer):
    id = serializers.IntegerField(min_value=1, max_value=10**9 - 1)
    venue = serializers.CharField(max_length=200, allow_blank=True)


class PlacesSerializer(StrictSerializer):
    match_days = DayDateSerializer(many=True, required=False, default=list)
    groups = GroupVenueSerializer(many=True, required=False, default=list)


class GroupDrawSerializer(StrictSerializer):
    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=0,
        max_value=2**31 - 1,
        help_text="The same seed gives the same seating; left out: the tournament's.",
    )
