# The stored lines keep what the ranking orders them by (``sort_key``) instead of their
# place and position, which the reads compute (``seasons.placed``): a change writes its
# players' lines only. The column comes first, the keys in a migration of their own
# (PostgreSQL alters no table in a transaction with pending trigger events), then the
# places and positions go.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("seasons", "0007_season_entries_in_part"),
        ("tournaments", "0015_players_to_clubs"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="seasonentry",
            name="season_entry_ranked_has_place",
        ),
        migrations.RemoveConstraint(
            model_name="seasonentry",
            name="season_entry_position",
        ),
        migrations.AddField(
            model_name="seasonentry",
            name="sort_key",
            field=models.BinaryField(default=b"", max_length=64),
        ),
    ]
