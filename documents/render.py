"""Page plans to PDF: Django templates to HTML, WeasyPrint to PDF, pikepdf to combine.

Static ruling (score-sheet grids, list stripes) is drawn by a small SVG template rendered
once per shape and used as the page background, so WeasyPrint lays out only the text boxes;
this is what makes a page cost milliseconds instead of the tenth of a second a ruled HTML
table costs.

Score sheets and table cards go further (see ``layout.Page``): everything that is the same at
every table of one shape is a static layer, rendered once per document; each table's page
only lays out its few variable lines. ``join_pdfs`` puts the static page under each of its
variable pages as one shared form XObject, so this costs a few bytes per page.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pikepdf
import segno
from django.conf import settings
from django.template.loader import get_template, render_to_string
from django.utils import translation
from weasyprint import CSS, HTML, Document

from documents.layout import (
    Page,
    Placement,
    sheet_geometry,
)

LAYER_NAME = "/DokoLayer"

TEMPLATE_DIR = "documents/print/"


@lru_cache(maxsize=1)
def templates_version() -> str:
    """A digest of the print templates and their stylesheet: a document rendered before
    one of them changed is outdated (``layout.LAYOUT_VERSION`` covers the page plans)."""
    digest = hashlib.sha256()
    folder = Path(settings.BASE_DIR) / "templates" / TEMPLATE_DIR
    for path in sorted(folder.iterdir()):
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


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
def stripes_uri(bands: tuple[tuple[float, float, float, float], ...]) -> str:
    """Shading behind every second entry of a list (x, y, width, height of each band, see
    ``layout.row_stripes``); light enough for black-and-white printers."""
    context = {"rects": bands}
    return svg_data_uri(render_to_string(TEMPLATE_DIR + "stripes.svg", context))


def _page_extras(page: Page, backgrounds: dict[str, str]) -> dict[str, Any]:
    """Layer flags, QR code and background of a page. Backgrounds are shared by many pages,
    so they go into the document's stylesheet once (``backgrounds``: class name to data URI)
    and the page refers to them by class; inline, each page would make WeasyPrint parse the
    SVG's whole data URI again. Backgrounds belong to the static layer, codes to the
    variable one."""
    context = page.context
    extras: dict[str, Any] = {"static": page.draws_static, "variable": page.draws_variable}
    table = context.get("table")
    if table is not None and page.draws_variable:
        extras["qr"] = qr_data_uri(table.entry_url)
    uri = _background_uri(page) if page.draws_static else None
    if uri is not None:
        extras["background"] = _background_class(uri, backgrounds)
    return extras


def _background_uri(page: Page) -> str | None:
    context = page.context
    if page.template == "score_sheet.html":
        g = context["g"]
        return grid_uri(g.players, g.normal_games, g.solo_rows // g.players)
    if context.get("stripes"):
        return stripes_uri(context["stripes"])
    return None


def _background_class(uri: str, backgrounds: dict[str, str]) -> str:
    for name, known in backgrounds.items():
        if known == uri:
            return name
    name = f"bg{len(backgrounds)}"
    backgrounds[name] = uri
    return name


@dataclass(frozen=True, slots=True)
class Markup:
    """A run of pages as WeasyPrint reads it: the HTML, and the rules only this run has
    (its backgrounds and box classes, ``run.css``). Both are given to WeasyPrint as
    stylesheets after the print stylesheet, in one origin, so the cascade is the one a
    single ``<style>`` with all three made."""

    html: str
    rules: str


@lru_cache(maxsize=1)
def print_stylesheet() -> CSS:
    """The print stylesheet, parsed once per process (at a worker's start, see
    ``documents.warmup``): parsed with every run it took a fifth of a small piece's time."""
    return CSS(string=render_to_string(TEMPLATE_DIR + "print.css"))


