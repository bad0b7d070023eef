"""The demo club's evening group "Donnerstagsrunde": ten players; five earlier closed
evenings of nine players at a table of five and one of four (two rounds each, quick
entries), then the latest closed evening of six players at one table, 20 games with Bock
rounds (quick and full entries), each with its settlement, so that ``make run`` shows the
evenings, the season and the club championship (the best 5 evenings count, so some are
dropped). Its results are public (a group is private unless its organizers say otherwise)."""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from clubs import roles
from common.actors import ORGANIZER, Actor
from evenings import services
from evenings.doors import TABLE_LINK
from evenings.models import Group

DEMO_GROUP = "donnerstagsrunde"
NAMES = (
    "Anna Albers", "Bernd Brandt", "Clara Claßen", "Dieter Dahl", "Eva Ebert", "Frank Fuchs",
    "Greta Groß", "Hans Hahn", "Ida Imhof", "Jonas Jung",
)  # fmt: skip
#: The latest evening's players: the first six members.
LATEST = 6
#: The earlier evenings, weeks before the latest one; nine of the ten members each.
EARLIER = 5
#: The championship counts each player's best evenings.
BEST_EVENINGS = 5


def demo_games() -> list[services.QuickData | services.FullData]:
    """20 games for a table of six: quick entries and full ones, with Bock triggers."""
    games: list[services.QuickData | services.FullData] = []
    for n in range(20):
        if n % 5 == 2:  # a full entry: 120:120 (a Bock trigger)
            games.append(services.FullData({"contract": "normal", "re": [1, 3], "re_points": 120}))
        elif n % 5 == 4:  # a full entry: Re wins with 151
            games.append(services.FullData(
                {"contract": "normal", "re": [2, 4], "re_points": 151,
                 "announcements": {"re": "ansage", "kontra": None}}
            ))  # fmt: skip
        else:
            games.append(services.QuickData(winners=(), value=1 + n % 4))
    return games


def build_earlier_evening(group: Group, actor: Actor, date: datetime.date, week: int) -> None:
    """Nine of the members (one stays home each week) at a table of five and one of four,
    two rounds of quick entries each (seeded: the same demo every time)."""
    rng = random.Random(week)
    members = list(group.memberships.order_by("pk").values_list("player_id", flat=True))
    present = [p for i, p in enumerate(members) if i != (week * 3) % len(members)]
    rng.shuffle(present)
    evening = services.open_evening(group, services.EveningData(date=date), actor=actor)
    tables = services.set_tables(evening, [present[:5], present[5:]], actor=actor)
    phone = Actor(TABLE_LINK, device="demo-evening-phone")
    for table in tables:
        for number in range(1, 2 * len(table.seats) + 1):
            state = services.table_state(table)
            playing = [table.seats[p] for p in state.turn.playing]
            winners = tuple(rng.sample(playing, 2))
            entry = services.QuickData(winners=winners, value=rng.randint(1, 5))
            services.enter_game(table, number, entry, key=f"demo-{week}-{number}", actor=phone)
            table.refresh_from_db()
    services.close_evening(evening, actor=actor)


def build_evening(group: Group, actor: Actor, date: datetime.date) -> None:
    evening = services.open_evening(group, services.EveningData(date=date), actor=actor)
    players = list(group.memberships.order_by("pk").values_list("player_id", flat=True))
    (table,) = services.set_tables(evening, [players[:LATEST]], actor=actor)
    phone = Actor(TABLE_LINK, device="demo-evening-phone")
    for number, entry in enumerate(demo_games(), start=1):
        if isinstance(entry, services.QuickData):
            state = services.table_state(table)
            playing = [table.seats[p] for p in state.turn.playing]
            winners = (playing[number % 4], playing[(number + 1) % 4])
            entry = services.QuickData(winners=winners, value=entry.value)
        services.enter_game(table, number, entry, key=f"demo-{number}", actor=phone)
        table.refresh_from_db()
    services.close_evening(evening, actor=actor)


def evenings_in_demo(sender: Any, tournament: Any, **kwargs: Any) -> None:
    """Create the demo club's group with its closed evenings, once."""
    club = tournament.club
    if club is None or Group.objects.filter(club=club, slug=DEMO_GROUP).exists():
        return
    keeper = (
        User.objects.filter(memberships__club=club, memberships__role=roles.OWNER)
        .order_by("pk")
        .first()
    )
    if keeper is None:
        return
    actor = Actor(ORGANIZER, user=keeper)
    group = services.create_group(
        club, services.GroupData(
            name="Donnerstagsrunde", slug=DEMO_GROUP, cents_per_point=5, is_public=True
        ),
        actor=actor,
    )  # fmt: skip
    services.add_members(group, new_names=NAMES, actor=actor)
    services.set_championship_rule(
        group, "club_championship", {"best_n": BEST_EVENINGS}, actor=actor
    )
    latest = timezone.localdate() - datetime.timedelta(days=1)
    for week in range(EARLIER, 0, -1):
        build_earlier_evening(group, actor, latest - datetime.timedelta(weeks=week), week)
    build_evening(group, actor, latest)
