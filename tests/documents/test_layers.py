"""Static and variable layers: each static page is rendered once per shape and language, the
variable pages carry only what differs per table, and the joined PDF draws the static page
under each of its pages as one shared form."""

from __future__ import annotations

import dataclasses
import io
from collections import Counter

import pikepdf
import pytest
from pytest_django.fixtures import Settings

from documents import pieces, pipeline, render, services
from documents.data import SeriesInfo
from documents.layout import (
    STATIC,
    VARIABLE,
    page_order,
    part_runs,
    placements,
    print_pack_pages,
    static_layers,
)
from documents.models import GeneratedDocument
from tests.documents.pdftools import pdf_pages, pdf_text, stored_pdf
from tests.documents.test_layout import _series

Kind = GeneratedDocument.Kind


def _mixed(tables: int) -> SeriesInfo:
    """A series with four-player tables and every third table at five players."""
    four, five = _series(tables, 4), _series(tables, 5)
    mixed = tuple(five.tables[i] if i % 3 == 2 else four.tables[i] for i in range(tables))
    return dataclasses.replace(four, tables=mixed)


def test_one_static_page_per_kind_and_shape() -> None:
    info = _mixed(250)
    pages = print_pack_pages(info)
    layers = static_layers(pages)
    assert sorted(layer.key for layer in layers) == [
        "score_sheet:4:20:1",
        "score_sheet:5:25:1",
        "table_card:4",
        "table_card:5",
    ]
    assert all(layer.layer == STATIC for layer in layers)
    split = [p for p in pages if p.template in ("score_sheet.html", "table_card.html")]
    assert len(split) == 500 and all(p.layer == VARIABLE for p in split)
    # Every variable page names its shape's static page; cards are mirrored, sheets are not.
    index = {layer.key: i for i, layer in enumerate(layers)}
    for page, placement in zip(pages, placements(pages, layers), strict=True):
        if page.underlay is None:
            assert placement.underlay is None and not placement.mirror
        else:
            assert placement.underlay == index[page.underlay.key]
            size = page.context["table"].size
            assert page.underlay.key.split(":")[1] == str(size)
            assert placement.mirror == (page.template == "table_card.html")


def test_runs_keep_a_table_together_and_cover_every_page_once() -> None:
    pages = print_pack_pages(_mixed(250))
    runs = part_runs(pages, 40)
    assert all(len(run) <= 40 for run in runs)
    assert sorted(i for run in runs for i in run) == list(range(len(pages)))
    run_of = {i: r for r, run in enumerate(runs) for i in run}
    by_table: dict[int, set[int]] = {}
    for i, page in enumerate(pages):
        table = page.context.get("table")
        if table is not None:
            by_table.setdefault(table.number, set()).add(run_of[i])
    assert all(len(found) == 1 for found in by_table.values())  # card and sheet together
    order = page_order(runs)
    assert [runs[r][k] for r, k in order] == list(range(len(pages)))


@pytest.mark.django_db
def test_static_layers_are_rendered_once_per_shape_and_language(
    world, django_capture_on_commit_callbacks, monkeypatch, tmp_path
) -> None:
    calls: list[tuple[str, tuple[str, ...]]] = []
    real = pieces.render_pdf

    def spy(pages, language):
        calls.append((language, tuple(p.layer for p in pages)))
        calls.extend((language, (f"{p.layer}:{p.key}",)) for p in pages if p.layer == STATIC)
        return real(pages, language)

    monkeypatch.setattr(pieces, "render_pdf", spy)
    for language in ("de", "en"):
        with django_capture_on_commit_callbacks(execute=True):
            document = services.request_document(
                Kind.PRINT_PACK, world.tournament, world.series, language=language
            )
        document.refresh_from_db()
        assert document.status == "done", document.error
        pdf = stored_pdf(document)
        assert pdf_pages(pdf, tmp_path) == 8
    static = Counter((lang, tag[0]) for lang, tag in calls if tag[0].startswith("static:"))
    # Two tables of four and one of five: a card and a sheet page per shape and language.
    expected = {
        f"static:{key}"
        for key in ("table_card:4", "table_card:5", "score_sheet:4:20:1", "score_sheet:5:25:1")
    }
    for language in ("de", "en"):
        rendered = {tag for (lang, tag), n in static.items() if lang == language}
        assert rendered == expected
        assert all(n == 1 for (lang, _), n in static.items() if lang == language)
    # Variable pages: one card and one sheet per table and language, nothing twice.
    variable = sum(
        layers.count(VARIABLE) for _, layers in calls if not layers[0].startswith("static:")
    )
    assert variable == 2 * 3 * 2


@pytest.mark.django_db
def test_every_sheet_and_card_shows_its_static_layer(
    world, django_capture_on_commit_callbacks, tmp_path
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        document = services.request_document(
            Kind.PRINT_PACK, world.tournament, world.series, language="en"
        )
    document.refresh_from_db()
    pdf = stored_pdf(document)
    text = pdf_text(pdf, tmp_path)
    assert text.count("Checks after every game") == 3  # the static footer on each sheet
    assert text.count("fold here") == 3  # the static fold line on each card
    assert text.count("Compulsory solos") == 3
    # The card's variable half is drawn twice (upright and turned): each name twice per card,
    # once more on the sheet's seat list, column head and signature (last name).
    assert text.count("Maria Müller") >= 4
    with pikepdf.open(io.BytesIO(pdf)) as parsed:
        forms = set()
        for page in parsed.pages[2:]:
            xobjects = page.obj.Resources.get("/XObject", {})
            layer = [name for name in xobjects if name.startswith("/DokoLayer")]
            assert len(layer) == 1
            forms.add(xobjects[layer[0]].objgen)
        assert len(forms) == 4  # one shared form per static page, not one per page
        for page in parsed.pages[:2]:  # the seating list is rendered whole
            xobjects = page.obj.Resources.get("/XObject", {})
            assert not [name for name in xobjects if name.startswith("/DokoLayer")]


def test_join_without_layers_keeps_the_order() -> None:
    info = _series(2)
    pages = print_pack_pages(info)
    seating = [p for p in pages if p.underlay is None]
    one = render.render_pdf(seating[:1], "de")
    two = render.render_pdf(seating[1:], "de")
    assert render.join_pdfs([one]) == one
    joined = render.join_pdfs([two, one], order=[(1, 0), (0, 0)])
    with pikepdf.open(io.BytesIO(joined)) as parsed:
        assert len(parsed.pages) == 2


@pytest.mark.parametrize(("processes", "pages", "size"), [(2, 24, 12), (2, 200, 40), (1, 24, 24)])
def test_a_small_document_is_split_for_every_process(
    settings: Settings, processes: int, pages: int, size: int
) -> None:
    settings.DOCUMENT_WORKER_PROCESSES = processes
    assert pipeline.part_size(pages) == size


def test_a_small_pack_is_rendered_in_more_than_one_part(settings: Settings) -> None:
    settings.DOCUMENT_WORKER_PROCESSES = 2
    pages = print_pack_pages(_series(11))
    runs = part_runs(pages, pipeline.part_size(len(pages)))
    assert len(runs) >= 2 and max(len(run) for run in runs) <= len(pages) / 2
