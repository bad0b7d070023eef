"""A route handler still fetching when its test closes the context fails quietly."""

from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.contexts import close_context

pytestmark = pytest.mark.browser


class SlowAnswer(http.server.BaseHTTPRequestHandler):
    reached = threading.Event()
    answered = threading.Event()

    def do_GET(self) -> None:
        if self.path == "/later":
            SlowAnswer.reached.set()
        time.sleep(0.5)  # still on its way when the test closes the context
        try:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<p>ok</p>")
        except OSError:  # the browser has gone
            pass
        if self.path == "/later":
            SlowAnswer.answered.set()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def slow_server() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SlowAnswer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def test_a_handler_in_flight_leaves_no_error_behind(
    browser: Any, slow_server: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Plain ``context.close()`` here logs "Error occurred in event listener" for the
    handler's failed fetch; a failed ``fulfill`` came out of the next test's first call."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(slow_server + "/")
    SlowAnswer.reached.clear()
    SlowAnswer.answered.clear()

    def through(route: Any) -> None:
        route.fulfill(response=route.fetch())

    context.route("**/later", through)
    page.evaluate("url => { fetch(url); }", slow_server + "/later")
    deadline = time.monotonic() + 10
    while not SlowAnswer.reached.is_set() and time.monotonic() < deadline:
        page.evaluate("1")  # lets the handler run in this thread until its fetch is out
    assert SlowAnswer.reached.is_set()  # the handler's fetch is on its way, and closes now
    close_context(context)
    assert SlowAnswer.answered.wait(10)
    for _call in range(3):  # the next test's first calls, where the failure came out
        browser.new_context().close()
    failures = [r.getMessage() for r in caplog.records if r.name.startswith("playwright")]
    assert failures == []
