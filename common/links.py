"""Links that upper apps contribute to the pages of lower ones.

A lower layer never names an upper app, not even in a template. Where one of its pages
links to what the apps above offer, the lower app declares a ``Place`` (a dotted name such
as ``"tournaments.mine"``) and its template shows the place's links
(``{% load links %}{% contributed_links "tournaments.mine" as links %}``); each upper app
adds its links to the place in its ``AppConfig.ready``. A place's links are made for the
page's subject (a tournament, a registration, …: whatever the place says it passes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Link:
    label: str
    url: str
    note: str = ""  # a word beside the link
    download: bool = False  # a file, not a page
    view: str = ""  # the URL's name, so that a menu marks the page it is on


#: The links an app shows at a place for the page's subject (none when it does not concern
#: it).
Contributor = Callable[..., list[Link]]

_PLACES: dict[str, Place] = {}


class Place:
    """Where a lower app's page shows the links of the apps above."""

    def __init__(self, name: str, subject: str) -> None:
        if name in _PLACES:
            raise ValueError(f"link place {name!r} declared twice")
        self.name = name
        self.subject = subject  # what the page passes, in words (for the reader)
        self._contributors: list[tuple[int, str, Contributor]] = []
        _PLACES[name] = self

    def contribute(self, key: str, contributor: Contributor, *, order: int = 50) -> None:
        """Add the links of ``key`` (an app's name), ordered by ``order``; adding the same
        key again replaces it (``ready`` may run twice in tests)."""
        entries = [e for e in self._contributors if e[1] != key]
        entries.append((order, key, contributor))
        self._contributors = sorted(entries, key=lambda e: (e[0], e[1]))

    def links(self, *subject: Any) -> list[Link]:
        """The links of every app here for ``subject``, in order."""
        return [link for _order, _key, make in self._contributors for link in make(*subject)]


def place(name: str) -> Place:
    """The place declared as ``name`` (a template names it); ``KeyError`` for a typo."""
    return _PLACES[name]
