# The data step on its own: PostgreSQL alters no table in a transaction with pending
# trigger events, so the column is added (and removed) in a migration of its own.

from django.db import migrations

from clubs import moving


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0014_player_registry_club"),
    ]

    operations = [
        migrations.RunPython(moving.players_forward, moving.players_backward),
    ]
