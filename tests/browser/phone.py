"""A phone-sized browser context signed in as a user, in one language (the phone tests')."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from tests.browser.test_every_page import HEIGHT, WIDTH


def signed_in_phone(browser: Any, base: str, language: str, user: User) -> tuple[Any, Any]:
    """(context, page): a 390 px phone with ``user``'s session and the language cookie; the
    caller closes the context."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(
        viewport={"width": WIDTH, "height": HEIGHT}, locale=language, is_mobile=True,
        has_touch=True,
    )  # fmt: skip
    context.add_cookies(
        [
            {"name": settings.SESSION_COOKIE_NAME, "url": base,
             "value": client.cookies[settings.SESSION_COOKIE_NAME].value},
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base},
        ]
    )  # fmt: skip
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def submit(page: Any, selector: str) -> None:
    """Click a form's button and wait until the answer is loaded: a click does not wait for
    the page it starts, so a check right after it could still read the page before."""
    with page.expect_navigation():
        page.click(selector)
