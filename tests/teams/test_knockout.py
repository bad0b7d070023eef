"""The DMM knockout by hand (``teams.knockout``, no database): brackets of 6, 8, 12 and 16
teams in groups of four (2 advance) and pairs (1 advances), byes for the best seeds, a tie
at the cut holds its match until decided, seeding from the table or drawn; a Hypothesis
invariant over every field size."""

from __future__ import annotations

import random
from collections.abc import Hashable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from teams.knockout import (
    Format,
    KnockoutError,
    Round,
    Status,
    bracket,
    round_sizes,
    seeds_by_draw,
    seeds_from_table,
)

FOURS = Format(match_size=4, advance=2)
PAIRS = Format(match_size=2, advance=1)


def seeds(count: int) -> list[int]:
    return list(range(1, count + 1))  # team n is seed n


def by_seed(*teams: int) -> list[list[int]]:
    """A match result without ties: the given order."""
    return [[team] for team in teams]


def teams_of(b_round: Round) -> list[tuple[Hashable, ...]]:
    return [m.teams for m in b_round.matches]


def test_round_sizes() -> None:
    assert round_sizes(16, FOURS) == (4, 2, 1)
    assert round_sizes(12, FOURS) == (2, 2, 1)
    assert round_sizes(8, FOURS) == (2, 1)
    assert round_sizes(6, FOURS) == (1, 1)
    assert round_sizes(4, FOURS) == (1,)
    assert round_sizes(6, PAIRS) == (2, 2, 1)
    assert round_sizes(16, PAIRS) == (8, 4, 2, 1)
    assert round_sizes(6, Format(4, 1)) == (1, 1)


@pytest.mark.parametrize(
    ("fmt", "teams", "code"),
    [
        (Format(3, 1), 8, "match_size"),
        (Format(4, 3), 8, "advance"),
        (Format(4, 4), 8, "advance"),
        (FOURS, 1, "too_few_teams"),
    ],
)
def test_bad_settings(fmt: Format, teams: int, code: str) -> None:
    with pytest.raises(KnockoutError) as raised:
        round_sizes(teams, fmt)
    assert raised.value.code == code


def test_sixteen_teams_in_fours_snake_and_reseeding() -> None:
    first = bracket(seeds(16), FOURS, {})
    assert first.rounds[0].byes == ()
    assert teams_of(first.rounds[0]) == [
        (1, 8, 9, 16),
        (2, 7, 10, 15),
        (3, 6, 11, 14),
        (4, 5, 12, 13),
    ]
    assert teams_of(first.rounds[1]) == [(), ()]
    results = {
        (1, 1): by_seed(1, 16, 8, 9),  # 16 beats 8
        (1, 2): by_seed(2, 7, 10, 15),
        (1, 3): by_seed(3, 6, 11, 14),
        (1, 4): by_seed(4, 5, 12, 13),
    }
    played = bracket(seeds(16), FOURS, results)
    assert played.rounds[0].matches[0].advancing == (1, 16)
    # Reseeded by the original seed: 1 2 3 4 5 6 7 16.
    assert teams_of(played.rounds[1]) == [(1, 4, 5, 16), (2, 3, 6, 7)]
    results |= {(2, 1): by_seed(5, 1, 4, 16), (2, 2): by_seed(2, 3, 6, 7)}
    results |= {(3, 1): by_seed(3, 1, 2, 5)}
    done = bracket(seeds(16), FOURS, results)
    assert teams_of(done.rounds[2]) == [(1, 2, 3, 5)]
    assert done.champion == 3


def test_twelve_teams_four_byes_for_the_best_seeds() -> None:
    b = bracket(seeds(12), FOURS, {})
    assert b.rounds[0].byes == (1, 2, 3, 4)
    assert teams_of(b.rounds[0]) == [(5, 8, 9, 12), (6, 7, 10, 11)]
    b = bracket(seeds(12), FOURS, {(1, 1): by_seed(12, 5, 8, 9), (1, 2): by_seed(6, 7, 10, 11)})
    assert teams_of(b.rounds[1]) == [(1, 4, 5, 12), (2, 3, 6, 7)]
    assert [m.teams for r in b.rounds[1:] for m in r.matches if r.byes] == []


def test_eight_teams_in_fours_and_in_pairs() -> None:
    fours = bracket(seeds(8), FOURS, {})
    assert fours.rounds[0].byes == ()
    assert teams_of(fours.rounds[0]) == [(1, 4, 5, 8), (2, 3, 6, 7)]
    pairs = bracket(seeds(8), PAIRS, {})
    assert teams_of(pairs.rounds[0]) == [(1, 8), (2, 7), (3, 6), (4, 5)]


