"""Prize money by the final standings: pure, no Django (the standard library only).

Money is integer cents (design decision 11). A prize table says, per place, an amount in
cents or a share of the pot in basis points (1/100 of a percent: 10000 is the whole pot),
and it may add special prizes (the best solo player, the best single series) whose winners
the caller names.

The rules, each with its reason:

* **Shares of the pot.** The pot is the fees received or a fixed amount (the caller says
  which). The share prizes together get ``floor(pot x sum of shares / 10000)``; each share
  first gets its own amount rounded down, and the cents still missing go one each to the
  shares with the largest remainders, the better place first on equal remainders (the
  largest remainder method, Hare-Niemeyer). So shares that add up to 100 % pay out exactly
  the pot, never a cent more, and no share is more than one cent from its exact amount.
* **Shared places.** Players who share a place occupy as many places as they are (three
  players sharing place 2 occupy places 2, 3 and 4). They pool the prizes of those places
  and split the pool evenly; the cents left over (fewer than the players) go one each to
  the players of the group in tie-break order, which within a group of equals is the lower
  start number first. So nobody in a group gets more than one cent more than another, and
  the group is paid exactly its pool.
* **Places nobody occupies** (a prize for place 12 when 10 players finished) are not paid:
  the money stays in the pot.
* **Special prizes** are split among their winners the same way (evenly, the leftover
  cents to the lower start numbers); a special prize without a winner is not paid.

Hence the sum paid is exactly the sum of the prizes of the places occupied plus the special
prizes that have winners, and with a prize table that does not rise with the place, a
better place is never paid less than a worse one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

#: The whole pot in basis points.
WHOLE = 10_000


@dataclass(frozen=True)
class PlacePrize:
    """The prize of one place: ``cents`` (a fixed amount) or ``share`` (basis points of the
    pot); the table's validation makes sure exactly one of them is given."""

    place: int
    cents: int = 0
    share: int = 0


@dataclass(frozen=True)
class SpecialPrize:
    """A prize beside the places (``key`` names it, e.g. ``solos_won``): ``cents`` or
    ``share`` as a place's prize, shared by ``winners`` (keys of finishers)."""

    key: str
    label: str
    cents: int = 0
    share: int = 0
    winners: tuple[int, ...] = ()


@dataclass(frozen=True)
class Finisher:
    """A player in the final standings: his ``key`` (the registration), his ``place`` (equal
    for players who share it) and his ``start_number`` (the order of the leftover cents)."""

    key: int
    place: int
    start_number: int


@dataclass(frozen=True)
class Payout:
    """What one player is paid: ``place_cents`` for his place, ``special_cents`` for his
    special prizes (by their keys), ``cents`` the sum."""

    key: int
    place: int
    shared_with: int  # the players in his group, himself included (1: alone)
    place_cents: int
    special_cents: Mapping[str, int] = field(default_factory=dict)

    @property
    def cents(self) -> int:
        return self.place_cents + sum(self.special_cents.values())


@dataclass(frozen=True)
class Payouts:
    """The payout list: one line per player in standings order (including those paid
    nothing), the amounts the prizes resolved to and the total paid."""

    lines: tuple[Payout, ...]
    place_amounts: Mapping[int, int]  # place → its prize in cents (shares resolved)
    special_amounts: Mapping[str, int]  # special prize → its amount in cents
    unpaid_cents: int  # prizes of places nobody occupies, special prizes nobody won

    @property
    def total(self) -> int:
        return sum(line.cents for line in self.lines)


