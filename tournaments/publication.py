"""The one place that decides how a player's name is published (design decision 13, DSGVO):
every page, document, export and archive outside the registry asks ``shown_name``; only the
registry's keeper (the tournament's organizers on their own pages and sheets) sees the
full name.

Two things decide: the player's consent (``Player.name_form``, with a minor anonymous
unless his guardian consented — the database enforces it) and the club's retention period
(``Club.publication_years``): the public pages of a tournament that ended longer ago show
every player anonymized. Both are decided when the page is read, so a change of consent or
of the period applies at once everywhere (stored documents are made again,
``tournaments.services.privacy``)."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable

from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import NameForm, Registration, Tournament
from tournaments.names import FULL, public_name


def anonymous_label(start_number: int | None) -> str:
    """The neutral label of an anonymous player: his start number where there is one."""
    if start_number:
        return _("Player %(number)s") % {"number": start_number}
    return _("Player")


class AnonymousLabels:
    """``anonymous_label`` for the many players of one page, both labels translated once (a
    translation lookup costs more than the rest of a standings line)."""

    __slots__ = ("numbered", "plain")

    def __init__(self) -> None:
        self.numbered, self.plain = _("Player %(number)s"), _("Player")

    def __call__(self, start_number: int | None) -> str:
        return self.numbered % {"number": start_number} if start_number else self.plain


def retention_ends(tournament: Tournament) -> datetime.date | None:
    """The day from which the tournament's public pages show everyone anonymized, None if
    its club publishes for ever (0 years) or it has no club."""
    club = tournament.club if tournament.club_id else None
    years = club.publication_years if club is not None else 0
    if not years:
        return None
    return _years_after(tournament.ends_on or tournament.starts_on, years)


def _years_after(day: datetime.date, years: int) -> datetime.date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February
        return day.replace(year=day.year + years, day=28)


def retention_expired(tournament: Tournament, today: datetime.date | None = None) -> bool:
    """The tournament's publication period is over (``retention_ends``). A period lasts a
    year at least, so a tournament of the last year needs no look at its club (a running
    tournament's pages ask this on every read)."""
    today = today or timezone.localdate()
    last_day = tournament.ends_on or tournament.starts_on
    if today < _years_after(last_day, 1):
        return False
    ends = retention_ends(tournament)
    return ends is not None and today >= ends


def shown_name(
    first: str,
    last: str,
    name_form: str,
    start_number: int | None = None,
    *,
    keeper: bool = False,
    expired: bool = False,
    labels: Callable[[int | None], str] = anonymous_label,
) -> str:
    """The name as the viewer may see it: in full for the registry's ``keeper``, else as
    the consent allows, anonymous once the tournament's publication period ``expired``
    (``labels``: an ``AnonymousLabels`` where a page shows many players)."""
    if keeper and (first or last):  # an anonymized player has no name even for him
        return f"{first} {last}".strip()
    form = NameForm.ANONYMOUS.value if expired else name_form
    # public_name gives the label only where it gives no name, so an empty label asks
    # for it (and its translation) only where it is shown
    return public_name(first, last, form, anonymous_label="") or labels(start_number)


def shown_names(
    firsts: Iterable[str],
    lasts: Iterable[str],
    name_forms: Iterable[str],
    start_numbers: Iterable[int | None],
    *,
    keeper: bool = False,
    expired: bool = False,
    labels: Callable[[int | None], str] = anonymous_label,
) -> list[str]:
    """``shown_name`` of many players, given column by column, for a table of thousands:
    the common case (a full name the viewer may see) is formed here in one expression, a
    call per player cost as much as the rest of a standings line; every other case is
    ``shown_name``'s."""
    people = zip(firsts, lasts, name_forms, start_numbers, strict=True)
    if keeper:
        return [
            f"{first} {last}".strip()
            if first or last
            else shown_name(first, last, form, number, keeper=True, labels=labels)
            for first, last, form, number in people
        ]
    if expired:
        return [shown_name(f, la, fo, n, expired=True, labels=labels) for f, la, fo, n in people]
    return [
        f"{first.strip()} {last.strip()}".strip() or labels(number)
        if form == FULL
        else shown_name(first, last, form, number, labels=labels)
        for first, last, form, number in people
    ]


def registration_name(
    registration: Registration, *, keeper: bool = False, tournament: Tournament | None = None
) -> str:
    """The published name of a registered player (his consent, his tournament's period;
    ``tournament``: his tournament as the caller has it already, read once)."""
    player = registration.player
    expired = not keeper and retention_expired(tournament or registration.tournament)
    return shown_name(
        player.first_name,
        player.last_name,
        player.name_form,
        registration.start_number,
        keeper=keeper,
        expired=expired,
    )


def expired_tournaments(today: datetime.date | None = None) -> list[Tournament]:
    """The tournaments whose public pages show everyone anonymized today (their clubs'
    publication periods are over), oldest first."""
    today = today or timezone.localdate()
    candidates = (
        Tournament.objects.filter(club__publication_years__gt=0)
        .select_related("club")
        .order_by("starts_on", "pk")
    )
    return [t for t in candidates if retention_expired(t, today)]
