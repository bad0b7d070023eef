"""A squad's edges: finding players of the registry of the league's club, a player new to
the registry put straight into a squad (one transaction: no orphan player when the squad
refuses him), and a pasted list of players (or a spreadsheet's / CSV file's lines) added all
at once."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from common.actors import Actor
from common.services import ServiceError
from teams.models import League, SquadMember, Team
from teams.permissions import squad_candidates
from teams.services import add_squad_member
from tournaments.models import Player
from tournaments.names import by_name, found, search_words

SEARCH_MAX_LENGTH = 80
SEARCH_LIMIT = 20


def search_candidates(league: League, text: str) -> list[Player]:
    """Players of the registry of the league's club whose name or club contains every word
    of ``text``, not yet in a squad of the league (at most ``SEARCH_LIMIT``)."""
    candidates = squad_candidates(league).exclude(
        pk__in=SquadMember.objects.filter(league=league).values("player_id")
    )
    words = search_words(text)
    return by_name(
        p for p in candidates.order_by("pk") if found(words, p.first_name, p.last_name, p.club)
    )[:SEARCH_LIMIT]


@transaction.atomic
def add_new_player(
    team: Team, first_name: str, last_name: str, club: str, *, actor: Actor
) -> SquadMember:
    """A new player of the registry of the league's club, in ``team``'s squad."""
    first_name, last_name = first_name.strip(), last_name.strip()
    if not first_name or not last_name:
        raise ServiceError(
            "name_required", _("Give the first and the last name."), field="last_name"
        )
    league = team.league
    player = Player.objects.create(
        registry_club_id=league.club_id, owner_id=actor.user.pk, first_name=first_name,
        last_name=last_name, club=club.strip(),
    )  # fmt: skip
    return add_squad_member(team, player, actor=actor)


#: A pasted squad list: at most this many lines, each at most this long.
LIST_MAX_LINES = 100
LINE_MAX_LENGTH = 200
#: A first field that names the column, not a player: a spreadsheet's header line.
HEADER_WORDS = {"vorname", "first name", "first_name", "firstname", "given name"}


@dataclass(frozen=True)
class ListedPlayer:
    """One line of a pasted squad list: its number (1, 2, …) and the player it names."""

    line: int
    first_name: str
    last_name: str
    club: str


def parse_squad_list(text: str) -> tuple[list[ListedPlayer], dict[int, str]]:
    """The players of a pasted list and, per line number, why a line cannot be read.

    One player a line: "First Last" or "First Last, Club" (the last word is the last name),
    or fields separated by tabs or semicolons as a spreadsheet or a CSV file gives them:
    "First; Last; Club". Empty lines are skipped."""
    listed: list[ListedPlayer] = []
    errors: dict[int, str] = {}
    lines = text.splitlines()
    if len([line for line in lines if line.strip()]) > LIST_MAX_LINES:
        errors[0] = _("At most %(n)d players at once.") % {"n": LIST_MAX_LINES}
        return [], errors
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        if len(line) > LINE_MAX_LENGTH:
            errors[number] = _("The line is too long (at most %(n)d characters).") % {
                "n": LINE_MAX_LENGTH
            }
            continue
        if "\t" in line or ";" in line:
            fields = [f.strip() for f in re.split(r"[\t;]", line)]
            first, last, club = [*fields, "", ""][:3]
            if first.casefold() in HEADER_WORDS and not listed and not errors:
                continue  # a spreadsheet's header line
            if len(fields) > 3 and any(fields[3:]):
                errors[number] = _("Give first name, last name and club, nothing more.")
                continue
        else:
            name, _sep, club = line.partition(",")
            words = name.split()
            first, last = " ".join(words[:-1]), words[-1] if words else ""
        if not first or not last:
            errors[number] = _("Give the first and the last name.")
            continue
        if len(first) > 80 or len(last) > 80 or len(club.strip()) > 120:
            errors[number] = _("A name is too long.")
            continue
        listed.append(ListedPlayer(number, first, last, club.strip()))
    return listed, errors


@transaction.atomic
def add_squad_list(team: Team, text: str, *, actor: Actor) -> list[SquadMember]:
    """Every player of a pasted list (``parse_squad_list``) into ``team``'s squad, all or
    nothing: a player of the registry of the league's club with that name (first and last name, case
    ignored), or a new one of the registry. Refused with the reason of every line that
    cannot be taken (``data["lines"]``: line number → message; 0: the whole list), so the
    page shows them next to the field and keeps the text."""
    listed, errors = parse_squad_list(text)
    if not listed and not errors:
        errors[0] = _("Paste at least one player, one a line.")
    league = team.league
    taken = {
        member.player_id: member.team
        for member in SquadMember.objects.filter(league=league).select_related("team")
    }
    seen: dict[tuple[str, str], int] = {}
    chosen: list[tuple[ListedPlayer, Player | None]] = []
    for entry in listed:
        key = (entry.first_name.casefold(), entry.last_name.casefold())
        if key in seen:
            errors[entry.line] = _("Named twice (line %(n)d).") % {"n": seen[key]}
            continue
        seen[key] = entry.line
        found = list(
            squad_candidates(league).filter(
                first_name__iexact=entry.first_name, last_name__iexact=entry.last_name
            )[:2]
        )
        if len(found) > 1:
            errors[entry.line] = _(
                "Your registry has several players of this name: add this one by the search."
            )
            continue
        if found and found[0].pk in taken:
            errors[entry.line] = _("%(player)s already plays for %(team)s in this competition.") % {
                "player": found[0],
                "team": taken[found[0].pk],
            }
            continue
        chosen.append((entry, found[0] if found else None))
    members: list[SquadMember] = []
    if not errors:
        for entry, player in chosen:
            if player is None:
                player = Player.objects.create(
                    registry_club_id=league.club_id,
                    owner_id=actor.user.pk,
                    first_name=entry.first_name,
                    last_name=entry.last_name,
                    club=entry.club,
                )
            try:
                members.append(add_squad_member(team, player, actor=actor))
            except ServiceError as exc:
                errors[entry.line] = str(exc.message)
    if errors:
        # Raised inside the transaction: nothing of the list is kept.
        lines = sorted(errors.items())
        raise ServiceError(
            "squad_list_invalid",
            "; ".join(
                (_("line %(n)d: %(message)s") % {"n": n, "message": m}) if n else str(m)
                for n, m in lines
            ),
            field="players",
            data={"lines": {str(n): str(m) for n, m in lines}},
        )
    return members
