"""The DMM knockout after the group stage: seeding, the bracket, byes and who advances.
Pure, no Django.

A ``Format`` says how big a match is (``match_size``: a group day of 4 teams, or 2) and how
many of its teams advance (``advance``: 2 of 4, 1 of 4 or 1 of 2; it must divide the match
size). Each round after the first is full: ``match_size`` teams per match, and the last
round is one match whose first place is the champion.

Rounds: the fewest rounds whose first round can hold every team. Round 2 then has
``F = match_size * (match_size / advance) ** (rounds - 2)`` places. Round 1 plays the fewest
matches that bring the teams down to ``F``: ``m = ceil((teams - F) / (match_size -
advance))``; the best ``F - m * advance`` seeds have a bye (they skip round 1 and enter round
2), the others are dealt into the ``m`` matches as a snake (seed b+1 to match 1, b+2 to
match 2, …, then back), so match sizes differ by one at most and each match eliminates at
least one team. Byes exist only in round 1.

Later rounds are reseeded by the original seed: the teams still in are dealt as a snake
again, so the best seeds meet as late as the format allows (seeds 1 and 2 only in the
final with 2 of 4 or 1 of 2 advancing).

A match's result is its ranking (places best first; teams sharing a place in one tuple) by
the group result and its tie-breaks. When teams sharing a place straddle the cut (the last
advancing place), the match is ``tie_at_cut``: nobody advances from it until a decision
(a ranking without that tie) is entered. The same holds for a shared first place of the
final.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

Team = Hashable
Ranking = Sequence[Sequence[Team]]  # places best first; teams sharing a place together


class KnockoutError(ValueError):
    """Input no bracket can be built from. ``code`` is stable; the words belong to the edge."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Format:
    """The knockout's settings: teams per match and how many of them advance."""

    match_size: int = 4
    advance: int = 2

    def check(self) -> str:
        """The problem code, or ""."""
        if self.match_size not in (2, 4):
            return "match_size"
        if not 0 < self.advance < self.match_size or self.match_size % self.advance:
            return "advance"
        return ""

    @property
    def factor(self) -> int:
        """By how much each round shrinks the field."""
        return self.match_size // self.advance


class Status(StrEnum):
    PENDING = "pending"  # teams not all known, or no result yet
    DECIDED = "decided"
    TIE_AT_CUT = "tie_at_cut"  # a shared place straddles the cut: decision needed


@dataclass(frozen=True)
class Match:
    """A match of a round (``number`` 1, 2, … in the round): its teams in seed order (empty
    until the previous round is decided), who advances (or the champion, in the final)."""

    round: int
    number: int
    size: int
    teams: tuple[Team, ...] = ()
    status: Status = Status.PENDING
    advancing: tuple[Team, ...] = ()
    tied: tuple[Team, ...] = ()  # the teams sharing the place across the cut


@dataclass(frozen=True)
class Round:
    number: int
    matches: tuple[Match, ...]
    byes: tuple[Team, ...] = ()  # only in round 1: seeds that go straight to round 2


@dataclass(frozen=True)
class Bracket:
    rounds: tuple[Round, ...]
    champion: Team | None = None


def round_sizes(teams: int, fmt: Format) -> tuple[int, ...]:
    """The number of matches of each round for ``teams`` teams."""
    problem = fmt.check() or ("too_few_teams" if teams < 2 else "")
    if problem:
        raise KnockoutError(problem)
    rounds = 1
    while fmt.match_size * fmt.factor ** (rounds - 1) < teams:
        rounds += 1
    if rounds == 1:
        return (1,)
    later = tuple(fmt.factor ** (rounds - j) for j in range(2, rounds + 1))
    return (_first_round_matches(teams, fmt, later[0] * fmt.match_size), *later)


