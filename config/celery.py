"""The Celery app. Without CELERY_BROKER_URL, tasks run eagerly in the calling process."""

import os

from celery import Celery
from celery.schedules import crontab

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("doko")
app.config_from_object("django.conf:settings", namespace="CELERY")
if not os.environ.get("CELERY_BROKER_URL"):
    # Eager tasks still take a producer from kombu (for its serializer). Without a broker
    # URL kombu would make up amqp://localhost and log "No hostname was supplied" on every
    # `make run`; the in-memory transport names its host and connects nowhere.
    app.conf.broker_url = "memory://localhost/"
app.autodiscover_tasks(
    ["config", "clubs", "tournaments", "scoring", "seasons", "documents", "archive"]
)

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
    # A club's publication period (DSGVO): pages anonymize when read; the documents stored
    # before a tournament's period ended are deleted every night.
    "documents-publication-period": {
        "task": "documents.publication_period",
        "schedule": crontab(hour=3, minute=45),
        "options": {"expires": 6 * 3600},
    },
}
