"""The settlement of an evening's group (Abrechnung): who pays whom, in integer cents.

Pure Python, standard library only: the settlement page and the club evening call it with
plain values and show what it returns.

The rule (docs/cashbox.md, "The settlement"):

* **Money from points.** A player's money is ``points * cents_per_point + extras *
  cents_per_extra``. Under the DDV's counting the scores of every game sum to zero over the
  seats, and so do the totals of a group; the money then sums to zero as it is.
* **Points that do not sum to zero** (a group that writes only the winners' points,
  "Nur-Plus", or a sheet with a deduction): every player is settled against the group's
  mean. His balance is his money minus the mean money; the mean of a zero-sum group is 0,
  so the rule changes nothing there. When the total does not divide by the number of
  players, the cents left over are taken from the players with the most money, one cent
  each (ties: by name), so the balances sum to exactly zero.
* **Wer zahlt wem** (``Mode.TRANSFERS``): the fewest transfers that settle every balance.
  ``n`` players with a balance that split into at most ``k`` groups each summing to zero
  need ``n - k`` transfers, and no fewer. Up to ``EXACT_UP_TO`` such players the groups are
  found exactly (a dynamic programme over the subsets); above that the largest debtor pays
  the largest creditor until nobody owes anything, which needs at most ``n - 1``
  transfers (each transfer settles at least one player, the last two).
* **Alles in die Kasse** (``Mode.CASHBOX``): every player with a negative balance pays it
  into the club's cash box; nobody is paid out.

Output is deterministic: players keep the order they were given in, and every tie is
broken by the player's name (names are unique within a group).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

#: Up to this many players with a non-zero balance the fewest transfers are found exactly.
EXACT_UP_TO = 16
#: The most players a settlement takes (a club evening's group, not a tournament).
MAX_PLAYERS = 60
#: Limits against typing errors: points per player, extras per player, cents per point.
MAX_POINTS = 100_000
MAX_EXTRAS = 1_000
MAX_RATE = 10_000
MAX_NAME = 60


class Mode(StrEnum):
    TRANSFERS = "transfers"  # wer zahlt wem
    CASHBOX = "cashbox"  # alles in die Kasse


class SettlementError(ValueError):
    """An input the settlement refuses: a stable ``code``, the ``field`` it concerns and, for
    a pasted list, the ``line`` (1-based); the edge puts it in words."""

    def __init__(self, code: str, field: str, line: int | None = None, name: str = "") -> None:
        super().__init__(f"{code} ({field}{'' if line is None else f', line {line}'})")
        self.code = code
        self.field = field
        self.line = line
        self.name = name


@dataclass(frozen=True)
class Score:
    """One player's totals of the evening: points and, if the club pays for them, extras."""

    name: str
    points: int
    extras: int = 0


@dataclass(frozen=True)
class Rate:
    cents_per_point: int
    cents_per_extra: int = 0


@dataclass(frozen=True)
class Balance:
    name: str
    points: int
    extras: int
    cents: int  # > 0: he receives; < 0: he pays


@dataclass(frozen=True)
class Transfer:
    """``payer`` pays ``cents`` (always > 0) to ``payee``; ``payee`` None: into the cash box."""

    payer: str
    payee: str | None
    cents: int


@dataclass(frozen=True)
class Settlement:
    balances: tuple[Balance, ...]
    transfers: tuple[Transfer, ...]
    #: The money the points made in total before the mean was taken (0 for zero-sum points).
    surplus: int
    #: Whether the transfers are the fewest possible (exact) or the greedy bound's.
    exact: bool

    @property
    def to_cashbox(self) -> int:
        return sum(t.cents for t in self.transfers if t.payee is None)


# --- Balances ------------------------------------------------------------------------------


def _check(scores: Sequence[Score], rate: Rate) -> None:
    if not scores:
        raise SettlementError("no_players", "players")
    if len(scores) > MAX_PLAYERS:
        raise SettlementError("too_many_players", "players")
    seen: set[str] = set()
    for number, score in enumerate(scores, start=1):
        name = score.name.strip()
        if not name:
            raise SettlementError("name_missing", "players", number)
        if len(name) > MAX_NAME:
            raise SettlementError("name_too_long", "players", number, name)
        if name.casefold() in seen:
            raise SettlementError("name_twice", "players", number, name)
        seen.add(name.casefold())
        if abs(score.points) > MAX_POINTS:
            raise SettlementError("points_out_of_range", "players", number, name)
        if not 0 <= score.extras <= MAX_EXTRAS:
            raise SettlementError("extras_out_of_range", "players", number, name)
    if not 0 <= rate.cents_per_point <= MAX_RATE:
        raise SettlementError("rate_out_of_range", "cents_per_point")
    if not 0 <= rate.cents_per_extra <= MAX_RATE:
        raise SettlementError("rate_out_of_range", "cents_per_extra")


def balances(scores: Sequence[Score], rate: Rate) -> tuple[tuple[Balance, ...], int]:
    """Every player's balance in cents (summing to zero) and the surplus the points made
    before they were settled against the mean (0 when they sum to zero)."""
    _check(scores, rate)
    money = [s.points * rate.cents_per_point + s.extras * rate.cents_per_extra for s in scores]
    surplus = sum(money)
    share, left = divmod(surplus, len(scores))  # surplus == share * n + left, 0 <= left < n
    # The ``left`` cents come from the players with the most money (ties: by name).
    richest = sorted(range(len(scores)), key=lambda i: (-money[i], scores[i].name))[:left]
    extra = set(richest)
    result = tuple(
        Balance(s.name.strip(), s.points, s.extras, m - share - (1 if i in extra else 0))
        for i, (s, m) in enumerate(zip(scores, money, strict=True))
    )
    return result, surplus


