"""Tournaments, players, registrations, series, tables and seats (names from the glossary)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from common.models import ChangeLog


def new_token() -> str:
    return secrets.token_urlsafe(16)


def new_seed() -> int:
    return secrets.randbelow(2**31)


class NameForm(models.TextChoices):
    """How a player's name may be published (design decision 13): everywhere outside his
    registry the name follows this choice, made with his consent at registration."""

    FULL = "full", _("full name")
    INITIAL = "initial", _("first name and initial")
    ANONYMOUS = "anonymous", _("anonymous")


class Player(models.Model):
    """One identity across the tournaments of one registry.

    Players live in the registry of a club (``registry_club``, design decision 14): the club
    whose tournaments, evenings and leagues they play in; its owners and organizers keep
    them (``clubs.roles.REGISTRY``). Nothing of a registry (e-mail, DDV number, even that a
    player exists) is shown outside it; who may use which registry is decided in
    ``tournaments.permissions`` alone. ``owner`` is who created the player (for a
    tournament's registration: its first organizer). A player of no club (never registered,
    or only in tournaments of no club) is seen by superusers only. ``club`` is the name of
    the player's own club, as shown on lists; it has nothing to do with the registry.
    """

    registry_club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("club of the registry"),
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("created by"),
    )
    first_name = models.CharField(_("first name"), max_length=80)
    last_name = models.CharField(_("last name"), max_length=80)
    club = models.CharField(_("club"), max_length=120, blank=True)
    ddv_number = models.CharField(_("DDV member number"), max_length=20, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    name_form = models.CharField(
        _("published name"),
        max_length=12,
        choices=NameForm.choices,
        default=NameForm.FULL,
        help_text=_("How the name is shown on public pages, documents and exports."),
    )
    minor = models.BooleanField(_("under 18"), default=False)
    guardian_consent = models.BooleanField(_("guardian's consent"), default=False)
    consent_at = models.DateTimeField(_("consent given at"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["last_name", "first_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["registry_club", "ddv_number"],
                condition=~Q(ddv_number=""),
                name="player_ddv_number_unique_per_registry",
            ),
            # A minor's name is published (in any form but anonymous) only with his
            # guardian's consent; without it he can be registered, anonymous only.
            models.CheckConstraint(
                condition=Q(minor=False) | Q(guardian_consent=True) | Q(name_form="anonymous"),
                name="player_minor_published_with_guardian_consent",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def sort_name(self) -> str:
        return f"{self.last_name}, {self.first_name}"


class RegistryChange(models.Model):
    """A change to a registry that no tournament's log holds: the merge of two entries for
    one person. ``before`` keeps both players' details and the registrations that moved, so
    a merge can be understood (and undone by hand) later."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="registry_changes"
    )
    action = models.CharField(max_length=60)  # dotted code, e.g. tournaments.player.merged
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="changes"
    )
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.action} {self.created_at:%Y-%m-%d %H:%M}"


class Tiebreak(models.TextChoices):
    """Tie-breaks after total points (design decision 2), in the order a tournament lists
    them; the standings core (``scoring.ranking``) computes each under the same key."""

    BEST_SERIES = "best_series", _("better best single-series score")
    LAST_SERIES = "last_series", _("better last-series score")


DEFAULT_TIEBREAK = (Tiebreak.BEST_SERIES.value, Tiebreak.LAST_SERIES.value)


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("short name (in links)"), max_length=60, unique=True)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    ruleset = models.CharField(_("rule set"), max_length=40, default="ddv")
    rule_overrides = models.JSONField(_("rule overrides"), default=dict, blank=True)
    series_count = models.PositiveSmallIntegerField(
        _("number of series"), default=3, validators=[MinValueValidator(1), MaxValueValidator(20)]
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
    )
    is_public = models.BooleanField(_("public"), default=True)
    tiebreak = models.JSONField(_("tie-break precedence"), default=list, blank=True)
    entry_mode = models.CharField(
        _("result entry"),
        max_length=20,
        choices=[
            ("entry", _("game by game on phones")),
            ("transcription", _("transcription of paper score sheets")),
        ],
        default="entry",
    )
    confirmation = models.CharField(
        _("confirmation of score sheets"),
        max_length=20,
        choices=[
            ("player", _("another player at the table, on another phone")),
            ("organizer", _("the organizers")),
        ],
        default="player",
    )
    registration_open = models.BooleanField(_("self-registration open"), default=False)
    # A DDV ranking tournament (DDV-Ranglistenturnier): its organizers send the ranking
    # keeper a report (``seasons.ddv``) once it qualifies. The director (Turnierleiter) and
    # the referee (Schiedsrichter) are named on it as text: they need no account here.
    ddv_ranking = models.BooleanField(_("DDV ranking tournament"), default=False)
    director = models.CharField(_("tournament director"), max_length=120, blank=True)
    referee = models.CharField(_("referee"), max_length=120, blank=True)
    # One seed for all series: the draw can then re-derive the whole published plan,
    # which keeps its zero-repeat guarantee (see docs/seating.md).
    draw_seed = models.BigIntegerField(_("draw seed"), default=new_seed)
    registration_token = models.CharField(max_length=40, unique=True, default=new_token)
    # The club that owns it (``common.ownership``); none: kept by superusers only.
    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("club"),
    )
    # Who set it up and ran it (a record; the club's members keep it). The first one's
    # registry holds its players.
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organized_tournaments", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(series_count__gte=1) & Q(series_count__lte=20),
                name="tournament_series_count_range",
            ),
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=models.F("starts_on")),
                name="tournament_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", kwargs={"slug": self.slug})


