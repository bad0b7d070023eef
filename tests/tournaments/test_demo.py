"""The demo command builds a living tournament and can rebuild it."""

import pytest
from django.core.management import call_command

from clubs.invitations import open_invitations
from fees.models import Booking
from fees.reading import cash_report, desk_rows, payout_list
from hall.models import Announcement
from scoring.models import Game, RefereeCall, ScoreSheet
from seasons.ddv.report import build_report
from seasons.models import Season, SeasonEntry
from teams import knockout as core
from teams.bracket import knockout_bracket
from teams.models import League, MatchDay
from teams.standings import group_result, league_table
from tournaments.models import Tournament


@pytest.mark.django_db
def test_demo_builds_and_rebuilds() -> None:
    call_command("demo", players=13, series=2, verbosity=0)
    tournament = Tournament.objects.get(slug="demo")
    assert list(tournament.series.values_list("status", flat=True)) == ["closed", "running"]
    # The demo's own tournament; the demo league's groups are tournaments of their own.
    sheets = ScoreSheet.objects.filter(table__series__tournament=tournament)
    assert sheets.filter(status="confirmed").count() == 3  # 2 fours, 1 five
    assert (
        Game.objects.filter(series__tournament=tournament, series__number=1).count() == 24 + 24 + 30
    )
    # What the apps above add, so that `make run` shows every feature.
    assert Announcement.objects.filter(tournament=tournament, ended_at=None).exists()
    season = Season.objects.get(slug="demo-rangliste")
    assert list(season.tournaments.all()) == [tournament]
    assert SeasonEntry.objects.filter(season=season).count() == 13  # the stored ranking
    league = League.objects.get(slug="demo-liga")
    assert league.teams.count() == 8
    group_stage = league.match_days.filter(stage=MatchDay.Stage.GROUP)
    played = [group_result(g).played for d in group_stage for g in d.groups.all()]
    assert played == [True] * 6  # three match days of two groups
    # The season's end marked in the final table (every match day played) and a
    # Spielgemeinschaft.
    table = league_table(league)
    assert table.season_end is not None and not table.season_end.provisional
    marks = [(line.place, line.mark.zone if line.mark else None) for line in table.teams]
    # "playoff": the relegation play-off, above the two places down. The demo's games are
    # drawn anew on each build: teams sharing a place across a cut are "undecided".
    expected = ["up", "up", "stay", "stay", "stay", "playoff", "down", "down"]
    zones = [zone for _place, zone in marks]
    assert all(z in (e, "undecided") for z, e in zip(zones, expected, strict=True)), marks
    # The knockout: round 1's two matches decided (two of four advance; a tie at the cut
    # decided by the seeds), the final made with those four and still to play.
    bracket = knockout_bracket(league)
    assert bracket is not None and bracket.champion is None
    first, final = bracket.rounds
    assert [match.status for match in first.matches] == [core.Status.DECIDED] * 2
    advancing = {line.team for match in first.matches for line in match.lines if line.advancing}
    assert len(advancing) == 4
    assert final.is_final and len(final.matches) == 1 and final.matches[0].group is not None
    assert {line.team for line in final.matches[0].lines} == advancing
    assert final.matches[0].status == core.Status.PENDING and not final.matches[0].played
    assert bracket.current == final
    assert league.teams.get(name="Dullen Düren").club_label == "SG DC Düren / Doko Aachen"
    # A DDV ranking tournament whose report page names what it lacks.
    ddv = build_report(tournament)
    assert ddv.head.marked and (ddv.head.director, ddv.head.referee) == (
        "Hanna Vogt",
        "Klaus Reuter",
    )
    assert ddv.reasons == ("few_players", "few_series", "series_open")  # 13 players, 2 series
    # The cashier's desk: most fees paid (one reduced, some by transfer), one waived, four
    # open; a prize table and its payout list (a preview: the last series runs).
    statuses = [row.status for row in desk_rows(tournament)]
    assert (statuses.count("paid"), statuses.count("waived"), statuses.count("open")) == (8, 1, 4)
    assert Booking.objects.filter(tournament=tournament, via="organizer kasse").count() == 9
    report = cash_report(tournament)
    assert report.received_cents == 7 * 1000 + 500 and report.difference_cents == 0
    payouts = payout_list(tournament)
    assert not payouts.final and payouts.lines and payouts.total_cents > 0
    call_command("demo", players=13, series=2, verbosity=0)  # recreates
    assert Tournament.objects.filter(slug="demo").count() == 1
    call_command("demo", if_missing=True, verbosity=0)  # keeps
    assert Tournament.objects.get(slug="demo").registrations.count() == 13
    # The demo organizer's personal club owns it all; its cashier keeps none of it, its
    # referee handles the referee calls: one ruled, one open (series 2 runs).
    calls = RefereeCall.objects.filter(series__tournament__slug="demo")
    assert sorted(calls.values_list("table__number", "status")) == [(1, "ruled"), (2, "called")]
    assert calls.get(status="ruled").extension_minutes == 2
    club = Tournament.objects.get(slug="demo").club
    assert club is not None and season.club == club
    assert sorted(club.memberships.values_list("user__username", "role")) == [
        ("demo", "owner"),
        ("kasse", "cashier"),
        ("schiri", "referee"),
    ]
    # One open invitation, and the demo's rebuild adds no second one.
    assert [(i.role, i.email) for i in open_invitations(club)] == [("organizer", "neu@example.org")]


@pytest.mark.django_db
def test_demo_refuses_impossible_player_count() -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="11"):
        call_command("demo", players=11, series=1, verbosity=0)
