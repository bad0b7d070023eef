"""Reading generated PDFs with poppler-utils."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} (poppler-utils) is not installed")
    return path


def pdf_text(pdf: bytes, tmp_path: Path, *, raw: bool = False) -> str:
    """The PDF's text. ``raw``: in the order it is drawn, so the lines of one text box (a
    column of a list, a name broken into two lines) stay together."""
    path = tmp_path / "out.pdf"
    path.write_bytes(pdf)
    options = ["-raw"] if raw else []
    result = subprocess.run(
        [_tool("pdftotext"), *options, str(path), "-"], check=True, capture_output=True, text=True
    )
    return result.stdout


def pdf_pages(pdf: bytes, tmp_path: Path) -> int:
    path = tmp_path / "info.pdf"
    path.write_bytes(pdf)
    result = subprocess.run(
        [_tool("pdfinfo"), str(path)], check=True, capture_output=True, text=True
    )
    line = next(x for x in result.stdout.splitlines() if x.startswith("Pages:"))
    return int(line.split()[1])


def stored_pdf(document) -> bytes:
    with document.file.open("rb") as handle:
        return handle.read()


def pdf_pngs(pdf: bytes, folder: Path) -> list[bytes]:
    """Each page of the PDF as PNG bytes at 50 dpi (``folder`` is made for the files)."""
    folder.mkdir()
    (folder / "in.pdf").write_bytes(pdf)
    subprocess.run([_tool("pdftoppm"), "-r", "50", "-png", "in.pdf", "p"], cwd=folder, check=True)
    return [path.read_bytes() for path in sorted(folder.glob("p-*.png"))]
