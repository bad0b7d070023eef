"""A club's publication of results (DSGVO): how long results are published with names (two
years by default, as the Bavarian and Lower Saxony data-protection guidance holds for an
annual event; 0 publishes for ever), and its privacy notice in German and English (empty:
the default template)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0002_club_change'),
    ]

    operations = [
        migrations.AddField(
            model_name='club',
            name='privacy_notice_de',
            field=models.TextField(blank=True, verbose_name='privacy notice (German)'),
        ),
        migrations.AddField(
            model_name='club',
            name='privacy_notice_en',
            field=models.TextField(blank=True, verbose_name='privacy notice (English)'),
        ),
        migrations.AddField(
            model_name='club',
            name='publication_years',
            field=models.PositiveSmallIntegerField(default=2, help_text='After this many years the public pages of a tournament show every player anonymized (0: no limit).', verbose_name='years results are published with names'),
        ),
    ]
