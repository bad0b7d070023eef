"""The REST API, ``/api/v1/`` (included from ``config/urls.py``; OpenAPI schema and docs
are beside it at ``/api/v1/schema/`` and ``/api/v1/docs/``)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpResponseBase
from django.urls import include, path, re_path, register_converter
from rest_framework.routers import SimpleRouter
from rest_framework.viewsets import ViewSetMixin

from archive import api as archive
from clubs.api import views as clubs
from common.api.errors import not_found
from fees.api import views as fees
from scoring.api.views import captain, clock, games, referee, sheets, standings
from scoring.api.views import series as results
from seasons.api import ddv as ddv_report
from seasons.api import players as player_pages
from seasons.api import views as seasons
from teams.api import knockout as league_knockout
from teams.api import schedule as league_schedule
from teams.api import squads as league_squads
from teams.api import views as leagues
from tournaments.api.views import keep_apart, players, registrations, series, tables, tournaments

app_name = "api"


class SmallNumber:
    """A positive number of at most nine digits: no database overflow from the address."""

    regex = "[0-9]{1,9}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(SmallNumber, "apinum")

router = SimpleRouter(trailing_slash=True)
router.register("tournaments", tournaments.TournamentViewSet, basename="tournament")
router.register("players", players.PlayerViewSet, basename="player")

T = "tournaments/<slug:slug>/"
S = T + "series/<apinum:number>/"
TABLE = S + "tables/<apinum:table>/"
C = "clubs/<slug:club>/"


def _actions(viewset: type[ViewSetMixin], **methods: str) -> Callable[..., HttpResponseBase]:
    return viewset.as_view(dict(methods))


Reg = registrations.RegistrationViewSet
Ser = series.SeriesViewSet
Tab = tables.TableViewSet

urlpatterns = [
    # A table's games first: entering them is the most frequent request, and Django tries
    # the patterns in order (no pattern below matches these paths, so order is free here).
    path(TABLE + "games/", games.GameListView.as_view(), name="games"),
    path(TABLE + "games/<apinum:game>/", games.GameDetailView.as_view(), name="game"),
    path("", include(router.urls)),
    path(T + "registrations/", _actions(Reg, get="list", post="create"), name="registrations"),
    path(
        T + "registrations/<apinum:start_number>/",
        _actions(Reg, get="retrieve", delete="destroy"),
        name="registration",
    ),
    path(
        T + "registrations/<apinum:start_number>/check-in/",
        _actions(Reg, post="check_in"),
        name="registration-check-in",
    ),
    path(
        T + "registrations/<apinum:start_number>/withdraw/",
        _actions(Reg, post="withdraw"),
        name="registration-withdraw",
    ),
    path(T + "keep-apart/", keep_apart.KeepApartView.as_view(), name="keep-apart"),
    path(
        T + "keep-apart/remove/", keep_apart.KeepApartRemoveView.as_view(), name="keep-apart-remove"
    ),
    path(T + "series/", _actions(Ser, get="list"), name="series-list"),
    path(S, _actions(Ser, get="retrieve"), name="series-detail"),
    path(S + "draw/", results.SeriesDrawView.as_view(), name="series-draw"),
    path(S + "swap/", _actions(Ser, post="swap"), name="series-swap"),
    path(
        S + "latecomers/",
        _actions(Ser, get="latecomers", post="latecomers"),
        name="series-latecomers",
    ),
    path(S + "start/", _actions(Ser, post="start"), name="series-start"),
    path(S + "close/", results.SeriesCloseView.as_view(), name="series-close"),
    path(S + "clock/", clock.ClockView.as_view(), name="series-clock"),
    path(S + "clock/pause/", clock.PauseView.as_view(), name="series-clock-pause"),
    path(S + "clock/resume/", clock.ResumeView.as_view(), name="series-clock-resume"),
    path(S + "tables/", _actions(Tab, get="list"), name="tables"),
    path(TABLE, _actions(Tab, get="retrieve"), name="table"),
    path(TABLE + "sheet/", sheets.SheetView.as_view(), name="sheet"),
    path(TABLE + "sheet/submit/", sheets.SubmitView.as_view(), name="sheet-submit"),
    path(TABLE + "sheet/confirm/", sheets.ConfirmView.as_view(), name="sheet-confirm"),
    path(TABLE + "extensions/", clock.ExtensionView.as_view(), name="table-extensions"),
    path(S + "standings/", standings.SeriesStandingsView.as_view(), name="series-standings"),
    path(T + "standings/", standings.StandingsView.as_view(), name="standings"),
    path(T + "archive/", archive.ArchiveView.as_view(), name="tournament-archive"),
    path(T + "ddv-report/", ddv_report.DdvReportView.as_view(), name="tournament-ddv-report"),
    path("imports/", archive.ImportView.as_view(), name="archive-import"),
    path("imports/<int:pk>/", archive.ImportStatusView.as_view(), name="archive-import-status"),
    path(
        "imports/<int:pk>/confirm/",
        archive.ImportConfirmView.as_view(),
        name="archive-import-confirm",
    ),
    path(
        "players/<apinum:pk>/results/",
        player_pages.PlayerResultsView.as_view(),
        name="player-results",
    ),
    path("seasons/", seasons.SeasonListView.as_view(), name="season-list"),
    path("seasons/<slug:season>/", seasons.SeasonDetailView.as_view(), name="season-detail"),
    path(
        "seasons/<slug:season>/ranking/",
        seasons.SeasonRankingView.as_view(),
        name="season-ranking",
    ),
    path(
        "seasons/<slug:season>/ranking/<apinum:player>/",
        seasons.SeasonLineView.as_view(),
        name="season-line",
    ),
    path(
        "seasons/<slug:season>/tournaments/",
        seasons.SeasonTournamentsView.as_view(),
        name="season-tournaments",
    ),
    path(
        "seasons/<slug:season>/tournaments/<slug:slug>/",
        seasons.SeasonTournamentView.as_view(),
        name="season-tournament",
    ),
    path("leagues/", leagues.LeagueListView.as_view(), name="league-list"),
    path("leagues/<slug:league>/", leagues.LeagueDetailView.as_view(), name="league-detail"),
    path("leagues/<slug:league>/table/", leagues.LeagueTableView.as_view(), name="league-table"),
    path(
        "leagues/<slug:league>/individual/",
        leagues.IndividualRankingView.as_view(),
        name="league-individual",
    ),
    path(
        "leagues/<slug:league>/knockout/",
        league_knockout.KnockoutView.as_view(),
        name="league-knockout",
    ),
    path(
        "leagues/<slug:league>/knockout/start/",
        league_knockout.KnockoutStartView.as_view(),
        name="league-knockout-start",
    ),
    path(
        "leagues/<slug:league>/knockout/decide/",
        league_knockout.KnockoutDecideView.as_view(),
        name="league-knockout-decide",
    ),
    path(
        "leagues/<slug:league>/knockout/next-round/",
        league_knockout.KnockoutNextView.as_view(),
        name="league-knockout-next",
    ),
    path("leagues/<slug:league>/teams/", leagues.TeamListView.as_view(), name="league-teams"),
    path(
        "leagues/<slug:league>/teams/<apinum:team>/",
        leagues.TeamDetailView.as_view(),
        name="league-team",
    ),
    path(
        "leagues/<slug:league>/groups/<apinum:group>/line-ups/",
        leagues.LineUpView.as_view(),
        name="league-line-ups",
    ),
    path(
        "leagues/<slug:league>/groups/<apinum:group>/series/<apinum:number>/draw/",
        league_schedule.GroupDrawView.as_view(),
        name="league-group-draw",
    ),
    path(
        "leagues/<slug:league>/candidates/",
        league_squads.CandidatesView.as_view(),
        name="league-candidates",
    ),
    path(
        "leagues/<slug:league>/teams/<apinum:team>/squad/",
        league_squads.SquadAddView.as_view(),
        name="league-squad",
    ),
    path(
        "leagues/<slug:league>/teams/<apinum:team>/squad/new/",
        league_squads.SquadNewPlayerView.as_view(),
        name="league-squad-new",
    ),
    path(
        "leagues/<slug:league>/teams/<apinum:team>/squad/list/",
        league_squads.SquadListView.as_view(),
        name="league-squad-list",
    ),
    path(
        "leagues/<slug:league>/teams/<apinum:team>/squad/remove/",
        league_squads.SquadRemoveView.as_view(),
        name="league-squad-remove",
    ),
    path(
        "leagues/<slug:league>/match-days/",
        league_schedule.MatchDaysView.as_view(),
        name="league-match-days",
    ),
    path(
        "leagues/<slug:league>/match-days/places/",
        league_schedule.PlacesView.as_view(),
        name="league-places",
    ),
    path(T + "fees/", fees.FeeSettingsView.as_view(), name="fee-settings"),
    path(T + "fees/desk/", fees.DeskView.as_view(), name="fee-desk"),
    path(T + "fees/desk/<apinum:start_number>/", fees.BookingView.as_view(), name="fee-booking"),
    path(T + "fees/report/", fees.CashReportView.as_view(), name="fee-report"),
    path(T + "prizes/", fees.PrizeTableView.as_view(), name="prize-table"),
    path(T + "payouts/", fees.PayoutListView.as_view(), name="payout-list"),
    path(T + "referee-calls/", referee.OpenCallsView.as_view(), name="referee-calls"),
    path(T + "referee-calls/<apinum:call>/", referee.CallView.as_view(), name="referee-call"),
    path(
        T + "referee-calls/<apinum:call>/take/",
        referee.TakeView.as_view(),
        name="referee-call-take",
    ),
    path(
        T + "referee-calls/<apinum:call>/rule/",
        referee.RuleView.as_view(),
        name="referee-call-rule",
    ),
    path("clubs/", clubs.ClubListView.as_view(), name="club-list"),
    path(C + "members/", clubs.MemberListView.as_view(), name="club-members"),
    path(C + "members/<str:user>/", clubs.MemberView.as_view(), name="club-member"),
    path(C + "hand-over/", clubs.HandOverView.as_view(), name="club-hand-over"),
    path(C + "leave/", clubs.LeaveView.as_view(), name="club-leave"),
    path(C + "invitations/", clubs.InvitationListView.as_view(), name="club-invitations"),
    path(
        C + "invitations/<apinum:invitation>/withdraw/",
        clubs.WithdrawInvitationView.as_view(),
        name="club-invitation-withdraw",
    ),
    path("captain/", captain.CaptainView.as_view(), name="captain"),
    path("captain/referee-call/", referee.CaptainCallView.as_view(), name="captain-call"),
    path(
        "captain/referee-call/withdraw/",
        referee.CaptainWithdrawView.as_view(),
        name="captain-call-withdraw",
    ),
    # Anything else under /api/v1/ (but the schema and docs beside it): JSON 404.
    re_path(r"^(?!schema/|docs/).*$", not_found, name="not-found"),
]
