# The places and positions the reads now compute from the keys (0008, 0009).

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("seasons", "0009_season_entry_sort_keys_filled"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="seasonentry",
            name="place",
        ),
        migrations.RemoveField(
            model_name="seasonentry",
            name="position",
        ),
        migrations.RemoveField(
            model_name="seasonentry",
            name="shared",
        ),
        migrations.AddIndex(
            model_name="seasonentry",
            index=models.Index(fields=["season", "-sort_key", "player"], name="season_entry_order"),
        ),
    ]
