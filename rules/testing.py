"""Record builders for tests of the engine and of the apps that use it (no pytest import).

``game(...)`` returns a valid game-record dict with sensible defaults; ``parsed``/``scored``
parse (asserting validity) and score it under a rule set; ``row`` lists the seat scores.
"""

from __future__ import annotations

from typing import Any

from rules import DDV, GameRecord, GameResult, RuleSet, parse_record, score

SEATS4 = [1, 2, 3, 4]
SEATS5 = [1, 2, 3, 4, 5]


def game(
    contract: str = "normal",
    *,
    re: list[int] | None = None,
    ann: tuple[str | None, str | None] = (None, None),
    points: int = 121,
    tricks: int | None = None,
    extras: dict[str, dict[str, int]] | None = None,
    **fields: Any,
) -> dict[str, Any]:
    """A game record dict; Re = seats 1+2 (normal) or seat 1 (solo-type) unless given."""
    solo_like = contract in ("solo", "stille_hochzeit") or (
        contract == "hochzeit" and fields.get("hochzeit_partner_trick") is None
    )
    data: dict[str, Any] = {
        "contract": contract,
        "seats": SEATS4,
        "sitting_out": None,
        "re": re if re is not None else ([1] if solo_like else [1, 2]),
        "announcements": {"re": ann[0], "kontra": ann[1]},
        "re_points": points,
    }
    if contract == "solo":
        data.update(solo="karo", compulsory=False, forced=False)
    if contract == "hochzeit":
        data["hochzeit_partner_trick"] = None
    if tricks is not None:
        data["re_tricks"] = tricks
    if extras is not None:
        data["extras"] = extras
    data.update(fields)
    return data


def parsed(data: dict[str, Any], ruleset: RuleSet = DDV) -> GameRecord:
    record = parse_record(data, ruleset)
    assert isinstance(record, GameRecord), record
    return record


def scored(data: dict[str, Any], ruleset: RuleSet = DDV) -> GameResult:
    return score(parsed(data, ruleset), ruleset)


def row(result: GameResult) -> list[int]:
    return [result.scores[seat] for seat in sorted(result.scores)]


def series_game(
    dealer: int,
    table_size: int = 4,
    *,
    soloist: int | None = None,
    compulsory: bool = False,
    forced: bool = False,
    **fields: Any,
) -> dict[str, Any]:
    """A valid game of a series dealt by ``dealer``: a normal game (Re = the first two active
    seats, value 1) or, with ``soloist``, a Karo solo of that seat."""
    seats = SEATS5 if table_size == 5 else SEATS4
    sitting_out = dealer if table_size == 5 else None
    active = [s for s in seats if s != sitting_out]
    if soloist is None:
        data = game(re=active[:2], seats=seats, sitting_out=sitting_out, dealer=dealer)
    else:
        data = game(
            "solo",
            re=[soloist],
            seats=seats,
            sitting_out=sitting_out,
            dealer=dealer,
            compulsory=compulsory,
            forced=forced,
        )
    data.update(fields)
    return data


def l1_series() -> list[dict[str, Any]]:
    """Vector L1: 20 normal games dealt 1,2,3,4 x5; seats 2 and 4 announce their compulsory
    solos on the way; seats 3 and 1 are forced in games 23 and 24."""
    games: list[dict[str, Any]] = []
    for n in range(20):
        dealer = n % 4 + 1
        if n == 3:
            games.append(series_game(dealer, soloist=2, compulsory=True))  # dealer 4 re-deals
        if n == 13:
            games.append(series_game(dealer, soloist=4, compulsory=True))
        games.append(series_game(dealer))
    games.append(series_game(1, soloist=3, compulsory=True, forced=True))
    games.append(series_game(2, soloist=1, compulsory=True, forced=True))
    return games
