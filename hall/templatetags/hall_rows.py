"""The long lists of the hall's board as HTML, built here rather than in template loops: a
board of 400 standings lines took the template engine 30 to 70 ms, these take a few."""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from hall.board import SeatLine, StandingLine, TableLine

register = template.Library()

#: Names longer than these (characters) are set smaller, the longest in two lines, so that
#: a long double name is read whole from the back of the hall instead of cut off.
LONG_NAME, LONGER_NAME = 22, 30


def name_cell(name: str) -> str:
    """The opening cell of a name ("Last, First" or "First Last"), sized by its length; the
    longest in two lines, "Last," above "First" where there is a comma."""
    if len(name) > LONGER_NAME:
        last, comma, first = name.partition(", ")
        text = f"{escape(last)},<br>{escape(first)}" if comma else escape(name)
        return f'<td class="name longer">{text}'
    size = " long" if len(name) > LONG_NAME else ""
    return f'<td class="name{size}">{escape(name)}'


@register.filter
def seating_rows(lines: Iterable[SeatLine]) -> SafeString:
    # Every text is escaped, the rest are numbers.
    return mark_safe(
        "".join(
            f"<tr>{name_cell(line.name)}</td>"
            f'<td class="num table-no">{line.table:d}</td><td class="num">{line.seat:d}</td></tr>'
            for line in lines
        )
    )


@register.filter
def standings_rows(lines: Iterable[StandingLine]) -> SafeString:
    rows = []
    mark = escape(_("sheet not confirmed"))
    for line in lines:
        unconfirmed = (
            f' <small class="unconfirmed-mark" title="{mark}">*</small>' if line.unconfirmed else ""
        )
        shared = '<span aria-hidden="true">=</span>' if line.shared else ""
        series = "".join(
            f'<td class="num series-col">{"–" if p is None else f"{p:d}"}</td>' for p in line.series
        )
        row_class = ' class="row-unconfirmed"' if line.unconfirmed else ""
        rows.append(
            f'<tr{row_class}><td class="num">{line.place:d}.{shared}</td>'
            f"{name_cell(line.name)}{unconfirmed}</td>{series}"
            f'<td class="num total">{line.total:d}</td></tr>'
        )
    return mark_safe("".join(rows))


def _flag_labels() -> dict[str, str]:
    return {
        "conflict": escape(_("check the sheet")),
        "behind": escape(_("behind")),
        "timeout": escape(_("time called")),
        "submitted": escape(_("submitted")),
        "confirmed": escape(_("confirmed")),
    }


def _flags(line: TableLine, labels: dict[str, str]) -> str:
    flags = []
    if line.deviates and line.countdown:
        flags.append(f'<li class="flag flag-clock" data-time>{line.countdown.text}</li>')
    for shown, kind, label in (
        (line.conflict, "conflict", "conflict"),
        (line.behind, "behind", "behind"),
        (line.timeout, "timeout", "timeout"),
        (line.status == "submitted", "done", "submitted"),
        (line.status == "confirmed", "done", "confirmed"),
    ):
        if shown:
            flags.append(f'<li class="flag flag-{kind}">{labels[label]}</li>')
    return "".join(flags)


@register.filter
def table_cards(lines: Iterable[TableLine]) -> SafeString:
    """One card per table: number, games entered of all, compulsory solos still open, flags;
    its countdown for display.js (time up, or its own end when it deviates)."""
    word, entered = escape(_("Table")), escape(_("games entered"))
    played = escape(_("compulsory solos played"))
    solos: dict[int, str] = {}
    labels = _flag_labels()
    cards = []
    for line in lines:
        classes = ["table-card"]
        for shown, name in (
            (line.behind, "is-behind"),
            (line.conflict, "has-conflict"),
            (line.finished, "is-finished"),
            (line.compulsory_open > 0, "has-open-solos"),
            (line.countdown is not None and line.countdown.remaining == 0, "is-up"),
        ):
            if shown:
                classes.append(name)
        clock = ""
        if line.countdown:
            paused = " data-paused" if line.countdown.paused else ""
            clock = (
                f' data-countdown data-ends="{line.countdown.ends_ms:d}"'
                f' data-remaining="{line.countdown.remaining:d}"{paused}'
            )
        open_ = line.compulsory_open
        if open_ not in solos:  # a handful of counts: each translated once
            solos[open_] = (
                escape(
                    ngettext(
                        "%(counter)s compulsory solo open",
                        "%(counter)s compulsory solos open",
                        open_,
                    )
                    % {"counter": open_}
                )
                if open_
                else played
            )
        cards.append(
            f'<article class="{" ".join(classes)}"{clock}>'
            f'<h2 class="table-number"><small>{word}</small> {line.number:d}</h2>'
            f'<p class="games" title="{entered}"><strong>{line.entered:d}</strong>'
            f"&#8239;/&#8239;{line.expected:d}</p>"
            f'<progress value="{line.entered:d}" max="{line.expected:d}"></progress>'
            f'<ul class="card-foot"><li class="solos">{solos[open_]}</li>'
            f"{_flags(line, labels)}</ul></article>"
        )
    return mark_safe("".join(cards))
