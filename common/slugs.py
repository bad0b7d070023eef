"""Short names in links ("slugs") of tournaments, seasons and the like: made from a name,
unique among their kind, and a clash at save time refused on the field, not as a 500."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import IntegrityError, models, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from common.services import ServiceError

GERMAN_LETTERS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})
SLUG_MAX_LENGTH = 60  # the slug fields' max_length


def refuse_invalid(slug: str) -> None:
    """Refuse a short name that is no slug or too long, on the field ``slug``."""
    try:
        validate_slug(slug)
    except ValidationError as exc:
        raise ServiceError(
            "invalid_slug", _("Use only letters, digits, hyphens and underscores."), field="slug"
        ) from exc
    if len(slug) > SLUG_MAX_LENGTH:
        raise ServiceError(
            "slug_too_long", _("At most %(n)d characters.") % {"n": SLUG_MAX_LENGTH}, field="slug"
        )


def slug_from_name(name: str, fallback: str) -> str:
    """The short name a name suggests: "Großer Bärenpreis" → "grosser-baerenpreis" (umlauts
    written out, then Django's slugify); ``fallback`` when nothing is left."""
    slug = slugify(name.lower().translate(GERMAN_LETTERS))
    return slug[:SLUG_MAX_LENGTH].strip("-") or fallback


def unique_slug_in(others: models.QuerySet[Any], base: str, reserved: Collection[str] = ()) -> str:
    """``base`` made unique with a number ("-2", "-3", ...) among the slugs of ``others``
    and ``reserved``."""
    taken = set(reserved) | set(
        others.filter(slug__startswith=base[: SLUG_MAX_LENGTH - 4]).values_list("slug", flat=True)
    )
    slug, number = base, 1
    while slug in taken:
        number += 1
        suffix = f"-{number}"
        slug = base[: SLUG_MAX_LENGTH - len(suffix)].rstrip("-") + suffix
    return slug


def save_with_unique_slug(instance: models.Model, taken: Callable[[str], str]) -> None:
    """Save ``instance``; when another row took its slug meanwhile (two people saving the
    same name at once), refuse on the field with ``taken(free slug)``. Any other integrity
    error is not ours to explain and goes on."""
    model = type(instance)
    slug = getattr(instance, "slug")  # noqa: B009 - every model given here has one
    try:
        with transaction.atomic():
            instance.save()
    except IntegrityError as exc:
        others = model._default_manager.exclude(pk=instance.pk)
        if not others.filter(slug=slug).exists():
            raise
        raise ServiceError("slug_taken", taken(unique_slug_in(others, slug)), field="slug") from exc
