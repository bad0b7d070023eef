"""A stored line's ranking key, pure: no Django.

The stored ranking (``SeasonEntry``) keeps no places. Each line keeps what the ranking
orders it by (``seasons.ranking.order``) as one byte string, ``sort_key``, that sorts as the
line sorts: a larger key is the better line. The season's pages compute places and the
lines' order when they read them (``RANK()`` and ``ROW_NUMBER()`` over the key, the player
key deciding among equals), so a change writes only the lines of the players whose figures
changed, not the places of everyone between where they were and where they are now.

The key, big-endian, compared byte by byte (as PostgreSQL's ``bytea`` and SQLite's blobs
compare):

* 1 byte, the group: 2 ranked (``Standing.qualified``), 1 something counted but short of
  the minimum, 0 nothing counted;
* 8 bytes, the value as a double, its bits turned so that they sort as the number;
* 4 bytes, the value's order among different values of the same double (0 where the double
  alone decides; ``value_orders``);
* 8 bytes per tie-break of the rule, in its order (``seasons.ranking.TIEBREAKS``), each
  offset by 2**63 so that negative figures sort below positive ones.

Equal keys: equal on the value and every tie-break, so a shared place when ranked.
"""

from __future__ import annotations

import struct
from collections import defaultdict
from collections.abc import Iterable
from fractions import Fraction

from seasons.ranking import TIEBREAKS, RankingRule, Standing

_SIGN = 1 << 63
_ALL = (1 << 64) - 1


def _double(value: Fraction) -> float:
    """The double nearest the value: what ``float(value)`` returns (a whole number's true
    division is correctly rounded), without its generic path, 20,000 times a season."""
    return value.numerator / value.denominator


def _double_bits(value: Fraction) -> int:
    """The double nearest the value as an unsigned number that sorts as the value."""
    bits: int = struct.unpack(">Q", struct.pack(">d", _double(value) + 0.0))[0]
    return bits ^ _ALL if bits & _SIGN else bits | _SIGN


def value_orders(standings: Iterable[Standing]) -> dict[Fraction, int]:
    """For values whose double another, different value shares: their order among those
    values, from 1 up (the smallest); values missing here are alone on their double (0)."""
    by_double: dict[float, list[Fraction]] = defaultdict(list)
    for one in standings:
        by_double[_double(one.value)].append(one.value)
    # Hashing a fraction is slow: only the rare doubles shared by different values are.
    return {
        value: index
        for values in by_double.values()
        if len(values) > 1 and any(value != values[0] for value in values)
        for index, value in enumerate(sorted(set(values)), start=1)
    }


def sort_key(rule: RankingRule, one: Standing, value_order: int = 0) -> bytes:
    """The line's key under ``rule``; ``value_order`` from ``value_orders``."""
    group = 2 if one.qualified else 1 if one.tournaments > 0 else 0
    ties = [getattr(one, name) + _SIGN for name in rule.tiebreak if name in TIEBREAKS]
    return struct.pack(f">BQI{len(ties)}Q", group, _double_bits(one.value), value_order, *ties)


def sort_keys(rule: RankingRule, standings: Iterable[Standing]) -> dict[int, bytes]:
    """Every standing's key under ``rule``: player -> key."""
    every = list(standings)
    orders = value_orders(every)
    return {
        one.player: sort_key(rule, one, orders.get(one.value, 0) if orders else 0) for one in every
    }
