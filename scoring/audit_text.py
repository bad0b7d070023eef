"""People's words for the change log (German and English).

The services record every change as an ``AuditEntry`` with a dotted action code
(``scoring.game.corrected``), the door it came through (``via``) and the data before and
after, as stored JSON. This module is the one place that turns those into words for the
organizer's change log: the actor ("Captain table 5 (seat 2)") and the details as short
translated key/value lines with the players' names. The label of each action code comes
from ``common.changelog``, where every app registers its own codes; a test checks that
every action code written anywhere in the code base has one.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from common.changelog import ActionKind, action_label
from rules.stored import StoredGame
from scoring.labels import game_label
from scoring.models import AuditEntry, ScoreSheet
from tournaments.models import Registration, Seat

#: The results' action codes and their words, registered in ``ScoringConfig.ready`` (the
#: apps above register theirs in their own ``ready``: ``common.changelog``).
SCORING_ACTIONS: dict[str, ActionKind] = {
    "scoring.game.created": ActionKind("game-entered", gettext_lazy("Game entered")),
    "scoring.game.corrected": ActionKind("game-corrected", gettext_lazy("Game corrected")),
    "scoring.game.deleted": ActionKind("game-deleted", gettext_lazy("Game deleted")),
    "scoring.sheet.submitted": ActionKind("sheet-submitted", gettext_lazy("Sheet submitted")),
    "scoring.sheet.confirmed": ActionKind("sheet-confirmed", gettext_lazy("Sheet confirmed")),
    "scoring.sheet.reopened": ActionKind("sheet-reopened", gettext_lazy("Sheet reopened")),
    "scoring.sheet.timeout": ActionKind("time-out", gettext_lazy("Time-out")),
    "scoring.sheet.closed_unconfirmed": ActionKind(
        "closed-unconfirmed", gettext_lazy("Sheet closed without confirmation")
    ),
    "scoring.penalty.created": ActionKind("penalty", gettext_lazy("Deduction (TSR 9.7)")),
    "scoring.clock.extended": ActionKind("extension", gettext_lazy("Nachspielzeit granted")),
    "scoring.clock.paused": ActionKind("clock-paused", gettext_lazy("Clock paused")),
    "scoring.clock.resumed": ActionKind("clock-resumed", gettext_lazy("Clock resumed")),
    "scoring.series.closed_with_pending": ActionKind(
        "closed-pending", gettext_lazy("Closed with games not yet sent by the phone")
    ),
    "scoring.outbox.conflict": ActionKind("outbox-conflict", gettext_lazy("Phone's game kept")),
    "scoring.outbox.resolved": ActionKind(
        "outbox-resolved", gettext_lazy("Phone's kept game resolved")
    ),
    "scoring.handover.refused": ActionKind(
        "handover-refused", gettext_lazy("Hand-over code refused")
    ),
    "scoring.referee.called": ActionKind("referee-called", gettext_lazy("Referee called")),
    "scoring.referee.taken": ActionKind("referee-taken", gettext_lazy("Referee call taken")),
    "scoring.referee.ruled": ActionKind("referee-ruled", gettext_lazy("Referee's ruling")),
    "scoring.referee.withdrawn": ActionKind(
        "referee-withdrawn", gettext_lazy("Referee call withdrawn")
    ),
}

#: Changes of a whole series, recorded without a table: the series is in their data.
SERIES_ACTIONS = (
    "scoring.penalty.created",
    "scoring.clock.paused",
    "scoring.clock.resumed",
    "scoring.handover.refused",
)


@dataclass(frozen=True)
class Detail:
    label: str
    value: str


@dataclass(frozen=True)
class AuditLine:
    """One change log entry as the page shows it."""

    when: datetime.datetime
    label: str
    actor: str
    series: int | None = None
    table: int | None = None
    game: int | None = None
    reason: str = ""
    details: list[Detail] = field(default_factory=list)


# --- the actor -------------------------------------------------------------------------

_CAPTAIN = re.compile(r"^captain link table (?P<table>\d+|None)(?:, seat (?P<seat>\d+))?$")


def describe_actor(
    via: str, username: str | None, seat_names: Mapping[int, str] | None = None
) -> str:
    """Who made the change, from the stored door text ("captain link table 5, seat 2",
    "organizer demo", "api demo") and the account."""
    seat_names = seat_names or {}
    captain = _CAPTAIN.match(via)
    if captain:
        table, seat = captain["table"], captain["seat"]
        if table == "None":
            return _("Captain")
        if seat is None:
            return _("Captain table %(table)s") % {"table": table}
        name = seat_names.get(int(seat))
        if name:
            return _("Captain table %(table)s (seat %(seat)s: %(name)s)") % {
                "table": table,
                "seat": seat,
                "name": name,
            }
        return _("Captain table %(table)s (seat %(seat)s)") % {"table": table, "seat": seat}
    if via == "team captain link":
        return _("Team captain")
    door, _sep, rest = via.partition(" ")
    name = username or (rest if rest and rest != "?" else "")
    if door == "organizer":
        return _("Organizer %(name)s") % {"name": name} if name else _("Organizer")
    if door == "api":
        return _("API (%(name)s)") % {"name": name} if name else _("API")
    if door == "referee":
        return _("Referee %(name)s") % {"name": name} if name else _("Referee")
    return via


# --- values ----------------------------------------------------------------------------

ARROW = " → "


def signed(value: Any) -> str:
    if not isinstance(value, int) or isinstance(value, bool):
        return "–"
    return f"{value:+d}" if value else "0"


def seat_name(seat: Any, seat_names: Mapping[int, str]) -> str:
    try:
        number = int(seat)
    except (TypeError, ValueError):
        return str(seat)
    return seat_names.get(number) or _("seat %(seat)s") % {"seat": number}


def game_type(record: StoredGame) -> str:
    if record.not_played:
        return _("not played")
    if record.contract is None:  # a transcribed row knows only who played a solo
        return _("Solo") if record.marked_soloist else ""
    text = game_label(record)
    if record.forced:
        text = f"{text}, {_('forced solo')}"
    elif record.compulsory:
        text = f"{text}, {_('compulsory solo')}"
    return text


def re_party(record: StoredGame, seat_names: Mapping[int, str]) -> str:
    seats = record.re
    if not seats and record.marked_soloist:  # a transcribed row names no parties
        seats = (record.marked_soloist,)
    return ", ".join(seat_name(s, seat_names) for s in seats)


def winner(game: Mapping[str, Any], solo: bool) -> str:
    names = {"re": _("soloist") if solo else "Re", "kontra": "Kontra"}
    return names.get(game.get("winner") or "", _("nobody"))


def points(scores: Any, seat_names: Mapping[int, str], sitting_out: Any = None) -> str:
    """The players' points in seat order; the dealer who sat out is left out."""
    if not isinstance(scores, Mapping):
        return ""
    return ", ".join(
        f"{seat_name(seat, seat_names)} {signed(value)}"
        for seat, value in sorted(scores.items(), key=lambda item: _seat_key(item[0]))
        if sitting_out is None or _seat_key(seat) != _seat_key(sitting_out)
    )