def _first_round_matches(teams: int, fmt: Format, field: int) -> int:
    return -(-(teams - field) // (fmt.match_size - fmt.advance))


def _snake(seeded: Sequence[Team], matches: int) -> list[list[Team]]:
    dealt: list[list[Team]] = [[] for _ in range(matches)]
    for index, team in enumerate(seeded):
        lap, offset = divmod(index, matches)
        dealt[offset if lap % 2 == 0 else matches - 1 - offset].append(team)
    return dealt


def seeds_from_table(table: Sequence[tuple[Team, int]], draw_seed: int) -> tuple[Team, ...]:
    """Seeds by the group stage's table ((team, place) in table order): by place; teams
    sharing a place are ordered by a draw with ``draw_seed``."""
    rng = random.Random(draw_seed)
    places: dict[int, list[Team]] = {}
    for team, place in table:
        places.setdefault(place, []).append(team)
    seeds: list[Team] = []
    for place in sorted(places):
        tied = places[place]
        if len(tied) > 1:
            rng.shuffle(tied)
        seeds.extend(tied)
    return tuple(seeds)


def seeds_by_draw(teams: Sequence[Team], draw_seed: int) -> tuple[Team, ...]:
    """Seeds drawn (the setting "drawn" instead of by victory points)."""
    drawn = list(teams)
    random.Random(draw_seed).shuffle(drawn)
    return tuple(drawn)


def decide(ranking: Ranking, cut: int) -> tuple[Status, tuple[Team, ...], tuple[Team, ...]]:
    """(status, advancing, tied) of one match's ranking when ``cut`` teams advance (1 in
    the final): ``tie_at_cut`` with the teams sharing the place across the cut."""
    return _decide(ranking, cut)


def _decide(ranking: Ranking, cut: int) -> tuple[Status, tuple[Team, ...], tuple[Team, ...]]:
    """(status, advancing, tied) of a match's ranking when ``cut`` teams advance."""
    advancing: list[Team] = []
    for place in ranking:
        if len(advancing) + len(place) <= cut:
            advancing.extend(place)
            if len(advancing) == cut:
                return Status.DECIDED, tuple(advancing), ()
        else:
            return Status.TIE_AT_CUT, (), tuple(place)
    raise KnockoutError("short_ranking")


def bracket(
    seeds: Sequence[Team], fmt: Format, results: Mapping[tuple[int, int], Ranking]
) -> Bracket:
    """The bracket of ``seeds`` (best first) with the ``results`` entered so far, keyed by
    (round, match number). A result must rank exactly the match's teams."""
    if len(set(seeds)) != len(seeds):
        raise KnockoutError("duplicate_team")
    sizes = round_sizes(len(seeds), fmt)
    rank = {team: index for index, team in enumerate(seeds)}
    rounds: list[Round] = []
    entering: list[Team] | None = list(seeds)
    for number, matches in enumerate(sizes, start=1):
        byes: tuple[Team, ...] = ()
        if entering is not None and number == 1 and len(sizes) > 1:
            field = sizes[1] * fmt.match_size
            bye_count = field - matches * fmt.advance
            byes, entering = tuple(entering[:bye_count]), entering[bye_count:]
        dealt = _snake(entering, matches) if entering is not None else None
        cut = 1 if number == len(sizes) else fmt.advance
        built: list[Match] = []
        for index in range(matches):
            teams = tuple(dealt[index]) if dealt is not None else ()
            size = len(teams) if teams else fmt.match_size
            match = Match(number, index + 1, size, teams)
            result = results.get((number, index + 1)) if teams else None
            if result is not None:
                ranked = [team for place in result for team in place]
                if len(ranked) != len(teams) or set(ranked) != set(teams):
                    raise KnockoutError("wrong_teams")
                status, advancing, tied = _decide(result, cut)
                match = Match(number, index + 1, size, teams, status, advancing, tied)
            built.append(match)
        rounds.append(Round(number, tuple(built), byes))
        if all(m.status == Status.DECIDED for m in built):
            entering = sorted(
                [*byes, *(t for m in built for t in m.advancing)], key=rank.__getitem__
            )
        else:
            entering = None
    final = rounds[-1].matches[0]
    champion = final.advancing[0] if final.status == Status.DECIDED else None
    return Bracket(tuple(rounds), champion)
