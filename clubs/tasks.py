"""Celery tasks of clubs: an invitation's e-mail, sent after its transaction committed.
A temporary failure (no connection, an SMTP 4xx) is tried again later, five times over
about half an hour; without a broker (eager) once more at once. A lasting failure, or the
last try, marks the invitation's e-mail failed."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from clubs import mail

RETRIES = 5
RETRY_SECONDS = 60


@shared_task(name="clubs.send_invitation", acks_late=True, ignore_result=True, max_retries=RETRIES)
def send_invitation(invitation_id: int) -> str:
    task: Any = send_invitation
    try:
        return mail.deliver(invitation_id)
    except Exception as exc:
        if not mail.is_temporary(exc):
            return mail.give_up(invitation_id, exc)
        if task.request.is_eager:
            try:
                return mail.deliver(invitation_id)
            except Exception as again:
                return mail.give_up(invitation_id, again)
        if task.request.retries >= RETRIES:
            return mail.give_up(invitation_id, exc)
        countdown = RETRY_SECONDS * 2**task.request.retries
        raise task.retry(exc=exc, countdown=countdown, max_retries=RETRIES) from exc