class Registration(models.Model):
    """A player in a tournament."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    start_number = models.PositiveIntegerField(_("start number"))
    checked_in = models.BooleanField(_("checked in"), default=False)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn_from_series = models.PositiveSmallIntegerField(
        _("withdrawn from series"), null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["start_number"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="registration_player_once"
            ),
            models.UniqueConstraint(
                fields=["tournament", "start_number"], name="registration_start_number_unique"
            ),
            models.CheckConstraint(
                condition=Q(start_number__gte=1), name="registration_start_number_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.start_number} {self.player}"

    def plays_in(self, series_number: int) -> bool:
        return self.withdrawn_from_series is None or series_number < self.withdrawn_from_series


class Series(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        DRAWN = "drawn", _("drawn")
        RUNNING = "running", _("running")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="series")
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.PLANNED
    )
    # The referee's signal (TSR 8.5.1): every table's playing time runs from here.
    starts_at = models.DateTimeField(_("start time"), null=True, blank=True)
    # The organizers called time for the whole series (the tables' sheets carry the flag).
    time_called_at = models.DateTimeField(_("time called"), null=True, blank=True)
    seed = models.BigIntegerField(_("draw seed"), null=True, blank=True)
    draw_version = models.CharField(_("draw algorithm version"), max_length=20, blank=True)
    draw_mode = models.CharField(_("draw mode"), max_length=20, blank=True)
    repeats = models.PositiveIntegerField(_("repeated encounters"), default=0)
    # Keep-apart pairs the draw could not honour: [{"pair": [start no., start no.],
    # "reason": code}] (codes of ``seating.apart``), written with the tables.
    keep_apart_report = models.JSONField(default=list, blank=True)
    drawn_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("series")
        verbose_name_plural = _("series")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="series_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="series_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {_('Series')} {self.number}"


class KeepApart(models.Model):
    """Two registrations of one tournament who must never share a table (a couple, a parent
    and child). Registrations, not registry players: the draw seats registrations (start
    numbers), a pair belongs to this tournament only, and withdrawing or deleting a
    registration drops its pairs. Stored once with the smaller registration id first, so
    the database refuses the same pair in the other order and a player with himself."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="keep_apart")
    first = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "first__start_number", "second__start_number"]
        verbose_name = _("keep-apart pair")
        verbose_name_plural = _("keep-apart pairs")
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="keep_apart_pair_once"),
            models.CheckConstraint(condition=Q(first__lt=F("second")), name="keep_apart_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.first_id} / {self.second_id}"


class TournamentChange(ChangeLog):
    """Changes to a tournament's setup that its other logs do not hold (keep-apart pairs):
    who, when, through which door, before and after."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="setup_changes"
    )

    class Meta(ChangeLog.Meta):
        verbose_name = _("tournament change")
        verbose_name_plural = _("tournament changes")


class Table(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("number"))
    captain_token = models.CharField(max_length=40, unique=True, default=new_token)

    class Meta:
        ordering = ["series", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["series", "number"], name="table_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{_('Table')} {self.number}"

    def get_captain_url(self) -> str:
        """The private link of the table captain (path only; see ``absolute_url``)."""
        return reverse("scoring:captain", kwargs={"token": self.captain_token})


def absolute_url(path: str) -> str:
    """A link for paper and QR codes, on the configured SITE_URL."""
    return f"{settings.SITE_URL}{path}"


class Seat(models.Model):
    """A player's place at a table; ``series`` is repeated here so the database can refuse
    a player sitting twice in one series."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))
    # RESTRICT, not PROTECT: a seated player cannot be unregistered, but deleting the whole
    # tournament (which deletes the seats too) must work.
    registration = models.ForeignKey(Registration, on_delete=models.RESTRICT, related_name="seats")

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(
                fields=["series", "registration"], name="seat_player_once_per_series"
            ),
            models.CheckConstraint(
                condition=Q(position__gte=1) & Q(position__lte=5), name="seat_position_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} / {self.position}: {self.registration.player}"
