"""Use cases of a league's knockout after its group stage: start it (seeds from the final
table or drawn, round 1's matches), decide a tie at the cut, make the next round or name
the champion. One transaction each, logged as a ``LeagueChange``; refusals are
``ServiceError``s. Each match is a group with its own tournament, made as the group stage's
are (``teams.services.make_group``): line-ups, the team draw and captain entry as ever.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from common.actors import Actor
from common.services import Refusal, ServiceError
from teams import knockout as core
from teams.bracket import (
    KNOCKOUT_STAGE,
    KnockoutBracket,
    knockout_bracket,
    knockout_scoring,
    ranking_of,
)
from teams.models import Group, Knockout, KnockoutDecision, League, MatchDay, Team
from teams.services import _log, _require_manager, make_group
from teams.standings import group_results, group_stage, league_table, with_finality
from tournaments.models import new_seed


@dataclass(frozen=True)
class KnockoutSettings:
    """What the owner chooses (``teams.knockout.Format`` and the seeding); ``seed``: the
    draw's seed (None: a new one)."""

    match_size: int = 4
    advance: int = 2
    seeding: str = Knockout.Seeding.TABLE
    seed: int | None = None


def _check(settings: KnockoutSettings) -> None:
    problem = core.Format(settings.match_size, settings.advance).check()
    if problem == "match_size":
        raise ServiceError(
            "invalid_match_size", _("A match is a group of 4 teams or a pair."), field="match_size"
        )
    if problem == "advance":
        raise ServiceError(
            "invalid_advance",
            _("Of 4 teams, 1 or 2 can advance.")
            if settings.match_size == 4
            else _("Of 2 teams, 1 advances."),
            field="advance",
        )
    if settings.seeding not in Knockout.Seeding.values:
        raise ServiceError(
            "invalid_seeding",
            _("Choose one of: %(known)s.") % {"known": ", ".join(Knockout.Seeding.values)},
            field="seeding",
        )


def _match_name(league: League, round_number: int, match: int) -> str:
    return _("%(league)s, knockout round %(round)d, match %(match)d") % {
        "league": league.name,
        "round": round_number,
        "match": match,
    }


def _make_round(league: League, round_: core.Round) -> MatchDay:
    """The round's match day (numbered after every day so far) and a group per match."""
    highest = MatchDay.objects.filter(league=league).aggregate(m=Max("number"))["m"] or 0
    try:
        with transaction.atomic():
            match_day = MatchDay.objects.create(
                league=league,
                number=highest + 1,
                stage=KNOCKOUT_STAGE,
                knockout_round=round_.number,
            )
    except IntegrityError as exc:  # made meanwhile by another request
        raise ServiceError(
            "round_made", _("This round is made already."), refusal=Refusal.CONFLICT
        ) from exc
    teams = {team.pk: team for team in Team.objects.filter(league=league)}
    for match in round_.matches:
        make_group(
            league,
            match_day,
            match.number,
            _match_name(league, round_.number, match.number),
            [teams[int(str(pk))] for pk in match.teams],
        )
    return match_day


def _locked_knockout(league: League) -> Knockout:
    knockout = Knockout.objects.select_for_update().filter(league=league).first()
    if knockout is None or knockout.started_at is None:
        raise ServiceError(
            "knockout_not_started", _("The knockout has not started."), refusal=Refusal.CONFLICT
        )
    return knockout


@transaction.atomic
def start_knockout(league: League, settings: KnockoutSettings, *, actor: Actor) -> Knockout:
    """Start the knockout once every match day of the group stage is final: seeds by the
    final table (teams sharing a place ordered by a draw) or drawn, byes for the best seeds
    where the count asks for them, and round 1's matches as groups. Once only."""
    _require_manager(league, actor)
    league = League.objects.select_for_update().select_related("owner").get(pk=league.pk)
    if Knockout.objects.filter(league=league, started_at__isnull=False).exists():
        raise ServiceError(
            "knockout_started", _("The knockout has started already."), refusal=Refusal.CONFLICT
        )
    _check(settings)
    if not group_stage(league).final:  # before the table: a refusal reads no results
        raise ServiceError(
            "group_stage_unfinished",
            _("The knockout starts when every match day of the group stage is final."),
            refusal=Refusal.CONFLICT,
        )
    table = league_table(league)
    seed = settings.seed if settings.seed is not None else new_seed()
    if settings.seeding == Knockout.Seeding.TABLE:
        seeds = core.seeds_from_table([(line.team.pk, line.place) for line in table.teams], seed)
    else:
        seeds = core.seeds_by_draw(sorted(line.team.pk for line in table.teams), seed)
    fmt = core.Format(settings.match_size, settings.advance)
    try:
        built = core.bracket(seeds, fmt, {})
    except core.KnockoutError as exc:
        raise ServiceError(
            exc.code, _("A knockout needs at least two teams."), refusal=Refusal.CONFLICT
        ) from exc
    first = built.rounds[0]
    knockout, _created = Knockout.objects.update_or_create(
        league=league,
        defaults={
            "match_size": settings.match_size,
            "advance": settings.advance,
            "seeding": settings.seeding,
            "seed": seed,
            "seeds": list(seeds),
            "byes": list(first.byes),
            "started_at": timezone.now(),
        },
    )
    _make_round(league, first)
    _log(
        league,
        "teams.knockout.started",
        actor,
        after={
            **asdict(settings),
            "seed": seed,
            "seeds": list(seeds),
            "byes": list(first.byes),
            "round": [list(match.teams) for match in first.matches],
        },
    )
    return knockout


