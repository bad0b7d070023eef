"""Results: the score sheet of a table, its games, per-player scores, deductions, the clock's
pauses and extensions, kept totals, audit log."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from common.models import ChangeLog
from rules.ruleset import PRESETS
from scoring.fields import PointsListField
from tournaments.models import Registration, Series, Table, Tournament

#: The widest deduction any rule set allows: the database's last line; the service checks
#: the tournament's own rule set.
MAX_DEDUCTION = max(ruleset.max_deduction for ruleset in PRESETS.values())


class ScoreSheet(models.Model):
    """The digital Spielliste of one table in one series. ``version`` grows with every
    change, so two phones cannot overwrite each other unseen."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        SUBMITTED = "submitted", _("submitted")
        CONFIRMED = "confirmed", _("confirmed")

    class Mode(models.TextChoices):
        ENTRY = "entry", _("game entry")
        TRANSCRIPTION = "transcription", _("transcription of a paper sheet")

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="sheet")
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.OPEN)
    mode = models.CharField(max_length=20, choices=Mode.choices, default=Mode.ENTRY)
    timeout = models.BooleanField(_("time-out"), default=False)
    submitted_at = models.DateTimeField(null=True, blank=True)
    submitted_by_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # The phone that submitted (a random cookie value): another one must confirm.
    submitted_device = models.CharField(max_length=64, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    confirmed_device = models.CharField(max_length=64, blank=True)
    confirmed_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    last_activity = models.DateTimeField(null=True, blank=True)
    # The organizers closed the series before this sheet was confirmed: its games count,
    # marked "closed by the organizers, not confirmed" wherever results are shown.
    closed_unconfirmed = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("score sheet")
        verbose_name_plural = _("score sheets")

    def __str__(self) -> str:
        return f"{self.table} ({self.status}, v{self.version})"


class Game(models.Model):
    """One row of the sheet: the record as entered, and what the rules engine computed."""

    # No index of its own: ``game_number_unique`` leads with the table. Every index is
    # written with each game saved.
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games", db_index=False)
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(_("game"))
    dealer = models.PositiveSmallIntegerField(_("dealer"))
    record = models.JSONField(_("game record"))
    winner = models.CharField(max_length=10, blank=True)  # "re", "kontra" or "" (no winner)
    value = models.IntegerField(default=0)
    breakdown = models.JSONField(default=list)
    scores = models.JSONField(default=dict)  # {"seat": points}
    revision = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="game_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.number}"


class Deduction(models.Model):
    """Points deducted from a player outside any game row (unsportsmanlike behaviour,
    TSR 9.7): no counter-credit to anybody."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="deductions")
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="deductions"
    )
    points = models.IntegerField(_("points"))
    reason = models.CharField(_("reason"), max_length=300)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("deduction")
        verbose_name_plural = _("deductions")
        constraints = [
            models.CheckConstraint(
                condition=Q(points__lt=0) & Q(points__gte=-MAX_DEDUCTION),
                name="deduction_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.registration} {self.points} ({self.reason})"


class Pause(models.Model):
    """The whole hall stops (an interruption): every table still playing gets the time back
    (``scoring.clock``). At most one pause of a series is open at a time."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="pauses")
    started_at = models.DateTimeField(_("paused at"))
    ended_at = models.DateTimeField(_("resumed at"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)

    class Meta:
        ordering = ["series", "started_at"]
        verbose_name = _("pause")
        verbose_name_plural = _("pauses")
        constraints = [
            models.UniqueConstraint(
                fields=["series"], condition=Q(ended_at__isnull=True), name="pause_one_open"
            ),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=models.F("started_at")),
                name="pause_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series}: {self.started_at:%H:%M}–{self.ended_at or ''}"


#: The longest Nachspielzeit granted at once.
MAX_EXTENSION_MINUTES = 60


class Extension(models.Model):
    """Nachspielzeit (TSR 8.5.1): extra time the referee grants one table, for example the
    length of a reclamation interruption. Several add up."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="extensions")
    minutes = models.PositiveSmallIntegerField(_("minutes"))
    reason = models.CharField(_("reason"), max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "created_at"]
        verbose_name = _("extension")
        verbose_name_plural = _("extensions")
        constraints = [
            models.CheckConstraint(
                condition=Q(minutes__gte=1) & Q(minutes__lte=MAX_EXTENSION_MINUTES),
                name="extension_minutes_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} +{self.minutes} ({self.reason})"


class PlayerScore(models.Model):
    """A player's points from one game row or one deduction: what his totals (SeriesTotal,
    TournamentTotal) add up."""

    # The tournament and the game have no index of their own: ``player_score_standings``
    # and ``player_score_once_per_game`` lead with them, and four rows with every index
    # are written per game saved.
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="+")
    series_number = models.PositiveSmallIntegerField()  # copied: standings group without a join
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="scores")
    game = models.ForeignKey(
        Game,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="player_scores",
        db_index=False,
    )
    deduction = models.OneToOneField(
        Deduction, null=True, blank=True, on_delete=models.CASCADE, related_name="score"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.IntegerField()
    played = models.BooleanField(default=False)  # active in the game (not sitting out)
    solo = models.BooleanField(default=False)  # soloist of a solo (not a Hochzeit alone)
    compulsory = models.BooleanField(default=False)
    won = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("player score")
        verbose_name_plural = _("player scores")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "registration"], name="player_score_once_per_game"
            ),
            models.CheckConstraint(
                condition=Q(game__isnull=False) ^ Q(deduction__isnull=False),
                name="player_score_game_or_deduction",
            ),
        ]
        indexes = [
            # Covers the sums of a player's series (``series_totals``) on PostgreSQL (an
            # index-only scan); other databases ignore ``include``.
            models.Index(
                fields=["tournament", "series_number", "registration"],
                include=["points", "played", "solo", "won", "compulsory"],
                name="player_score_standings",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.registration}: {self.points}"


class SeriesTotal(models.Model):
    """A player's sums over his PlayerScore rows of one series: what the standings read.

    Recomputed from those rows in the transaction that changes them
    (``scoring.services.series_totals``); ``check_totals`` compares the two. ``entries`` counts
    the rows summed: a total without any (the last game deleted) stands for no result."""

    # The tournament and the series have no index of their own: ``series_total_standings``
    # and ``series_total_once_per_player`` lead with them. An update of the sums writes
    # every index (the standings' index includes them), for four players per game saved.
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="+", db_index=False)
    series_number = models.PositiveSmallIntegerField()  # copied: standings filter without a join
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="series_totals"
    )
    entries = models.PositiveIntegerField(default=0)
    points = models.IntegerField(default=0)  # deductions included
    games = models.PositiveIntegerField(default=0)  # played, not sitting out
    solos = models.PositiveIntegerField(default=0)
    solos_won = models.PositiveIntegerField(default=0)
    compulsory = models.PositiveIntegerField(default=0)
    voluntary_won = models.PositiveIntegerField(default=0)
    deductions = models.IntegerField(default=0)  # TSR 9.7 points outside any game row

    class Meta:
        verbose_name = _("series total")
        verbose_name_plural = _("series totals")
        constraints = [
            models.UniqueConstraint(
                fields=["series", "registration"], name="series_total_once_per_player"
            ),
        ]
        indexes = [
            # The standings read on PostgreSQL: an index-only scan; others ignore ``include``.
            models.Index(
                fields=["tournament", "series_number", "registration"],
                include=[
                    "entries",
                    "points",
                    "games",
                    "solos",
                    "solos_won",
                    "compulsory",
                    "voluntary_won",
                ],
                name="series_total_standings",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.registration}, {self.series_number}: {self.points}"


class TournamentTotal(models.Model):
    """A player's SeriesTotal rows summed over the tournament, with each series' points: the
    overall standings read one row per player, next to his name. Recomputed with them."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    registration = models.OneToOneField(
        Registration, on_delete=models.CASCADE, related_name="total"
    )
    points = models.IntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    solos = models.PositiveIntegerField(default=0)
    solos_won = models.PositiveIntegerField(default=0)
    compulsory = models.PositiveIntegerField(default=0)
    voluntary_won = models.PositiveIntegerField(default=0)
    deductions = models.IntegerField(default=0)
    # Points of series 1, 2, ... up to the last with a result; null where he has none.
    series_points = PointsListField(default=list)

    class Meta:
        verbose_name = _("tournament total")
        verbose_name_plural = _("tournament totals")

    def __str__(self) -> str:
        return f"{self.registration}: {self.points}"


