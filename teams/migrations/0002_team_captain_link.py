"""Each team gets its captain's private link. Existing teams each get a token of their own
(a default alone would give them all the same one), then the column becomes unique."""

from django.db import migrations, models

import tournaments.models


def give_tokens(apps, schema_editor):  # type: ignore[no-untyped-def]
    Team = apps.get_model("teams", "Team")
    for team in Team.objects.filter(captain_token__isnull=True):
        team.captain_token = tournaments.models.new_token()
        team.save(update_fields=["captain_token"])


class Migration(migrations.Migration):
    dependencies = [
        ("teams", "0001_leagues_teams_squads_match_days_line_ups"),
        ("tournaments", "0008_registry_change"),
    ]

    operations = [
        migrations.AddField(
            model_name="team",
            name="captain_token",
            field=models.CharField(max_length=40, null=True),
        ),
        migrations.RunPython(give_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="team",
            name="captain_token",
            field=models.CharField(
                default=tournaments.models.new_token, max_length=40, unique=True
            ),
        ),
    ]
