"""Closing a browser context in the tests without a route handler's error in the next test."""

from __future__ import annotations

from typing import Any


def close_context(context: Any) -> None:
    """Close ``context`` once its route handlers are dropped. A handler still running when
    its page closes (a fetch answered after the test's last wait) fails, and Playwright's sync
    API raises that failure in whatever call comes next: another test's ``new_context``."""
    for page in context.pages:
        page.unroute_all(behavior="ignoreErrors")
    context.unroute_all(behavior="ignoreErrors")
    context.close()
