"""Exact constructions: resolvable designs with no pair meeting twice.

``affine_plane_16`` is the affine plane of order 4 over GF(4): 16 players, 5 series of four
tables of four, every pair together exactly once. ``spread_design_32`` gives 32 players nine
series of tables of four with no pair twice (8-4-8 is the hard case of the social golfer
problem).
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
    chosen: list[tuple[int, int, int]] = []
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
