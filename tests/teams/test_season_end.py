"""The season's end marks by hand (``teams.season_end``, no database): 2 up, 2 down and 1
relegation play-off place in a table of eight; a shared place across a cut is "decision
needed", one inside a zone is not; provisional until every match day is final; zones that
do not fit into the table give no marks."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from teams.season_end import Places, TableEntry, Zone, check_places, season_end

UP, PLAYOFF, DOWN, STAY = Zone.UP, Zone.PLAYOFF, Zone.DOWN, Zone.STAY
BUNDESLIGA = Places(up=2, down=2, playoff=1)


def table(*places: int) -> list[TableEntry]:
    """Teams "A", "B", … with the given places, in table order."""
    return [TableEntry(chr(ord("A") + i), place) for i, place in enumerate(places)]


def zones(entries: list[TableEntry], places: Places, *, final: bool = True) -> list[Zone | None]:
    return [mark.zone for mark in season_end(entries, places, final=final).marks]


def test_two_up_two_down_one_playoff_in_a_table_of_eight() -> None:
    end = season_end(table(1, 2, 3, 4, 5, 6, 7, 8), BUNDESLIGA, final=True)
    assert [(m.team, m.zone) for m in end.marks] == [
        ("A", UP), ("B", UP), ("C", STAY), ("D", STAY), ("E", STAY),
        ("F", PLAYOFF), ("G", DOWN), ("H", DOWN),
    ]  # fmt: skip
    assert (end.final, end.provisional, end.undecided, end.problem) == (True, False, False, "")


def test_the_same_table_is_provisional_while_a_match_day_runs() -> None:
    end = season_end(table(1, 2, 3, 4, 5, 6, 7, 8), BUNDESLIGA, final=False)
    assert end.provisional and not end.final
    assert [m.zone for m in end.marks] == [UP, UP, STAY, STAY, STAY, PLAYOFF, DOWN, DOWN]


def test_a_tie_the_tie_breaks_left_across_the_up_cut_needs_a_decision() -> None:
    """B and C share place 2, two places go up: neither is guessed up."""
    end = season_end(table(1, 2, 2, 4, 5, 6, 7, 8), BUNDESLIGA, final=True)
    assert [m.zone for m in end.marks] == [UP, None, None, STAY, STAY, PLAYOFF, DOWN, DOWN]
    assert end.marks[1].undecided and end.marks[1].between == (UP, STAY)
    assert end.undecided


def test_ties_at_the_playoff_and_down_cuts() -> None:
    # E and F share place 5 across the play-off cut; G and H share 7 inside the down zone.
    end = season_end(table(1, 2, 3, 4, 5, 5, 7, 7), BUNDESLIGA, final=True)
    assert [m.zone for m in end.marks] == [UP, UP, STAY, STAY, None, None, DOWN, DOWN]
    assert end.marks[4].between == (STAY, PLAYOFF)
    # F and G share place 6 across the down cut.
    end = season_end(table(1, 2, 3, 4, 5, 6, 6, 8), BUNDESLIGA, final=True)
    assert end.marks[5].between == end.marks[6].between == (PLAYOFF, DOWN)
    # Three teams share place 5 over the play-off and the down cut at once.
    end = season_end(table(1, 2, 3, 4, 5, 5, 5, 8), BUNDESLIGA, final=True)
    assert end.marks[4].between == (STAY, PLAYOFF, DOWN)


def test_a_tie_inside_a_zone_is_decided() -> None:
    """A and B share place 1, both go up: no decision needed."""
    end = season_end(table(1, 1, 3, 4, 5, 6, 7, 8), BUNDESLIGA, final=True)
    assert [m.zone for m in end.marks] == [UP, UP, STAY, STAY, STAY, PLAYOFF, DOWN, DOWN]
    assert not end.undecided


def test_no_places_set_marks_nobody() -> None:
    assert zones(table(1, 2, 3, 4), Places()) == [STAY] * 4


def test_zones_that_do_not_fit_give_no_marks() -> None:
    end = season_end(table(1, 2, 3, 4), BUNDESLIGA, final=True)
    assert end.problem == "too_few_teams"
    assert [m.zone for m in end.marks] == [STAY] * 4
    assert check_places(BUNDESLIGA, 5) == "" and check_places(BUNDESLIGA, 4) == "too_few_teams"
    assert check_places(BUNDESLIGA, None) == ""  # teams not known yet
    assert check_places(Places(up=-1), None) == "negative_places"


def test_up_and_down_may_take_the_whole_table() -> None:
    assert zones(table(1, 2, 3, 4), Places(up=2, down=2)) == [UP, UP, DOWN, DOWN]


@given(
    st.lists(st.integers(min_value=0, max_value=3), min_size=1, max_size=16),
    st.integers(0, 6),
    st.integers(0, 6),
    st.integers(0, 3),
)
def test_marks_follow_the_table(steps: list[int], up: int, down: int, playoff: int) -> None:
    """Any table: each zone holds at most its places, up above play-off above down, and a
    team is undecided exactly when its shared place spans two zones."""
    places_list = [1]
    for index, step in enumerate(steps[1:], start=2):
        places_list.append(index if step else places_list[-1])
    entries = table(*places_list)
    places = Places(up=up, down=down, playoff=playoff)
    end = season_end(entries, places, final=True)
    if places.marked > len(entries):
        assert end.problem == "too_few_teams"
        return
    decided = [m.zone for m in end.marks if m.zone is not None]
    assert decided.count(UP) <= up and decided.count(DOWN) <= down
    assert decided.count(PLAYOFF) <= playoff
    order = {UP: 0, STAY: 1, PLAYOFF: 2, DOWN: 3}
    ranks = [order[z] for z in decided]
    assert ranks == sorted(ranks)
    for entry, mark in zip(entries, end.marks, strict=True):
        same = sum(1 for other in entries if other.place == entry.place)
        assert mark.undecided == (len(mark.between) > 1)
        if same == 1:
            assert not mark.undecided
