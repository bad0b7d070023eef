"""Publication consent on the registry's players (design decision 13, DSGVO).

Existing rows get ``name_form = "full"``: until now every name was published in full, the
registrations were made for public tournaments under that practice, and changing what an
archive shows without a player's word would change published results pages overnight. A
player who objects is anonymized on request (``tournaments.services.privacy``); every new
registration through a form chooses the name form explicitly. ``minor`` starts False and
``consent_at`` empty: nothing on record says otherwise.
"""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0011_keep_apart_pairs"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="consent_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="consent given at"),
        ),
        migrations.AddField(
            model_name="player",
            name="guardian_consent",
            field=models.BooleanField(default=False, verbose_name="guardian's consent"),
        ),
        migrations.AddField(
            model_name="player",
            name="minor",
            field=models.BooleanField(default=False, verbose_name="under 18"),
        ),
        migrations.AddField(
            model_name="player",
            name="name_form",
            field=models.CharField(
                choices=[
                    ("full", "full name"),
                    ("initial", "first name and initial"),
                    ("anonymous", "anonymous"),
                ],
                default="full",
                help_text="How the name is shown on public pages, documents and exports.",
                max_length=12,
                verbose_name="published name",
            ),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("minor", False),
                    ("guardian_consent", True),
                    ("name_form", "anonymous"),
                    _connector="OR",
                ),
                name="player_minor_published_with_guardian_consent",
            ),
        ),
    ]
