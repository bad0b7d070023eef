"""The two request headers of result entry.

``If-Match: <version>`` carries the sheet version the client last saw (also accepted quoted,
as an entity tag: ``"7"``). It is required on every change; a stale one answers 409
``version_conflict`` with the current state. Every answer with a sheet carries
``ETag: "<version>"``.

``Idempotency-Key: <1..80 visible ASCII characters>`` is required when a game is created: a
retry with the same key answers the stored answer (same status, header
``Idempotent-Replayed: true``) and creates nothing twice.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from rest_framework.request import Request

from common.api.errors import ApiError

_VERSION = re.compile(r'^(?:W/)?"?([0-9]{1,9})"?$')
_KEY = re.compile(r"^[\x21-\x7e]{1,80}$")
_DEVICE = re.compile(r"^[\x21-\x7e]{1,64}$")


def expected_version(request: Request) -> int:
    raw = request.headers.get("If-Match")
    if raw is None:
        raise ApiError(
            428,
            "version_required",
            _("Send the sheet version you last saw in the If-Match header."),
            field="If-Match",
        )
    match = _VERSION.match(raw.strip())
    if match is None:
        raise ApiError(
            400, "invalid_version", _("The sheet version must be a number."), field="If-Match"
        )
    return int(match.group(1))


def idempotency_key(request: Request, *, required: bool) -> str | None:
    raw = request.headers.get("Idempotency-Key")
    if raw is None:
        if not required:
            return None
        raise ApiError(
            400,
            "idempotency_key_required",
            _("Send a new Idempotency-Key header with every new entry."),
            field="Idempotency-Key",
        )
    if not _KEY.match(raw):
        raise ApiError(
            400,
            "invalid_idempotency_key",
            _("The Idempotency-Key must be 1 to 80 visible ASCII characters."),
            field="Idempotency-Key",
        )
    return raw


def device_id(request: Request) -> str:
    raw = request.headers.get("Device-Id", "")
    if raw and not _DEVICE.match(raw):
        raise ApiError(
            400,
            "invalid_device_id",
            _("The Device-Id must be 1 to 64 visible ASCII characters."),
            field="Device-Id",
        )
    return raw
