"""The seating draw: a pure module (plain data in, plain plan out; no Django, no ORM).

See docs/seating.md for the algorithm, its guarantees and how to re-run a published plan.
"""

from .apart import (
    ALREADY_SEATED_TOGETHER,
    LATECOMER_NO_OTHER_TABLE,
    NO_SEATING_FOUND,
    NOT_ENOUGH_TABLES,
    TEAM_LINE_UP,
)
from .data import (
    ALGORITHM_VERSION,
    DrawMode,
    History,
    Plan,
    SeatingError,
    SeatingOptions,
    SeatingPlayer,
    TournamentPlan,
    Unhonoured,
)
from .draw import draw_plan, draw_tournament, plan_next_series
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
    "ALREADY_SEATED_TOGETHER",
    "LATECOMER_NO_OTHER_TABLE",
    "NOT_ENOUGH_TABLES",
    "NO_SEATING_FOUND",
    "TEAM_LINE_UP",
    "DrawMode",
    "History",
    "LatecomerPlan",
    "Move",
    "Plan",
    "SeatingError",
    "SeatingOptions",
    "SeatingPlayer",
    "TournamentPlan",
    "Unhonoured",
    "count_repeats",
    "draw_plan",
    "draw_tournament",
    "five_table_counts",
    "is_valid_count",
    "nearest_valid_counts",
    "pair_counts",
    "plan_next_series",
    "plan_repeats",
    "repeat_lower_bound",
    "seat_counts",
    "seat_latecomers",
    "table_sizes",
]
