"""The knockout's bracket as stored: its rounds (match days of the stage ``knockout``), each
match's teams and result, who advances, byes, ties at the cut and the champion.

Nothing of a result is stored twice: a match's ranking is its group's result
(``teams.standings``: game points, shared places for equal points) once every series of its
tournament is closed, or the league's ``KnockoutDecision`` where a tie lay across the cut;
the pure ``teams.knockout.bracket`` says who advances. A fixed number of queries.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from dataclasses import dataclass

from teams import knockout as core
from teams.models import Group, Knockout, League, MatchDay, Team
from teams.rules import team_scoring as scoring_of
from teams.scoring import TeamScoring
from teams.standings import GroupResult, TeamDayLine, group_results, with_finality

KNOCKOUT_STAGE = MatchDay.Stage.KNOCKOUT


@dataclass(frozen=True)
class MatchLine:
    """A team of a match: its result (None before a game is entered) and whether it goes
    on (or is the champion, in the final)."""

    team: Team
    seed: int
    result: TeamDayLine | None
    advancing: bool = False  # also when placed above a tie at the cut: sure to go on
    tied: bool = False  # shares the place across the cut: decision needed
    out: bool = False  # eliminated (placed below the cut)


@dataclass(frozen=True)
class MatchView:
    round: int
    number: int
    status: core.Status
    lines: tuple[MatchLine, ...]  # by result once played, else by seed; empty: teams unknown
    group: Group | None = None  # None: the round is not made yet
    played: bool = False
    final: bool = False  # every series closed: the result counts
    decided_by_league: bool = False  # a tie at the cut the league decided

    @property
    def tie_at_cut(self) -> bool:
        return self.status == core.Status.TIE_AT_CUT

    @property
    def tied_teams(self) -> tuple[Team, ...]:
        return tuple(line.team for line in self.lines if line.tied)


@dataclass(frozen=True)
class RoundView:
    number: int
    matches: tuple[MatchView, ...]
    byes: tuple[Team, ...]
    match_day: MatchDay | None = None
    is_final: bool = False

    @property
    def decided(self) -> bool:
        return all(match.status == core.Status.DECIDED for match in self.matches)


@dataclass(frozen=True)
class KnockoutBracket:
    knockout: Knockout
    rounds: tuple[RoundView, ...]
    champion: Team | None  # decided by the final (named once the owner closes it)
    core: core.Bracket  # the pure bracket (team ids), for the next round's matches

    @property
    def made(self) -> tuple[RoundView, ...]:
        """The rounds whose matches exist (as groups)."""
        return tuple(r for r in self.rounds if r.match_day is not None)

    @property
    def current(self) -> RoundView | None:
        made = self.made
        return made[-1] if made else None


def format_of(knockout: Knockout) -> core.Format:
    return core.Format(match_size=knockout.match_size, advance=knockout.advance)


def knockout_scoring(league: League) -> TeamScoring:
    """The league's scoring for ranking a match of any size (2 to 5 teams): only places
    and game points count in a knockout, so victory points are a plain count down."""
    return dataclasses.replace(
        scoring_of(league), victory_points=tuple(tuple(range(n, 0, -1)) for n in range(2, 6))
    )


def ranking_of(result: GroupResult) -> list[list[int]]:
    """A group result as the core's ranking: team ids by place, sharing teams together."""
    places: dict[int, list[int]] = {}
    for line in result.lines:
        places.setdefault(line.place, []).append(line.team.pk)
    return [places[place] for place in sorted(places)]


def _flat(ranking: list[list[int]]) -> list[int]:
    return [pk for place in ranking for pk in place]


def knockout_groups(league: League) -> list[Group]:
    return list(
        with_finality(
            Group.objects.filter(match_day__league=league, match_day__stage=KNOCKOUT_STAGE)
        )
        .select_related("match_day", "tournament", "decision")
        .order_by("match_day__knockout_round", "number")
    )


def knockout_bracket(league: League, knockout: Knockout | None = None) -> KnockoutBracket | None:
    """The league's knockout bracket, or None before it has started (six queries)."""
    if knockout is None:
        knockout = Knockout.objects.filter(league=league).select_related("champion").first()
    if knockout is None or knockout.started_at is None:
        return None
    groups = knockout_groups(league)
    results = group_results(league, groups, knockout_scoring(league))
    teams: dict[Hashable, Team] = {team.pk: team for team in Team.objects.filter(league=league)}
    by_key = {(g.match_day.knockout_round or 0, g.number): g for g in groups}
    seeds = [int(pk) for pk in knockout.seeds]
    last = len(core.round_sizes(len(seeds), format_of(knockout)))
    rankings: dict[tuple[int, int], list[list[int]]] = {}
    by_league: set[tuple[int, int]] = set()  # matches whose tie the league decided
    for key, group in by_key.items():
        if not results[group.pk].final:
            continue
        rankings[key] = ranking_of(results[group.pk])
        decision = getattr(group, "decision", None)
        cut = 1 if key[0] == last else knockout.advance
        # The league's decision stands for the tie it decided; a corrected result without
        # that tie decides by itself.
        status, _advancing, tied = core.decide(rankings[key], cut)
        if decision is not None and status == core.Status.TIE_AT_CUT:
            decided = [pk for place in decision.ranking for pk in place]
            if set(tied) <= set(decided) and set(decided) == set(_flat(rankings[key])):
                rankings[key] = decision.ranking
                by_league.add(key)
    built = core.bracket(seeds, format_of(knockout), rankings)
    seed_of: dict[Hashable, int] = {pk: index + 1 for index, pk in enumerate(seeds)}
    days = {g.match_day.knockout_round: g.match_day for g in groups}
    rounds = []
    for round_ in built.rounds:
        matches = []
        for match in round_.matches:
            match_group = by_key.get((round_.number, match.number))
            result = results.get(match_group.pk) if match_group is not None else None
            line_of: dict[Hashable, TeamDayLine] = (
                {line.team.pk: line for line in result.lines} if result else {}
            )
            order = list(match.teams)
            if result is not None and result.played:
                order = [line.team.pk for line in result.lines]
            above: set[Hashable] = set(match.advancing)
            if match.tied:  # the teams placed above the tie go on whatever is decided
                above = set(order[: min(order.index(pk) for pk in match.tied)])
            below = set(order) - above - set(match.tied)
            matches.append(
                MatchView(
                    round=round_.number,
                    number=match.number,
                    status=match.status,
                    lines=tuple(
                        MatchLine(
                            team=teams[pk],
                            seed=seed_of[pk],
                            result=line_of.get(pk) if result and result.played else None,
                            advancing=pk in above,
                            tied=pk in match.tied,
                            out=match.status != core.Status.PENDING and pk in below,
                        )
                        for pk in order
                    ),
                    group=match_group,
                    played=bool(result and result.played),
                    final=bool(result and result.final),
                    decided_by_league=(round_.number, match.number) in by_league,
                )
            )
        rounds.append(
            RoundView(
                number=round_.number,
                matches=tuple(matches),
                byes=tuple(teams[pk] for pk in round_.byes),
                match_day=days.get(round_.number),
                is_final=round_.number == len(built.rounds),
            )
        )
    champion = teams[built.champion] if built.champion is not None else None
    return KnockoutBracket(knockout=knockout, rounds=tuple(rounds), champion=champion, core=built)
