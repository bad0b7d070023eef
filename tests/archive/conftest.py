from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """The messages compared here are the English ones, whatever the German says."""
    with translation.override("en"):
        yield
