"""Where a booking came from, as a link on the ledger: the apps above the cash box say it.

The cash box never names an upper app. An app that books into it (the evenings: a closed
evening's payments) contributes a ``Source`` in its ``AppConfig.ready``: given the ids of a
club's bookings, a link for each booking it made (one query for the whole ledger).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from common.links import Link

#: The ids of bookings → a link for each of them the contributing app made.
Source = Callable[[Sequence[int]], dict[int, Link]]

_SOURCES: dict[str, Source] = {}


def contribute(key: str, source: Source) -> None:
    """Add the source of ``key`` (an app's name); again the same key replaces it."""
    _SOURCES[key] = source


def links(booking_ids: Sequence[int]) -> dict[int, Link]:
    """A link per booking whose source is known."""
    found: dict[int, Link] = {}
    for source in _SOURCES.values():
        found.update(source(booking_ids))
    return found
