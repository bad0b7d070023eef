"""A DDV ranking tournament's report to the ranking keeper: the tournament's data and each
player's line (place, name, club, DDV number, series played, points, average per series),
read from the overall standings the organizers see (full names), with the reasons it does
not qualify (``seasons.ddv.check``). The organizers' download only (docs/ddv-report.md)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.conf import settings
from django.utils.translation import gettext as _

from scoring.standings import overall_standings
from seasons.ddv.check import MIN_PLAYERS, MIN_SERIES, Facts, Reason, qualification
from tournaments.models import DEFAULT_TIEBREAK, Registration, Series, Tournament

CENT = Decimal("0.01")


@dataclass(frozen=True)
class ReportLine:
    place: int
    first_name: str
    last_name: str
    club: str
    ddv_number: str
    series_points: tuple[int | None, ...]  # per series; None: not played
    name_form: str = "full"  # how his name may be published (carried to the keeper)

    @property
    def series(self) -> int:
        return sum(1 for p in self.series_points if p is not None)

    @property
    def points(self) -> int:
        return sum(p for p in self.series_points if p is not None)

    @property
    def average(self) -> Decimal | None:
        if not self.series:
            return None
        return (Decimal(self.points) / self.series).quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class ReportHead:
    name: str
    slug: str
    starts_on: datetime.date
    ends_on: datetime.date | None
    venue: str
    club: str  # the organizing club
    director: str
    referee: str
    ruleset: str
    series_count: int
    tiebreak: tuple[str, ...]
    site: str  # the server it comes from: with the slug, what an import recognizes
    marked: bool = True  # marked as a DDV ranking tournament by its organizers


@dataclass(frozen=True)
class Report:
    head: ReportHead
    lines: tuple[ReportLine, ...]
    reasons: tuple[Reason, ...]
    facts: Facts

    @property
    def qualifies(self) -> bool:
        return not self.reasons


def director_of(tournament: Tournament) -> str:
    """The director as entered, else the first organizer (who usually directs it)."""
    if tournament.director:
        return tournament.director
    first = tournament.organizers.order_by("pk").first()
    return (first.get_full_name() or first.get_username()) if first else ""


def report_lines(tournament: Tournament) -> tuple[ReportLine, ...]:
    """Every player with a result, in the order and with the places of the standings."""
    standings = overall_standings(tournament, keeper=True)
    players = {
        r.pk: r.player
        for r in Registration.objects.filter(tournament=tournament).select_related("player")
    }
    lines = []
    for line in standings:
        player = players[line["registration"]]
        points = tuple(line["series"])
        if all(p is None for p in points):
            continue
        lines.append(
            ReportLine(
                place=line["place"],
                first_name=player.first_name,
                last_name=player.last_name,
                club=player.club,
                ddv_number=player.ddv_number,
                series_points=points,
                name_form=player.name_form,
            )
        )
    return tuple(lines)


def build_report(tournament: Tournament) -> Report:
    lines = report_lines(tournament)
    closed = tournament.series.filter(
        status=Series.Status.CLOSED, number__lte=tournament.series_count
    ).count()
    facts = Facts(
        players=len(lines),
        series=tournament.series_count,
        ruleset=tournament.ruleset,
        overrides=bool(tournament.rule_overrides),
        open_series=max(tournament.series_count - closed, 0),
    )
    head = ReportHead(
        name=tournament.name,
        slug=tournament.slug,
        starts_on=tournament.starts_on,
        ends_on=tournament.ends_on,
        venue=tournament.venue,
        club=tournament.club.name if tournament.club_id and tournament.club else "",
        director=director_of(tournament),
        referee=tournament.referee,
        ruleset=tournament.ruleset,
        series_count=tournament.series_count,
        tiebreak=tuple(tournament.tiebreak or DEFAULT_TIEBREAK),
        site=settings.SITE_URL,
        marked=tournament.ddv_ranking,
    )
    return Report(head, lines, qualification(facts), facts)


def reason_text(reason: Reason, facts: Facts) -> str:
    """Why the tournament does not qualify, in words (the page's language)."""
    if reason is Reason.FEW_PLAYERS:
        return _(
            "Fewer than %(min)d players: %(n)d players have a result. A DDV ranking "
            "tournament needs at least %(min)d."
        ) % {"min": MIN_PLAYERS, "n": facts.players}
    if reason is Reason.FEW_SERIES:
        return _(
            "Too few series: the tournament plays %(n)d; a DDV ranking tournament needs "
            "at least %(min)d."
        ) % {"min": MIN_SERIES, "n": facts.series}
    if reason is Reason.NOT_DDV_RULES:
        return _(
            "The tournament does not play by the DDV rule set without changes (rule set "
            "“%(ruleset)s”)."
        ) % {"ruleset": facts.ruleset}
    return _("Not every series is closed yet: the results are not final.")


def refusals(report: Report) -> list[str]:
    """Why the report cannot be sent, in words: not marked, or not qualifying."""
    texts = [] if report.head.marked else [_("It is not marked as a DDV ranking tournament.")]
    return texts + [reason_text(reason, report.facts) for reason in report.reasons]
