"""The statistics as charts (``common.charts``): points per series, running totals of the
leading players, Re and Kontra win rates, solo outcomes. Labels in the active language."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from common.charts import (
    GREEN,
    GREY,
    VERMILION,
    Chart,
    chart,
    integer_ticks,
    new_chart,
    palette,
    pygal,
)
from scoring.statistics import PlayerFigures, Rate, SoloOutcomes, TournamentFigures, running_totals
from scoring.stats_read import PlayerStatistics, TournamentStatistics

#: Players whose running totals the tournament's chart draws: the top of the standings.
LEADERS = 5


def series_label(number: int) -> str:
    return _("S%(number)s") % {"number": number}


def _percent(value: float) -> str:
    return f"{value:.0f} %"


def _points(value: float) -> str:
    return f"{value:+.0f}" if value else "0"


def points_chart(name: str, labels: Sequence[str], points: Sequence[int | None]) -> Chart:
    """A player's points in each series, as bars above and below zero."""
    drawn = new_chart(
        pygal.Bar,
        show_legend=False,
        print_values=True,
        value_formatter=_points,
        x_label_rotation=-40 if len(labels) > 8 else 0,
        no_data_text=_("No results yet"),
    )
    drawn.x_labels = list(labels)
    drawn.add(_("Points"), list(points))
    described = ", ".join(
        f"{label}: {p}" for label, p in zip(labels, points, strict=True) if p is not None
    )
    return chart(name, _("Points per series"), described or _("No results yet"), drawn)


def running_chart(statistics: TournamentStatistics, leaders: int = LEADERS) -> Chart:
    """The totals of the leading players after each series."""
    numbers = statistics.series_numbers
    drawn = new_chart(
        pygal.Line,
        legend_at_bottom_columns=1,  # whole names, one a line: never cut
        truncate_legend=-1,
        height=420,
        dots_size=4,
        stroke_style={"width": 3},
        no_data_text=_("No results yet"),
    )
    drawn.x_labels = [series_label(n) for n in numbers]
    parts = []
    for line in statistics.players[:leaders] if numbers else ():
        totals = running_totals(line.figures.series, numbers)
        drawn.add(line.name, list(totals))
        parts.append(f"{line.name}: {line.figures.points}")
    title = _("Running totals of the leading players")
    return chart("running", title, "; ".join(parts) or _("No results yet"), drawn)


def _rate_text(rate: Rate) -> str:
    percent = rate.percent()
    shown = "–" if percent is None else f"{percent} %"
    return _("%(count)s of %(of)s (%(percent)s)") % {
        "count": rate.count,
        "of": rate.of,
        "percent": shown,
    }


def _rates_chart(
    name: str, title: str, labels: Sequence[str], bars: Sequence[tuple[str, Sequence[Rate]]]
) -> Chart:
    drawn = new_chart(
        pygal.Bar,
        range=(0, 100),
        print_values=True,
        value_formatter=_percent,
        show_legend=len(bars) > 1,
        no_data_text=_("No games yet"),
    )
    drawn.x_labels = list(labels)
    parts = []
    for legend, rates in bars:
        drawn.add(legend, [r.percent() for r in rates])
        parts += [
            f"{legend}, {label}: {_rate_text(r)}" for label, r in zip(labels, rates, strict=True)
        ]
    return chart(name, title, "; ".join(parts), drawn)


def tournament_party_chart(figures: TournamentFigures) -> Chart:
    """How often Re and Kontra won: all games, normal games, solos."""
    kinds = (figures.all_games, figures.normal, figures.solo_games)
    return _rates_chart(
        "parties",
        _("Games won by Re and by Kontra"),
        [_("All games"), _("Normal games"), _("Solos")],
        [
            ("Re", [k.re_rate for k in kinds]),
            ("Kontra", [k.kontra_rate for k in kinds]),
        ],
    )


def player_party_chart(figures: PlayerFigures, name: str = "parties") -> Chart:
    """How often the player won as Re, as Kontra, and as the soloist."""
    return _rates_chart(
        name,
        _("Win rate as Re, as Kontra, in solos"),
        ["Re", "Kontra", _("Solos")],
        [(_("won"), [figures.re, figures.kontra, figures.solos_won])],
    )


def solo_chart(compulsory: SoloOutcomes, voluntary: SoloOutcomes, name: str = "solos") -> Chart:
    """Compulsory and voluntary solos: won, lost, without a winner."""
    drawn = new_chart(
        pygal.StackedBar,
        print_values=True,
        print_zeroes=False,
        value_formatter=lambda v: f"{v:.0f}",
        no_data_text=_("No solos yet"),
        style=palette(GREEN, VERMILION, GREY),
        truncate_label=-1,  # two labels: room for them whole
    )
    kinds = (compulsory, voluntary)
    drawn.x_labels = [_("Compulsory solos"), _("Voluntary solos")]
    if compulsory.count or voluntary.count:
        drawn.add(_("won"), [k.won for k in kinds])
        drawn.add(_("lost"), [k.lost for k in kinds])
        if any(k.undecided for k in kinds):
            drawn.add(_("No winner"), [k.undecided for k in kinds])
        # Counts: whole-number ticks only (the bars are stacked: up to the higher sum).
        drawn.y_labels = integer_ticks(max(k.count for k in kinds))
    described = _("Compulsory solos: %(c_won)s won, %(c_lost)s lost; voluntary solos: "
                  "%(v_won)s won, %(v_lost)s lost") % {
        "c_won": compulsory.won,
        "c_lost": compulsory.lost,
        "v_won": voluntary.won,
        "v_lost": voluntary.lost,
    }  # fmt: skip
    return chart(name, _("Solo outcomes"), described, drawn)


def tournament_charts(statistics: TournamentStatistics) -> list[Chart]:
    figures = statistics.figures
    return [
        running_chart(statistics),
        tournament_party_chart(figures),
        solo_chart(figures.compulsory, figures.voluntary),
    ]


def player_charts(statistics: PlayerStatistics) -> list[Chart]:
    """A player over his tournaments: his points in every series (labelled with the
    tournament's date where there are several), his win rates and his solos."""
    several = len(statistics.tournaments) > 1
    labels, points = [], []
    for part in statistics.tournaments:
        for result in part.figures.series:
            label = series_label(result.series)
            if several:
                label = f"{date_format(part.starts_on, 'SHORT_DATE_FORMAT')} {label}"
            labels.append(label)
            points.append(result.points)
    overall = statistics.overall
    return [
        points_chart("series", labels, points),
        player_party_chart(overall),
        solo_chart(overall.compulsory, overall.voluntary),
    ]
