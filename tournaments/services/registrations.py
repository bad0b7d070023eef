"""Registering players: by form, by file import, by the public link; check-in; withdrawal."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from common.services import Refusal, ServiceError
from tournaments.models import NameForm, Player, Registration, Series, Tournament
from tournaments.names import by_name
from tournaments.permissions import registry_owner, tournament_registry


@dataclass(frozen=True)
class PlayerData:
    first_name: str
    last_name: str
    club: str = ""
    ddv_number: str = ""
    email: str = ""
    name_form: str = NameForm.FULL.value
    minor: bool = False
    guardian_consent: bool = False
    consented: bool = False  # asked at registration (the forms): consent_at is recorded


def consent_problem(name_form: str, minor: bool, guardian_consent: bool) -> str:
    """Why this consent cannot be recorded ("" if it can): a minor is published under his
    name only with a guardian's consent (the database's check says the same)."""
    if name_form not in NameForm.values:
        return str(_("Choose how the name may be published."))
    if minor and not guardian_consent and name_form != NameForm.ANONYMOUS:
        return str(
            _(
                "A player under 18 is published by name only with a parent's or guardian's "
                "consent. Tick the consent or choose anonymous."
            )
        )
    return ""


def matching_players(tournament: Tournament, data: PlayerData) -> list[Player]:
    """Players of the tournament's registry who are probably this person: the same DDV
    number, or the same first and last name (case-insensitive). Never another registry's."""
    same_name = Q(first_name__iexact=data.first_name.strip()) & Q(
        last_name__iexact=data.last_name.strip()
    )
    condition = same_name
    if data.ddv_number:
        condition |= Q(ddv_number=data.ddv_number)
    return by_name(tournament_registry(tournament).filter(condition).order_by("pk"))


def _next_start_number(tournament: Tournament) -> int:
    highest = tournament.registrations.aggregate(m=Max("start_number"))["m"]
    return (highest or 0) + 1


def _lock(tournament: Tournament) -> Tournament:
    # Serializes start-number assignment per tournament across processes.
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _create_player(tournament: Tournament, data: PlayerData, owner: int | None) -> Player:
    """A new player in the tournament's registry (its club's), created by its first
    organizer (``owner``, ``registry_owner``); a DDV number is unique inside the registry."""
    club = tournament.club_id
    taken = Player.objects.filter(registry_club_id=club, ddv_number=data.ddv_number.strip())
    if data.ddv_number and club is not None and taken.exists():
        raise ServiceError(
            "ddv_number_taken",
            _("Another player already has the DDV member number %(number)s.")
            % {"number": data.ddv_number},
            field="ddv_number",
        )
    if problem := consent_problem(data.name_form, data.minor, data.guardian_consent):
        raise ServiceError("consent_missing", problem, field="guardian_consent")
    return Player.objects.create(
        first_name=data.first_name.strip(),
        last_name=data.last_name.strip(),
        club=data.club.strip(),
        ddv_number=data.ddv_number.strip(),
        email=data.email.strip(),
        name_form=data.name_form,
        minor=data.minor,
        guardian_consent=data.guardian_consent,
        consent_at=timezone.now() if data.consented else None,
        registry_club_id=club,
        owner_id=owner,
    )


def _player_not_found() -> ServiceError:
    # The same answer for an unknown id and another registry's player: no oracle.
    return ServiceError("player_not_found", _("Player not found."), refusal=Refusal.NOT_FOUND)


def _from_registry(tournament: Tournament, player: Player | int) -> Player:
    pk = player if isinstance(player, int) else player.pk
    found = tournament_registry(tournament).filter(pk=pk).first()
    if found is None:
        raise _player_not_found()
    return found


def _register(tournament: Tournament, player: Player, *, checked_in: bool = False) -> Registration:
    if tournament.registrations.filter(player=player).exists():
        raise ServiceError(
            "already_registered",
            _("%(player)s is already registered for this tournament.") % {"player": player},
        )
    return Registration.objects.create(
        tournament=tournament,
        player=player,
        start_number=_next_start_number(tournament),
        checked_in=checked_in,
        checked_in_at=timezone.now() if checked_in else None,
    )


@transaction.atomic
def register(
    tournament: Tournament,
    data: PlayerData,
    *,
    existing_player: Player | None = None,
    checked_in: bool = False,
) -> Registration:
    """Register a new player, or ``existing_player`` (a merge with a known identity of the
    tournament's registry; another registry's player is refused as unknown)."""
    tournament = _lock(tournament)
    if existing_player is not None:
        player = _from_registry(tournament, existing_player)
    else:
        player = _create_player(tournament, data, registry_owner(tournament))
    return _register(tournament, player, checked_in=checked_in)


