# The data step on its own: PostgreSQL alters no table in a transaction with pending
# trigger events, so the column is added (and removed) in a migration of its own.

from django.db import migrations

from clubs import moving


class Migration(migrations.Migration):

    dependencies = [
        ("seasons", "0004_season_club"),
    ]

    operations = [
        migrations.RunPython(moving.seasons_forward, moving.seasons_backward),
    ]
