"""The knockout's bracket as a PDF (``templates/teams/print/bracket.html``, A4 landscape,
rounds as columns), rendered in-process with WeasyPrint as the DDV report is."""

from __future__ import annotations

import datetime

from django.template.loader import render_to_string

from teams.bracket import KnockoutBracket
from teams.models import League


def bracket_pdf(league: League, bracket: KnockoutBracket, printed_on: datetime.date) -> bytes:
    from weasyprint import HTML

    html = render_to_string(
        "teams/print/bracket.html",
        {"league": league, "bracket": bracket, "printed_on": printed_on},
    )
    pdf: bytes = HTML(string=html).write_pdf()
    return pdf
