"""How many tables of four and five a number of players needs."""

from __future__ import annotations

from .data import SeatingError


def is_valid_count(n_players: int) -> bool:
    """True when ``n_players`` = 4a + 5b for some a, b >= 0 (and at least one table).

    The only positive counts without a split are 1, 2, 3, 6, 7 and 11.
    """
    if n_players < 4:
        return False
    five_tables = n_players % 4
    return n_players >= 5 * five_tables


def nearest_valid_counts(n_players: int) -> tuple[int | None, int]:
    """The nearest valid counts below (None if there is none) and above ``n_players``."""
    below = next((n for n in range(n_players - 1, 3, -1) if is_valid_count(n)), None)
    above = next(n for n in range(max(n_players + 1, 4), n_players + 6) if is_valid_count(n))
    return below, above


def table_sizes(n_players: int) -> list[int]:
    """Table sizes for ``n_players``: tables of four, and r tables of five when N = 4k + r.

    Tables of four come first. Raises ``SeatingError("no_table_split")`` when no split exists.
    """
    if not is_valid_count(n_players):
        below, above = nearest_valid_counts(n_players)
        hints = [f"add {above - n_players} player(s) ({above} in all)"]
        if below is not None and below > 0:
            hints.append(f"remove {n_players - below} player(s) ({below} in all)")
        message = (
            f"{n_players} player(s) cannot be split into tables of four and five. "
            f"To draw the series, {' or '.join(hints)}, for example by checking in a "
            "late arrival or withdrawing a player from this series."
        )
        raise SeatingError("no_table_split", message, players=n_players, below=below, above=above)
    five_tables = n_players % 4
    four_tables = (n_players - 5 * five_tables) // 4
    return [4] * four_tables + [5] * five_tables
