"""A team competition's individual ranking as a spreadsheet (CSV and XLSX, written by
``common.sheets``): the lines of its page, names as the players consented."""

from __future__ import annotations

from django.utils.translation import gettext as _

from common.sheets import Cell, Sheet
from teams.individual_standings import IndividualRanking
from tournaments.publication import shown_name


def individual_sheet(ranking: IndividualRanking) -> Sheet:
    header = (
        _("Rank"),
        _("Player"),
        _("Team"),
        _("Series"),
        _("Points"),
        _("Average per series"),
        _("Best series"),
        _("Last series"),
        _("Games"),
        _("Solos"),
        _("Solos won"),
        _("Running series (not counted)"),
    )
    rows: list[tuple[Cell, ...]] = []
    for line in ranking.lines:
        figures, player = line.figures, line.player
        rows.append(
            (
                figures.place,
                shown_name(player.first_name, player.last_name, player.name_form),
                line.team.name,
                figures.series,
                figures.total,
                line.average if figures.series else None,
                figures.best_series,
                figures.last_series,
                figures.games,
                figures.solos,
                figures.solos_won,
                figures.open_series,
            )
        )
    return Sheet(_("Individual ranking"), header, rows)
