"""Keep secrets out of logs: captain tokens, registration-link tokens and credentials.

A captain's private link is ``/tisch/<token>/...``, a team captain's ``/mannschaft/<token>/``,
a public registration link ``/turniere/<slug>/anmeldung/<token>/`` and a club invitation
``/verwaltung/vereine/einladung/<token>/``; whoever reads a log line with one can enter games
for that table, line up that team or join that club. API clients send
``Authorization: Table <token>`` or ``Token <key>``. Two places write request lines and are
covered here:

- gunicorn's access and error log: ``GunicornLogger`` (``logger_class`` in
  ``deploy/gunicorn.conf.py``) redacts every atom of the access-log format, so even a custom
  format with ``%({authorization}i)s`` or ``%(f)s`` (the Referer) shows no token;
- Django's own log (``django.request`` names the path of every 4xx/5xx answer):
  ``RedactingFilter`` on the handlers in ``LOGGING``.

The nginx configuration in ``deploy/`` logs ``$redacted_uri`` for the same reason.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from gunicorn.glogging import Logger

REDACTED = "[redacted]"

# The captain's token after /tisch/ (organizer pages use /tisch/<table id>/: a short number,
# left alone), the team captain's after /mannschaft/ (the owners' /mannschaften/ is another
# word), the token of a registration link and of a club invitation.
_PATH_TOKEN = re.compile(
    r"(?P<prefix>/tisch/)(?!\d{1,9}(?:[/?#\s\"']|$))[^/?#\s\"']+"
    r"|(?P<prefix2>/anmeldung/|/mannschaft/|/einladung/)[^/?#\s\"']+"
)
_CREDENTIALS = re.compile(
    r"(?P<scheme>\b(?:Table|Token|Bearer|Basic)\s+)[^\s\"',;]+", flags=re.IGNORECASE
)
# Request headers whose whole value is a secret.
SECRET_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "cookie", "x-csrftoken", "idempotency-key"}
)


def _path_repl(match: re.Match[str]) -> str:
    return (match.group("prefix") or match.group("prefix2")) + REDACTED


def redact(text: str) -> str:
    """``text`` with every captain token (table or team), registration token and credential
    replaced."""
    text = _PATH_TOKEN.sub(_path_repl, text)
    return _CREDENTIALS.sub(lambda match: match.group("scheme") + REDACTED, text)


class RedactingFilter(logging.Filter):
    """A logging filter that redacts the formatted message (and drops its arguments)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string: leave the record to the handler
            return True
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        if record.exc_info and not record.exc_text:
            # Format the traceback once, redacted; handlers use the cached text.
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


def _secret_atom(key: str) -> bool:
    """Atoms of request headers (``{name}i``) and environ (``{http_name}e``) that hold
    credentials or cookies."""
    if key.endswith("}i"):
        return key[1:-2] in SECRET_HEADERS
    if key.endswith("}e"):
        name = key[1:-2]
        return name.startswith("http_") and name[5:].replace("_", "-") in SECRET_HEADERS
    return False


class GunicornLogger(Logger):
    """gunicorn's logger with every access-log atom and error-log line redacted."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            log.addFilter(RedactingFilter())

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> Any:
        atoms = super().atoms(resp, req, environ, request_time)
        for key, value in atoms.items():
            if _secret_atom(key):
                atoms[key] = REDACTED
            elif isinstance(value, str):
                atoms[key] = redact(value)
        return atoms
