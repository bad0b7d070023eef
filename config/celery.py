"""The Celery app. Without CELERY_BROKER_URL, tasks run eagerly in the calling process."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("doko")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["config", "tournaments", "scoring", "documents"])

# For `celery -A config beat` (one per installation; optional: documents are checked for
# stalls whenever they are asked for as well). A sweep nobody ran within a minute is dropped.
app.conf.beat_schedule = {
    "documents-sweep": {
        "task": "documents.sweep",
        "schedule": 60.0,
        "options": {"expires": 60},
    },
}