def registered_match(tournament: Tournament, data: PlayerData) -> Registration | None:
    """The registration, in this tournament, of a player the import takes for this person
    (``matching_players``: same DDV number or same name); None if there is none."""
    return (
        tournament.registrations.filter(player__in=matching_players(tournament, data))
        .select_related("player")
        .order_by("start_number")
        .first()
    )


@dataclass(frozen=True)
class ImportMatch:
    """What the import will do with one row: skip it (``registered``: the person is already
    registered), or register it, as one of the ``candidates`` or as a new player."""

    registered: Registration | None
    candidates: list[Player]


def import_match(tournament: Tournament, data: PlayerData, *, limit: int = 3) -> ImportMatch:
    registered = registered_match(tournament, data)
    if registered is not None:
        return ImportMatch(registered=registered, candidates=[])
    return ImportMatch(registered=None, candidates=list(matching_players(tournament, data)[:limit]))


@dataclass(frozen=True)
class ImportRow:
    data: PlayerData
    merge_with: int | None  # id of an existing Player, or None for a new one
    line: int = 0  # the row's line in the file, for messages (0: its position in the list)


@dataclass(frozen=True)
class SkippedRow:
    line: int
    registration: Registration  # the registration the row's person already has


@dataclass(frozen=True)
class ImportResult:
    created: list[Registration]
    skipped: list[SkippedRow]


@transaction.atomic
def import_players(tournament: Tournament, rows: list[ImportRow]) -> ImportResult:
    """Register the rows of a player list. A row whose person was already registered before
    this import is skipped and reported, so an updated list can be imported again; any other
    refused row rolls the whole import back, with its line in the message."""
    tournament = _lock(tournament)
    owner = registry_owner(tournament)
    # Decided before any row is saved: no row is skipped because of an earlier row of the
    # same file (a person twice in one file is a conflict, reported as such).
    matches = [registered_match(tournament, row.data) for row in rows]
    created: list[Registration] = []
    skipped: list[SkippedRow] = []
    for index, (row, registered) in enumerate(zip(rows, matches, strict=True), start=1):
        line = row.line or index
        if registered is not None:
            skipped.append(SkippedRow(line=line, registration=registered))
            continue
        try:
            player = (
                _from_registry(tournament, row.merge_with)
                if row.merge_with
                else _create_player(tournament, row.data, owner)
            )
            created.append(_register(tournament, player))
        except ServiceError as exc:
            raise ServiceError(
                "import_row_refused",
                _("Line %(line)d: %(message)s") % {"line": line, "message": exc.message},
            ) from exc
    return ImportResult(created=created, skipped=skipped)


@transaction.atomic
def self_register(tournament: Tournament, data: PlayerData) -> Registration:
    """The public registration link. Links to a known player only on an exact DDV number and
    name match, so nobody can register someone else's identity by name alone."""
    tournament = _lock(tournament)
    if not tournament.registration_open:
        raise ServiceError("registration_closed", _("Registration for this tournament is closed."))
    player = None
    if data.ddv_number:
        player = (
            tournament_registry(tournament)
            .filter(
                ddv_number=data.ddv_number,
                first_name__iexact=data.first_name.strip(),
                last_name__iexact=data.last_name.strip(),
            )
            .first()
        )
    return _register(
        tournament, player or _create_player(tournament, data, registry_owner(tournament))
    )


def set_checked_in(registration: Registration, present: bool) -> Registration:
    registration.checked_in = present
    registration.checked_in_at = timezone.now() if present else None
    registration.save(update_fields=["checked_in", "checked_in_at"])
    return registration


def withdraw(registration: Registration, from_series: int | None) -> Registration:
    """Take a player out of the draw from series ``from_series`` on (None: back in)."""
    if from_series is not None:
        tournament = registration.tournament
        if not 1 <= from_series <= tournament.series_count:
            raise ServiceError(
                "series_out_of_range",
                _("Choose a series between 1 and %(n)d.") % {"n": tournament.series_count},
                field="from_series",
            )
        started = Series.objects.filter(
            tournament=tournament,
            number__gte=from_series,
            status__in=[Series.Status.RUNNING, Series.Status.CLOSED],
        ).exists()
        if started:
            raise ServiceError(
                "series_already_started",
                _("Series %(n)d has already started; withdraw from a later series.")
                % {"n": from_series},
                field="from_series",
            )
    registration.withdrawn_from_series = from_series
    registration.save(update_fields=["withdrawn_from_series"])
    return registration
