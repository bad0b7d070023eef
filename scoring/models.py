"""Results: the score sheet of a table, its games, per-player scores, deductions, the clock's
pauses and extensions, kept totals, audit log."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from rules.ruleset import PRESETS
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

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games")
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

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="+")
    series_number = models.PositiveSmallIntegerField()  # copied: standings group without a join
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="scores")
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="player_scores"
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

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="+")
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
    series_points = models.JSONField(default=list)

    class Meta:
        verbose_name = _("tournament total")
        verbose_name_plural = _("tournament totals")

    def __str__(self) -> str:
        return f"{self.registration}: {self.points}"


class AuditEntry(models.Model):
    """Every change to results: who, when, through which link or account, before and after."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, null=True, on_delete=models.SET_NULL, related_name="+")
    game_number = models.PositiveSmallIntegerField(null=True, blank=True)
    action = models.CharField(max_length=60)  # dotted code, e.g. scoring.game.corrected
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    via = models.CharField(max_length=80)  # "captain link table 3, seat 4", "organizer", "api"
    device = models.CharField(max_length=64, blank=True)  # the captain's phone (cookie value)
    reason = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    # The client's Idempotency-Key of the request that made this change, a fingerprint of
    # what it sent, and the answer it got: a retry finds the change already made and gets
    # the same answer (the unique constraint stops a concurrent duplicate).
    idempotency_key = models.CharField(max_length=80, blank=True)
    fingerprint = models.CharField(max_length=64, blank=True)
    response = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
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
