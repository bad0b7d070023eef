"""A task's result comes back through a real Redis broker from a real worker process."""

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.broker
@pytest.mark.skipif(not settings.CELERY_BROKER_URL, reason="CELERY_BROKER_URL is not set")
def test_task_round_trip_through_redis_worker() -> None:
    from config.celery import app
    from config.tasks import ping

    assert app.conf.task_always_eager is False
    queue = f"ci-{uuid.uuid4().hex[:8]}"  # a queue of our own: no other worker takes the task
    worker = subprocess.Popen(
        [
            sys.executable, "-m", "celery", "-A", "config", "worker",
            "--pool", "solo", "--concurrency", "1", "--queues", queue,
            "--without-heartbeat", "--without-gossip", "--without-mingle", "--loglevel", "WARNING",
        ],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )  # fmt: skip
    try:
        token = uuid.uuid4().hex
        result = ping.apply_async(args=[token], queue=queue)
        assert result.get(timeout=60) == {"pong": token, "host": result.get()["host"]}
        assert result.successful()
    finally:
        worker.terminate()
        try:
            output, _ = worker.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            output, _ = worker.communicate()
        print(output)  # shown by pytest only when the test failed
