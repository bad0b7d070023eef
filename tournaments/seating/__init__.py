"""The seating draw: a pure module (plain data in, plain plan out; no Django, no ORM).

See docs/seating.md for the algorithm, its guarantees and how to re-run a published plan.
"""

from .data import (
    ALGORITHM_VERSION,
    DrawMode,
    History,
    Plan,
    SeatingError,
    SeatingOptions,
    SeatingPlayer,
    TournamentPlan,
)
from .draw import draw_plan, draw_series, draw_tournament
from .latecomers import LatecomerPlan, Move, seat_latecomers
from .pairs import (
    count_repeats,
    five_table_counts,
    pair_counts,
    plan_repeats,
    repeat_lower_bound,
    seat_counts,
)
from .sizes import is_valid_count, nearest_valid_counts, table_sizes

__all__ = [
    "ALGORITHM_VERSION",
    "DrawMode",
    "History",
    "LatecomerPlan",
    "Move",
    "Plan",
    "SeatingError",
    "SeatingOptions",
    "SeatingPlayer",
    "TournamentPlan",
    "count_repeats",
    "draw_plan",
    "draw_series",
    "draw_tournament",
    "five_table_counts",
    "is_valid_count",
    "nearest_valid_counts",
    "pair_counts",
    "plan_repeats",
    "repeat_lower_bound",
    "seat_counts",
    "seat_latecomers",
    "table_sizes",
]
