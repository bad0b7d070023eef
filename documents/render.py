"""Page plans to PDF: Django templates to HTML, WeasyPrint to PDF, pypdf to join runs.

Static ruling (score-sheet grids, list stripes) is drawn by a small SVG template rendered
once per shape and used as the page background, so WeasyPrint lays out only the text boxes;
this is what makes a page cost milliseconds instead of the tenth of a second a ruled HTML
table costs.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any
from urllib.parse import quote

import segno
from django.template.loader import get_template, render_to_string
from django.utils import translation
from pypdf import PdfWriter
from weasyprint import HTML

from documents.layout import (
    ALPHA_COLUMNS,
    ALPHA_ROW_H,
    ALPHA_TOP,
    CONTENT_W,
    MARGIN,
    STANDINGS_ROW_H,
    STANDINGS_TOP,
    Page,
    sheet_geometry,
)

TEMPLATE_DIR = "documents/print/"


def svg_data_uri(svg: str) -> str:
    return "data:image/svg+xml," + quote(" ".join(svg.split()), safe=" =:/,.#-")


@lru_cache(maxsize=512)
def qr_data_uri(url: str) -> str:
    """The QR code of ``url`` as a one-pixel-per-module PNG data URI, scaled up by CSS with
    ``image-rendering: pixelated`` (sharp edges; far cheaper to draw than an SVG path)."""
    return segno.make(url, error="m").png_data_uri(scale=1, border=0)


@lru_cache(maxsize=16)
def grid_uri(players: int, normal_games: int, solos: int) -> str:
    geometry = sheet_geometry(players, normal_games, solos)
    return svg_data_uri(render_to_string(TEMPLATE_DIR + "sheet_grid.svg", {"g": geometry}))


@lru_cache(maxsize=16)
def stripes_uri(columns: tuple[tuple[float, float, int], ...], top: float, row_h: float) -> str:
    """Shading of every second row of list columns (x, width, rows); light enough for
    black-and-white printers."""
    rects = [(x, round(top + i * row_h, 2), w) for x, w, rows in columns for i in range(1, rows, 2)]
    context = {"rects": rects, "row_h": row_h}
    return svg_data_uri(render_to_string(TEMPLATE_DIR + "stripes.svg", context))


def _page_extras(page: Page, backgrounds: dict[str, str]) -> dict[str, Any]:
    """QR code and background of a page. Backgrounds are shared by many pages, so they go
    into the document's stylesheet once (``backgrounds``: class name to data URI) and the
    page refers to them by class; inline, each page would make WeasyPrint parse the SVG's
    whole data URI again."""
    context = page.context
    extras: dict[str, Any] = {}
    table = context.get("table")
    if table is not None:
        extras["qr"] = qr_data_uri(table.entry_url)
    if page.template == "score_sheet.html":
        g = context["g"]
        uri = grid_uri(g.players, g.normal_games, g.solo_rows // g.players)
        extras["background"] = _background_class(uri, backgrounds)
    elif page.template == "seating_alpha.html":
        width = round(CONTENT_W / ALPHA_COLUMNS - 2, 2)
        cols = tuple((round(c["x"], 2), width, c["rows"]) for c in context["columns"])
        uri = stripes_uri(cols, ALPHA_TOP, ALPHA_ROW_H)
        extras["background"] = _background_class(uri, backgrounds)
    elif page.template == "standings.html":
        cols = ((MARGIN, CONTENT_W, context["rows"]),)
        uri = stripes_uri(cols, STANDINGS_TOP, STANDINGS_ROW_H)
        extras["background"] = _background_class(uri, backgrounds)
    return extras


def _background_class(uri: str, backgrounds: dict[str, str]) -> str:
    for name, known in backgrounds.items():
        if known == uri:
            return name
    name = f"bg{len(backgrounds)}"
    backgrounds[name] = uri
    return name


def render_html(pages: Sequence[Page], language: str) -> str:
    with translation.override(language):
        parts = []
        backgrounds: dict[str, str] = {}
        box_styles: dict[str, str] = {}  # filled by the {% box %} tag, see templatetags
        for page in pages:
            template = get_template(TEMPLATE_DIR + page.template)
            extras = _page_extras(page, backgrounds)
            parts.append(template.render({**page.context, **extras, "box_styles": box_styles}))
        context = {
            "body": "".join(parts),
            "language": language,
            "backgrounds": backgrounds,
            "box_styles": box_styles,
        }
        return render_to_string(TEMPLATE_DIR + "document.html", context)


def render_pdf(pages: Sequence[Page], language: str) -> bytes:
    """One run of pages as a PDF; raises if the pages did not come out one sheet each."""
    document = HTML(string=render_html(pages, language)).render()
    if len(document.pages) != len(pages):
        raise LayoutError(
            f"{len(pages)} pages planned but {len(document.pages)} rendered; "
            "a page overflowed its sheet"
        )
    return document.write_pdf()


def join_pdfs(parts: Iterable[bytes]) -> bytes:
    writer = PdfWriter()
    for part in parts:
        writer.append(io.BytesIO(part))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


class LayoutError(RuntimeError):
    pass
