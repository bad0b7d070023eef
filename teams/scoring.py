"""Team scoring as data: day results, victory points, the season table. Pure, no Django.

A team's result of a match day is the sum of its players' points that day, deductions
included (a deduction is a negative score, as in the players' totals). Inside its group the
teams are placed by that sum, and the place gives victory points (Siegpunkte) from a table:
4/3/2/1 in a group of four (DDV Bundesliga). The season table ranks by victory points, then
game points, then the tie-breaks a league chooses.

How tied teams share victory points is a setting (``TieRule``) because the DDV text for it
was not found: by default they share the points of the places they cover (two teams tied
first get (4 + 3) / 2 = 3.5 each). Shared points are ``Fraction``s, never floats.

Groups of five: the table is chosen by the group's size; the default gives 5/4/3/2/1, so a
group of five hands out one point more per place than a group of four would for the same
rank from the bottom. A league that wants otherwise sets its own table for five.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any


class TieRule(StrEnum):
    """What teams tied on game points inside their group get."""

    SHARE = "share"  # the mean of the points of the places they cover: 3.5 each for 1st = 2nd
    BEST_PLACE = "best_place"  # each the points of the best place they cover: 4 each


class TieBreak(StrEnum):
    """What separates teams equal on victory points and game points in the season table."""

    HEAD_TO_HEAD = "head_to_head"  # who placed above whom on the days the tied teams met
    DAY_WINS = "day_wins"  # more match days won (first place, shared or not)
    BEST_DAY = "best_day"  # the better best day's game points


class TeamScoringError(ValueError):
    """Input the scoring cannot place. ``code`` is stable; the words belong to the edge."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code}: {params}")
        self.code = code
        self.params = params


@dataclass(frozen=True)
class TeamScoring:
    """A league's scoring rules.

    ``victory_points`` holds one table per group size: the table's length is the size it is
    for, its entries the points for place 1, 2, ... (non-increasing). ``tiebreak`` applies
    in order after victory points and game points; teams still equal share the place.
    """

    name: str
    victory_points: tuple[tuple[int, ...], ...] = ((4, 3, 2, 1), (5, 4, 3, 2, 1))
    tie_rule: TieRule = TieRule.SHARE
    tiebreak: tuple[TieBreak, ...] = (TieBreak.HEAD_TO_HEAD, TieBreak.DAY_WINS)

    def __post_init__(self) -> None:
        # Stored settings arrive as plain strings: make them the enums, or refuse them.
        try:
            object.__setattr__(self, "tie_rule", TieRule(self.tie_rule))
        except ValueError:
            raise TeamScoringError("unknown_tie_rule", tie_rule=self.tie_rule) from None
        try:
            object.__setattr__(self, "tiebreak", tuple(TieBreak(b) for b in self.tiebreak))
        except ValueError:
            raise TeamScoringError("unknown_tiebreak", tiebreak=self.tiebreak) from None
        sizes = [len(table) for table in self.victory_points]
        if len(set(sizes)) != len(sizes):
            raise TeamScoringError("duplicate_group_size", sizes=sizes)
        for table in self.victory_points:
            if not table or any(a < b for a, b in itertools.pairwise(table)):
                raise TeamScoringError("victory_points_not_descending", table=table)
        if len(set(self.tiebreak)) != len(self.tiebreak):
            raise TeamScoringError("duplicate_tiebreak", tiebreak=self.tiebreak)

    def table_for(self, size: int) -> tuple[int, ...]:
        """The victory points of a group of ``size`` teams, place 1 first."""
        for table in self.victory_points:
            if len(table) == size:
                return table
        raise TeamScoringError("no_victory_points_for_group_size", size=size)


#: The DDV Bundesliga as far as its rules were found: 4/3/2/1 (5/4/3/2/1 for a group of five),
#: tied teams share, then head-to-head and match days won.
BUNDESLIGA = TeamScoring(name="bundesliga")
PRESETS: dict[str, TeamScoring] = {
    BUNDESLIGA.name: BUNDESLIGA,
    "best_place": TeamScoring(name="best_place", tie_rule=TieRule.BEST_PLACE),
}


@dataclass(frozen=True)
class TeamResult:
    """One team's match day in its group: every score of its players that day (one per
    player, or one per player and series: the sum is the same), deductions included."""

    team: int
    player_points: tuple[int, ...]

    @property
    def points(self) -> int:
        return sum(self.player_points)


@dataclass(frozen=True)
class GroupLine:
    """A team's placing in its group on one match day. ``place`` is the best place of a
    tie (1, 1, 3, 4); ``shared`` says a tie."""

    team: int
    points: int
    place: int
    shared: bool
    victory_points: Fraction