def render_markup(pages: Sequence[Page], language: str) -> Markup:
    with translation.override(language):
        parts = []
        backgrounds: dict[str, str] = {}
        box_styles: dict[str, str] = {}  # filled by the {% box %} tag, see templatetags
        for page in pages:
            template = get_template(TEMPLATE_DIR + page.template)
            extras = _page_extras(page, backgrounds)
            parts.append(template.render({**page.context, **extras, "box_styles": box_styles}))
        rules = {"backgrounds": backgrounds, "box_styles": box_styles}
        html = {"body": "".join(parts), "language": language}
        return Markup(
            html=render_to_string(TEMPLATE_DIR + "document.html", html),
            rules=render_to_string(TEMPLATE_DIR + "run.css", rules),
        )


def render_html(pages: Sequence[Page], language: str) -> str:
    """What a run of pages is rendered from besides the print stylesheet (which
    ``templates_version`` covers): a piece's key is made from it."""
    markup = render_markup(pages, language)
    return markup.rules + "\n" + markup.html


def _render(markup: Markup) -> Document:
    return HTML(string=markup.html).render(
        stylesheets=[print_stylesheet(), CSS(string=markup.rules)]
    )


def render_sample(body: str, language: str) -> bytes:
    """A page of the given HTML with the print stylesheet (documents.warmup loads the fonts
    with it)."""
    html = render_to_string(TEMPLATE_DIR + "document.html", {"body": body, "language": language})
    pdf: bytes = _render(Markup(html=html, rules="")).write_pdf()
    return pdf


def render_pdf(pages: Sequence[Page], language: str) -> bytes:
    """One run of pages as a PDF; raises if the pages did not come out one sheet each."""
    document = _render(render_markup(pages, language))
    if len(document.pages) != len(pages):
        raise LayoutError(
            f"{len(pages)} pages planned but {len(document.pages)} rendered; "
            "a page overflowed its sheet"
        )
    pdf: bytes = document.write_pdf()
    return pdf


def join_pdfs(
    parts: Sequence[bytes],
    order: Sequence[tuple[int, int]] | None = None,
    layers: bytes | None = None,
    finish: Sequence[Placement] = (),
) -> bytes:
    """The pages of ``parts`` in one PDF: all of them part after part, or as ``order`` says
    ((part, page in part) for each page). With ``layers``, ``finish`` says page by page which
    page of ``layers`` goes under it and whether it is mirrored (see ``layout.Placement``).
    Each layer page becomes one form XObject shared by all pages that use it."""
    if order is not None and list(order) == [(0, k) for k in range(len(order))]:
        order = None  # one part, in order
    if len(parts) == 1 and order is None and not layers:
        return parts[0]
    with contextlib.ExitStack() as stack:  # sources stay open until saved: qpdf copies lazily
        out = stack.enter_context(pikepdf.new())
        sources = [stack.enter_context(pikepdf.open(io.BytesIO(part))) for part in parts]
        if order is None:
            for source in sources:
                out.pages.extend(source.pages)
        else:
            for part, position in order:
                out.pages.append(sources[part].pages[position])
        if layers:
            source = stack.enter_context(pikepdf.open(io.BytesIO(layers)))
            _finish(out, [page.as_form_xobject() for page in source.pages], finish)
        _share_duplicates(out)
        buffer = io.BytesIO()
        # the objects' dictionaries (fonts' widths, pages, resources) compressed together
        out.save(buffer, object_stream_mode=pikepdf.ObjectStreamMode.generate)
        return buffer.getvalue()


#: Keys whose values hold numbers only: not searched for references.
_NO_REFERENCES = frozenset({"/W", "/Widths", "/FontBBox", "/MediaBox", "/BBox", "/Matrix"})


def _share_duplicates(pdf: pikepdf.Pdf) -> None:
    """Keep one copy of each stream that several pieces bring along: each piece is a PDF of
    its own, with its own copy of a QR code drawn on the card and the sheet, of a font
    subset (often the same glyphs), of a ToUnicode map. Every reference to a stream with
    the same bytes and dictionary is pointed at the first; the copies are then unreachable
    and not written. The 11-table pack shrinks from about 210 to 70 KB."""
    first: dict[bytes, pikepdf.Object] = {}
    same: dict[tuple[int, int], pikepdf.Object] = {}
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream):
            key = _stream_key(obj)
            if key in first:
                same[obj.objgen] = first[key]
            else:
                first[key] = obj
    if not same:
        return
    for obj in pdf.objects:
        if isinstance(obj, (pikepdf.Dictionary, pikepdf.Array, pikepdf.Stream)):
            _repoint(obj, same)


