"""The persona matrix over every route of the URL configuration.

The routes are read from the resolver, not listed by hand: a new route without an entry in
``EXPECT`` fails ``test_every_route_has_an_expectation``. Each route is requested with each
of its methods by four personas (design.md, style.md):

* ``owner``: Alice, organizer of the tournament (API token; session for the pages), the
  owner of the club that owns it, its season and its league;
* ``other``: Bob, organizer of another tournament, the owner of another club;
* ``cashier`` and ``referee``: Carla and Rudi, members of Alice's club with these roles:
  they keep nothing of it, so they get what Bob gets (``EXPECT`` names them only where
  they differ: the club's own pages, and the fee pages, where Carla works like Alice);
* ``captain``: the captain of table 2 (``Authorization: Table <token>``; on the pages he has
  no account, only his own table's link);
* ``anonymous``: no credentials.

Path parameters come from the fixtures (Alice's public tournament ``herbst``, series 1
running, table 1 with one game). A link is a credential: Alice and the captain use the links
they were given; everybody else can only guess one. Besides the status, no response to
anyone but the owner may contain a player's e-mail address or DDV number.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from rest_framework.test import APIClient

from archive.models import ArchiveImport
from cashbox.models import Booking
from cashbox.services import BookingData, book
from clubs.invitations import invite
from clubs.models import Membership
from common.actors import ORGANIZER, Actor
from documents.models import GeneratedDocument
from evenings import services as evening_services
from evenings.models import Evening
from scoring.models import RefereeCall
from seasons.services import SeasonData, attach_tournament, create_season
from teams.models import Group, Team
from teams.services import LeagueData, add_team, create_league, make_match_days
from tests.factories import api_client, build_world, make_tournament, make_user, page_client, play
from tournaments.models import Player, Registration, Table, Tournament

PERSONAS = ("owner", "other", "cashier", "referee", "captain", "anonymous")
#: Members of Alice's club whose role keeps nothing: expected like ``other`` unless named.
LIKE_OTHER = ("cashier", "referee")
WRITES = ("post", "put", "patch", "delete")


@dataclass(frozen=True)
class Route:
    name: str  # namespaced
    methods: tuple[str, ...]
    params: tuple[str, ...]


def _methods(callback: Any) -> tuple[str, ...]:
    actions = getattr(callback, "actions", None)
    if actions:
        return tuple(m for m in ("get", *WRITES) if m in actions)
    cls = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
    if cls is not None:
        allowed = cls.http_method_names
        return tuple(m for m in ("get", *WRITES) if hasattr(cls, m) and m in allowed)
    return FUNCTION_METHODS[callback.__name__]


FUNCTION_METHODS = {"healthz": ("get",), "set_language": ("post",), "not_found": ("get", "post")}


def _walk(patterns: list[Any], namespace: str = "") -> Iterator[Route]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue  # Django's admin: staff only, its own permission system
            inner = pattern.namespace or ""
            name = f"{namespace}:{inner}" if namespace and inner else namespace or inner
            yield from _walk(pattern.url_patterns, name)
        elif isinstance(pattern, URLPattern) and pattern.name:
            full = f"{namespace}:{pattern.name}" if namespace else pattern.name
            params = tuple(pattern.pattern.regex.groupindex)
            yield Route(full, _methods(pattern.callback), params)


def routes() -> list[Route]:
    found: dict[str, Route] = {}
    for route in _walk(get_resolver().url_patterns):
        found.setdefault(route.name, route)  # the same name twice: the first one resolves
    return sorted(found.values(), key=lambda r: r.name)


# Expectations: per route, per persona, the statuses of GET and of the writes.
# "login" is a redirect to the login page.
OK = {200}
OWNER_WRITE = "owner-write"  # any answer to the owner's (empty) input but a refusal or a 5xx
REACHED = "reached"  # the page, or its redirect to where the sheet continues (not the login)
API_REFUSED = {401, 403}
OTHER_REFUSED = {403, 404}
GUESS = {404}

ORGANIZER_PAGE = {
    "owner": (REACHED, OWNER_WRITE),
    "other": ({403}, {403}),
    "captain": ("login", "login"),
    "anonymous": ("login", "login"),
}
ORGANIZER_API = {
    "owner": (OK, OWNER_WRITE),
    "other": ({403}, {403}),
    "captain": ({401}, {401}),
    "anonymous": ({401}, {401}),
}
FEE_PAGE = {**ORGANIZER_PAGE, "cashier": (REACHED, OWNER_WRITE)}
FEE_API = {  # the fees are private: they do not exist for anybody else signed in
    "owner": (OK, OWNER_WRITE),
    "cashier": (OK, OWNER_WRITE),
    "other": ({404}, {404}),
    "captain": ({401}, {401}),
    "anonymous": ({401}, {401}),
}
REFEREE_API = {**FEE_API, "referee": FEE_API["cashier"], "cashier": FEE_API["other"]}
CAPTAIN_ONLY_API = {  # the captain's token, nothing else
    "owner": ({401}, {401}),
    "other": ({401}, {401}),
    "captain": (OK, OWNER_WRITE),
    "anonymous": ({401}, {401}),
}
PUBLIC_READ_API = {  # GET for everybody (public tournament), changes for the organizers
    "owner": (OK, OWNER_WRITE),
    "other": (OK, {403}),
    "captain": (OK, {401}),
    "anonymous": (OK, {401}),
}
TABLE_API = {  # results of table 1: the captain of table 2 may not change them
    "owner": (OK, OWNER_WRITE),
    "other": (OK, {403}),
    "captain": (OK, {403}),
    "anonymous": (OK, {401}),
}
PUBLIC_PAGE = {p: (OK, {405}) for p in PERSONAS}
CAPTAIN_LINK = {  # the owner knows every link, the captain his own; the others guess
    "owner": (REACHED, OWNER_WRITE),
    "other": (GUESS, GUESS),
    "captain": (REACHED, OWNER_WRITE),
    "anonymous": (GUESS, GUESS),
}

CASHBOX_PAGE = {  # a club's cash box: Bob is no member, it does not exist for him
    "owner": (OK, OWNER_WRITE),
    "cashier": (OK, OWNER_WRITE),
    "referee": ({403}, {403}),
    "other": ({404}, {404}),
    "captain": ("login", "login"),
    "anonymous": ("login", "login"),
}

CLUB_API = {  # a club's changes: its owners; other members 403, outsiders 404
    "owner": (OK, OWNER_WRITE),
    "cashier": ({403}, {403}),
    "referee": ({403}, {403}),
    "other": ({404}, {404}),
    "captain": ({401}, {401}),
    "anonymous": ({401}, {401}),
}

EVENING_PAGE = {  # a club's evenings: its owners and organizers; other members 403, Bob 404
    **CASHBOX_PAGE,
    "owner": (REACHED, OWNER_WRITE),
    "cashier": ({403}, {403}),
}
EVENING_TABLE = {  # an evening table's link: Alice knows it; everybody else guesses one
    "owner": (REACHED, OWNER_WRITE),
    "other": (GUESS, GUESS),
    "captain": (GUESS, GUESS),
    "anonymous": (GUESS, GUESS),
}

EXPECT: dict[str, dict[str, tuple[Any, Any]]] = {
    # Clubs: a user's clubs; a club's page for its members, its changes for its owners
    "clubs:mine": {
        "owner": (OK, set()),
        "other": (OK, set()),
        "captain": ("login", set()),
        "anonymous": ("login", set()),
    },
    "clubs:detail": {  # Alice's club: Bob is no member, it does not exist for him
        "owner": (OK, set()),
        "other": ({404}, set()),
        "cashier": (OK, set()),
        "referee": (OK, set()),
        "captain": ("login", set()),
        "anonymous": ("login", set()),
    },
    "clubs:invite": {
        "owner": (set(), OWNER_WRITE),
        "other": (set(), {404}),
        "cashier": (set(), {403}),
        "referee": (set(), {403}),
        "captain": (set(), "login"),
        "anonymous": (set(), "login"),
    },
    "clubs:members": {
        "owner": (set(), OWNER_WRITE),
        "other": (set(), {404}),
        "cashier": (set(), {403}),
        "referee": (set(), {403}),
        "captain": (set(), "login"),
        "anonymous": (set(), "login"),
    },
    "clubs:withdraw-invitation": {  # an open invitation: its owners withdraw it
        "owner": (set(), OWNER_WRITE),
        "other": (set(), {404}),
        "cashier": (set(), {403}),
        "referee": (set(), {403}),
        "captain": (set(), "login"),
        "anonymous": (set(), "login"),
    },
    "clubs:privacy": PUBLIC_PAGE,  # the club's privacy notice (DSGVO)
    "clubs:privacy-edit": {  # its owners only
        "owner": (OK, OWNER_WRITE),
        "other": ({404}, {404}),
        "cashier": ({403}, {403}),
        "referee": ({403}, {403}),
        "captain": ("login", "login"),
        "anonymous": ("login", "login"),
    },
    "clubs:accept": {  # Alice holds a valid link (to her own club); the others guess one
        "owner": (OK, OWNER_WRITE),
        "other": (OK, {302}),
        "captain": ("login", "login"),
        "anonymous": ("login", "login"),
    },
    # The cash box: its keepers (owner, cashier); other members 403, outsiders 404
    "cashbox:ledger": CASHBOX_PAGE,
    "cashbox:export": {p: (read, set()) for p, (read, _write) in CASHBOX_PAGE.items()},
    "cashbox:reverse": CASHBOX_PAGE,
    "cashbox:settlement": {  # every member of the club; nothing is stored
        **CASHBOX_PAGE,
        "referee": (OK, OWNER_WRITE),
    },
    # Evenings: the club's owners and organizers; a table's link; the result of a private group
    "evenings:groups": EVENING_PAGE,
    "evenings:group": EVENING_PAGE,
    "evenings:members": EVENING_PAGE,
    "evenings:evening": EVENING_PAGE,
    "evenings:tables": EVENING_PAGE,
    "evenings:close": EVENING_PAGE,
    # an evening's payments into the cash box: its owners and organizers, and the cashiers
    "evenings:book": {**EVENING_PAGE, "cashier": (REACHED, OWNER_WRITE)},
    "evenings:table": EVENING_TABLE,
    "evenings:undo": EVENING_TABLE,
    "evenings:result": {  # a private group: only its keepers see it, and who books its payments
        "owner": (OK, set()),
        "cashier": (OK, set()),
        "other": (GUESS, set()),
        "captain": (GUESS, set()),
        "anonymous": (GUESS, set()),
    },
    # Everybody
    "landing": {p: (OK, set()) for p in PERSONAS},
    "healthz": {p: ({200, 503}, set()) for p in PERSONAS},
    "set_language": {p: (set(), {302}) for p in PERSONAS},
    "login": {p: (OK, OK) for p in PERSONAS},  # an empty form: the page with its errors
    "logout": {p: (set(), {302}) for p in PERSONAS},
    "api-schema": {p: (OK, set()) for p in PERSONAS},
    "api-docs": {p: (OK, set()) for p in PERSONAS},
    "api:not-found": {p: ({404}, {404}) for p in PERSONAS},
    "api:captain": {
        "owner": ({401}, set()),
        "other": ({401}, set()),
        "captain": (OK, set()),
        "anonymous": ({401}, set()),
    },
    # API: fees and prizes (as the fee pages), referee calls (as the referee pages)
    "api:fee-settings": FEE_API,
    "api:fee-desk": FEE_API,
    "api:fee-booking": FEE_API,
    "api:fee-report": FEE_API,
    "api:prize-table": FEE_API,
    "api:payout-list": FEE_API,
    "api:referee-calls": REFEREE_API,
    "api:referee-call": REFEREE_API,
    "api:referee-call-take": REFEREE_API,
    "api:referee-call-rule": REFEREE_API,  # an empty ruling: 400
    "api:captain-call": CAPTAIN_ONLY_API,  # an empty call: 400
    "api:captain-call-withdraw": {**CAPTAIN_ONLY_API, "captain": (set(), {404})},  # no call
    # API: clubs (as the club's pages): a member's clubs; a club for its members only
    "api:club-list": {
        "owner": (OK, set()),
        "other": (OK, set()),
        "captain": ({401}, set()),
        "anonymous": ({401}, set()),
    },
    "api:club-members": {**CLUB_API, "cashier": (OK, set()), "referee": (OK, set())},
    "api:club-member": CLUB_API,  # Carla's membership: a role without input is 400
    "api:club-hand-over": CLUB_API,
    "api:club-leave": {  # every member may leave; the last owner may not (409)
        **CLUB_API,
        "cashier": (set(), OWNER_WRITE),
        "referee": (set(), OWNER_WRITE),
    },
    "api:club-invitations": CLUB_API,
    "api:club-invitation-withdraw": CLUB_API,
    # API: tournaments and players
    "api:tournament-list": {
        "owner": (OK, OWNER_WRITE),
        "other": (OK, OWNER_WRITE),  # any organizer may create a tournament of his own
        "captain": (OK, {401}),
        "anonymous": (OK, {401}),
    },
    "api:tournament-detail": PUBLIC_READ_API,
    "api:player-list": {
        "owner": (OK, set()),
        "other": (OK, set()),  # his own clubs' registries only (see the leak check)
        "captain": ({401}, set()),
        "anonymous": ({401}, set()),
    },
    "api:player-detail": {
        "owner": (OK, OWNER_WRITE),
        "other": ({404}, {404}),  # another registry's player does not exist for him
        "captain": ({401}, {401}),
        "anonymous": ({401}, {401}),
    },
    "api:player-results": {p: (OK, set()) for p in PERSONAS},  # as public as his page
    "api:player-merge": {  # the keepers of the player's registry (his club's) only
        "owner": (set(), OWNER_WRITE),
        "other": (set(), {404}),
        "captain": (set(), {401}),
        "anonymous": (set(), {401}),
    },
    # API: registrations (organizers only)
    "api:registrations": ORGANIZER_API,
    "api:registration": ORGANIZER_API,
    "api:registration-check-in": ORGANIZER_API,
    "api:registration-withdraw": ORGANIZER_API,
    "api:keep-apart": ORGANIZER_API,
    "api:keep-apart-remove": ORGANIZER_API,
    # API: series and tables
    "api:series-list": PUBLIC_READ_API,
    "api:series-detail": PUBLIC_READ_API,
    "api:series-draw": ORGANIZER_API,
    "api:series-swap": ORGANIZER_API,
    "api:series-start": ORGANIZER_API,
    "api:series-close": ORGANIZER_API,
    "api:series-clock": PUBLIC_READ_API,
    "api:series-clock-pause": ORGANIZER_API,
    "api:series-clock-resume": ORGANIZER_API,
    "api:table-extensions": ORGANIZER_API,
    "api:series-latecomers": {**ORGANIZER_API, "owner": ({200, 409}, OWNER_WRITE)},
    "api:tables": PUBLIC_READ_API,
    "api:table": PUBLIC_READ_API,
    "api:standings": PUBLIC_READ_API,
    "api:series-standings": PUBLIC_READ_API,
    # API: results of a table
    "api:games": TABLE_API,
    "api:game": TABLE_API,
    "api:sheet": TABLE_API,
    "api:sheet-submit": TABLE_API,
    "api:sheet-confirm": TABLE_API,
    # API: seasons (public ones for everybody, changed by their owner)
    "api:season-list": {
        "owner": (OK, OWNER_WRITE),
        "other": (OK, OWNER_WRITE),  # any organizer may create a season of his own
        "captain": (OK, {401}),
        "anonymous": (OK, {401}),
    },
    "api:season-detail": PUBLIC_READ_API,
    "api:season-ranking": {p: (OK, set()) for p in PERSONAS},
    "api:season-line": {p: (OK, set()) for p in PERSONAS},
    "api:season-tournaments": PUBLIC_READ_API,
    "api:season-tournament": ORGANIZER_API,
    # API: team competitions (public ones for everybody, changed by their owner)
    "api:league-list": {
        "owner": (OK, OWNER_WRITE),
        "other": (OK, OWNER_WRITE),  # any organizer may create a league of his own
        "captain": (OK, {401}),
        "anonymous": (OK, {401}),
    },
    "api:league-detail": PUBLIC_READ_API,
    "api:league-table": {p: (OK, set()) for p in PERSONAS},
    "api:league-individual": {p: (OK, set()) for p in PERSONAS},
    "api:league-knockout": {p: (OK, set()) for p in PERSONAS},  # as public as the table
    "api:league-knockout-start": ORGANIZER_API,
    "api:league-knockout-decide": ORGANIZER_API,
    "api:league-knockout-next": ORGANIZER_API,
    "api:league-teams": PUBLIC_READ_API,
    "api:league-team": PUBLIC_READ_API,  # read by all; a team's clubs changed by the owner
    "api:league-line-ups": PUBLIC_READ_API,
    "api:league-match-days": PUBLIC_READ_API,
    # the owner's actions of his pages (``tests/teams/test_api_owner.py`` maps them)
    "api:league-places": ORGANIZER_API,
    "api:league-group-draw": ORGANIZER_API,
    "api:league-candidates": ORGANIZER_API,
    "api:league-squad": ORGANIZER_API,
    "api:league-squad-new": ORGANIZER_API,
    "api:league-squad-list": ORGANIZER_API,
    "api:league-squad-remove": ORGANIZER_API,
    # Team competitions: public pages, the owner's pages
    "teams:list": PUBLIC_PAGE,
    "teams:detail": PUBLIC_PAGE,
    "teams:team": PUBLIC_PAGE,
    "teams:individual": PUBLIC_PAGE,
    "teams:individual-export": PUBLIC_PAGE,  # CSV by default, XLSX with ?format=xlsx
    "teams:bracket": PUBLIC_PAGE,
    "teams:bracket-pdf": PUBLIC_PAGE,  # the bracket page itself before the knockout starts
    "teams:knockout": ORGANIZER_PAGE,
    "teams:mine": {  # any logged-in user: the leagues he keeps
        "owner": (OK, set()),
        "other": (OK, set()),
        "captain": ("login", set()),
        "anonymous": ("login", set()),
    },
    "teams:create": {
        "owner": (OK, OWNER_WRITE),
        "other": (OK, OWNER_WRITE),
        "captain": ("login", "login"),
        "anonymous": ("login", "login"),
    },
    "teams:edit": ORGANIZER_PAGE,
    "teams:teams": ORGANIZER_PAGE,
    "teams:schedule": ORGANIZER_PAGE,
    "teams:group": ORGANIZER_PAGE,
    "teams:captain": {  # the team captain's link: the owner hands it out, the others guess
        "owner": (REACHED, OWNER_WRITE),
        "other": (GUESS, GUESS),
        "captain": (GUESS, GUESS),
        "anonymous": (GUESS, GUESS),
    },
    # Seasons: public pages, the owner's pages
    "seasons:list": PUBLIC_PAGE,
    "seasons:detail": PUBLIC_PAGE,
    "seasons:explanation": PUBLIC_PAGE,  # one line's results, a fragment of the page
    "seasons:season-tournaments": PUBLIC_PAGE,
    "seasons:mine": {  # any logged-in user: the seasons he keeps
        "owner": (OK, set()),
        "other": (OK, set()),
        "captain": ("login", set()),
        "anonymous": ("login", set()),
    },
    "seasons:create": {
        "owner": (OK, OWNER_WRITE),
        "other": (OK, OWNER_WRITE),
        "captain": ("login", "login"),
        "anonymous": ("login", "login"),
    },
    "seasons:edit": ORGANIZER_PAGE,
    "seasons:tournaments": ORGANIZER_PAGE,
    "seasons:ddv-import": ORGANIZER_PAGE,  # the season's owner imports a DDV report
    # A tournament's DDV report: full names and DDV numbers, so for everyone but its
    # organizers it does not exist (404). Alice's tournament does not qualify: the files
    # lead back to the page (302).
    "seasons:ddv-report": {**ORGANIZER_PAGE, "other": ({404}, {404})},
    "seasons:ddv-csv": {**ORGANIZER_PAGE, "other": ({404}, set())},
    "seasons:ddv-xlsx": {**ORGANIZER_PAGE, "other": ({404}, set())},
    "seasons:ddv-pdf": {**ORGANIZER_PAGE, "other": ({404}, set())},
    "seasons:ddv-json": {**ORGANIZER_PAGE, "other": ({404}, set())},
    # Public pages
    "tournaments:list": PUBLIC_PAGE,
    "tournaments:detail": PUBLIC_PAGE,
    "tournaments:series-public": PUBLIC_PAGE,
    "scoring:standings": PUBLIC_PAGE,
    "scoring:series-standings": PUBLIC_PAGE,
    "scoring:player": PUBLIC_PAGE,
    "scoring:statistics": PUBLIC_PAGE,
    "scoring:series-clock": PUBLIC_PAGE,
    "tournaments:self-register": {  # the link the organizer hands out; the others guess
        "owner": (OK, OK),
        "other": (GUESS, GUESS),
        "captain": (GUESS, GUESS),
        "anonymous": (GUESS, GUESS),
    },
    # The captain's link
    "scoring:captain": CAPTAIN_LINK,
    "scoring:captain-game": CAPTAIN_LINK,
    "scoring:captain-correct": CAPTAIN_LINK,
    "scoring:captain-preview": CAPTAIN_LINK,
    "scoring:captain-delete": CAPTAIN_LINK,
    "scoring:captain-submit": CAPTAIN_LINK,
    "scoring:captain-confirm": CAPTAIN_LINK,
    "scoring:captain-clock": CAPTAIN_LINK,
    "scoring:captain-outbox": CAPTAIN_LINK,  # POST only (JSON)
    "scoring:captain-referee": CAPTAIN_LINK,  # the call's box; POST calls or withdraws
    "scoring:captain-sw": PUBLIC_PAGE,  # the service worker of the captain pages
    # Organizer pages
    "tournaments:mine": {  # any logged-in user: the tournaments he organizes
        "owner": (OK, set()),
        "other": (OK, set()),
        "captain": ("login", set()),
        "anonymous": ("login", set()),
    },
    "tournaments:create": {
        "owner": (OK, OWNER_WRITE),
        "other": (OK, OWNER_WRITE),
        "captain": ("login", "login"),
        "anonymous": ("login", "login"),
    },
    "seasons:player": PUBLIC_PAGE,  # his results in public tournaments
    "tournaments:registry": {  # any logged-in user: the registries of his clubs
        "owner": (OK, set()),
        "other": (OK, set()),
        "captain": ("login", set()),
        "anonymous": ("login", set()),
    },
    "tournaments:registry-player": {
        "owner": (OK, OWNER_WRITE),
        "other": ({404}, {404}),  # another registry's player does not exist for him
        "captain": ("login", "login"),
        "anonymous": ("login", "login"),
    },
    "tournaments:registry-player-anonymize": {  # POST only; asks to confirm first
        "owner": (None, OWNER_WRITE),
        "other": (None, {404}),
        "captain": (None, "login"),
        "anonymous": (None, "login"),
    },
    "tournaments:registry-player-consent": {  # POST only; errors next to the field
        "owner": (None, OWNER_WRITE),
        "other": (None, {404}),
        "captain": (None, "login"),
        "anonymous": (None, "login"),
    },
    "archive:player-data": {  # the keepers of the player's registry (his club's) only
        "owner": (OK, {405}),
        "other": ({404}, {405}),
        "captain": ("login", {405}),
        "anonymous": ("login", {405}),
    },
    "tournaments:manage": ORGANIZER_PAGE,
    "tournaments:edit": ORGANIZER_PAGE,
    "tournaments:registrations": ORGANIZER_PAGE,
    "tournaments:registration": ORGANIZER_PAGE,
    "tournaments:import": ORGANIZER_PAGE,
    "tournaments:keep-apart": ORGANIZER_PAGE,
    "tournaments:checkin": ORGANIZER_PAGE,
    "tournaments:checkin-toggle": ORGANIZER_PAGE,
    "tournaments:series": ORGANIZER_PAGE,
    "scoring:sheet": ORGANIZER_PAGE,
    "scoring:sheet-game": ORGANIZER_PAGE,
    "scoring:sheet-correct": ORGANIZER_PAGE,
    "scoring:sheet-preview": ORGANIZER_PAGE,
    "scoring:sheet-delete": ORGANIZER_PAGE,
    "scoring:sheet-submit": ORGANIZER_PAGE,
    "scoring:sheet-confirm": ORGANIZER_PAGE,
    "scoring:sheet-clock": ORGANIZER_PAGE,
    "scoring:sheet-action": ORGANIZER_PAGE,
    "scoring:progress": ORGANIZER_PAGE,
    "scoring:outbox-conflicts": ORGANIZER_PAGE,
    "scoring:outbox-handover": ORGANIZER_PAGE,
    "scoring:audit": ORGANIZER_PAGE,
    "scoring:call-time": ORGANIZER_PAGE,
    "scoring:deductions": ORGANIZER_PAGE,
    # The referee calls: the club's referee handles them like its owners and organizers
    "scoring:referee-calls": {
        "owner": (OK, set()),
        "other": ({403}, set()),
        "referee": (OK, set()),
        "captain": ("login", set()),
        "anonymous": ("login", set()),
    },
    "scoring:referee-correct": {  # the game the open call concerns; an empty form sent back
        "owner": (OK, OWNER_WRITE),
        "other": ({403}, {403}),
        "referee": (OK, OWNER_WRITE),
        "captain": ("login", "login"),
        "anonymous": ("login", "login"),
    },
    "scoring:referee-call": {  # an open call of table 1; an empty ruling is sent back
        "owner": (set(), OWNER_WRITE),
        "other": (set(), {403}),
        "referee": (set(), OWNER_WRITE),
        "captain": (set(), "login"),
        "anonymous": (set(), "login"),
    },
    "scoring:close-series": ORGANIZER_PAGE,
    "scoring:draw-series": ORGANIZER_PAGE,
    "documents:series": ORGANIZER_PAGE,
    "documents:results": ORGANIZER_PAGE,
    "documents:status": ORGANIZER_PAGE,
    "documents:download": ORGANIZER_PAGE,
    # Fees and prizes: the club's owners, organizers and cashiers (Carla); a referee (Rudi)
    # and everybody else get what Bob gets
    "fees:mine": {  # any logged-in user: the tournaments whose fees he handles
        "owner": (OK, set()),
        "other": (OK, set()),
        "captain": ("login", set()),
        "anonymous": ("login", set()),
    },
    "fees:desk": FEE_PAGE,
    "fees:tap": FEE_PAGE,
    "fees:report": FEE_PAGE,
    "fees:fees": FEE_PAGE,
    "fees:prizes": FEE_PAGE,
    "fees:payouts": FEE_PAGE,
    "fees:payouts-csv": FEE_PAGE,  # series 1 runs: back to the page (302), not the file
    "fees:payouts-pdf": FEE_PAGE,
    # The hall display: public, no login; the organizers' page of its announcements
    "hall:display": PUBLIC_PAGE,
    "hall:fragment": PUBLIC_PAGE,
    "hall:manage": ORGANIZER_PAGE,
    # Exports: the standings and the games public like their pages; the archive (with the
    # DDV numbers) for the organizers; any organizer may import an archive as his own
    "archive:standings": PUBLIC_PAGE,
    "archive:series-standings": PUBLIC_PAGE,
    "archive:games": PUBLIC_PAGE,
    "archive:download": ORGANIZER_PAGE,
    "archive:import": {
        "owner": (OK, OWNER_WRITE),
        "other": (OK, OWNER_WRITE),
        "captain": ("login", "login"),
        "anonymous": ("login", "login"),
    },
    # An import is its owner's only (anyone else: 404, as if it did not exist)
    "archive:import-status": {
        "owner": (OK, OWNER_WRITE),
        "other": ({404}, {404}),
        "captain": ("login", "login"),
        "anonymous": ("login", "login"),
    },
    "api:tournament-archive": ORGANIZER_API,
    # Alice's tournament does not qualify: 409 with the reasons.
    "api:tournament-ddv-report": {**ORGANIZER_API, "owner": ({409}, set())},
    "api:archive-import-status": {
        "owner": (OK, set()),
        "other": ({404}, set()),
        "captain": ({401}, set()),
        "anonymous": ({401}, set()),
    },
    "api:archive-import-confirm": {
        "owner": (set(), OWNER_WRITE),
        "other": (set(), {404}),
        "captain": (set(), {401}),
        "anonymous": (set(), {401}),
    },
    "api:archive-import": {
        "owner": (set(), OWNER_WRITE),
        "other": (set(), OWNER_WRITE),
        "captain": (set(), {401}),
        "anonymous": (set(), {401}),
    },
}

EXPLICIT_PATHS = {"api:not-found": "/api/v1/no-such-thing/"}
ROUTES = routes()
CASES = [
    pytest.param(route, persona, method, id=f"{route.name}-{persona}-{method}")
    for route in ROUTES
    if route.name in EXPECT
    for persona in PERSONAS
    for method in route.methods
]


def test_every_route_has_an_expectation() -> None:
    missing = sorted(r.name for r in ROUTES if r.name not in EXPECT)
    assert not missing, f"Routes without an expectation in EXPECT: {missing}"
    stale = sorted(set(EXPECT) - {r.name for r in ROUTES})
    assert not stale, f"Expectations of routes that no longer exist: {stale}"


def test_matrix_size() -> None:
    """Routes x personas x methods; printed for the record (pytest -s)."""
    methods = sum(len(r.methods) for r in ROUTES)
    print(f"\npersona matrix: {len(ROUTES)} routes, {methods} route methods, "
          f"{len(PERSONAS)} personas: {len(CASES)} requests")  # fmt: skip
    assert len(CASES) == methods * len(PERSONAS)


@dataclass
class World:
    """The shared world (``tests/factories.py``) as the matrix needs it: one game at each
    table, a finished document, the players' secrets, each persona's two clients."""

    tournament: Tournament
    tables: list[Table]
    registration: Registration
    player: Player
    document: GeneratedDocument
    secrets: list[str]
    clients: dict[str, tuple[Client, APIClient]]


@dataclass
class Rows:
    alice: User
    bob: User
    carla: User
    rudi: User
    tournament: Tournament
    tables: list[Table]
    registrations: list[Registration]
    document: GeneratedDocument
    secrets: list[str]


@pytest.fixture(scope="module")
def rows(django_db_setup: None, django_db_blocker: Any) -> Iterator[Rows]:
    """The rows of the world, built once per module (and parallel worker) as the shared
    fixtures build them: Alice's tournament, open for self-registration, series 1 running
    with a game at each of its two tables, her players with e-mail addresses and DDV
    numbers; Bob organizes another one.

    They are written in a transaction that is rolled back after the last test; each test
    runs in a savepoint inside it (pytest-django's ``db``), so what one request changes is
    gone before the next, as with Django's ``setUpTestData``. Building them for each of the
    450 requests took most of the matrix's time."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        alice, bob = make_user("alice"), make_user("bob")
        tournament = make_tournament(
            "herbst", 3, name="Herbstturnier", organizers=[alice], registration_open=True
        )
        make_tournament("anderes", name="Anderes Turnier", organizers=[bob])
        carla, rudi = make_user("carla"), make_user("rudi")
        Membership.objects.create(club=tournament.club, user=carla, role="cashier")
        Membership.objects.create(club=tournament.club, user=rudi, role="referee")
        seated = build_world(tournament)
        secrets = []
        for registration in seated.registrations:
            n = registration.start_number
            email, ddv = f"geheim{n}@example.org", f"98765{n}"
            Player.objects.filter(pk=registration.player_id).update(email=email, ddv_number=ddv)
            secrets += [email, ddv]
        for table in seated.tables:
            play(table, [{"contract": "normal", "re": [1, 3], "re_points": 130, "dealer": 1}])
        season = create_season(
            SeasonData(name="Saison", slug="saison"), actor=Actor(ORGANIZER, user=alice)
        )
        attach_tournament(season, tournament, actor=Actor(ORGANIZER, user=alice))
        league = create_league(
            LeagueData(name="Liga", slug="liga"), actor=Actor(ORGANIZER, user=alice)
        )
        for name in ("A", "B", "C", "D"):
            add_team(league, name, actor=Actor(ORGANIZER, user=alice))
        make_match_days(league, actor=Actor(ORGANIZER, user=alice))
        book(
            tournament.club,
            BookingData("contribution", 1250, timezone.localdate(), "Startgeld"),
            actor=Actor(ORGANIZER, user=carla),
        )
        evening_group = evening_services.create_group(
            tournament.club, evening_services.GroupData(name="Runde", slug="runde"),
            actor=Actor(ORGANIZER, user=alice),
        )  # fmt: skip
        evening_services.add_members(
            evening_group, new_names=["A A", "B B", "C C", "D D", "E E"],
            actor=Actor(ORGANIZER, user=alice),
        )  # fmt: skip
        evening = evening_services.open_evening(
            evening_group, evening_services.EveningData(timezone.localdate()),
            actor=Actor(ORGANIZER, user=alice),
        )  # fmt: skip
        evening_services.set_tables(
            evening, players=[m.player_id for m in evening_group.memberships.all()],
            actor=Actor(ORGANIZER, user=alice),
        )  # fmt: skip
        document = GeneratedDocument.objects.create(
            kind=GeneratedDocument.Kind.RESULTS, tournament=tournament, language="de",
            fingerprint="matrix", status=GeneratedDocument.Status.DONE,
        )  # fmt: skip
    try:
        yield Rows(
            alice, bob, carla, rudi, tournament, seated.tables, seated.registrations, document,
            secrets,
        )  # fmt: skip
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture
def world(db: None, rows: Rows) -> World:
    """The world of one request: the rows, the document's file (in this test's media
    directory) and fresh clients (a logout must not carry over to the next test)."""
    rows.document.file.save("results.pdf", ContentFile(b"%PDF-1.4\n%%EOF\n"))
    return World(
        tournament=rows.tournament,
        tables=rows.tables,
        registration=rows.registrations[0],
        player=rows.registrations[0].player,
        document=rows.document,
        secrets=rows.secrets,
        clients={
            "owner": (page_client(rows.alice), api_client(user=rows.alice)),
            "other": (page_client(rows.bob), api_client(user=rows.bob)),
            "cashier": (page_client(rows.carla), api_client(user=rows.carla)),
            "referee": (page_client(rows.rudi), api_client(user=rows.rudi)),
            # The captain of table 2 has no account, only his own table's link.
            "captain": (page_client(), api_client(table=rows.tables[1])),
            "anonymous": (page_client(), api_client()),
        },
    )


def path_for(route: Route, world: World, persona: str) -> str:
    if route.name in EXPLICIT_PATHS:
        return EXPLICIT_PATHS[route.name]
    table = world.tables[0]
    values: dict[str, Any] = {
        "slug": world.tournament.slug,
        "number": 1,
        "table": table.number,
        "table_id": table.pk,
        "start_number": world.registration.start_number,
        "game": 1,
        "season": "saison",
        "player": world.player.pk,  # a player of the season's tournament
        "league": "liga",  # Alice's league of four teams, its match days made (``rows``)
        "club": world.tournament.club.slug,  # Alice's club, which owns all of the above
        "user": "carla",  # a member of Alice's club (her cashier)
    }
    if "team" in route.params:
        values["team"] = Team.objects.filter(league__slug="liga").order_by("pk")[0].pk
    if route.name.startswith("evenings:"):  # Alice's private group "runde", its evening
        evening = Evening.objects.get(group__slug="runde")
        values["runde"] = "runde"
        values["evening"] = evening.pk
        known = evening.tables.get().token
        values["token"] = known if persona == "owner" else "guessed-link"
    if "group" in route.params:
        values["group"] = Group.objects.filter(match_day__league__slug="liga")[0].pk
    if route.name == "teams:captain":  # the owner hands the team captain his link
        first = Team.objects.filter(league__slug="liga").order_by("pk")[0]
        values["team_token"] = first.captain_token if persona == "owner" else "guessed-link"
    if route.name.startswith("scoring:captain"):
        known = {"owner": table.captain_token, "captain": world.tables[1].captain_token}
        values["token"] = known.get(persona, "guessed-link")
    if route.name == "clubs:accept":
        owner = world.tournament.organizers.order_by("pk")[0]
        valid = invite(world.tournament.club, "organizer", actor=Actor(ORGANIZER, user=owner))
        values["token"] = valid.token if persona == "owner" else "guessed-link"
    if route.name == "tournaments:self-register":
        values["token"] = (
            world.tournament.registration_token if persona == "owner" else "guessed-link"
        )
    if route.name.startswith("documents:"):
        values["pk"] = world.document.pk
    elif route.name in ("clubs:withdraw-invitation", "api:club-invitation-withdraw"):
        owner = world.tournament.organizers.order_by("pk")[0]  # an open invitation to her club
        values["pk"] = values["invitation"] = invite(
            world.tournament.club, "organizer", actor=Actor(ORGANIZER, user=owner)
        ).pk
    elif route.name in ("scoring:referee-call", "scoring:referee-correct"):
        values["pk"] = RefereeCall.objects.create(
            table=table, series=table.series, reason="Streit", called_at=timezone.now(),
            game_number=1,
        ).pk  # fmt: skip
    elif "call" in route.params:  # an open call of table 1
        values["call"] = RefereeCall.objects.create(
            table=table, series=table.series, reason="Streit", called_at=timezone.now(),
        ).pk  # fmt: skip
    elif route.name in ("archive:import-status", "api:archive-import-status",
                        "api:archive-import-confirm"):  # fmt: skip
        owner = world.tournament.organizers.order_by("pk")[0]
        values["pk"] = ArchiveImport.objects.create(owner=owner, status="checked").pk
    elif route.name == "cashbox:reverse":  # a booking of Alice's club
        values["pk"] = Booking.objects.filter(club=world.tournament.club).order_by("pk")[0].pk
    elif route.name in (
        "tournaments:registry-player",
        "tournaments:registry-player-anonymize",
        "tournaments:registry-player-consent",
        "archive:player-data",
        "seasons:player",
        "api:player-detail",
        "api:player-merge",
        "api:player-results",
    ):
        values["pk"] = world.player.pk
    elif route.name.startswith(("tournaments:", "fees:")):
        values["pk"] = world.registration.pk
    return reverse(route.name, kwargs={k: values[k] for k in route.params})


def _matches(expected: Any, response: Any) -> bool:
    status = response.status_code
    to_login = status == 302 and response["Location"].startswith("/login/")
    if expected == "login":
        return to_login
    if expected == REACHED:
        return status == 200 or (status == 302 and not to_login)
    if expected == OWNER_WRITE:
        return status < 500 and status not in (401, 403, 404) and not to_login
    return status in expected


@pytest.mark.parametrize(("route", "persona", "method"), CASES)
def test_route_matrix(world: World, route: Route, persona: str, method: str) -> None:
    page, api = world.clients[persona]
    path = path_for(route, world, persona)
    client = api if path.startswith("/api/") else page
    if method == "get":
        response = client.get(path)
    elif client is api:
        response = getattr(client, method)(path, {}, format="json")
    else:
        response = getattr(client, method)(path, {})
    expected_of = EXPECT[route.name]
    read, write = expected_of.get(persona) or expected_of["other" if persona in LIKE_OTHER else ""]
    expected = read if method == "get" else write
    assert _matches(expected, response), (
        f"{method.upper()} {path} as {persona}: {response.status_code}, expected {expected}"
    )
    # A streamed body (a download) is read to its end, which closes it as a WSGI server
    # would; closing it by hand would also close the database connection, and with it the
    # transaction that holds the world (see ``rows``).
    content = b"".join(response.streaming_content) if response.streaming else response.content
    if persona != "owner":
        body = content.decode(errors="replace")
        leaked = [secret for secret in world.secrets if secret in body]
        assert not leaked, f"{method.upper()} {path} as {persona} shows {leaked}"
