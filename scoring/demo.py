"""The demo tournament: created by the tournaments app's part (``tournaments.demo``), then
played with plausible games entered through the captains' service."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.dispatch import Signal

from common.actors import ORGANIZER, Actor
from common.services import ServiceError
from scoring.doors import CAPTAIN, REFEREE
from scoring.models import Game
from scoring.services.closing import close_series
from scoring.services.entry import current_sheet, save_game, sheet_state
from scoring.services.referee import call_referee, rule_call, take_call
from scoring.services.sheet import confirm_sheet, submit_sheet
from tournaments.demo import DEMO_REFEREE, create_demo_tournament
from tournaments.models import Series, Table, Tournament
from tournaments.services.lifecycle import start_series

LEVELS = (None, None, None, "ansage", "ansage", "90")
#: Sent with ``tournament`` once the demo is built: the apps above this one add their part
#: (the hall display an announcement) without this module knowing them.
demo_built = Signal()


def _points(rng: random.Random) -> int:
    return max(2, min(238, int(rng.gauss(124, 38))))


def random_game(rng: random.Random, situation: dict[str, Any], size: int) -> dict[str, Any]:
    active = [s for s in range(1, size + 1) if s != situation["sitting_out"]]
    forced = situation["forced"]
    if forced:
        return {
            "contract": "solo",
            "solo": rng.choice(("damen", "buben", "karo", "kreuz")),
            "re": [forced],
            "re_points": _points(rng),
        }
    allowed = situation["compulsory_allowed"]
    roll = rng.random()
    if allowed and roll < 0.12:
        return {
            "contract": "solo",
            "solo": rng.choice(("damen", "buben", "karo", "herz", "fleischlos")),
            "re": [rng.choice(allowed)],
            "re_points": _points(rng),
            "announcements": {"re": rng.choice(LEVELS[:5]), "kontra": rng.choice(LEVELS[:4])},
        }
    if roll < 0.16:
        trick = rng.choice((1, 2, 3, None))
        hochzeiter = rng.choice(active)
        partner = rng.choice([s for s in active if s != hochzeiter])
        re = [hochzeiter] if trick is None else sorted((hochzeiter, partner))
        return {
            "contract": "hochzeit",
            "hochzeit_partner_trick": trick,
            "re": re,
            "re_points": max(_points(rng), 40),
        }
    points = _points(rng)
    game: dict[str, Any] = {
        "contract": "normal",
        "re": sorted(rng.sample(active, 2)),
        "re_points": points,
    }
    announcements = {"re": rng.choice(LEVELS), "kontra": rng.choice(LEVELS)}
    if any(announcements.values()):
        game["announcements"] = announcements
    if rng.random() < 0.3:
        winner_party = "re" if points > 120 else "kontra"
        game["extras"] = {
            winner_party: {"fuchs": rng.choice((0, 1)), "doppelkopf": 1, "karlchen": 0}
        }
    return game


def play_table(
    table: Table, rng: random.Random, *, games: int | None = None, finish: bool = True
) -> None:
    """Enter ``games`` games (all when None); submit and confirm when the sheet is full.
    The rules engine completes each game (dealer, compulsory, forced) from the sheet."""
    size = table.seats.count()
    captain = Actor(CAPTAIN, seat=size, device="demo-captain-phone")
    state = sheet_state(table, current_sheet(table))
    entered = 0
    while games is None or entered < games:
        situation = state["next"]
        if situation["finished"]:
            break
        for attempt in range(20):
            payload = random_game(rng, situation, size)
            if attempt > 10:  # a plain game is always valid
                payload.pop("extras", None)
                payload.pop("announcements", None)
            try:
                state = save_game(
                    table, payload, expected_version=state["version"], actor=captain
                ).sheet
                break
            except ServiceError:
                continue
        entered += 1
    if finish and state["next"]["finished"]:
        submit_sheet(table, seat=size, expected_version=state["version"], actor=captain)
        player = Actor(CAPTAIN, seat=1, device="demo-player-phone")
        confirm_sheet(table, seat=1, actor=player)


def close_played(series: Series) -> None:
    """Close a series whose sheets the demo confirmed, as its first organizer."""
    organizer = series.tournament.organizers.order_by("pk").first()
    close_series(series, actor=Actor(ORGANIZER, user=organizer))


def referee_calls(series: Series) -> None:
    """The running series' referee calls: table 1's ruled by the club's referee (with two
    minutes of Nachspielzeit, its last game confirmed), table 2's still open."""
    referee = User.objects.get(username=DEMO_REFEREE)
    tables = list(series.tables.select_related("series__tournament").order_by("number")[:2])
    if len(tables) < 2:
        return
    first, second = tables
    captain = Actor(CAPTAIN, seat=4, device="demo-captain-phone")
    last = Game.objects.filter(table=first).order_by("-number").values_list("number", flat=True)
    call = call_referee(
        first,
        reason="Karte verworfen? Streit über Stich 7",
        actor=captain,
        link=first.captain_token,
        game_number=last.first(),
    ).call
    take_call(call, actor=Actor(REFEREE, user=referee))
    rule_call(
        call,
        ruling="Stich 7 korrekt bedient, Wertung bleibt.",
        actor=Actor(REFEREE, user=referee),
        extension_minutes=2,
    )
    last = Game.objects.filter(table=second).order_by("-number").values_list("number", flat=True)
    call_referee(
        second,
        reason="Absage zu spät? Regelfrage",
        actor=captain,
        link=second.captain_token,
        game_number=last.first(),
    )


@transaction.atomic
def build_demo(
    players: int = 46, series: int = 3, seed: int = 2026, *, extras: bool = True
) -> Tournament:
    """(Re)create the tournament ``demo``: players, all series drawn and played through the
    captains' service; the last series is running with about half of its games entered.
    ``extras``: the apps above add theirs (``demo_built``: an announcement, a season, a
    league); tests of the tournament alone leave them out, the league takes seconds."""
    rng = random.Random(seed)
    tournament = create_demo_tournament(players, series, seed, rng)
    for number in range(1, series + 1):
        current = start_series(tournament.series.get(number=number))
        last = number == series
        for table in current.tables.order_by("number"):
            play_table(table, rng, games=rng.randint(6, 16) if last else None)
        if not last:
            close_played(current)
        else:
            referee_calls(current)
    if extras:
        demo_built.send(sender=build_demo, tournament=tournament)
    return tournament
