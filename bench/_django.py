"""Shared set-up for benchmarks: Django on a throwaway test database (created and dropped)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


@contextmanager
def test_database() -> Iterator[str]:
    """A fresh database named like pytest-django's (test_<name>), removed afterwards."""
    from django.db import connection

    name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        yield name
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)