class AuditEntry(ChangeLog):
    """Every change to a tournament's results and hall: who, when, through which link or
    account (``via``: "captain link table 3, seat 4", "organizer alice"), before and after
    (the columns of every change log, ``common.models.ChangeLog``; the words for its action
    codes are registered in ``common.changelog`` by the apps that write them)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, null=True, on_delete=models.SET_NULL, related_name="+")
    game_number = models.PositiveSmallIntegerField(null=True, blank=True)
    device = models.CharField(max_length=64, blank=True)  # the captain's phone (cookie value)
    reason = models.CharField(max_length=300, blank=True)
    # The client's Idempotency-Key of the request that made this change, a fingerprint of
    # what it sent, and the answer it got: a retry finds the change already made and gets
    # the same answer (the unique constraint stops a concurrent duplicate).
    idempotency_key = models.CharField(max_length=80, blank=True)
    fingerprint = models.CharField(max_length=64, blank=True)
    response = models.JSONField(null=True, blank=True)

    class Meta(ChangeLog.Meta):
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="audit_idempotency_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.action} {self.created_at:%Y-%m-%d %H:%M}"


class OutboxConflict(models.Model):
    """A game a phone's outbox sent that the sheet could not take without overwriting
    something: another device had entered its number, the sheet was submitted, the series
    was not running, or an earlier game of the phone never arrived. The facts are kept as
    the phone sent them (the form's fields) until an organizer enters them through the sheet
    pages, or decides they are not needed, and marks the conflict resolved."""

    class Reason(models.TextChoices):
        NUMBER_TAKEN = "number_taken", _("game number already entered on another device")
        OUT_OF_ORDER = "out_of_order", _("an earlier game of this phone is missing")
        VERSION = "version_conflict", _("the sheet changed on another device")
        SUBMITTED = "sheet_submitted", _("the sheet was submitted")
        NOT_RUNNING = "series_not_running", _("the series was not running")
        KEY_REUSED = "idempotency_key_reused", _("the same key with other facts")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="outbox_conflicts")
    number = models.PositiveSmallIntegerField(_("game"))
    idempotency_key = models.CharField(max_length=64)
    device = models.CharField(max_length=64, blank=True)
    facts = models.JSONField(default=dict)  # the form's fields as the phone posted them
    reason = models.CharField(max_length=40, choices=Reason.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["table", "number", "pk"]
        verbose_name = _("outbox conflict")
        verbose_name_plural = _("outbox conflicts")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "idempotency_key"], name="outbox_conflict_key_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} game {self.number}: {self.reason}"


class TableContact(models.Model):
    """When a table's captain link was last heard from, and how many games its phone last
    said it still holds in its outbox (``X-Outbox-Pending``). Written at most every few
    seconds per table (``scoring.services.contact``); read by the progress board and the
    close page."""

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, primary_key=True, related_name="contact"
    )
    last_contact = models.DateTimeField()
    pending = models.PositiveIntegerField(default=0)
    pending_at = models.DateTimeField(null=True, blank=True)  # when the count was reported

    class Meta:
        verbose_name = _("table contact")
        verbose_name_plural = _("table contacts")

    def __str__(self) -> str:
        return f"{self.table}: {self.pending} pending"


#: The longest reason a captain gives when he calls the referee.
MAX_CALL_REASON = 200


class RefereeCall(models.Model):
    """A table's call for the referee (Schiedsrichterruf): the captain calls with a short
    reason, a referee takes it and rules; where the interruption cost time he grants the
    table Nachspielzeit (TSR 8.5.1) in the same step (``scoring.services.referee``).

    At most one call of a table is open (called or taken) at a time: a second tap, or a
    retried request whose answer was lost, finds the open call instead of making another.
    While a call is open, the game it concerns (``game_number``, or without one the next
    game entered after the call) is provisional until the ruling (``scoring.referee``)."""

    class Status(models.TextChoices):
        CALLED = "called", pgettext_lazy("referee call", "called")
        TAKEN = "taken", pgettext_lazy("referee call", "on the way")
        RULED = "ruled", pgettext_lazy("referee call", "ruled")
        WITHDRAWN = "withdrawn", pgettext_lazy("referee call", "withdrawn")

    class Verdict(models.TextChoices):
        NONE = "", _("no game concerned")
        CONFIRMED = "confirmed", _("game confirmed")
        CORRECTED = "corrected", _("game corrected")

    OPEN = (Status.CALLED, Status.TAKEN)

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="referee_calls")
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="referee_calls")
    game_number = models.PositiveSmallIntegerField(_("game"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=MAX_CALL_REASON)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.CALLED)
    called_at = models.DateTimeField(_("called at"))
    called_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    taken_at = models.DateTimeField(null=True, blank=True)
    ruling = models.TextField(_("ruling"), blank=True)
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )  # fmt: skip
    ruled_at = models.DateTimeField(null=True, blank=True)
    verdict = models.CharField(max_length=20, choices=Verdict.choices, blank=True)
    # The game the ruling confirmed or corrected (the call's number, or the game entered
    # after the call), kept so the list of rulings names it after the call is closed.
    ruled_game = models.PositiveSmallIntegerField(null=True, blank=True)
    extension_minutes = models.PositiveSmallIntegerField(default=0)
    deduction = models.OneToOneField(
        Deduction, null=True, blank=True, on_delete=models.SET_NULL, related_name="ruling"
    )
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["called_at", "pk"]
        verbose_name = _("referee call")
        verbose_name_plural = _("referee calls")
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status__in=["called", "taken"]),
                name="referee_call_one_open",
            ),
            models.CheckConstraint(
                condition=Q(extension_minutes__lte=MAX_EXTENSION_MINUTES),
                name="referee_call_extension_range",
            ),
            models.CheckConstraint(
                condition=~Q(status="ruled") | Q(ruled_at__isnull=False),
                name="referee_call_ruled_at",
            ),
        ]
        indexes = [models.Index(fields=["series", "status"], name="referee_call_series")]

    def __str__(self) -> str:
        return f"{self.table}: {self.reason} ({self.status})"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN
