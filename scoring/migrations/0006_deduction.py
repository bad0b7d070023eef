"""Penalty becomes Deduction (TSR 9.7), the glossary's word for points taken without
counter-credit; PlayerScore.penalty becomes PlayerScore.deduction. Tables and rows are
renamed, nothing is copied."""

from django.db import migrations, models
from django.db.models import Q
from django.conf import settings

import scoring.models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0005_tournament_totals"),
        ("tournaments", "0007_series_clock"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="playerscore", name="player_score_game_or_penalty"),
        migrations.RemoveConstraint(model_name="penalty", name="penalty_deduction_range"),
        migrations.RenameModel(old_name="Penalty", new_name="Deduction"),
        migrations.RenameField(model_name="playerscore", old_name="penalty", new_name="deduction"),
        migrations.AlterModelOptions(
            name="deduction",
            options={"verbose_name": "deduction", "verbose_name_plural": "deductions"},
        ),
        migrations.AlterField(
            model_name="deduction",
            name="series",
            field=models.ForeignKey(
                on_delete=models.deletion.CASCADE,
                related_name="deductions",
                to="tournaments.series",
            ),
        ),
        migrations.AlterField(
            model_name="deduction",
            name="registration",
            field=models.ForeignKey(
                on_delete=models.deletion.CASCADE,
                related_name="deductions",
                to="tournaments.registration",
            ),
        ),
        migrations.AddConstraint(
            model_name="deduction",
            constraint=models.CheckConstraint(
                condition=Q(points__lt=0) & Q(points__gte=-scoring.models.MAX_DEDUCTION),
                name="deduction_range",
            ),
        ),
        migrations.AddConstraint(
            model_name="playerscore",
            constraint=models.CheckConstraint(
                condition=Q(game__isnull=False) ^ Q(deduction__isnull=False),
                name="player_score_game_or_deduction",
            ),
        ),
    ]
