"""What the apps above add to a tournament's JSON archive (docs/archive.md).

The archive (``archive``) writes and reads the tournament, its players and its games; an
app beside it (``fees``: the fee settings, the booking ledger, the prize table) keeps data
of a tournament that must travel with it, but the two may not import each other. So each
such app registers a part here in its ``AppConfig.ready``: the archive's key it owns, how
it is exported, read (checked, nothing written) and written on import. The archive asks
this module for the parts and never names the apps.

Registrations are named by their start numbers inside the archive: ``export`` gets the
tournament's start number of each registration id, ``read`` the start numbers the archive
registers, ``write`` the new registration id of each start number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported by the apps' ``AppConfig`` modules, before the models load
    from common.actors import Actor
    from tournaments.models import Tournament

#: A problem of a part found while reading it: where (e.g. "fees, booking 3") and why.
PartProblem = tuple[str, str]


@dataclass(frozen=True)
class ArchivePart:
    #: The archive's top-level key ("fees"); an archive without it imports without the part.
    key: str
    #: The part as JSON: (tournament, {registration id: start number}) -> value.
    export: Callable[[Tournament, Mapping[int, int]], Any]
    #: The part checked: (value, the archive's start numbers) -> (what ``write`` takes,
    #: problems). Nothing is written; any problem refuses the whole archive.
    read: Callable[[Any, frozenset[int]], tuple[Any, list[PartProblem]]]
    #: The read part saved with the imported tournament:
    #: (tournament, read value, {start number: registration id}, actor) -> None.
    write: Callable[[Tournament, Any, Mapping[int, int], Actor], None]


_PARTS: dict[str, ArchivePart] = {}


def register_part(part: ArchivePart) -> None:
    """Add an app's part; registering the same key again replaces it (``ready`` may run
    twice in tests)."""
    _PARTS[part.key] = part


def archive_parts() -> list[ArchivePart]:
    """Every registered part, in the order of their keys (the export's order)."""
    return [_PARTS[key] for key in sorted(_PARTS)]