def _seat_key(seat: Any) -> int:
    try:
        return int(seat)
    except (TypeError, ValueError):
        return 0


def plain(value: Any) -> str:
    """Any stored value as text, never a Python repr."""
    if value is None or value == "":
        return "–"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, Mapping):
        return ", ".join(f"{k}: {plain(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(plain(v) for v in value)
    return str(value)


# --- details per action ----------------------------------------------------------------


def _game_facts(game: Mapping[str, Any], seat_names: Mapping[int, str]) -> list[Detail]:
    record = StoredGame.from_record(game.get("record"))
    solo, entered = record.is_solo, record.contract is not None  # not a transcribed row
    facts = [
        Detail(_("game type"), game_type(record)),
        Detail(_("soloist") if solo else _("Re party"), re_party(record, seat_names)),
        Detail(_("card points of Re"), plain(record.re_augen) if entered else ""),
        Detail(_("winner"), winner(game, solo) if entered else ""),
        Detail(_("value"), _value(game.get("value")) if entered else ""),
        Detail(_("points"), points(game.get("scores"), seat_names, record.sitting_out)),
    ]
    return [d for d in facts if d.value]


def _value(value: Any) -> str:
    """The game's value as the sheet, the CSV export and the PDF show it: from Re's side,
    negative when Kontra (or the soloist's opponents) won."""
    return plain(value)


def _compare(
    before: Mapping[str, Any], after: Mapping[str, Any], seat_names: Mapping[int, str]
) -> list[Detail]:
    """The facts of a corrected game that changed, old → new."""
    old = {d.label: d.value for d in _game_facts(before, seat_names)}
    new = {d.label: d.value for d in _game_facts(after, seat_names)}
    changed = []
    for label in [*new, *(k for k in old if k not in new)]:
        if label == _("points"):
            continue
        if old.get(label, "–") != new.get(label, "–"):
            changed.append(Detail(label, f"{old.get(label, '–')}{ARROW}{new.get(label, '–')}"))
    old_scores, new_scores = before.get("scores") or {}, after.get("scores") or {}
    if isinstance(old_scores, Mapping) and isinstance(new_scores, Mapping):
        moves = [
            f"{seat_name(seat, seat_names)} {signed(old_scores.get(seat))}{ARROW}"
            f"{signed(new_scores.get(seat))}"
            for seat in sorted({*old_scores, *new_scores}, key=_seat_key)
            if old_scores.get(seat) != new_scores.get(seat)
        ]
        if moves:
            changed.append(Detail(_("points"), ", ".join(moves)))
    return changed or [Detail(_("result"), _("unchanged"))]


def _status(value: Any) -> str:
    try:
        return str(ScoreSheet.Status(value).label)
    except ValueError:
        return plain(value)


def _seat_detail(data: Any, seat_names: Mapping[int, str]) -> list[Detail]:
    seat = data.get("seat") if isinstance(data, Mapping) else None
    if seat is None:
        return []
    name = seat_names.get(_seat_key(seat))
    text = (
        _("%(name)s (seat %(seat)s)") % {"name": name, "seat": seat}
        if name
        else _("seat %(seat)s") % {"seat": seat}
    )
    return [Detail(_("by"), text)]


def _generic(before: Any, after: Any) -> list[Detail]:
    """Unknown data: readable key/value text, never a repr."""
    lines = []
    old = before if isinstance(before, Mapping) else {}
    new = after if isinstance(after, Mapping) else {}
    for key in [*new, *(k for k in old if k not in new)]:
        if key in old and key in new and old[key] != new[key]:
            lines.append(Detail(str(key), f"{plain(old[key])}{ARROW}{plain(new[key])}"))
        else:
            lines.append(Detail(str(key), plain(new.get(key, old.get(key)))))
    return lines


def describe_details(
    action: str,
    before: Any,
    after: Any,
    seat_names: Mapping[int, str],
    player_names: Mapping[int, str],
) -> list[Detail]:
    """The stored before/after of one entry as short labelled lines."""
    old = before if isinstance(before, Mapping) else {}
    new = after if isinstance(after, Mapping) else {}
    if action == "scoring.game.created":
        return _game_facts(new, seat_names)
    if action == "scoring.game.corrected":
        return _compare(old, new, seat_names)
    if action == "scoring.game.deleted":
        return _game_facts(old, seat_names)
    if action in ("scoring.sheet.submitted", "scoring.sheet.confirmed"):
        return _seat_detail(new, seat_names)
    if action == "scoring.sheet.reopened":
        return [
            Detail(_("sheet"), f"{_status(old.get('status'))}{ARROW}{_status(new.get('status'))}")
        ]
    if action == "scoring.sheet.timeout":
        return [Detail(_("time-out"), _("called") if new.get("timeout") else _("withdrawn"))]
    if action == "scoring.sheet.closed_unconfirmed":
        return [Detail(_("sheet was"), _status(old.get("status")))]
    if action == "scoring.clock.extended":
        minutes = new.get("minutes")
        if not isinstance(minutes, int) or isinstance(minutes, bool):
            return _generic(before, after)
        text = ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}
        return [Detail(_("extra time"), f"+{text}")]
    if action in ("scoring.clock.paused", "scoring.clock.resumed"):
        return []  # when is the entry's own time; why is its reason
    if action == "scoring.penalty.created":
        registration = new.get("registration")
        name = player_names.get(registration) if isinstance(registration, int) else None
        return [
            Detail(_("player"), name or plain(registration)),
            Detail(_("points"), signed(new.get("points"))),
        ]
    if action.startswith("scoring.referee."):
        return _referee_details(action, new)
    return _generic(before, after)


