"""The print stylesheet is parsed once per process and given to WeasyPrint beside each run's
own rules; the pages are the ones a single inline stylesheet made."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template.loader import render_to_string
from weasyprint import HTML

from documents import render
from documents.layout import print_pack_pages, static_layers
from tests.documents.pdftools import pdf_pngs
from tests.documents.test_layout import _series


def _inline(markup: render.Markup) -> bytes:
    """The run as one HTML document with every rule in its own ``<style>``."""
    css = render_to_string(render.TEMPLATE_DIR + "print.css") + markup.rules
    html = markup.html.replace("</head>", f"<style>{css}</style></head>")
    pdf: bytes = HTML(string=html).write_pdf()
    return pdf


@pytest.mark.parametrize("kind", ["variable", "static"])
def test_the_stylesheet_parsed_once_draws_the_same_pages(kind: str, tmp_path: Path) -> None:
    pages = print_pack_pages(_series(2, 5))
    run = static_layers(pages) if kind == "static" else pages
    once = render.render_pdf(run, "de")
    inline = _inline(render.render_markup(run, "de"))
    assert render.print_stylesheet() is render.print_stylesheet()
    drawn = pdf_pngs(once, tmp_path / "once")
    assert len(drawn) == len(run) and drawn == pdf_pngs(inline, tmp_path / "inline")
