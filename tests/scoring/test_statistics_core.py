"""The statistics core: hand-computed figures, empty cases, and invariants (no database)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from scoring.statistics import (
    KONTRA,
    RE,
    GameShare,
    Rate,
    SeriesResult,
    SoloOutcomes,
    figures_by_player,
    player_figures,
    rounded,
    running_totals,
    tournament_figures,
)


def share(game: int, party: str | None, won: bool, points: int, **kw: object) -> GameShare:
    fields: dict[str, object] = {"series": 1, "played": True, "solo": False, "compulsory": False}
    fields.update(kw)
    return GameShare(game=game, party=party, won=won, points=points, **fields)  # type: ignore[arg-type]


def test_rate_counts_and_rounds_half_up() -> None:
    assert Rate(1, 3).value == Fraction(1, 3)
    assert Rate(1, 3).percent() == 33
    assert Rate(1, 8).percent() == 13  # 12.5 % rounds up
    assert Rate(5, 8).percent() == 63  # 62.5 % rounds up
    assert Rate(0, 0).value is None and Rate(0, 0).percent() is None
    assert Rate(1, 2) + Rate(2, 3) == Rate(3, 5)
    assert rounded(Fraction(-5, 4), 1) == Decimal("-1.3")  # away from zero
    assert rounded(Fraction(25, 2), 0) == 13


def test_a_players_figures_by_hand() -> None:
    """Six games: two normal games as Re (one won), one as Kontra (won), a compulsory solo
    won (+3), a voluntary solo lost (-6), one game sat out; a deduction of -2 in series 2."""
    shares = [
        share(1, RE, True, 2),
        share(2, RE, False, -1),
        share(3, KONTRA, True, 3),
        share(4, RE, True, 3, solo=True, compulsory=True),
        share(5, RE, False, -6, solo=True, series=2),
        share(6, None, False, 0, played=False, series=2),
    ]
    results = [SeriesResult(2, -8), SeriesResult(1, 7)]
    f = player_figures(shares, results)
    assert f.games == 5
    assert f.solos == Rate(2, 5) and f.solos.percent() == 40
    assert f.solos_won == Rate(1, 2)
    assert f.re == Rate(2, 4)  # games 1, 2, 4, 5 as Re; 1 and 4 won
    assert f.kontra == Rate(1, 1)
    assert f.compulsory == SoloOutcomes(won=1, lost=0, count=1, points=3)
    assert f.voluntary == SoloOutcomes(won=0, lost=1, count=1, points=-6)
    assert f.series == (SeriesResult(1, 7), SeriesResult(2, -8))
    assert f.points == -1 and f.series_played == 2
    assert f.per_series == Fraction(-1, 2)


def test_no_games_no_rates() -> None:
    f = player_figures([], [])
    assert f.games == 0 and f.series_played == 0 and f.points == 0
    assert f.per_series is None
    for rate in (f.solos, f.solos_won, f.re, f.kontra):
        assert rate.value is None and rate.percent() is None
    assert f.compulsory.average_points is None
    t = tournament_figures([])
    assert t.games == 0 and t.solos.value is None and t.all_games.re_rate.value is None


def test_a_deduction_only_series_counts_as_played() -> None:
    """A player with only a deduction in a series played it as far as his average goes."""
    f = player_figures([], [SeriesResult(1, -5)])
    assert f.games == 0 and f.per_series == -5


def test_compulsory_solo_without_winner() -> None:
    f = player_figures([share(1, RE, False, 0, solo=True, compulsory=True)])
    assert f.compulsory == SoloOutcomes(won=0, lost=0, count=1, points=0)
    assert f.compulsory.undecided == 1 and f.compulsory.average_points == 0


def test_tournament_counts_games_not_players() -> None:
    """Game 1: Re (seats 1, 2) wins. Game 2: a solo, Kontra wins. Game 3: no winner.
    Game 4: transcribed normal game: parties unknown, counted in the games only."""
    shares = [
        share(1, RE, True, 1),
        share(1, RE, True, 1),
        share(1, KONTRA, False, -1),
        share(1, KONTRA, False, -1),
        share(2, RE, False, -9, solo=True, compulsory=True),
        *(share(2, KONTRA, True, 3) for _ in range(3)),
        *(share(3, p, False, 0) for p in (RE, RE, KONTRA, KONTRA)),
        share(4, None, True, 2),
        share(4, None, True, 2),
        share(4, None, False, -2),
        share(4, None, False, -2),
        share(4, None, False, 0, played=False),
    ]
    t = tournament_figures(shares)
    assert t.games == 4
    assert t.solos == Rate(1, 4) and t.solos_won == Rate(0, 1)
    assert (t.normal.re, t.normal.kontra, t.normal.known) == (1, 0, 2)
    assert (t.solo_games.re, t.solo_games.kontra, t.solo_games.known) == (0, 1, 1)
    assert t.all_games.re_rate == Rate(1, 3) and t.all_games.kontra_rate == Rate(1, 3)
    assert t.all_games.undecided == 1
    assert t.compulsory == SoloOutcomes(won=0, lost=1, count=1, points=-9)


def test_running_totals() -> None:
    results = [SeriesResult(1, 5), SeriesResult(3, -2)]
    assert running_totals(results, (1, 2, 3)) == (5, 5, 3)
    assert running_totals([SeriesResult(2, 4)], (1, 2, 3)) == (None, 4, 4)
    assert running_totals([], (1, 2)) == (None, None)


# --- invariants ----------------------------------------------------------------------------


@st.composite
def games(draw: st.DrawFn) -> list[tuple[int, GameShare]]:
    """Shares of a table of four, keyed by seat: normal games (two Re) and solos (one Re),
    won by Re, by Kontra or by nobody; now and then a transcribed game without parties."""
    shares: list[tuple[int, GameShare]] = []
    for game in range(draw(st.integers(0, 30))):
        solo = draw(st.booleans())
        known = draw(st.integers(0, 9)) > 0
        soloist = draw(st.integers(1, 4))
        re = {soloist} if solo else set(draw(st.permutations([1, 2, 3, 4]))[:2])
        winner = draw(st.sampled_from((RE, KONTRA, None)))
        value = draw(st.integers(1, 8))
        for seat in range(1, 5):
            party = RE if seat in re else KONTRA
            won = winner == party
            factor = 3 if solo and seat in re else 1
            points = 0 if winner is None else value * factor * (1 if won else -1)
            shares.append(
                (
                    seat,
                    GameShare(
                        game=game,
                        series=draw(st.integers(1, 3)) if seat == 1 else 1,
                        points=points,
                        played=True,
                        party=party if known or solo else None,
                        solo=solo and seat in re,
                        compulsory=solo and seat in re and game % 2 == 0,
                        won=won,
                    ),
                )
            )
    return shares


def in_unit(rate: Rate) -> bool:
    return rate.value is None or 0 <= rate.value <= 1


@given(games())
def test_rates_lie_between_zero_and_one(shares: list[tuple[int, GameShare]]) -> None:
    for f in figures_by_player(shares, []).values():
        for rate in (f.solos, f.solos_won, f.re, f.kontra):
            assert in_unit(rate)
            assert rate.percent() is None or 0 <= rate.percent() <= 100  # type: ignore[operator]
        assert f.re.of + f.kontra.of <= f.games
        assert f.compulsory.count + f.voluntary.count == f.solos.count
        assert f.compulsory.won + f.voluntary.won == f.solos_won.count
    t = tournament_figures(s for _, s in shares)
    for rate in (t.solos, t.solos_won, t.all_games.re_rate, t.all_games.kontra_rate):
        assert in_unit(rate)
    assert t.all_games.undecided >= 0


@given(games())
def test_the_players_solos_add_up_to_the_tournaments(shares: list[tuple[int, GameShare]]) -> None:
    players = figures_by_player(shares, []).values()
    t = tournament_figures(s for _, s in shares)
    assert sum(f.solos.count for f in players) == t.solos.count
    assert sum(f.solos_won.count for f in players) == t.solos_won.count
    assert sum(f.games for f in players) == 4 * t.games
    assert sum((f.compulsory for f in players), SoloOutcomes()) == t.compulsory
    # Every game with known parties was won by Re, by Kontra, or by nobody.
    wins = t.all_games
    assert wins.re + wins.kontra + wins.undecided == wins.known


@given(games(), games())
def test_figures_of_two_tournaments_add_up(
    first: list[tuple[int, GameShare]], second: list[tuple[int, GameShare]]
) -> None:
    a = player_figures(s for seat, s in first if seat == 1)
    b = player_figures(s for seat, s in second if seat == 1)
    both = player_figures(
        [*(s for seat, s in first if seat == 1), *(s for seat, s in second if seat == 1)]
    )
    summed = a + b
    assert (summed.games, summed.solos, summed.solos_won, summed.re, summed.kontra) == (
        both.games,
        both.solos,
        both.solos_won,
        both.re,
        both.kontra,
    )
    assert summed.compulsory == both.compulsory and summed.voluntary == both.voluntary
