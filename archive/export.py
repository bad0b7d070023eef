"""The archive of a whole tournament as JSON (format ``doko-turnier-archive``, version 2,
documented in docs/archive.md): what another Doko-Turnier needs to rebuild it, every game as
the rules engine reads it, each player's consent to publication, and the parts the apps
beside this one add (``tournaments.archive_parts``: the fees). No e-mail address leaves the
registry; the DDV numbers do (the archive is for the organizers only)."""

from __future__ import annotations

import datetime
from collections import Counter
from typing import Any

from django.conf import settings
from django.db.models import Count, Max, Min
from django.utils import timezone

from scoring.models import AuditEntry, Deduction, Game, ScoreSheet
from tournaments.archive_parts import archive_parts
from tournaments.models import Registration, Seat, Series, Table, Tournament

FORMAT = "doko-turnier-archive"
VERSION = 2
#: The versions this server reads: version 1 has no consent and no parts (docs/archive.md).
READABLE = (1, 2)


def _time(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value else None


def _tournament(t: Tournament) -> dict[str, Any]:
    return {
        "name": t.name,
        "slug": t.slug,
        "starts_on": t.starts_on.isoformat(),
        "ends_on": t.ends_on.isoformat() if t.ends_on else None,
        "venue": t.venue,
        "ruleset": t.ruleset,
        "rule_overrides": t.rule_overrides or {},
        "series_count": t.series_count,
        "status": t.status,
        "is_public": t.is_public,
        "tiebreak": list(t.tiebreak or []),
        "entry_mode": t.entry_mode,
        "confirmation": t.confirmation,
    }


def _audit(tournament: Tournament) -> dict[str, Any]:
    entries = AuditEntry.objects.filter(tournament=tournament)
    span = entries.aggregate(first=Min("created_at"), last=Max("created_at"))
    counts = Counter(
        {
            row["action"]: row["n"]
            for row in entries.values("action").annotate(n=Count("pk")).order_by()
        }
    )
    return {
        "entries": sum(counts.values()),
        "actions": dict(sorted(counts.items())),
        "first": _time(span["first"]),
        "last": _time(span["last"]),
    }


def build_archive(tournament: Tournament) -> dict[str, Any]:
    """The archive of ``tournament``: a constant number of queries, whatever its size."""
    registrations = list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("start_number")
    )
    players: list[dict[str, Any]] = []
    player_ids: dict[int, int] = {}
    for registration in registrations:
        p = registration.player
        player_ids[p.pk] = len(players) + 1
        players.append(
            {
                "id": player_ids[p.pk],
                "first_name": p.first_name,
                "last_name": p.last_name,
                "club": p.club,
                "ddv_number": p.ddv_number,
                "name_form": p.name_form,
                "minor": p.minor,
                "guardian_consent": p.guardian_consent,
                "consent_at": _time(p.consent_at),
            }
        )
    start_numbers = {r.pk: r.start_number for r in registrations}
    series_list = list(Series.objects.filter(tournament=tournament).order_by("number"))
    tables: dict[int, list[Table]] = {}
    for table in Table.objects.filter(series__tournament=tournament).order_by("number"):
        tables.setdefault(table.series_id, []).append(table)
    seats: dict[int, list[dict[str, int]]] = {}
    for table_id, position, registration_id in (
        Seat.objects.filter(series__tournament=tournament)
        .order_by("position")
        .values_list("table_id", "position", "registration_id")
    ):
        seats.setdefault(table_id, []).append(
            {"position": position, "start_number": start_numbers[registration_id]}
        )
    sheets = {
        s.table_id: s for s in ScoreSheet.objects.filter(table__series__tournament=tournament)
    }
    games: dict[int, list[dict[str, Any]]] = {}
    for table_id, number, dealer, record, winner, value, scores in (
        Game.objects.filter(series__tournament=tournament)
        .order_by("number")
        .values_list("table_id", "number", "dealer", "record", "winner", "value", "scores")
    ):
        games.setdefault(table_id, []).append(
            {
                "number": number,
                "dealer": dealer,
                "record": record,
                "result": {"winner": winner or None, "value": value, "scores": scores},
            }
        )
    deductions: dict[int, list[dict[str, Any]]] = {}
    for series_id, registration_id, points, reason in (
        Deduction.objects.filter(series__tournament=tournament)
        .order_by("created_at", "pk")
        .values_list("series_id", "registration_id", "points", "reason")
    ):
        deductions.setdefault(series_id, []).append(
            {"start_number": start_numbers[registration_id], "points": points, "reason": reason}
        )

    def sheet_json(table: Table) -> dict[str, Any]:
        sheet = sheets.get(table.pk)
        if sheet is None:
            return {"status": "open", "mode": tournament.entry_mode, "timeout": False,
                    "closed_unconfirmed": False}  # fmt: skip
        return {
            "status": sheet.status,
            "mode": sheet.mode,
            "timeout": sheet.timeout,
            "closed_unconfirmed": sheet.closed_unconfirmed,
        }

    archive = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "source": {"site": settings.SITE_URL, "slug": tournament.slug},
        "tournament": _tournament(tournament),
        "players": players,
        "registrations": [
            {
                "start_number": r.start_number,
                "player": player_ids[r.player_id],
                "checked_in": r.checked_in,
                "withdrawn_from_series": r.withdrawn_from_series,
            }
            for r in registrations
        ],
        "series": [
            {
                "number": s.number,
                "status": s.status,
                "starts_at": _time(s.starts_at),
                "closed_at": _time(s.closed_at),
                "draw_mode": s.draw_mode,
                "repeats": s.repeats,
                "tables": [
                    {
                        "number": table.number,
                        "seats": seats.get(table.pk, []),
                        "sheet": sheet_json(table),
                        "games": games.get(table.pk, []),
                    }
                    for table in tables.get(s.pk, [])
                ],
                "deductions": deductions.get(s.pk, []),
            }
            for s in series_list
        ],
    }
    for part in archive_parts():
        archive[part.key] = part.export(tournament, start_numbers)
    archive["audit"] = _audit(tournament)
    return archive
