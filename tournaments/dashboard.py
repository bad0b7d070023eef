"""What the organizer's dashboard and the tournaments app's other pages link to in the apps
above.

The dashboard is the tournaments app's page, but much of what an organizer opens from it
belongs to apps above this one: the standings (``scoring``), the printouts (``documents``),
the hall display (``hall``), the exports and the archive (``archive``), a group's line-ups
(``teams``). Each of those apps adds its links here in its ``AppConfig.ready``; this layer
and its templates never name them. The places (``common.links``) besides the dashboard's
sections: the organizer's list of tournaments (``MINE``), his menu of a tournament (``NAV``),
the series page (``SERIES``, ``TABLE``) and a tournament's pages kept by
the apps above, for everyone (``PUBLIC``) and for its organizers (``MANAGE``), which a
league's group shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from common.links import Contributor, Link, Place

if TYPE_CHECKING:  # imported by the apps' ``AppConfig`` modules, before the models load
    from tournaments.models import Tournament

__all__ = [
    "MANAGE",
    "MINE",
    "NAV",
    "PUBLIC",
    "REFEREED",
    "SECTIONS",
    "SERIES",
    "TABLE",
    "Link",
    "contribute",
    "dashboard_links",
]

#: Where a link stands: ``print`` (the next step once series 1 is drawn), ``group`` (what
#: the tournament is part of), ``results`` (below the series), ``exports``.
SECTIONS = ("print", "group", "results", "exports")
_SECTIONS = {s: Place(f"tournaments.dashboard.{s}", "the tournament") for s in SECTIONS}

MINE = Place("tournaments.mine", "nothing: the organizer's own list")
#: The organizer's menu of a tournament, between its check-in and its settings.
NAV = Place("tournaments.nav", "the tournament")
#: The organizer's series page: what a drawn series offers (printouts) and each table's link.
SERIES = Place("tournaments.series", "the tournament and the series")
TABLE = Place("tournaments.table", "the tournament and the table")
#: A registry player's page (privacy: his data export).
REGISTRY_PLAYER = Place("tournaments.registry_player", "the registry's player")
PUBLIC = Place("tournaments.public", "the tournament")
MANAGE = Place("tournaments.manage", "the tournament")
#: "My tournaments": a tournament the user referees but does not keep (a club's referee).
REFEREED = Place("tournaments.refereed", "the tournament")


def contribute(section: str, key: str, contributor: Contributor, *, order: int = 50) -> None:
    """Add the links of ``key`` (an app's name) to ``section`` of the dashboard, ordered by
    ``order``; adding the same key again replaces it (``ready`` may run twice in tests)."""
    if section not in _SECTIONS:
        raise ValueError(f"unknown dashboard section {section!r}")
    _SECTIONS[section].contribute(key, contributor, order=order)


def dashboard_links(tournament: Tournament) -> dict[str, list[Link]]:
    """Every section's links for this tournament, in order."""
    return {section: _SECTIONS[section].links(tournament) for section in SECTIONS}
