"""What a worker's first document would otherwise wait for, done when the worker process
starts (``documents.tasks`` connects it to Celery's ``worker_process_init``; web processes,
tests and ``make run`` never call it): the URL map (every captain link on a sheet is
reversed, and the first ``reverse`` imports all views), the print templates compiled, the
print stylesheet parsed, their digest (part of every fingerprint), the catalog of each
language, the font's widths for text fitting, and WeasyPrint's first render, which loads
the fonts. About a second of CPU per process, once."""

from __future__ import annotations

from django.conf import settings
from django.template.loader import get_template
from django.urls import reverse
from django.utils import translation

from documents import render, textfit

#: The page templates of the print pack and the result report (templates/documents/print/).
PAGE_TEMPLATES = (
    "document.html",
    "score_sheet.html",
    "seating_alpha.html",
    "seating_tables.html",
    "standings.html",
    "statistics.html",
    "table_card.html",
    "table_games.html",
    "rulings.html",
    "run.css",
)
SAMPLE = '<p class="title">Doko-Turnier</p><p><b>Tisch 1</b> · Serie 1 · 0123456789</p>'


def warm() -> None:
    reverse("landing")  # imports the URL configuration and fills its reverse map
    for name in PAGE_TEMPLATES:
        get_template(render.TEMPLATE_DIR + name)
    render.templates_version()
    render.print_stylesheet()
    for bold in (False, True):
        textfit.text_width("Doko-Turnier", 9, bold=bold)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Series")
    render.render_sample(SAMPLE, settings.LANGUAGE_CODE)
