"""The evening's use cases: create a group, add members, open an evening, set its tables,
enter a game (quick or full), delete the last game, close the evening with its settlement.

Each runs in one transaction and locks the row two requests could race for (the group, the
evening, the table); each logs in ``EveningChange`` with a dotted code ``evenings.…``. The
rules engine scores every game and gives its Bock level; a phone never sends a multiplier.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from cashbox.settlement import Mode, Rate, Score, SettlementError, settle
from clubs.models import Club
from common.actors import Actor
from common.services import Refusal, ServiceError
from evenings import core
from evenings.models import Evening, EveningChange, EveningGame, EveningTable, Group, GroupMember
from evenings.permissions import keeps_evenings
from rules.bock import BockState
from rules.bock import triggers as fired_by
from rules.errors import EngineError
from rules.gamerecord import GameRecord, record_to_json
from rules.record import parse_record
from rules.ruleset import PROFILES, BockTrigger, RuleSet
from rules.scoring import score
from scoring.messages import engine_error_message
from seasons.ranking import EVENING_PRESETS
from seasons.rules import EVENING_OVERRIDES
from tournaments.models import Player
from tournaments.permissions import readable_players

MAX_RATE = 1000
MAX_ROUNDS = 50


def _log(club: Club, action: str, actor: Actor, before: Any = None, after: Any = None) -> None:
    EveningChange.objects.create(
        club=club, action=action, before=before, after=after, user=actor.user,
        via=actor.describe(),
    )  # fmt: skip


def _require_keeper(club: Club, actor: Actor) -> None:
    if actor.user is None or not keeps_evenings(actor.user, club):
        raise ServiceError(
            "forbidden",
            _("Only the club's owners and organizers keep its evenings."),
            refusal=Refusal.FORBIDDEN,
        )


def ruleset(group: Group) -> RuleSet:
    return PROFILES[group.profile]


def player_name(player: Player) -> str:
    return f"{player.first_name} {player.last_name}".strip()


# --- groups ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GroupData:
    name: str
    profile: str = "haus_mit_bock"
    cents_per_point: int = 5
    settlement: str = Group.Settlement.TRANSFERS
    slug: str = ""
    is_public: bool = False


@transaction.atomic
def create_group(club: Club, data: GroupData, *, actor: Actor) -> Group:
    club = Club.objects.select_for_update().get(pk=club.pk)
    _require_keeper(club, actor)
    name = data.name.strip()
    if not name or len(name) > 80:
        raise ServiceError("name", _("Enter a name of 1 to 80 characters."), "name")
    if data.profile not in PROFILES:
        raise ServiceError("profile", _("Choose one of the house-rule profiles."), "profile")
    if not 0 <= data.cents_per_point <= MAX_RATE:
        raise ServiceError(
            "rate", _("Enter 0 to %(most)d cents per point.") % {"most": MAX_RATE},
            "cents_per_point",
        )  # fmt: skip
    if data.settlement not in Group.Settlement.values:
        raise ServiceError("settlement", _("Choose how the evening is settled."), "settlement")
    slug = slugify(data.slug or name)[:60] or "runde"
    if Group.objects.filter(club=club, slug=slug).exists():
        raise ServiceError("slug_taken", _("The club already has a group of this name."), "name")
    group = Group.objects.create(
        club=club, name=name, slug=slug, profile=data.profile,
        cents_per_point=data.cents_per_point, settlement=data.settlement,
        is_public=data.is_public,
    )  # fmt: skip
    _log(club, "evenings.group.created", actor, after={"group": group.pk, "name": name})
    return group


@transaction.atomic
def add_members(
    group: Group, player_ids: Sequence[int] = (), new_names: Sequence[str] = (), *, actor: Actor
) -> list[GroupMember]:
    """Add players of the registries the actor may use, and new players by name (into the
    registry of the group's club). A player already in the group is skipped."""
    group = Group.objects.select_for_update().get(pk=group.pk)
    _require_keeper(group.club, actor)
    readable = readable_players(actor.user)
    found = list(readable.filter(pk__in=list(player_ids)))
    if len(found) != len(set(player_ids)):
        raise ServiceError("unknown_player", _("Choose players of your registry."), "players")
    for raw in new_names:
        parts = raw.strip().split(None, 1)
        if not parts:
            continue
        if len(raw.strip()) > 160:
            raise ServiceError("name", _("Enter a name of at most 160 characters."), "names")
        first, last = [*parts, ""][:2]
        found.append(
            Player.objects.create(
                registry_club=group.club, owner=actor.user, first_name=first, last_name=last
            )
        )
    known = set(group.memberships.values_list("player_id", flat=True))
    added = [GroupMember.objects.create(group=group, player=p) for p in found if p.pk not in known]
    if added:
        _log(group.club, "evenings.member.added", actor,
             after={"group": group.pk, "players": [m.player_id for m in added]})  # fmt: skip
    return added


@transaction.atomic
def set_championship_rule(
    group: Group, preset: str, overrides: dict[str, Any], *, actor: Actor
) -> Group:
    """The rule of the group's club championship (``evenings.championship``): an evening
    preset and its overrides, checked as a season's are."""
    group = Group.objects.select_for_update().select_related("club").get(pk=group.pk)
    _require_keeper(group.club, actor)
    if preset not in EVENING_PRESETS:
        raise ServiceError(
            "unknown_preset",
            _("Choose one of: %(known)s.") % {"known": ", ".join(EVENING_PRESETS)},
            "ranking_preset",
        )
    EVENING_OVERRIDES.refuse_invalid(overrides)
    before = {"preset": group.ranking_preset, "overrides": group.ranking_overrides}
    after = {"preset": preset, "overrides": dict(overrides)}
    if after != before:
        group.ranking_preset = preset
        group.ranking_overrides = dict(overrides)
        group.save(update_fields=["ranking_preset", "ranking_overrides"])
        _log(group.club, "evenings.championship.changed", actor,
             before={"group": group.pk, **before}, after={"group": group.pk, **after})  # fmt: skip
    return group


# --- evenings ----------------------------------------------------------------------------


@dataclass(frozen=True)
class EveningData:
    date: datetime.date
    end: str = Evening.End.OPEN
    rounds: int | None = None
    ends_at: datetime.time | None = None


@transaction.atomic
def open_evening(group: Group, data: EveningData, *, actor: Actor) -> Evening:
    group = Group.objects.select_for_update().get(pk=group.pk)
    _require_keeper(group.club, actor)
    if data.end not in Evening.End.values:
        raise ServiceError("end", _("Choose how the evening ends."), "end")
    rounds = data.rounds if data.end == Evening.End.ROUNDS else None
    if data.end == Evening.End.ROUNDS and not (rounds and 1 <= rounds <= MAX_ROUNDS):
        raise ServiceError(
            "rounds", _("Enter 1 to %(most)d rounds.") % {"most": MAX_ROUNDS}, "rounds"
        )
    ends_at = data.ends_at if data.end == Evening.End.TIME else None
    if data.end == Evening.End.TIME and ends_at is None:
        raise ServiceError("ends_at", _("Enter the end time."), "ends_at")
    evening = Evening.objects.create(
        group=group, date=data.date, end=data.end, rounds=rounds, ends_at=ends_at
    )
    _log(group.club, "evenings.evening.opened", actor,
         after={"evening": evening.pk, "date": data.date.isoformat(), "end": data.end})  # fmt: skip
    return evening


def _locked_evening(evening: Evening) -> Evening:
    return Evening.objects.select_for_update().select_related("group__club").get(pk=evening.pk)


def _require_open(evening: Evening) -> None:
    if evening.status != Evening.Status.OPEN:
        raise ServiceError("closed", _("This evening is closed."), refusal=Refusal.CONFLICT)


def table_sizes(count: int, tables: int) -> list[int]:
    base, extra = divmod(count, tables)
    return [base + (1 if i < extra else 0) for i in range(tables)]


@transaction.atomic
def set_tables(
    evening: Evening,
    seats: Sequence[Sequence[int]] | None = None,
    *,
    players: Sequence[int] = (),
    tables: int = 1,
    seed: int | None = None,
    actor: Actor,
) -> list[EveningTable]:
    """Set the evening's tables: ``seats`` as chosen (a list of player ids per table), or
    ``players`` drawn at random onto ``tables`` tables. A table that has games keeps them and
    its link; players join and leave between games. Every table has 4 to 7 players, every
    player sits at one table, every player is a member of the group."""
    evening = _locked_evening(evening)
    _require_keeper(evening.group.club, actor)
    _require_open(evening)
    if seats is None:
        chosen = list(dict.fromkeys(players))
        if tables < 1 or len(chosen) < core.MIN_PLAYERS * tables:
            raise ServiceError("too_few", _("Every table needs 4 to 7 players."), "players")
        random.Random(seed).shuffle(chosen)
        seats, start = [], 0
        for size in table_sizes(len(chosen), tables):
            seats.append(chosen[start : start + size])
            start += size
    members = set(evening.group.memberships.values_list("player_id", flat=True))
    everyone = [p for table in seats for p in table]
    if len(everyone) != len(set(everyone)):
        raise ServiceError("twice", _("Every player sits at one table only."), "players")
    if not set(everyone) <= members:
        raise ServiceError("not_member", _("Choose members of the group."), "players")
    if not seats or any(not core.MIN_PLAYERS <= len(t) <= core.MAX_PLAYERS for t in seats):
        raise ServiceError("table_size", _("Every table needs 4 to 7 players."), "players")
    existing = {t.number: t for t in evening.tables.select_for_update()}
    result = []
    for number, order in enumerate(seats, start=1):
        table = existing.pop(number, None)
        if table is None:
            table = EveningTable.objects.create(evening=evening, number=number, seats=list(order))
        else:
            table.dealer = table.dealer % len(order)
            table.seats = list(order)
            table.save(update_fields=["seats", "dealer"])
        result.append(table)
    for table in existing.values():
        if table.games.exists():
            raise ServiceError(
                "table_has_games", _("A table with games cannot be removed."), "players"
            )
        table.delete()
    _log(evening.group.club, "evenings.tables.set", actor,
         after={"evening": evening.pk, "tables": [list(t) for t in seats]})  # fmt: skip
    return result


# --- the live table ----------------------------------------------------------------------


@dataclass(frozen=True)
class TableState:
    """What the live table shows: the turn, the Bock state for the next game, the games."""

    table: EveningTable
    turn: core.Turn
    bock: BockState
    games: list[EveningGame]
    totals: dict[int, int]
    games_left: int | None = None


def table_state(table: EveningTable, games: list[EveningGame] | None = None) -> TableState:
    rs = ruleset(table.evening.group)
    games = list(table.games.order_by("number")) if games is None else games
    size = len(table.seats)
    _levels, bock = core.bock_replay([(len(g.seats), g.fired) for g in games], size, rs)
    totals = dict.fromkeys(table.seats, 0)
    for game in games:
        for player, points in game.points.items():
            totals[int(player)] = totals.get(int(player), 0) + points
    left = None
    if table.evening.end == Evening.End.ROUNDS and table.evening.rounds:
        left = max(table.evening.rounds * size - len(games), 0)
    return TableState(table, core.turn(size, table.dealer), bock, games, totals, left)


@dataclass(frozen=True)
class QuickData:
    winners: tuple[int, ...]  # player ids
    value: int
    solo: bool = False
    triggers: tuple[str, ...] = ()


@dataclass(frozen=True)
class FullData:
    """The engine's facts of a game; seats are 1..4, the four who play in playing order."""

    record: dict[str, Any] = field(default_factory=dict)


def _refuse(code: str, field_name: str) -> ServiceError:
    messages = {
        "players": _("Four players play a game."),
        "winner_not_playing": _("Choose the winners among the four who play."),
        "two_winners": _("Choose the two winners."),
        "solo_winners": _(
            "A solo: choose the soloist after a won solo, or the three opponents after a lost one."
        ),
        "value_out_of_range": _("This value is not possible under the house rules."),
        "trigger_not_in_profile": _("The house rules have no such Bock trigger."),
    }
    return ServiceError(code, messages.get(code, _("Check the entry.")), field_name)


def _entry(game: EveningGame) -> dict[str, Any]:
    return {
        "game": game.pk, "table": game.table_id, "number": game.number, "kind": game.kind,
        "points": game.points, "bock": game.bock,
    }  # fmt: skip


@transaction.atomic
def enter_game(
    table: EveningTable,
    number: int,
    entry: QuickData | FullData,
    *,
    key: str | None = None,
    actor: Actor,
) -> EveningGame:
    """Enter game ``number`` at ``table`` (the next one). A retried request with the same
    ``key`` gets the game it entered the first time; of two phones entering the same number
    at once exactly one wins, the other is told the game is already there."""
    table = (
        EveningTable.objects.select_for_update()
        .select_related("evening__group__club")
        .get(pk=table.pk)
    )
    if key:
        first = table.games.filter(key=key).first()
        if first is not None:
            return first
    _require_open(table.evening)
    games = list(table.games.order_by("number"))
    if number != len(games) + 1:
        raise ServiceError(
            "game_number",
            _("Game %(number)d has already been entered; reload the table.") % {"number": number}
            if number <= len(games)
            else _("Enter the games in order."),
            refusal=Refusal.CONFLICT,
        )
    state = table_state(table, games)
    if state.games_left == 0:
        raise ServiceError("evening_over", _("All rounds of the evening have been played."))
    rs = ruleset(table.evening.group)
    playing = [table.seats[p] for p in state.turn.playing]
    level = state.bock.level
    if isinstance(entry, QuickData):
        try:
            triggers = frozenset(BockTrigger(t) for t in entry.triggers)
        except ValueError as exc:
            raise _refuse("trigger_not_in_profile", "triggers") from exc
        quick = core.Quick(tuple(entry.winners), entry.value, entry.solo, triggers)
        try:
            by_player, fired = core.quick_points(quick, playing, rs, level)
        except core.QuickError as exc:
            raise _refuse(exc.code, exc.field) from exc
        kind = EveningGame.Kind.QUICK
        facts: dict[str, Any] = {
            "winners": sorted(entry.winners), "value": entry.value, "solo": entry.solo,
            "triggers": sorted(t.value for t in triggers),
        }  # fmt: skip
    else:
        data = {**entry.record, "seats": [1, 2, 3, 4], "sitting_out": None, "bock": level}
        data.pop("dealer", None)
        parsed = parse_record(data, rs)
        if isinstance(parsed, EngineError):
            message = engine_error_message(parsed.code, parsed.field, rs)
            raise ServiceError(parsed.code, message, parsed.field or "record")
        assert isinstance(parsed, GameRecord)
        result = score(parsed, rs)
        by_player = {playing[seat - 1]: pts for seat, pts in result.scores.items()}
        fired = len(fired_by(parsed, rs))
        kind = EveningGame.Kind.FULL
        facts = record_to_json(parsed)
    points = {str(p): by_player.get(p, 0) for p in table.seats}
    try:
        with transaction.atomic():
            game = EveningGame.objects.create(
                table=table, number=number, kind=kind, facts=facts, points=points,
                seats=list(table.seats), dealer=state.turn.dealer, bock=level, fired=fired,
                profile=rs.name, profile_version=rs.version, key=key or "",
                entered_by=actor.user if getattr(actor.user, "pk", None) else None,
                via=actor.describe(table.number),
            )  # fmt: skip
    except IntegrityError as exc:  # a race the lock did not see (the unique constraints)
        raise ServiceError(
            "game_number", _("This game has already been entered; reload the table."),
            refusal=Refusal.CONFLICT,
        ) from exc  # fmt: skip
    table.dealer = (state.turn.dealer + 1) % len(table.seats)
    table.save(update_fields=["dealer"])
    _log(table.evening.group.club, "evenings.game.entered", actor, after=_entry(game))
    return game


@transaction.atomic
def delete_last_game(table: EveningTable, number: int, *, actor: Actor) -> EveningGame:
    """Delete the table's last game (``number`` says which one the phone saw as last), to
    enter it again correctly. The deal goes back to its dealer."""
    table = (
        EveningTable.objects.select_for_update()
        .select_related("evening__group__club")
        .get(pk=table.pk)
    )
    _require_open(table.evening)
    last = table.games.order_by("-number").first()
    if last is None or last.number != number:
        raise ServiceError(
            "not_last", _("Only the last game can be deleted; reload the table."),
            refusal=Refusal.CONFLICT,
        )  # fmt: skip
    before = _entry(last)
    last.delete()
    table.dealer = last.dealer % len(table.seats)
    table.save(update_fields=["dealer"])
    _log(table.evening.group.club, "evenings.game.deleted", actor, before=before)
    return last


# --- the result --------------------------------------------------------------------------


def evening_totals(evening: Evening) -> dict[int, int]:
    totals: dict[int, int] = {}
    for table in evening.tables.all():
        for player in table.seats:
            totals.setdefault(player, 0)
    for game in EveningGame.objects.filter(table__evening=evening):
        for player, points in game.points.items():
            totals[int(player)] = totals.get(int(player), 0) + points
    return totals


def settlement_figures(evening: Evening) -> dict[str, Any]:
    """The settlement of the evening's points at the group's rate (``cashbox.settlement``)."""
    group = evening.group
    totals = evening_totals(evening)
    players = {p.pk: p for p in Player.objects.filter(pk__in=totals)}
    names: dict[int, str] = {}
    for pk in sorted(totals):
        name = player_name(players[pk])[:50] or "?"
        if name.casefold() in {n.casefold() for n in names.values()}:
            name = f"{name} ({pk})"
        names[pk] = name
    by_name = {name: pk for pk, name in names.items()}
    scores = [Score(names[pk], totals[pk]) for pk in sorted(totals, key=lambda p: names[p])]
    mode = Mode(group.settlement)
    result = settle(scores, Rate(group.cents_per_point), mode)
    return {
        "rate": group.cents_per_point,
        "mode": mode.value,
        "exact": result.exact,
        "surplus": result.surplus,
        "balances": [
            {"player": by_name[b.name], "name": b.name, "points": b.points, "cents": b.cents}
            for b in result.balances
        ],
        "transfers": [
            {
                "payer": by_name[t.payer],
                "payer_name": t.payer,
                "payee": None if t.payee is None else by_name[t.payee],
                "payee_name": t.payee,
                "cents": t.cents,
            }
            for t in result.transfers
        ],
    }


@transaction.atomic
def close_evening(evening: Evening, *, actor: Actor) -> Evening:
    """Close the evening: no more games; its settlement is computed once and kept."""
    evening = _locked_evening(evening)
    _require_keeper(evening.group.club, actor)
    _require_open(evening)
    if not EveningGame.objects.filter(table__evening=evening).exists():
        raise ServiceError("no_games", _("No game has been entered this evening."))
    try:
        figures = settlement_figures(evening)
    except SettlementError as exc:
        raise ServiceError("settlement", _("The evening cannot be settled: %(code)s.")
                           % {"code": exc.code}) from exc  # fmt: skip
    evening.settlement = figures
    evening.status = Evening.Status.CLOSED
    evening.closed_at = timezone.now()
    evening.save(update_fields=["settlement", "status", "closed_at"])
    _log(evening.group.club, "evenings.evening.closed", actor,
         after={"evening": evening.pk, "transfers": len(figures["transfers"])})  # fmt: skip
    return evening


@dataclass(frozen=True)
class SeasonLine:
    """A player's line across the group's closed evenings (read from their settlements)."""

    player: int
    name: str
    evenings: int
    points: int
    cents: int


def season_lines(group: Group, year: int | None = None) -> list[SeasonLine]:
    """The group's season: per player the closed evenings played, points and balance in
    cents (of ``year``, if given), best balance first."""
    evenings = group.evenings.filter(status=Evening.Status.CLOSED, settlement__isnull=False)
    if year is not None:
        evenings = evenings.filter(date__year=year)
    lines: dict[int, list[Any]] = {}
    for evening in evenings:
        assert evening.settlement is not None
        for balance in evening.settlement["balances"]:
            line = lines.setdefault(balance["player"], [balance["name"], 0, 0, 0])
            line[1] += 1
            line[2] += balance["points"]
            line[3] += balance["cents"]
    result = [SeasonLine(p, n, e, pts, c) for p, (n, e, pts, c) in lines.items()]
    return sorted(result, key=lambda line: (-line.cents, -line.points, line.name))