def _referee_details(action: str, new: Mapping[str, Any]) -> list[Detail]:
    """A referee call's step: the ruling, its verdict on the game and the extra time (the
    call's reason is the entry's reason)."""
    if action != "scoring.referee.ruled":
        return []
    lines = [Detail(_("ruling"), plain(new.get("ruling")))]
    verdict = new.get("verdict")
    if verdict == "confirmed":
        lines.append(Detail(_("game"), _("confirmed")))
    elif verdict == "corrected":
        lines.append(Detail(_("game"), _("corrected")))
    minutes = new.get("minutes")
    if isinstance(minutes, int) and not isinstance(minutes, bool) and minutes > 0:
        text = ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}
        lines.append(Detail(_("extra time"), f"+{text}"))
    if isinstance(new.get("deduction"), int):
        lines.append(Detail(_("deduction"), signed(new.get("deduction"))))
    return lines


# --- loading ---------------------------------------------------------------------------


def describe_entries(entries: Sequence[AuditEntry]) -> list[AuditLine]:
    """The page's lines; two queries for the names whatever the number of entries (the
    entries come with ``table__series`` and ``user``)."""
    table_ids = {e.table_id for e in entries if e.table_id}
    seat_names: dict[int, dict[int, str]] = {}
    for seat in Seat.objects.filter(table_id__in=table_ids).select_related("registration__player"):
        seat_names.setdefault(seat.table_id, {})[seat.position] = str(seat.registration.player)
    registration_ids = set(_registrations(entries))
    player_names = {
        r.pk: str(r.player)
        for r in Registration.objects.filter(pk__in=registration_ids).select_related("player")
    }
    lines = []
    for entry in entries:
        names = seat_names.get(entry.table_id or 0, {})
        after = entry.after if isinstance(entry.after, Mapping) else {}
        series = entry.table.series.number if entry.table else after.get("series")
        lines.append(
            AuditLine(
                when=entry.created_at,
                label=action_label(entry.action),
                actor=describe_actor(
                    entry.via, entry.user.get_username() if entry.user else None, names
                ),
                series=series if isinstance(series, int) else None,
                table=entry.table.number if entry.table else None,
                game=entry.game_number,
                reason=entry.reason,
                details=describe_details(
                    entry.action, entry.before, entry.after, names, player_names
                ),
            )
        )
    return lines


def _registrations(entries: Iterable[AuditEntry]) -> Iterable[int]:
    for entry in entries:
        if isinstance(entry.after, Mapping) and isinstance(entry.after.get("registration"), int):
            yield entry.after["registration"]
