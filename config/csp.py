"""django-csp's middleware with the header built once per process.

django-csp (4.0) builds the policy from the settings anew for every answer, and twice: the
policy and the report-only one (copying the settings, sorting and joining each directive).
Most answers carry neither a nonce nor a view's own changes (``csp.decorators``), so their
header is the same every time: here it is built once and kept, and built anew when a test
changes the settings it is made of. An answer with a nonce or a view's changes takes
django-csp's own way. Which answers get the header (not one that has it already, not an
exempted one, not an excluded path, not Django's debug pages) is decided as django-csp
decides it.
"""

from __future__ import annotations

import http
from typing import Any

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as BaseCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest
from django.http.response import HttpResponseBase

#: The settings the kept headers are made of.
_SETTINGS = {"CONTENT_SECURITY_POLICY", "CONTENT_SECURITY_POLICY_REPORT_ONLY", "DEBUG"}
#: What a view sets on its answer to change the policy (``csp.decorators``).
_PER_RESPONSE = (
    "_csp_config", "_csp_update", "_csp_replace",
    "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro",
)  # fmt: skip
_DEBUG_CODES = (http.HTTPStatus.INTERNAL_SERVER_ERROR, http.HTTPStatus.NOT_FOUND)


class _Policy:
    """One header (policy or report-only) as the settings make it, with its exclusions."""

    __slots__ = ("excluded", "exempt", "header", "value")

    def __init__(self, report_only: bool) -> None:
        self.header = HEADER_REPORT_ONLY if report_only else HEADER
        self.exempt = "_csp_exempt_ro" if report_only else "_csp_exempt"
        self.value = build_policy(report_only=report_only)
        name = "CONTENT_SECURITY_POLICY_REPORT_ONLY" if report_only else "CONTENT_SECURITY_POLICY"
        policy = getattr(settings, name, None) or {}
        self.excluded = tuple(policy.get("EXCLUDE_URL_PREFIXES", None) or ())

    def apply(self, request: HttpRequest, response: HttpResponseBase) -> None:
        if (
            self.value
            and self.header not in response
            and getattr(response, self.exempt, False) is False
            and not (self.excluded and request.path_info.startswith(self.excluded))
        ):
            response[self.header] = self.value


_kept: tuple[_Policy, _Policy] | None = None


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs: Any) -> None:
    global _kept
    if setting in _SETTINGS:
        _kept = None


def _policies() -> tuple[_Policy, _Policy]:
    global _kept
    if _kept is None:
        _kept = (_Policy(report_only=False), _Policy(report_only=True))
    return _kept


class CSPMiddleware(BaseCSPMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if getattr(request, "_csp_nonce", None) is not None or any(
            getattr(response, name, None) is not None for name in _PER_RESPONSE
        ):
            return super().process_response(request, response)
        if response.status_code in _DEBUG_CODES and settings.DEBUG:
            return response
        for policy in _policies():
            policy.apply(request, response)
        # As django-csp: a nonce asked for after the header was written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response
