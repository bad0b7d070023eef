"""Celery tasks: ids in, a stored PDF out. The static layers and the parts of a document
render in parallel on the workers (a chord), then one task joins them, drawing the static
layers under their pages. Without a broker all of it runs eagerly."""

from __future__ import annotations

from celery import chord, shared_task

from documents import services


@shared_task(name="documents.generate")
def generate_document(document_id: int) -> None:
    try:
        parts = services.start(document_id)
        header = [render_layers.si(document_id)]
        header += [render_part.si(document_id, index) for index in range(parts)]
        chord(header)(assemble.s(document_id))
    except Exception as exc:
        services.fail(document_id, exc)
        raise


@shared_task(name="documents.render_layers")
def render_layers(document_id: int) -> str:
    try:
        return services.render_layers(document_id)
    except Exception as exc:
        services.fail(document_id, exc)
        raise


@shared_task(name="documents.render_part")
def render_part(document_id: int, index: int) -> str:
    try:
        return services.render_part(document_id, index)
    except Exception as exc:
        services.fail(document_id, exc)
        raise


@shared_task(name="documents.assemble")
def assemble(names: list[str], document_id: int) -> None:
    """``names``: the chord's results, the layers file first, then the parts in order."""
    try:
        services.assemble(document_id, names[1:], names[0])
    except Exception as exc:
        services.fail(document_id, exc)
        raise