def rank_group(results: Sequence[TeamResult], scoring: TeamScoring) -> tuple[GroupLine, ...]:
    """Place the teams of one group by game points and hand out the victory points.

    Best first; tied teams in the order of their team ids. With ``TieRule.SHARE`` the
    victory points always add up to the table's total.
    """
    teams = [result.team for result in results]
    if len(set(teams)) != len(teams):
        raise TeamScoringError("duplicate_team", teams=teams)
    table = scoring.table_for(len(results))
    ordered = sorted(results, key=lambda r: (-r.points, r.team))
    lines: list[GroupLine] = []
    start = 0
    while start < len(ordered):
        end = start
        while end + 1 < len(ordered) and ordered[end + 1].points == ordered[start].points:
            end += 1
        covered = table[start : end + 1]  # the places start + 1 .. end + 1
        if scoring.tie_rule is TieRule.SHARE:
            points = Fraction(sum(covered), len(covered))
        else:
            points = Fraction(covered[0])
        for result in ordered[start : end + 1]:
            lines.append(
                GroupLine(
                    team=result.team,
                    points=result.points,
                    place=start + 1,
                    shared=end > start,
                    victory_points=points,
                )
            )
        start = end + 1
    return tuple(lines)


#: A tie-break's value for every team of a block of tied teams (higher is better).
_Key = Callable[[Sequence[int]], dict[int, int]]

#: One match day: its groups, each the results of its teams.
MatchDay = Sequence[Sequence[TeamResult]]


@dataclass(frozen=True)
class SeasonLine:
    """A team's line in the season table. ``days`` holds its group line of every match day
    it played, in the order of the days, so the line explains itself."""

    team: int
    place: int
    shared: bool
    victory_points: Fraction
    points: int
    day_wins: int
    best_day: int
    days: tuple[GroupLine, ...] = field(default=())


def rank_season(days: Sequence[MatchDay], scoring: TeamScoring) -> tuple[SeasonLine, ...]:
    """The season table: victory points, then game points, then ``scoring.tiebreak``.

    When a tie-break separates some of the tied teams, those still equal start the list of
    tie-breaks again among themselves (head-to-head then only counts their meetings). Teams
    equal to the end share the place (1, 2, 2, 4) and are listed by team id. A team is
    listed once it played a day.
    """
    played: dict[int, list[GroupLine]] = defaultdict(list)
    # Per day: each team's place, and which group it played in.
    placings: list[dict[int, tuple[int, int]]] = []
    for day in days:
        seen: dict[int, tuple[int, int]] = {}
        for g, group in enumerate(day):
            for line in rank_group(group, scoring):
                if line.team in seen:
                    raise TeamScoringError("team_twice_on_a_day", team=line.team)
                seen[line.team] = (g, line.place)
                played[line.team].append(line)
        placings.append(seen)
    teams = sorted(played)
    vp = {t: sum((line.victory_points for line in played[t]), Fraction(0)) for t in teams}
    points = {t: sum(line.points for line in played[t]) for t in teams}
    wins = {t: sum(1 for line in played[t] if line.place == 1) for t in teams}
    best = {t: max(line.points for line in played[t]) for t in teams}

    def head_to_head(block: Sequence[int]) -> dict[int, int]:
        """Twice the meetings won against the other teams of the block, plus one per tie."""
        score = dict.fromkeys(block, 0)
        for seen in placings:
            for a in block:
                for b in block:
                    if a != b and a in seen and b in seen and seen[a][0] == seen[b][0]:
                        place_a, place_b = seen[a][1], seen[b][1]
                        score[a] += 2 if place_a < place_b else 1 if place_a == place_b else 0
        return score

    keys: dict[TieBreak, _Key] = {
        TieBreak.HEAD_TO_HEAD: head_to_head,
        TieBreak.DAY_WINS: lambda block: {t: wins[t] for t in block},
        TieBreak.BEST_DAY: lambda block: {t: best[t] for t in block},
    }
    breaks = [keys[b] for b in scoring.tiebreak]

    def split(block: list[int], todo: Sequence[_Key]) -> list[list[int]]:
        if len(block) == 1 or not todo:
            return [block]
        value = todo[0](block)
        parts = _groups(block, lambda t: -value[t])
        if len(parts) == 1:
            return split(block, todo[1:])
        return [final for part in parts for final in split(part, breaks)]

    blocks = _groups(teams, lambda t: (-vp[t], -points[t]))
    lines: list[SeasonLine] = []
    for block in blocks:
        for tied in split(block, breaks):
            place = len(lines) + 1
            for team in sorted(tied):
                lines.append(
                    SeasonLine(
                        team=team,
                        place=place,
                        shared=len(tied) > 1,
                        victory_points=vp[team],
                        points=points[team],
                        day_wins=wins[team],
                        best_day=best[team],
                        days=tuple(played[team]),
                    )
                )
    return tuple(lines)


def _groups(items: Iterable[int], key: Callable[[int], Any]) -> list[list[int]]:
    """``items`` sorted by ``key`` (then by themselves), cut where the key changes."""
    ordered = sorted(items, key=lambda item: (key(item), item))
    out: list[list[int]] = []
    for item in ordered:
        if out and key(out[-1][0]) == key(item):
            out[-1].append(item)
        else:
            out.append([item])
    return out
