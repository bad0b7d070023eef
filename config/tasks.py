from celery import shared_task


@shared_task(name="config.ping")
def ping(token: str) -> dict[str, str]:
    """Round trip through the broker; used by /healthz tests and by operators."""
    import socket

    return {"pong": token, "host": socket.gethostname()}
