import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()


def _prepare() -> None:
    """What a worker would otherwise do in its first requests, before it takes any: load the
    URLconf (and every view it imports) and the rules engine's tables of the deck."""
    from django.urls import get_resolver

    from rules.deck import prepare

    get_resolver().url_patterns  # noqa: B018 - importing them is the point
    prepare()


_prepare()
