"""Shared by the print commands: write a generated document to a file."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import CommandError

from documents import pipeline
from documents.models import GeneratedDocument


def write(document: GeneratedDocument, output: str) -> int:
    """Generate ``document`` in this process if needed and copy its PDF to ``output``."""
    try:
        document = pipeline.generate_inline(document)
    except Exception as exc:
        raise CommandError(f"The PDF could not be generated: {exc}") from exc
    with document.file.open("rb") as handle:
        Path(output).write_bytes(handle.read())
    return document.pages_total
