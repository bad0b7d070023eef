"""The pure core: turns at 4 to 7, quick points and their checks, the Bock replay."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evenings import core
from rules.bock import bock_state
from rules.ruleset import DDV, HAUS_MIT_BOCK, KNEIPE, BockTrigger
from rules.testing import game, parsed


@pytest.mark.parametrize(
    ("size", "dealer", "out", "playing"),
    [
        (4, 0, (), (1, 2, 3, 0)),
        (5, 0, (0,), (1, 2, 3, 4)),
        (5, 4, (4,), (0, 1, 2, 3)),
        (6, 0, (0, 1), (2, 3, 4, 5)),
        (6, 5, (5, 0), (1, 2, 3, 4)),
        (7, 0, (0, 1, 2), (3, 4, 5, 6)),
        (7, 6, (6, 0, 1), (2, 3, 4, 5)),
    ],
)
def test_who_sits_out(
    size: int, dealer: int, out: tuple[int, ...], playing: tuple[int, ...]
) -> None:
    turn = core.turn(size, dealer)
    assert turn.sitting_out == out
    assert turn.playing == playing


@given(st.integers(4, 7), st.integers(0, 20))
def test_every_player_plays_or_sits_out_once(size: int, dealer: int) -> None:
    turn = core.turn(size, dealer)
    assert sorted(turn.sitting_out + turn.playing) == list(range(size))
    assert len(turn.playing) == 4


@given(st.integers(4, 7))
def test_over_a_round_everyone_sits_out_equally(size: int) -> None:
    out = [p for d in range(size) for p in core.turn(size, d).sitting_out]
    assert all(out.count(p) == size - 4 for p in range(size))


def test_table_sizes_outside_4_to_7_are_refused() -> None:
    for size in (3, 8):
        with pytest.raises(ValueError):
            core.turn(size, 0)


def test_quick_normal_game_with_bock() -> None:
    points, fired = core.quick_points(core.Quick((1, 2), 3), [1, 2, 3, 4], HAUS_MIT_BOCK, 2)
    assert points == {1: 12, 2: 12, 3: -12, 4: -12}
    assert fired == 0


def test_quick_lost_solo_triggers_bock_and_counts_three_times() -> None:
    points, fired = core.quick_points(
        core.Quick((2, 3, 4), 2, solo=True), [1, 2, 3, 4], HAUS_MIT_BOCK, 0
    )
    assert points == {1: -6, 2: 2, 3: 2, 4: 2}
    assert fired == 1


def test_quick_kneipe_writes_winners_only() -> None:
    points, _ = core.quick_points(core.Quick((1, 3), 2), [1, 2, 3, 4], KNEIPE, 1)
    assert points == {1: 4, 2: 0, 3: 4, 4: 0}


@pytest.mark.parametrize(
    ("quick", "code"),
    [
        (core.Quick((1,), 2), "two_winners"),
        (core.Quick((1, 9), 2), "winner_not_playing"),
        (core.Quick((1, 2), 2, solo=True), "solo_winners"),
        (core.Quick((1, 2), 0), "value_out_of_range"),
        (core.Quick((1, 2), 999), "value_out_of_range"),
        (core.Quick((1, 2), 2, triggers=frozenset({BockTrigger.TIE})), "trigger_not_in_profile"),
    ],
)
def test_quick_refusals(quick: core.Quick, code: str) -> None:
    rs = DDV if quick.triggers else HAUS_MIT_BOCK
    with pytest.raises(core.QuickError) as caught:
        core.quick_points(quick, [1, 2, 3, 4], rs, 0)
    assert caught.value.code == code


@given(st.lists(st.integers(0, 2), max_size=30), st.sampled_from([4, 5, 6, 7]))
def test_bock_replay_agrees_with_the_engine(fired: list[int], size: int) -> None:
    """The counted replay gives the levels the engine's replay of records gives."""
    records = []
    for n in fired:  # 0: nothing, 1: 120:120, 2: 120:120 and a lost Re announcement
        if n == 0:
            records.append(parsed(game(points=151), HAUS_MIT_BOCK))
        elif n == 1:
            records.append(parsed(game(points=120), HAUS_MIT_BOCK))
        else:
            records.append(parsed(game(points=120, ann=("ansage", None)), HAUS_MIT_BOCK))
    levels, state = core.bock_replay([(size, n) for n in fired], size, HAUS_MIT_BOCK)
    engine = bock_state(records, size, HAUS_MIT_BOCK)
    assert state.ahead == engine.ahead
    assert len(levels) == len(fired)
