"""The print commands use the same services and leave the same stored document."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from documents.models import GeneratedDocument
from tests.documents.pdftools import pdf_pages, pdf_text

pytestmark = pytest.mark.django_db


def test_print_series_writes_the_pack(world, tmp_path) -> None:
    out = tmp_path / "pack.pdf"
    call_command("print_series", "herbst", "1", "-o", str(out), "--language", "en")
    pdf = out.read_bytes()
    assert pdf.startswith(b"%PDF")
    assert pdf_pages(pdf, tmp_path) == 8
    text = pdf_text(pdf, tmp_path)
    assert "Score sheet" in text or "SCORE SHEET" in text
    assert "Maria Müller" in text
    document = GeneratedDocument.objects.get()
    assert document.status == "done" and document.language == "en"


def test_print_results_writes_the_report(world, tmp_path) -> None:
    out = tmp_path / "results.pdf"
    call_command("print_results", "herbst", "-o", str(out))
    assert out.read_bytes().startswith(b"%PDF")


def test_unknown_series_is_an_error(world, tmp_path) -> None:
    with pytest.raises(CommandError):
        call_command("print_series", "herbst", "9", "-o", str(tmp_path / "x.pdf"))