def test_six_teams_byes_in_fours_and_in_pairs() -> None:
    fours = bracket(seeds(6), FOURS, {})
    assert fours.rounds[0].byes == (1, 2)
    assert teams_of(fours.rounds[0]) == [(3, 4, 5, 6)]
    fours = bracket(seeds(6), FOURS, {(1, 1): by_seed(6, 3, 4, 5)})
    assert teams_of(fours.rounds[1]) == [(1, 2, 3, 6)]
    pairs = bracket(seeds(6), PAIRS, {})
    assert pairs.rounds[0].byes == (1, 2)
    assert teams_of(pairs.rounds[0]) == [(3, 6), (4, 5)]
    pairs = bracket(seeds(6), PAIRS, {(1, 1): by_seed(6, 3), (1, 2): by_seed(4, 5)})
    assert teams_of(pairs.rounds[1]) == [(1, 6), (2, 4)]


def test_a_tie_at_the_cut_holds_the_match_until_decided() -> None:
    tie = {(1, 1): [[3], [4, 5], [6]]}  # 4 and 5 share place 2: one of them advances
    held = bracket(seeds(6), FOURS, tie)
    match = held.rounds[0].matches[0]
    assert match.status == Status.TIE_AT_CUT
    assert match.tied == (4, 5)
    assert match.advancing == ()
    assert teams_of(held.rounds[1]) == [()]
    decided = bracket(seeds(6), FOURS, {(1, 1): [[3], [5], [4], [6]]})
    assert teams_of(decided.rounds[1]) == [(1, 2, 3, 5)]


def test_a_tie_inside_the_advancing_places_or_below_is_no_problem() -> None:
    above = bracket(seeds(6), FOURS, {(1, 1): [[3, 4], [5], [6]]})
    assert above.rounds[0].matches[0].advancing == (3, 4)
    below = bracket(seeds(6), FOURS, {(1, 1): [[3], [4], [5, 6]]})
    assert below.rounds[0].matches[0].status == Status.DECIDED


def test_a_shared_first_place_of_the_final_names_no_champion() -> None:
    b = bracket(seeds(4), FOURS, {(1, 1): [[2, 1], [3], [4]]})
    assert b.champion is None
    assert b.rounds[0].matches[0].status == Status.TIE_AT_CUT


def test_a_result_must_rank_the_match_teams() -> None:
    with pytest.raises(KnockoutError) as raised:
        bracket(seeds(4), FOURS, {(1, 1): by_seed(1, 2, 3, 99)})
    assert raised.value.code == "wrong_teams"
    with pytest.raises(KnockoutError):
        bracket([1, 1, 2], FOURS, {})


def test_seeding_by_table_draws_only_shared_places() -> None:
    table = [("A", 1), ("B", 2), ("C", 2), ("D", 2), ("E", 5)]
    seeded = seeds_from_table(table, draw_seed=7)
    assert seeded[0] == "A" and seeded[-1] == "E"
    assert sorted(map(str, seeded[1:4])) == ["B", "C", "D"]
    assert seeds_from_table(table, draw_seed=7) == seeded  # the same seed, the same draw
    assert sorted(map(str, seeds_by_draw("ABCDE", draw_seed=3))) == list("ABCDE")
    assert seeds_by_draw("ABCDE", draw_seed=3) == seeds_by_draw("ABCDE", draw_seed=3)


@given(
    teams=st.integers(min_value=2, max_value=70),
    fmt=st.sampled_from([FOURS, PAIRS, Format(4, 1)]),
    draw=st.integers(min_value=0, max_value=10**6),
)
def test_every_team_plays_until_eliminated_and_one_champion(
    teams: int, fmt: Format, draw: int
) -> None:
    rng = random.Random(draw)
    field = seeds(teams)
    results: dict[tuple[int, int], list[list[int]]] = {}
    for _ in range(len(round_sizes(teams, fmt))):
        b = bracket(field, fmt, results)
        for r in b.rounds:
            for m in r.matches:
                if m.teams and (r.number, m.number) not in results:
                    order = list(m.teams)
                    rng.shuffle(order)
                    results[(r.number, m.number)] = [[int(str(t))] for t in order]
    b = bracket(field, fmt, results)
    assert b.champion is not None
    assert all(not r.byes for r in b.rounds[1:])
    first = b.rounds[0]
    assert (
        sorted(int(str(t)) for t in [*first.byes, *(t for m in first.matches for t in m.teams)])
        == field
    )
    still_in: set[Hashable] = set(field)
    for r in b.rounds:
        playing = [t for m in r.matches for t in m.teams]
        assert len(playing) == len(set(playing))
        least = 2 if r.number == len(b.rounds) else fmt.advance + 1  # each match eliminates
        assert all(least <= m.size <= fmt.match_size for m in r.matches)
        if r.number > 1:
            assert set(playing) == still_in  # everyone still in plays: no byes later
        still_in = set(r.byes) | {t for m in r.matches for t in m.advancing}
    assert still_in == {b.champion}
