"""A tournament's pages live at /verwaltung/<slug>/: every other page there is a short name
no tournament may take, or that tournament could never be managed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

from tournaments.services.setup import RESERVED_SLUGS


def _paths(patterns: list[Any], prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        text = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _paths(pattern.url_patterns, text)
        elif isinstance(pattern, URLPattern):
            yield text


def test_every_page_under_verwaltung_is_a_reserved_short_name() -> None:
    literal = {
        found.group(1)
        for path in _paths(get_resolver().url_patterns)
        if (found := re.match(r"^verwaltung/([a-z0-9-]+)/", path))
    }
    assert {"vereine", "kasse", "ligen"} <= literal  # the walk finds them
    assert literal <= RESERVED_SLUGS, literal - RESERVED_SLUGS