def _stream_key(stream: pikepdf.Stream) -> bytes:
    """The stream's (still encoded) bytes and its dictionary, streams it refers to (an
    image's soft mask) by their own key."""
    digest = hashlib.sha256(stream.read_raw_bytes())
    for name in sorted(stream.stream_dict.keys()):
        if name == "/Length":
            continue
        value = stream.stream_dict[name]
        digest.update(name.encode() + b"\0")
        if isinstance(value, pikepdf.Stream):
            digest.update(_stream_key(value))
        elif isinstance(value, pikepdf.Object):
            digest.update(value.unparse(resolved=True))
        else:
            digest.update(repr(value).encode())
        digest.update(b"\0")
    return digest.digest()


def _repoint(container: pikepdf.Object, same: dict[tuple[int, int], pikepdf.Object]) -> None:
    """Point references in ``container`` (and the direct objects inside it) to duplicates
    at the stream kept instead."""
    items: Iterable[tuple[Any, Any]]
    if isinstance(container, pikepdf.Array):
        items = list(enumerate(container))
    else:
        items = list(container.items())
    for key, value in items:
        if not isinstance(value, pikepdf.Object) or key in _NO_REFERENCES:
            continue
        if value.is_indirect:
            kept = same.get(value.objgen)
            if kept is not None:
                container[key] = kept
        elif isinstance(value, (pikepdf.Dictionary, pikepdf.Array)):
            _repoint(value, same)


def _finish(out: pikepdf.Pdf, forms: Sequence[pikepdf.Object], finish: Sequence[Placement]) -> None:
    if len(finish) != len(out.pages):
        raise LayoutError(f"{len(finish)} placements for {len(out.pages)} pages")
    shared = [out.copy_foreign(form) for form in forms]
    names = [pikepdf.Name(f"{LAYER_NAME}{i}") for i in range(len(forms))]
    draws = [out.make_stream(f"q {name} Do Q\n".encode()) for name in names]
    for page, placement in zip(out.pages, finish, strict=True):
        if placement.mirror:
            _mirror(out, page)
        if placement.underlay is not None:
            index = placement.underlay
            _add_xobject(page, names[index], shared[index])
            page.contents_add(draws[index], prepend=True)


def _add_xobject(page: pikepdf.Page, name: pikepdf.Name, xobject: pikepdf.Object) -> None:
    """Add to the page's own resources: WeasyPrint gives all pages of a document one shared
    resource dictionary, which must not list other pages' layers."""
    resources = pikepdf.Dictionary(dict(page.obj.get(pikepdf.Name.Resources, {}).items()))
    xobjects = dict(resources.get(pikepdf.Name.XObject, {}).items())
    xobjects[str(name)] = xobject
    resources.XObject = pikepdf.Dictionary(xobjects)
    page.obj.Resources = resources


def _mirror(out: pikepdf.Pdf, page: pikepdf.Page) -> None:
    """Draw the page's content twice: as it is, and turned 180° about the sheet's centre.
    The page's own content stream becomes a form XObject (no decoding, no copy)."""
    content = page.obj.Contents
    if isinstance(content, pikepdf.Array):
        page.contents_coalesce()
        content = page.obj.Contents
    box = page.mediabox
    content.Type = pikepdf.Name.XObject
    content.Subtype = pikepdf.Name.Form
    content.BBox = box
    content.Resources = page.obj.Resources
    width, height = float(box[2]) + float(box[0]), float(box[3]) + float(box[1])
    page.obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(DokoPage=content))
    page.obj.Contents = out.make_stream(
        f"q /DokoPage Do Q q -1 0 0 -1 {width:.4f} {height:.4f} cm /DokoPage Do Q\n".encode()
    )


class LayoutError(RuntimeError):
    pass
