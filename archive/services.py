"""Importing an archive: the check (``check_games``, no database) and the import (one
transaction), which ``archive.jobs`` runs in the background.

The structure is read by ``archive.reading``; every game of every table is replayed by the
rules engine exactly as an entry is (``scoring.services.entry.score_row``: completed,
checked, scored), one table held at a time. Any problem refuses the whole archive with a
report that names each row. The import creates the tournament, private, under the importing
organizer: players matched in the registry of the tournament's club (``matching_players``:
the same DDV number, or the same name and club) or added to it, registrations, series, then
a batch of tables at a time replayed and written in bulk (tables, seats, sheets, games with
their score rows), deductions, the players' totals recomputed by the totals service, and an
audit entry; a refused game anywhere rolls it all back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from archive import reading
from archive.models import ImportedTournament
from archive.reading import (
    MAX_PROBLEMS,
    ArchiveIn,
    ArchiveRefused,
    PlayerIn,
    Problem,
    TableIn,
    parse_json,
    read_archive,
)
from clubs.models import Club
from clubs.services import personal_club
from common.actors import Actor
from common.services import ServiceError
from rules.ruleset import RuleSet
from scoring.messages import finding_message
from scoring.models import AuditEntry, Deduction, Game, PlayerScore, ScoreSheet
from scoring.modes import MODES, Outcome
from scoring.rulesets import ruleset_for
from scoring.services.entry import fill_game, player_scores, score_row
from scoring.services.series_totals import refresh_totals
from tournaments.archive_parts import archive_parts
from tournaments.models import NameForm, Player, Registration, Seat, Series, Table, Tournament
from tournaments.services.lifecycle import ensure_series
from tournaments.services.privacy import change_consent
from tournaments.services.registrations import PlayerData, matching_players
from tournaments.services.setup import unique_slug

ACTION = "archive.tournament.imported"


@dataclass
class ScoredGame:
    game: Game  # unsaved, filled
    outcome: Outcome


def _ruleset(archive: ArchiveIn) -> RuleSet:
    t = archive.tournament
    return ruleset_for(Tournament(ruleset=t["ruleset"], rule_overrides=t["rule_overrides"]))


def _where(series: int, table: int, game: int) -> str:
    return _("series %(series)d, table %(table)d, game %(game)d") % {
        "series": series, "table": table, "game": game,
    }  # fmt: skip


def _engine_message(exc: ServiceError) -> str:
    if exc.field and exc.field not in exc.message:
        return _("%(message)s (field: %(field)s)") % {"message": exc.message, "field": exc.field}
    return exc.message


def _same_result(result: dict[str, Any], game: Game) -> bool:
    return (
        (result.get("winner") or "") == game.winner
        and result.get("value") == game.value
        and result.get("scores") == game.scores
    )


def score_table(
    table: TableIn, series: int, ruleset: RuleSet, problems: list[Problem]
) -> list[ScoredGame]:
    """The table's games replayed by the engine as they were entered: each game against the
    rows before it. A sheet with a time-out gets it from the first game that needs it (it
    was called at some point during play). The first refused game ends the table's check
    (the later ones were entered after it). A submitted or confirmed sheet must be complete,
    as the app submits only a complete sheet."""
    mode = MODES[table.mode]
    size = len(table.seats)
    rows: list[dict[str, Any]] = []
    scored: list[ScoredGame] = []
    timeout = False
    for entry in table.games:
        facts = {**entry.record, "dealer": entry.dealer}
        try:
            try:
                completion, outcome = score_row(
                    mode, ruleset, rows, facts, entry.number, size, timeout=timeout
                )
            except ServiceError:
                if not table.timeout or timeout:
                    raise
                completion, outcome = score_row(
                    mode, ruleset, rows, facts, entry.number, size, timeout=True
                )
                timeout = True
        except ServiceError as exc:
            problems.append(
                Problem(_where(series, table.number, entry.number), _engine_message(exc))
            )
            return scored
        game = Game(number=entry.number)
        fill_game(game, completion, outcome)
        if entry.result is not None and not _same_result(entry.result, game):
            problems.append(
                Problem(
                    _where(series, table.number, entry.number),
                    _("The archive's result (%(archived)s) is not what the rules engine "
                      "computes (%(computed)s).") % {
                        "archived": _result_text(entry.result.get("winner"),
                                                 entry.result.get("value"),
                                                 entry.result.get("scores")),
                        "computed": _result_text(game.winner, game.value, game.scores),
                    },
                )
            )  # fmt: skip
            return scored
        rows.append({**game.record, "dealer": game.dealer})
        scored.append(ScoredGame(game, outcome))
    if table.status in (ScoreSheet.Status.SUBMITTED, ScoreSheet.Status.CONFIRMED):
        report = mode.validate(rows, size, ruleset, timeout=table.timeout, complete=True)
        errors = [f for f in report.findings if f.is_error]
        if errors:
            first = errors[0]
            problems.append(
                Problem(
                    _("series %(series)d, table %(table)d") % {
                        "series": series, "table": table.number,
                    },
                    (_("The sheet is submitted but not complete: %(finding)s")
                     if table.status == ScoreSheet.Status.SUBMITTED
                     else _("The sheet is confirmed but not complete: %(finding)s")) % {
                        "finding": finding_message(first.code, first.data, first.game),
                    },
                )
            )  # fmt: skip
    return scored


def _source_text(source: dict[str, Any]) -> str:
    """Where the archive came from, as one line: the site and the short name."""
    origin = source.get("source")
    if not isinstance(origin, dict):
        return ""
    return " ".join(str(origin.get(key, ""))[:200] for key in ("site", "slug")).strip()


def _result_text(winner: Any, value: Any, scores: Any) -> str:
    """ "Kontra -2; 1: -2, 2: 2, 3: -2, 4: 2": the winner, the value and each seat's points
    (a changed seat's points alone must show in the message)."""
    party = {"re": "Re", "kontra": "Kontra"}.get(str(winner), _("no winner"))
    seats = ""
    if isinstance(scores, dict):
        seats = "; " + ", ".join(
            f"{str(k)[:4]}: {str(v)[:12]}" for k, v in list(scores.items())[:5]
        )
    return f"{party} {str(value)[:12]}{seats}"


#: Called with the number of games checked so far.
Progress = Callable[[int], None]


def count_games(archive: ArchiveIn) -> int:
    return sum(len(t.games) for s in archive.series for t in s.tables)


def summarize(archive: ArchiveIn) -> dict[str, Any]:
    """What the archive holds, for the organizer to confirm before it is written."""
    return {
        "name": archive.tournament["name"],
        "slug": archive.tournament["slug"],
        "starts_on": archive.tournament["starts_on"].isoformat(),
        "players": len(archive.players),
        "series": len(archive.series),
        "tables": sum(len(s.tables) for s in archive.series),
        "games": count_games(archive),
        "source_site": str(archive.source.get("source", {}).get("site", "")),
        "source_slug": str(archive.source.get("source", {}).get("slug", "")),
        # Version 1 holds no consent: its new players come in anonymous (docs/archive.md).
        "version": archive.version,
    }


def check_games(archive: ArchiveIn, progress: Progress | None = None) -> None:
    """Every table's games replayed and dropped (nothing is kept: the check of a large
    archive holds one table's games at a time), or ``ArchiveRefused`` naming each refused
    row. ``progress`` hears the number of games checked after each table."""
    ruleset = _ruleset(archive)
    problems: list[Problem] = []
    done = 0
    for series in archive.series:
        for table in series.tables:
            score_table(table, series.number, ruleset, problems)
            done += len(table.games)
            if progress is not None:
                progress(done)
    if problems:
        raise ArchiveRefused(problems[:MAX_PROBLEMS], max(0, len(problems) - MAX_PROBLEMS))


#: How much of a name each form publishes, least first: the stricter consent has more.
STRICTNESS = {NameForm.FULL: 0, NameForm.INITIAL: 1, NameForm.ANONYMOUS: 2}


def _players(
    tournament: Tournament, players: list[PlayerIn], user: User
) -> tuple[dict[int, Player], int]:
    """The archive's players as players of the tournament's registry (its club's): the one
    with the same DDV number, else the one with the same name and club, else a new one
    (created by the importer). An anonymized player (no name) is always a new one. A new
    player keeps the archive's consent (an archive of version 1 has none: anonymous,
    ``PlayerIn``'s defaults); a player found keeps his registry's, made as strict as the
    archive's where that is stricter (never looser: consent is never presumed), recorded as a
    changed consent."""
    chosen: dict[int, Player] = {}
    used: set[int] = set()
    new: list[tuple[int, Player]] = []
    stricter: list[tuple[Player, str]] = []
    for p in players:
        data = PlayerData(p.first_name, p.last_name, p.club, p.ddv_number)
        match = None
        candidates = [] if p.anonymized else matching_players(tournament, data)
        for candidate in candidates:
            if candidate.pk in used:
                continue
            if p.ddv_number and candidate.ddv_number == p.ddv_number:
                match = candidate
                break
            same_name = (candidate.first_name.casefold(), candidate.last_name.casefold()) == (
                p.first_name.strip().casefold(), p.last_name.strip().casefold(),
            )  # fmt: skip
            clash = p.ddv_number and candidate.ddv_number and candidate.ddv_number != p.ddv_number
            if same_name and candidate.club.casefold() == p.club.strip().casefold() and not clash:
                match = match or candidate
        if match is not None:
            used.add(match.pk)
            chosen[p.id] = match
            if (
                p.consent_known
                and STRICTNESS[NameForm(p.name_form)] > STRICTNESS[NameForm(match.name_form)]
            ):
                stricter.append((match, p.name_form))
        else:
            new.append(
                (
                    p.id,
                    Player(
                        registry_club_id=tournament.club_id, owner_id=user.pk,
                        first_name=p.first_name.strip(),
                        last_name=p.last_name.strip(), club=p.club.strip(),
                        ddv_number=p.ddv_number, name_form=p.name_form, minor=p.minor,
                        guardian_consent=p.guardian_consent, consent_at=p.consent_at,
                    ),
                )
            )  # fmt: skip
    Player.objects.bulk_create([player for _, player in new])
    chosen.update(new)
    for player, name_form in stricter:
        change_consent(user, player, {"name_form": name_form})
    return chosen, len(new)


@dataclass(frozen=True)
class Imported:
    tournament: Tournament
    players_new: int
    players_matched: int
    games: int
    summary: dict[str, Any]


def import_file(raw: bytes, user: User, actor: Actor) -> Imported:
    """An uploaded file: JSON first, then ``import_archive``."""
    return import_archive(parse_json(raw), user, actor)


#: Tables written per batch: what the import holds in memory at once, beside the archive.
CHUNK_TABLES = 100


@transaction.atomic
def import_archive(
    data: Any, user: User, actor: Actor, *, content_hash: str | None = None
) -> Imported:
    """Create the archive's tournament under ``user``, or raise ``ArchiveRefused`` (and
    keep nothing). The tournament is private until its organizer publishes it. The games
    are checked and written a batch of tables at a time, so memory stays bounded by the
    batch whatever the archive's size; a refused game anywhere rolls everything back."""
    archive = read_archive(data)
    if content_hash is None:
        content_hash = reading.content_hash(data)
    ruleset = _ruleset(archive)
    tournament = _create_tournament(archive.tournament, personal_club(user))
    tournament.organizers.add(user)
    ImportedTournament.objects.create(
        tournament=tournament, source=archive.source, content_hash=content_hash,
        imported_by=user,
    )  # fmt: skip
    players, new_players = _players(tournament, archive.players, user)
    now = timezone.now()
    registrations = Registration.objects.bulk_create(
        Registration(
            tournament=tournament, player=players[r.player], start_number=r.start_number,
            checked_in=r.checked_in, checked_in_at=now if r.checked_in else None,
            withdrawn_from_series=r.withdrawn_from_series,
        )
        for r in archive.registrations
    )  # fmt: skip
    by_number = {r.start_number: r.pk for r in registrations}
    del registrations
    series_rows = Series.objects.bulk_create(
        Series(
            tournament=tournament, number=s.number, status=s.status, starts_at=s.starts_at,
            closed_at=s.closed_at, drawn_at=s.starts_at, draw_mode=s.draw_mode,
            repeats=s.repeats,
        )
        for s in archive.series
    )  # fmt: skip
    ensure_series(tournament)
    problems: list[Problem] = []
    games = 0
    touched: dict[int, set[int]] = {}
    for s, row in zip(archive.series, series_rows, strict=True):
        for first in range(0, len(s.tables), CHUNK_TABLES):
            chunk = s.tables[first : first + CHUNK_TABLES]
            scored = [score_table(t_in, s.number, ruleset, problems) for t_in in chunk]
            if problems:  # check the rest for the report; write nothing more
                continue
            games += _write_tables(row, chunk, scored, by_number, touched)
        deductions = Deduction.objects.bulk_create(
            Deduction(series=row, registration_id=by_number[d.start_number], points=d.points,
                      reason=d.reason, created_by=user)
            for d in s.deductions
        )  # fmt: skip
        PlayerScore.objects.bulk_create(
            PlayerScore(
                tournament_id=tournament.pk, series=row, series_number=row.number,
                registration_id=d.registration_id, deduction=d, points=d.points,
            )
            for d in deductions
        )  # fmt: skip
        touched.setdefault(row.number, set()).update(d.registration_id for d in deductions)
    if problems:
        raise ArchiveRefused(problems[:MAX_PROBLEMS], max(0, len(problems) - MAX_PROBLEMS))
    for row in series_rows:
        refresh_totals(row, touched.get(row.number, set()))
    for part in archive_parts():
        if part.key in archive.parts:
            part.write(tournament, archive.parts[part.key], by_number, actor)
    AuditEntry.objects.create(
        tournament=tournament, action=ACTION, user=user, via=actor.describe(),
        after={"source": _source_text(archive.source), "games": games,
               "players": len(players)},
    )  # fmt: skip
    return Imported(tournament, new_players, len(players) - new_players, games, summarize(archive))


#: How often a short name taken meanwhile is tried again with the next free one.
SLUG_ATTEMPTS = 5


def _create_tournament(t: dict[str, Any], club: Club) -> Tournament:
    """The tournament, private, in the importer's ``club``, under the first free short name.
    Two imports of the same archive by two organizers at once both see the name free: the
    second one's insert waits for the first to commit and fails on the unique slug; it
    takes the next name."""
    for attempt in range(SLUG_ATTEMPTS):
        try:
            with transaction.atomic():
                return Tournament.objects.create(
                    name=t["name"], slug=unique_slug(t["slug"]), starts_on=t["starts_on"],
                    ends_on=t["ends_on"], venue=t["venue"], ruleset=t["ruleset"],
                    rule_overrides=t["rule_overrides"], series_count=t["series_count"],
                    status=t["status"], is_public=False, tiebreak=t["tiebreak"],
                    entry_mode=t["entry_mode"], confirmation=t["confirmation"],
                    registration_open=False, club=club,
                )  # fmt: skip
        except IntegrityError:
            if attempt == SLUG_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def _write_tables(
    row: Series,
    tables_in: list[TableIn],
    scored: list[list[ScoredGame]],
    by_number: dict[int, int],
    touched: dict[int, set[int]],
) -> int:
    """One batch of a series' tables with their seats, sheets, games and score rows."""
    tables = Table.objects.bulk_create(Table(series=row, number=t_in.number) for t_in in tables_in)
    seats: list[Seat] = []
    sheets: list[ScoreSheet] = []
    games: list[tuple[Game, Outcome, dict[int, int]]] = []
    for t_in, table, table_games in zip(tables_in, tables, scored, strict=True):
        seated = {pos: by_number[n] for pos, n in t_in.seats.items()}
        seats += [
            Seat(table=table, series=row, position=pos, registration_id=reg)
            for pos, reg in sorted(seated.items())
        ]
        sheets.append(
            ScoreSheet(
                table=table, version=len(t_in.games), status=t_in.status, mode=t_in.mode,
                timeout=t_in.timeout, closed_unconfirmed=t_in.closed_unconfirmed,
            )
        )  # fmt: skip
        for item in table_games:
            item.game.table, item.game.series = table, row
            games.append((item.game, item.outcome, seated))
    Seat.objects.bulk_create(seats)
    ScoreSheet.objects.bulk_create(sheets)
    Game.objects.bulk_create(game for game, *_ in games)
    scores: list[PlayerScore] = []
    for game, outcome, seated in games:
        scores += player_scores(game, row, outcome, seated)
    PlayerScore.objects.bulk_create(scores, batch_size=2000)
    touched.setdefault(row.number, set()).update(score.registration_id for score in scores)
    return len(games)
