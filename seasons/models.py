"""Seasons (Turnierserie, Cup, Rangliste): a named set of tournaments ranked by one rule."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from common.models import ChangeLog
from tournaments.models import Tournament


class Season(models.Model):
    """A ranking across tournaments. Its rule is a preset of ``seasons.ranking.PRESETS`` with
    the season's ``rule_overrides`` (``seasons.rules``); its players are those of the
    attached tournaments, each one identity of his registry (``Registration.player``).
    It belongs to its ``club`` (``owner``: who created it); the club's keepers change it
    and attach only tournaments of the club."""

    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("short name (in links)"), max_length=60, unique=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="seasons",
        verbose_name=_("owner"),
    )
    # The club that owns it (``common.ownership``); none: kept by superusers only.
    club = models.ForeignKey(
        "clubs.Club",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seasons",
        verbose_name=_("club"),
    )
    preset = models.CharField(_("ranking rule"), max_length=40, default="ddv_rangliste")
    rule_overrides = models.JSONField(_("rule overrides"), default=dict, blank=True)
    reference_date = models.DateField(_("reference date"), null=True, blank=True)
    is_public = models.BooleanField(_("public"), default=True)
    description = models.TextField(_("description"), blank=True, max_length=2000)
    tournaments: models.ManyToManyField[Tournament, SeasonTournament] = models.ManyToManyField(
        Tournament, through="SeasonTournament", related_name="seasons", blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The stored ranking (``SeasonEntry``): refreshes asked for, and the count of requests
    # the stored entries cover (``seasons.entries.refresh_season_entries``).
    entries_requested = models.PositiveBigIntegerField(default=0, editable=False)
    entries_done = models.PositiveBigIntegerField(default=0, editable=False)
    # When the stored ranking was last written; None: never (the page computes it once).
    entries_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The reference date the stored ranking was computed for: a refresh of only the changed
    # tournaments' players keeps the others' lines only while it is the same.
    entries_reference = models.DateField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("seasons:detail", kwargs={"season": self.slug})


class SeasonTournament(models.Model):
    """A tournament attached to a season: when and by whom."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="attachments")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    added_at = models.DateTimeField(auto_now_add=True)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The season's refresh request (``Season.entries_requested``) that last said its results
    # changed: its players' stored lines are computed again while it is above
    # ``Season.entries_done`` (``seasons.entries``).
    results_changed = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        verbose_name = _("tournament of a season")
        verbose_name_plural = _("tournaments of seasons")
        constraints = [
            models.UniqueConstraint(fields=["season", "tournament"], name="season_tournament_once"),
        ]

    def __str__(self) -> str:
        return f"{self.season_id}: {self.tournament_id}"


class SeasonChange(ChangeLog):
    """Every change to a season: who, when, through which door, before and after. (The
    results' audit log, ``scoring.AuditEntry``, hangs on one tournament; a season's
    changes concern several or none.)"""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="changes")

    class Meta(ChangeLog.Meta):
        verbose_name = _("change of a season")
        verbose_name_plural = _("changes of seasons")

    def __str__(self) -> str:
        return f"{self.season}: {self.action}"


class SeasonEntry(models.Model):
    """A player's line in a season's ranking, stored for the reads that must be quick (his
    page, the season's page and API): written by ``seasons.entries.refresh_season_entries``
    from the pure ranking whenever results of an attached tournament or the season change
    (only the lines that changed are written).
    The value is exact: ``value_numerator / value_denominator`` (the average per series, or
    the counted sum). ``sort_key`` is what the ranking orders the line by
    (``seasons.sort_keys``): places, shared places and the lines' order are computed from it
    when read (``seasons.placed``), so a line is written only when its own figures change."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.CASCADE, related_name="season_entries"
    )
    value_numerator = models.BigIntegerField()
    value_denominator = models.PositiveBigIntegerField()
    series = models.PositiveIntegerField()
    total = models.BigIntegerField()
    tournaments = models.PositiveIntegerField()
    missing_series = models.PositiveIntegerField()
    ranked = models.BooleanField()
    # Larger: ranked before; equal: the same place (``seasons.sort_keys.sort_key``).
    sort_key = models.BinaryField(max_length=64, default=b"")
    provisional = models.BooleanField(default=False)  # a result shown, not counted yet
    best_result = models.BigIntegerField(default=0)  # the best counted score (a tie-break)
    computed_at = models.DateTimeField()  # when the line was last written (it changed)

    class Meta:
        verbose_name = _("stored season line")
        verbose_name_plural = _("stored season lines")
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="season_entry_once"),
            models.CheckConstraint(
                condition=models.Q(value_denominator__gt=0), name="season_entry_denominator"
            ),
        ]
        indexes = [
            # The ranking's order (the better first, among equals the smaller player key),
            # and the lines before one (its place).
            models.Index(fields=["season", "-sort_key", "player"], name="season_entry_order"),
        ]

    def __str__(self) -> str:
        return f"{self.season_id}: {self.player_id}"


class DdvImport(models.Model):
    """A DDV ranking tournament's report imported into a season (``seasons.ddv.importing``):
    the tournament it became, recognized by where it came from (``source``: the server and
    the tournament's short name there), so importing the same report again changes nothing
    and a corrected one replaces the results instead of adding them twice."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="ddv_imports")
    source = models.CharField(max_length=300)
    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="+")
    fingerprint = models.CharField(max_length=64)  # sha256 of the report as imported
    imported_at = models.DateTimeField(auto_now=True)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name = _("imported DDV report")
        verbose_name_plural = _("imported DDV reports")
        constraints = [
            models.UniqueConstraint(fields=["season", "source"], name="ddv_import_once"),
        ]

    def __str__(self) -> str:
        return f"{self.season_id}: {self.source}"
