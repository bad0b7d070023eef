"""Exact constructions: resolvable designs with no pair meeting twice.

``affine_plane_16`` is the affine plane of order 4 over GF(4): 16 players, 5 series of four
tables of four, every pair together exactly once. ``spread_design_32`` gives 32 players nine
series of tables of four with no pair twice (8-4-8 is the hard case of the social golfer
problem). ``layered_design`` gives N = 4q + k players (q a prime power, k <= 3) q series of
q tables, k of them of five, with no pair twice.
"""

from __future__ import annotations

# GF(4) = {0, 1, a, a + 1} coded as 0, 1, 2, 3: addition is XOR, multiplication by logarithms.
_LOG = {1: 0, 2: 1, 3: 2}
_EXP = [1, 2, 3]


def gf4_mul(x: int, y: int) -> int:
    if x == 0 or y == 0:
        return 0
    return _EXP[(_LOG[x] + _LOG[y]) % 3]


def affine_plane_16() -> list[list[list[int]]]:
    """Five parallel classes of lines of AG(2, 4); point (x, y) is player 4x + y (0-based)."""
    classes = []
    for slope in range(4):
        lines = [[4 * x + (gf4_mul(slope, x) ^ b) for x in range(4)] for b in range(4)]
        classes.append(lines)
    classes.append([[4 * x + y for y in range(4)] for x in range(4)])
    return classes


def _partial_spread(dimension: int, wanted: int) -> list[tuple[int, int, int]]:
    """``wanted`` 2-dimensional subspaces of GF(2)^dimension meeting only in 0 (backtracking).

    Each subspace is given by its three non-zero vectors {a, b, a ^ b}.
    """
    size = 1 << dimension
    lines = sorted(
        {tuple(sorted((a, b, a ^ b))) for a in range(1, size) for b in range(a + 1, size)}
    )
    chosen: list[tuple[int, ...]] = []
    used: set[int] = set()

    def extend(start: int) -> bool:
        if len(chosen) == wanted:
            return True
        for i in range(start, len(lines)):
            line = lines[i]
            if used.isdisjoint(line):
                chosen.append(line)
                used.update(line)
                if extend(i + 1):
                    return True
                chosen.pop()
                used.difference_update(line)
        return False

    if not extend(0):
        return []
    return [(a, b, c) for a, b, c in chosen]


def spread_design_32() -> list[list[list[int]]]:
    """Nine series for 32 players in tables of four, no pair twice.

    Players are the vectors of GF(2)^5; series s seats the cosets of the s-th subspace of a
    partial spread (nine 2-dimensional subspaces meeting only in 0). Two players meet in
    series s exactly when their difference lies in that subspace, so at most once.
    """
    series = []
    for a, b, _ in _partial_spread(5, 9):
        seen: set[int] = set()
        tables = []
        for v in range(32):
            if v not in seen:
                table = [v, v ^ a, v ^ b, v ^ a ^ b]
                seen.update(table)
                tables.append(table)
        series.append(tables)
    return series


def prime_power(q: int) -> tuple[int, int] | None:
    """(p, m) with q = p^m for a prime p, or None."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    m = 0
    while q % p == 0:
        q //= p
        m += 1
    return (p, m) if q == 1 else None


class GaloisField:
    """GF(p^m) on the integers 0..q-1: the base-p digits of a number are the coefficients of a
    polynomial over GF(p), taken modulo the smallest monic irreducible polynomial of degree m.
    """

    def __init__(self, q: int) -> None:
        power = prime_power(q)
        if power is None:
            raise ValueError(f"{q} is not a prime power")
        self.q = q
        self.p, self.m = power
        self.modulus = self._irreducible()
        self.add_table = [[self._add(x, y) for y in range(q)] for x in range(q)]
        self.mul_table = [[self._mul(x, y) for y in range(q)] for x in range(q)]

    def neg(self, x: int) -> int:
        return self.add_table[x].index(0)

    def _digits(self, x: int) -> list[int]:
        return [(x // self.p**i) % self.p for i in range(self.m)]

    def _number(self, digits: list[int]) -> int:
        return sum(d * self.p**i for i, d in enumerate(digits))

    def _add(self, x: int, y: int) -> int:
        return self._number(
            [(a + b) % self.p for a, b in zip(self._digits(x), self._digits(y), strict=True)]
        )

    def _mul(self, x: int, y: int) -> int:
        product = _poly_mul(self._digits(x), self._digits(y), self.p)
        return self._number(_poly_mod(product, self.modulus, self.p)[: self.m])

    def _irreducible(self) -> list[int]:
        """The smallest monic polynomial of degree m (coefficients, constant first) without a
        monic factor of degree 1..m/2; for m = 1 simply x."""
        p, m = self.p, self.m
        if m == 1:
            return [0, 1]
        for code in range(p**m):
            f = [(code // p**i) % p for i in range(m)] + [1]
            if all(
                any(_poly_mod(f, [(c // p**i) % p for i in range(d)] + [1], p))
                for d in range(1, m // 2 + 1)
                for c in range(p**d)
            ):
                return f
        raise AssertionError("an irreducible polynomial exists for every degree")


def _poly_mul(f: list[int], g: list[int], p: int) -> list[int]:
    out = [0] * (len(f) + len(g) - 1)
    for i, a in enumerate(f):
        for j, b in enumerate(g):
            out[i + j] = (out[i + j] + a * b) % p
    return out


def _poly_mod(f: list[int], g: list[int], p: int) -> list[int]:
    """f mod g for a monic g; the remainder padded to len(g) - 1 coefficients."""
    f = list(f)
    d = len(g) - 1
    for i in range(len(f) - 1, d - 1, -1):
        c = f[i]
        if c:
            for j in range(d + 1):
                f[i - d + j] = (f[i - d + j] - c * g[j]) % p
    return (f + [0] * d)[:d]


def layered_design(q: int, extras: int) -> list[list[list[int]]]:
    """q series for 4q + ``extras`` players in q tables (``extras`` of them of five), no pair
    twice; q >= 4 a prime power, ``extras`` <= 3, and q >= 5 when there are extras.

    Base player 4x + j (x in GF(q), j = 0..3) is point x of layer j. With four distinct field
    elements y_0..y_3, table c of series a is {(c + a*y_j, j)}: two base players of layers
    i != j meet when x - x' = a * (y_i - y_j), in one series only, and players of one layer
    never meet (a resolvable transversal design). Extra player i sits in series a at table
    lam * a + i: for lam != -y_j the tables of one extra are pairwise disjoint (he meets
    every base player exactly once over the q series), and in every series the extras sit at
    different tables, so they never meet each other.
    """
    if q < 4 or (extras and q < 5) or not 0 <= extras <= 3:
        raise ValueError("needs q >= 4, q >= 5 with extra players, and at most 3 extras")
    field = GaloisField(q)
    add, mul = field.add_table, field.mul_table
    layers = [0, 1, 2, 3]
    forbidden = {field.neg(y) for y in layers}
    lam = next((x for x in range(q) if x not in forbidden), 0)
    series = []
    for a in range(q):
        tables = [[4 * add[c][mul[a][y]] + j for j, y in enumerate(layers)] for c in range(q)]
        for i in range(extras):
            tables[add[mul[lam][a]][i]].append(4 * q + i)
        series.append(tables)
    return series