def resolve_shares(pot: int, shares: Sequence[int]) -> list[int]:
    """The amounts in cents of ``shares`` (basis points, best place first) of ``pot``:
    together ``floor(pot x sum / WHOLE)``, each within a cent of its exact amount."""
    if pot < 0 or any(s < 0 for s in shares):
        raise ValueError("a pot and its shares are never negative")
    exact = [pot * share for share in shares]  # in cents x WHOLE
    amounts = [e // WHOLE for e in exact]
    missing = pot * sum(shares) // WHOLE - sum(amounts)
    # Largest remainder first; on equal remainders the better place (the lower index).
    order = sorted(range(len(shares)), key=lambda i: (-(exact[i] % WHOLE), i))
    for index in order[:missing]:
        amounts[index] += 1
    return amounts


def split_evenly(pool: int, keys: Sequence[int]) -> dict[int, int]:
    """``pool`` cents split among ``keys`` (in the order that gets the leftover cents):
    everybody ``pool // n``, the first ``pool % n`` one cent more."""
    if not keys:
        return {}
    each, left = divmod(pool, len(keys))
    return {key: each + (1 if i < left else 0) for i, key in enumerate(keys)}


def _amounts(
    pot: int, prizes: Sequence[PlacePrize], specials: Sequence[SpecialPrize]
) -> tuple[dict[int, int], dict[str, int]]:
    """Every prize in cents: the shares of places and special prizes resolved together (the
    places first, best place first), so that all shares together round as one."""
    shared_places = [p for p in prizes if p.share]
    shared_specials = [s for s in specials if s.share]
    resolved = resolve_shares(
        pot, [p.share for p in shared_places] + [s.share for s in shared_specials]
    )
    places = {p.place: p.cents for p in prizes if not p.share}
    extra = {s.key: s.cents for s in specials if not s.share}
    for prize, amount in zip(shared_places, resolved, strict=False):
        places[prize.place] = amount
    for special, amount in zip(shared_specials, resolved[len(shared_places) :], strict=True):
        extra[special.key] = amount
    return places, extra


def _groups(finishers: Iterable[Finisher]) -> list[list[Finisher]]:
    """The finishers by place, each group in the order of its leftover cents."""
    by_place: dict[int, list[Finisher]] = {}
    for finisher in finishers:
        by_place.setdefault(finisher.place, []).append(finisher)
    return [sorted(by_place[p], key=lambda f: (f.start_number, f.key)) for p in sorted(by_place)]


def payouts(
    finishers: Sequence[Finisher],
    prizes: Sequence[PlacePrize],
    *,
    pot: int = 0,
    specials: Sequence[SpecialPrize] = (),
) -> Payouts:
    """The payout list of the final standings ``finishers`` under ``prizes`` (and
    ``specials``), shares taken of ``pot`` cents. Players sharing a place must have the
    same ``place``, and a group of n at place p occupies places p … p + n - 1."""
    if len({p.place for p in prizes}) != len(prizes):
        raise ValueError("one prize per place")
    if len({s.key for s in specials}) != len(specials):
        raise ValueError("one special prize per key")
    if any(p.cents < 0 or p.share < 0 or p.place < 1 for p in prizes):
        raise ValueError("prizes are positive and places start at 1")
    places, extra = _amounts(pot, prizes, specials)
    known = {f.key for f in finishers}
    if len(known) != len(finishers):
        raise ValueError("every finisher once")

    place_cents: dict[int, int] = {}
    group_size: dict[int, int] = {}
    paid_places: set[int] = set()
    for group in _groups(finishers):
        first = group[0].place
        occupied = range(first, first + len(group))
        paid_places.update(occupied)
        pool = sum(places.get(place, 0) for place in occupied)
        place_cents.update(split_evenly(pool, [f.key for f in group]))
        group_size.update((f.key, len(group)) for f in group)

    order = {f.key: (f.start_number, f.key) for f in finishers}
    special_cents: dict[int, dict[str, int]] = {}
    unpaid = sum(amount for place, amount in places.items() if place not in paid_places)
    for special in specials:
        winners = sorted({w for w in special.winners if w in known}, key=order.__getitem__)
        if not winners:
            unpaid += extra[special.key]
            continue
        for key, amount in split_evenly(extra[special.key], winners).items():
            special_cents.setdefault(key, {})[special.key] = amount

    ranked = sorted(finishers, key=lambda f: (f.place, f.start_number, f.key))
    lines = tuple(
        Payout(
            key=f.key,
            place=f.place,
            shared_with=group_size[f.key],
            place_cents=place_cents[f.key],
            special_cents=special_cents.get(f.key, {}),
        )
        for f in ranked
    )
    return Payouts(lines, places, extra, unpaid)


def best(values: Mapping[int, int]) -> tuple[int, ...]:
    """The keys with the highest value, if it is above zero (a special prize's winners:
    nobody wins "most solos won" with none)."""
    top = max(values.values(), default=0)
    return tuple(sorted(k for k, v in values.items() if v == top)) if top > 0 else ()
