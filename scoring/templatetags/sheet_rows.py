"""``{% load sheet_rows %}{% sheet_row row marked can_correct base %}``: one game of the sheet;
``{% sheet_rows rows marked can_correct base %}``: every game of it, as a loop over the rows
drew them (one tag call, not one per row).

The row the captain page shows for each game and the outbox's answer for a game saved
(``row_html``). A page holds up to 30 of them; an include per row cost a template context
and a node walk each, so the row is drawn here, as the include did byte for byte
(``tests/scoring/test_sheet_rows.py`` holds it to it).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

register = template.Library()


@register.simple_tag
def sheet_row(
    row: Any, marked: Any = None, can_correct: bool = False, base: str = ""
) -> SafeString:
    """``row``: a ``scoring.sheet_page.SheetRow``; ``marked``: the number of the game being
    corrected; ``can_correct``: each number links to its correction under ``base``."""
    game, record = row.game, row.game.record
    number = game.number
    classes = "compulsory" if record.get("compulsory") else ""
    if marked and number == marked:
        classes += " editing"
    if row.provisional:
        classes += " provisional"
    if can_correct:
        label = gettext("Correct game %(n)s") % {"n": number}
        cell = (
            f'<a href="{conditional_escape(base)}spiel/{number}/" aria-label="{label}">'
            f'<span aria-hidden="true">✎</span>&thinsp;{number}</a>'
        )
    else:
        cell = str(number)
    if row.provisional:
        title = conditional_escape(gettext("provisional until the referee rules"))
        cell += (
            f' <small class="provisional-mark" title="{title}">'
            f"{conditional_escape(gettext('provisional'))}</small>"
        )
    points = "".join(f'<td class="num{" pos" if p > 0 else ""}">{p}</td>' for p in row.points)
    value = str(game.value)
    if record.get("contract") == "solo":
        compulsory = record.get("compulsory")
        title = conditional_escape(gettext("compulsory solo") if compulsory else gettext("solo"))
        value += f' <abbr title="{title}">{"P" if compulsory else "S"}</abbr>'
    return mark_safe(
        f'\n<tr data-number="{number}" class="{classes}">\n'
        f'  <td class="num game-no">{cell}</td>\n'
        f"  {points}\n"
        f'  <td class="num">{value}</td>\n'
        "</tr>\n"
    )


@register.simple_tag
def sheet_rows(rows: Any, marked: Any = None, can_correct: bool = False, base: str = "") -> str:
    """Each row (``sheet_row``) on its own line of the sheet's ``<tbody>``."""
    return mark_safe(
        "".join(f"\n    {sheet_row(row, marked, can_correct, base)}\n  " for row in rows)
    )