@transaction.atomic
def decide_tie(group: Group, order: Sequence[int], *, actor: Actor) -> KnockoutDecision:
    """The league's order of the teams sharing a place across a knockout match's cut (a
    play-off game, a draw, its rules): ``order`` names each of them once, best first. Can
    be changed until the next round is made (or the champion named)."""
    group = Group.objects.select_related("match_day__league").get(pk=group.pk)
    league = group.match_day.league
    _require_manager(league, actor)
    knockout = _locked_knockout(league)
    round_number = group.match_day.knockout_round
    if group.match_day.stage != KNOCKOUT_STAGE or round_number is None:
        raise ServiceError(
            "not_a_knockout_match",
            _("This group is no knockout match."),
            refusal=Refusal.NOT_FOUND,
        )
    later = MatchDay.objects.filter(league=league, knockout_round__gt=round_number).exists()
    if later or knockout.champion_id is not None:
        raise ServiceError(
            "round_closed",
            _("The next round is made; this match's result stays as it is."),
            refusal=Refusal.CONFLICT,
        )
    bracket = knockout_bracket(league, knockout)
    assert bracket is not None
    rounds = bracket.rounds
    is_final = round_number == len(rounds)
    raw = _raw_ranking(league, group)
    if raw is None:
        raise ServiceError(
            "match_not_final",
            _("The match's result is not final yet (a series is still open)."),
            refusal=Refusal.CONFLICT,
        )
    status, _advancing, tied_teams = core.decide(raw, 1 if is_final else knockout.advance)
    tied = [int(str(pk)) for pk in tied_teams]
    if status != core.Status.TIE_AT_CUT:
        raise ServiceError(
            "no_tie_at_cut",
            _("The match's result decides who advances; there is nothing to decide."),
            refusal=Refusal.CONFLICT,
        )
    names = {team.pk: team.name for team in Team.objects.filter(pk__in=tied)}
    ids = [pk for pk in order]
    if sorted(ids) != sorted(tied) or len(set(ids)) != len(ids):
        raise ServiceError(
            "wrong_order",
            _("Name each of the tied teams once, best first: %(teams)s.")
            % {"teams": ", ".join(names[pk] for pk in tied)},
            field="order",
        )
    ranking: list[list[int]] = []
    for place in raw:
        if set(place) == set(tied):
            ranking.extend([pk] for pk in ids)
        else:
            ranking.append(list(place))
    previous = KnockoutDecision.objects.filter(group=group).first()
    before = previous.ranking if previous else None
    decision, _created = KnockoutDecision.objects.update_or_create(
        group=group, defaults={"ranking": ranking, "decided_by": actor.user}
    )
    _log(
        league,
        "teams.knockout.decided",
        actor,
        before={"group": group.pk, "ranking": before} if before else None,
        after={"group": group.pk, "round": round_number, "ranking": ranking},
    )
    return decision


def _raw_ranking(league: League, group: Group) -> list[list[int]] | None:
    """The match's own ranking (its group result, without a decision), None until final."""
    loaded = with_finality(Group.objects.select_related("match_day")).get(pk=group.pk)
    result = group_results(league, [loaded], knockout_scoring(league))[loaded.pk]
    return ranking_of(result) if result.final else None


@transaction.atomic
def advance_knockout(league: League, *, actor: Actor) -> KnockoutBracket:
    """The next round's matches once every match of the current round is decided, or, after
    the final, the champion named. Two requests at once make one round: the knockout's row
    is locked, and the database holds one match day per round."""
    _require_manager(league, actor)
    league = League.objects.select_related("owner").get(pk=league.pk)
    knockout = _locked_knockout(league)
    if knockout.champion_id is not None:
        raise ServiceError(
            "knockout_finished",
            _("The knockout is over: %(team)s is the champion.") % {"team": knockout.champion},
            refusal=Refusal.CONFLICT,
        )
    bracket = knockout_bracket(league, knockout)
    assert bracket is not None
    current = bracket.current
    assert current is not None
    open_matches = [m for m in current.matches if m.status != core.Status.DECIDED]
    if open_matches:
        tie = next((m for m in open_matches if m.tie_at_cut), None)
        raise ServiceError(
            "round_undecided",
            _("Match %(n)d needs a decision: teams share the place across the cut.")
            % {"n": tie.number}
            if tie is not None
            else _("Match %(n)d has no final result yet.") % {"n": open_matches[0].number},
            refusal=Refusal.CONFLICT,
        )
    if current.is_final:
        assert bracket.champion is not None
        knockout.champion = bracket.champion
        knockout.finished_at = timezone.now()
        knockout.save(update_fields=["champion", "finished_at"])
        _log(
            league,
            "teams.knockout.finished",
            actor,
            after={"champion": bracket.champion.pk, "name": bracket.champion.name},
        )
    else:
        following = bracket.core.rounds[current.number]
        _make_round(league, following)
        _log(
            league,
            "teams.knockout.round_made",
            actor,
            after={
                "round": following.number,
                "matches": [list(match.teams) for match in following.matches],
            },
        )
    made = knockout_bracket(league, knockout)
    assert made is not None
    return made
