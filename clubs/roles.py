"""Roles as data: which role of a club keeps which kind of owned thing.

An owner and an organizer keep the club's tournaments, seasons, leagues, evenings and its
player registry, and do the fee work of its tournaments (entry fees, prize money); an
owner and a cashier keep the club's cash box, and a cashier does the fee work too. An
evening's payments into the cash box (``EVENING_PAYMENTS``) are booked by the cash box's
keepers and by the organizers who closed the evening: the amounts come from the evening's
stored settlement, nothing is typed, and reversing stays with the cash box's keepers. The
referee calls of the club's tournaments (``RULINGS``: taking a table's call, ruling it)
are handled by its referees, owners and organizers; a referee keeps nothing else.
``common.ownership.Ownership`` asks ``keeping_roles`` which memberships keep a kind;
nothing else decides it.
"""

from __future__ import annotations

OWNER = "owner"
ORGANIZER = "organizer"
CASHIER = "cashier"
REFEREE = "referee"
ROLES = (OWNER, ORGANIZER, CASHIER, REFEREE)

#: The kinds of owned things.
TOURNAMENTS = "tournaments"
SEASONS = "seasons"
LEAGUES = "leagues"
REGISTRY = "registry"
#: The fee work of a club's tournaments: entry fees at the desk, the cash report, the prize
#: table and the payout list (``fees.permissions.FEES``).
FEES = "fees"
#: The club's cash box: its bookings, its balance, its exports.
CASHBOX = "cashbox"
#: Not a thing of its own: the referee calls of the club's tournaments, taken and ruled.
RULINGS = "rulings"
#: The club's evenings (Spielabende): its groups, their members, evenings and tables.
EVENINGS = "evenings"
#: Not a thing of its own: booking a closed evening's payments into the club's cash box.
EVENING_PAYMENTS = "evening_payments"

_EVENTS = frozenset({TOURNAMENTS, SEASONS, LEAGUES, REGISTRY, EVENINGS})
_KINDS = _EVENTS | {FEES, CASHBOX, RULINGS, EVENING_PAYMENTS}

#: Role → the kinds of things it keeps.
KEEPS: dict[str, frozenset[str]] = {
    OWNER: _KINDS,
    ORGANIZER: _EVENTS | {FEES, RULINGS, EVENING_PAYMENTS},
    CASHIER: frozenset({FEES, CASHBOX, EVENING_PAYMENTS}),
    REFEREE: frozenset({RULINGS}),
}


def keeping_roles(kind: str) -> tuple[str, ...]:
    """The roles whose members keep things of ``kind``."""
    if kind not in _KINDS:
        raise ValueError(f"unknown kind of owned thing: {kind}")
    return tuple(role for role in ROLES if kind in KEEPS[role])
