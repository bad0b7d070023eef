"""Pieces of a document, each rendered once for the content it shows.

A document's pages fall into pieces: the pages of one table (its card and its score sheet),
runs of the other pages (the seating lists), and the static layers. Each piece is stored
under a key made from the HTML it is rendered from (which holds the print stylesheet, every
text, the QR codes' links and the language), the layout's and the templates' versions and
WeasyPrint's: the same key is the same PDF, and any change to what the piece shows makes a
new key, so an outdated piece is never used. A swap of two players then renders the seating
lists and the two tables concerned; the other tables' pieces are reused.

Missing pieces of a run are rendered in one WeasyPrint document (one stylesheet to compute,
one font load) and split into their pieces. Pieces live below ``documents/pieces/<tournament
id>/``: they name players, so they are removed with the tournament's documents
(``documents.forgetting``), and the sweep removes those not used for ``PIECE_KEEP``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import io
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pikepdf
import weasyprint
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils import timezone

from documents.layout import LAYOUT_VERSION, Page, chunked, table_pages
from documents.render import render_html, render_pdf, templates_version

PIECES_DIR = "documents/pieces"
#: Pieces not written for this long are removed by the sweep (they are made again if asked
#: for); a piece in use is rewritten never, so a long-lived pack's pieces are made anew then.
PIECE_KEEP = dt.timedelta(days=2)


@dataclass(frozen=True, slots=True)
class Piece:
    """Pages rendered and stored together: indexes into the pages they were taken from."""

    pages: tuple[int, ...]
    key: str


def groups(pages: Sequence[Page], size: int) -> list[list[int]]:
    """The pieces' pages (indexes into ``pages``): each table's pages together, the other
    pages in runs of at most ``size`` in their order."""
    loose, tables = table_pages(pages)
    return [list(run) for run in chunked(loose, size)] + list(tables.values())


def key(pages: Sequence[Page], language: str) -> str:
    """What the piece's PDF is made from: its HTML, in ``language``, and the versions of
    the layout, the templates and the renderer."""
    digest = hashlib.sha256()
    for part in (LAYOUT_VERSION, templates_version(), weasyprint.__version__, language):
        digest.update(part.encode() + b"\0")
    digest.update(render_html(pages, language).encode())
    return digest.hexdigest()


def pieces(pages: Sequence[Page], indexes: Sequence[Sequence[int]], language: str) -> list[Piece]:
    return [Piece(tuple(i), key([pages[k] for k in i], language)) for i in indexes]


def _name(tournament_id: int, piece: Piece) -> str:
    return f"{PIECES_DIR}/{tournament_id}/{piece.key}.pdf"


def stored(tournament_id: int, piece: Piece) -> bytes | None:
    """The piece's PDF if it is stored (it may be removed at any moment: then None)."""
    try:
        with default_storage.open(_name(tournament_id, piece), "rb") as handle:
            data: bytes = handle.read()
    except (FileNotFoundError, OSError):
        return None
    return data


def missing(tournament_id: int, found: Sequence[Piece]) -> list[Piece]:
    return [piece for piece in found if not default_storage.exists(_name(tournament_id, piece))]


def _store(tournament_id: int, piece: Piece, pdf: bytes) -> None:
    """Store the piece, whole or not at all: another process may read it at any moment (a
    local file is written beside and renamed; a remote storage writes objects whole)."""
    name = _name(tournament_id, piece)
    if default_storage.exists(name):  # the same key is the same PDF: keep the first
        return
    try:
        path = Path(default_storage.path(name))
    except NotImplementedError:
        default_storage.save(name, ContentFile(pdf))
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".part", delete=False) as handle:
        handle.write(pdf)
    os.replace(handle.name, path)


def split(pdf: bytes, sizes: Sequence[int]) -> list[bytes]:
    """``pdf``'s pages in consecutive runs of ``sizes`` pages, each a PDF of its own."""
    out = []
    with pikepdf.open(io.BytesIO(pdf)) as source:
        if len(source.pages) != sum(sizes):
            raise ValueError(f"{sum(sizes)} pages expected, {len(source.pages)} rendered")
        start = 0
        for size in sizes:
            with pikepdf.new() as piece:
                piece.pages.extend(source.pages[start : start + size])
                buffer = io.BytesIO()
                piece.save(buffer)
            out.append(buffer.getvalue())
            start += size
    return out


def render(
    tournament_id: int, pages: Sequence[Page], wanted: Sequence[Piece], language: str
) -> list[bytes]:
    """The PDFs of ``wanted`` (pieces of ``pages``): stored ones read, the others rendered
    in one document, split and stored."""
    found = {piece: stored(tournament_id, piece) for piece in wanted}
    todo = [piece for piece, pdf in found.items() if pdf is None]
    if len(todo) == 1:
        piece = todo[0]
        found[piece] = render_pdf([pages[i] for i in piece.pages], language)
        _store(tournament_id, piece, found[piece])  # type: ignore[arg-type]
    elif todo:
        pdf = render_pdf([pages[i] for piece in todo for i in piece.pages], language)
        for piece, part in zip(todo, split(pdf, [len(p.pages) for p in todo]), strict=True):
            found[piece] = part
            _store(tournament_id, piece, part)
    return [found[piece] or b"" for piece in wanted]


def remove(tournament_ids: Sequence[int]) -> None:
    """Every stored piece of these tournaments (their documents are forgotten)."""
    for tournament_id in tournament_ids:
        _remove_folder(f"{PIECES_DIR}/{tournament_id}", None)


def sweep(now: dt.datetime | None = None) -> None:
    """Remove the pieces not written for ``PIECE_KEEP``."""
    try:
        folders, _ = default_storage.listdir(PIECES_DIR)
    except FileNotFoundError:
        return
    cutoff = (now or timezone.now()) - PIECE_KEEP
    for folder in folders:
        _remove_folder(f"{PIECES_DIR}/{folder}", cutoff)


def _remove_folder(folder: str, cutoff: dt.datetime | None) -> None:
    try:
        _, files = default_storage.listdir(folder)
    except FileNotFoundError:
        return
    for name in files:
        path = f"{folder}/{name}"
        with contextlib.suppress(FileNotFoundError, OSError):
            if cutoff is None or default_storage.get_modified_time(path) < cutoff:
                default_storage.delete(path)
    with contextlib.suppress(NotImplementedError, OSError):
        os.rmdir(default_storage.path(folder))