# --- Transfers -----------------------------------------------------------------------------


def greedy_transfers(owed: Sequence[tuple[str, int]]) -> list[Transfer]:
    """The largest debtor pays the largest creditor as much as both allow, until all is
    settled (ties: by name). At most ``n - 1`` transfers for ``n`` players with a balance."""
    left = {name: cents for name, cents in owed if cents}
    transfers: list[Transfer] = []
    while left:
        payer = min(left, key=lambda n: (left[n], n))  # the most negative
        payee = min(left, key=lambda n: (-left[n], n))  # the most positive
        cents = min(-left[payer], left[payee])
        transfers.append(Transfer(payer, payee, cents))
        for name, change in ((payer, cents), (payee, -cents)):
            left[name] += change
            if left[name] == 0:
                del left[name]
    return transfers


def zero_sum_groups(owed: Sequence[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """The players with a balance split into as many groups summing to zero as possible
    (exact; meant for at most ``EXACT_UP_TO`` players). ``best[mask]``: the most zero-sum
    groups the players of ``mask`` can be split into when they are put in a row (a row's
    prefixes that sum to zero end its groups)."""
    people = sorted(((n, c) for n, c in owed if c), key=lambda p: p[0])
    size = len(people)
    full = (1 << size) - 1
    total = [0] * (1 << size)
    best = [0] * (1 << size)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + people[low][1]
        most = 0
        rest = mask
        while rest:
            bit = rest & -rest
            most = max(most, best[mask ^ bit])
            rest ^= bit
        best[mask] = most + (1 if total[mask] == 0 else 0)
    # Walk back: take off the last player of the row, the first (by name) that keeps the best.
    row: list[int] = []
    mask = full
    while mask:
        want = best[mask] - (1 if total[mask] == 0 else 0)
        index = next(i for i in range(size) if mask >> i & 1 and best[mask ^ (1 << i)] == want)
        row.append(index)
        mask ^= 1 << index
    row.reverse()
    groups: list[list[tuple[str, int]]] = []
    current: list[tuple[str, int]] = []
    running = 0
    for index in row:
        current.append(people[index])
        running += people[index][1]
        if running == 0:
            groups.append(current)
            current = []
    return groups


def fewest_transfers(owed: Sequence[tuple[str, int]]) -> tuple[list[Transfer], bool]:
    """The transfers that settle ``owed`` (names and balances summing to zero) and whether
    they are the fewest possible (exact up to ``EXACT_UP_TO`` players with a balance)."""
    if sum(c for _, c in owed) != 0:
        raise SettlementError("not_zero_sum", "players")
    with_balance = [(n, c) for n, c in owed if c]
    if len(with_balance) > EXACT_UP_TO:
        return greedy_transfers(with_balance), False
    transfers: list[Transfer] = []
    for group in zero_sum_groups(with_balance):
        transfers.extend(greedy_transfers(group))  # a group of m: m - 1 transfers
    transfers.sort(key=lambda t: (t.payer, t.payee or "", t.cents))
    return transfers, True


def into_cashbox(owed: Sequence[tuple[str, int]]) -> list[Transfer]:
    """Alles in die Kasse: every player with a negative balance pays it into the cash box."""
    return [Transfer(name, None, -cents) for name, cents in owed if cents < 0]


def settle(scores: Sequence[Score], rate: Rate, mode: Mode = Mode.TRANSFERS) -> Settlement:
    """The settlement of a group: balances, and the transfers of ``mode``."""
    found, surplus = balances(scores, rate)
    owed = [(b.name, b.cents) for b in found]
    if mode is Mode.CASHBOX:
        return Settlement(found, tuple(into_cashbox(owed)), surplus, exact=True)
    transfers, exact = fewest_transfers(owed)
    return Settlement(found, tuple(transfers), surplus, exact)


# --- A pasted list -------------------------------------------------------------------------

_SPLIT = re.compile(r"\s*[;\t]\s*")
_SPACED = re.compile(r"^(?P<name>.*?\S)\s+(?P<points>[-+−–]?[0-9]+)(?:\s+(?P<extras>[0-9]+))?$")
_NUMBER = re.compile(r"^[-+−–]?[0-9]{1,9}$")


def _number(text: str) -> int | None:
    text = text.strip()
    if not _NUMBER.match(text):
        return None
    return int(text.replace("−", "-").replace("–", "-"))


def parse_scores(text: str) -> list[Score]:
    """Lines "name points [extras]", separated by spaces, a semicolon or a tab (as copied
    from a spreadsheet); empty lines are skipped. Refuses with the number of the line."""
    scores: list[Score] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        parts = _SPLIT.split(line)
        if len(parts) == 1:
            spaced = _SPACED.match(line)
            if spaced is None:
                raise SettlementError("line_unreadable", "players", number, line[:MAX_NAME])
            parts = [p for p in spaced.group("name", "points", "extras") if p is not None]
        if len(parts) not in (2, 3):
            raise SettlementError("line_unreadable", "players", number, line[:MAX_NAME])
        points = _number(parts[1])
        extras = _number(parts[2]) if len(parts) == 3 else 0
        if points is None or extras is None:
            raise SettlementError("line_unreadable", "players", number, line[:MAX_NAME])
        scores.append(Score(parts[0].strip(), points, extras))
    return scores
