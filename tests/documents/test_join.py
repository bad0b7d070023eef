"""The joined pack keeps one copy of what its pieces share (QR codes, font subsets), stores
its objects compressed, and shows the same pages."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pikepdf

from documents import render
from documents.layout import print_pack_pages
from tests.documents.pdftools import pdf_pngs, pdf_text
from tests.documents.test_layout import _series


def _streams(pdf: bytes) -> list[bytes]:
    with pikepdf.open(io.BytesIO(pdf)) as parsed:
        return [obj.read_raw_bytes() for obj in parsed.objects if isinstance(obj, pikepdf.Stream)]


def test_the_join_keeps_one_copy_of_what_pieces_share(tmp_path: Path) -> None:
    pages = print_pack_pages(_series(2))
    table = [i for i, page in enumerate(pages) if page.context.get("table") is not None]
    piece = render.render_pdf([pages[i] for i in table[:2]], "de")  # one table's two pages
    copies = _streams(piece)
    joined = render.join_pdfs([piece, piece])
    streams = _streams(joined)
    # every stream of the piece (page contents, QR code, font subsets) is there once
    assert len(streams) <= len(copies) and len(set(streams)) == len(streams)
    assert len(joined) < 1.3 * len(piece)
    with pikepdf.open(io.BytesIO(joined)) as parsed:
        assert len(parsed.pages) == 4
    pngs = pdf_pngs(joined, tmp_path / "joined")
    assert pngs[:2] == pngs[2:] == pdf_pngs(piece, tmp_path / "piece")


def test_names_in_any_script_print_after_the_join(tmp_path: Path) -> None:
    """Pieces with different glyphs keep their own font subsets: nothing is drawn with a
    glyph another piece's subset lacks."""
    names = (("Łukasz", "Öztürk-Ñúñez"), ("Αλέξανδρος", "Παπαδόπουλος"), ("Дмитрий", "Иванов"))
    info = _series(3)
    tables = tuple(
        dataclasses.replace(
            table,
            seats=tuple(
                dataclasses.replace(seat, first_name=names[n][0], last_name=names[n][1])
                if k == 0
                else seat
                for k, seat in enumerate(table.seats)
            ),
        )
        for n, table in enumerate(info.tables)
    )
    pages = print_pack_pages(dataclasses.replace(info, tables=tables))
    parts = [render.render_pdf([page], "de") for page in pages]
    joined = render.join_pdfs(parts)
    text = pdf_text(joined, tmp_path)
    for first, last in names:
        assert first in text and last in text
    pngs = pdf_pngs(joined, tmp_path / "joined")
    assert pngs == [pdf_pngs(part, tmp_path / f"part{k}")[0] for k, part in enumerate(parts)]
