from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def german() -> Iterator[None]:
    """The labels read "Spieler 17" here, whatever language an earlier test left active."""
    with translation.override("de"):
        yield
