"""The Celery app. Without CELERY_BROKER_URL, tasks run eagerly in the calling process."""

import os

from celery import Celery
from celery.schedules import crontab

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("doko")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["config", "tournaments", "scoring", "seasons", "documents"])

# For `celery -A config beat` (one per installation; optional: documents are checked for
# stalls whenever they are asked for as well). A sweep nobody ran within a minute is dropped.
app.conf.beat_schedule = {
    "documents-sweep": {
        "task": "documents.sweep",
        "schedule": 60.0,
        "options": {"expires": 60},
    },
    # A season without a reference date ranks the last months up to today: results leave
    # its window without any change, so its stored ranking is computed again every night.
    "seasons-refresh-all": {
        "task": "seasons.refresh_all",
        "schedule": crontab(hour=3, minute=30),
        "options": {"expires": 6 * 3600},
    },
}
