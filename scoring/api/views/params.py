"""Path and header parameters shared by the results views (OpenAPI)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter

TABLE_PATH = [
    OpenApiParameter("slug", str, OpenApiParameter.PATH, description="Tournament."),
    OpenApiParameter("number", int, OpenApiParameter.PATH, description="Series number."),
    OpenApiParameter("table", int, OpenApiParameter.PATH, description="Table number."),
]
GAME = OpenApiParameter("game", int, OpenApiParameter.PATH, description="Game number.")
VERSION_SCHEMA = {"type": "string", "pattern": '^(W/)?"?[0-9]{1,9}"?$'}
KEY_SCHEMA = {"type": "string", "pattern": "^[\\x21-\\x7e]{1,80}$", "minLength": 1, "maxLength": 80}
DEVICE_SCHEMA = {
    "type": "string",
    "pattern": "^[\\x21-\\x7e]{1,64}$",
    "minLength": 1,
    "maxLength": 64,
}

IF_MATCH = OpenApiParameter(
    "If-Match",
    VERSION_SCHEMA,
    OpenApiParameter.HEADER,
    required=True,
    description='The sheet version last seen, e.g. `7` or `"7"`; stale: 409.',
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    KEY_SCHEMA,
    OpenApiParameter.HEADER,
    required=True,
    description="A new key per entry (1..80 visible ASCII characters); a retry with the "
    "same key returns the stored answer with `Idempotent-Replayed: true`.",
)
OPTIONAL_IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    KEY_SCHEMA,
    OpenApiParameter.HEADER,
    required=False,
    description="Optional: makes a retried correction answer the stored answer.",
)
REASON = OpenApiParameter(
    "reason",
    str,
    OpenApiParameter.QUERY,
    required=False,
    description="Organizers: why a submitted sheet or closed series is changed.",
)
DEVICE_ID = OpenApiParameter(
    "Device-Id",
    DEVICE_SCHEMA,
    OpenApiParameter.HEADER,
    required=False,
    description="A random value the captain's app keeps per phone: the sheet is confirmed "
    "from another device than the one that submitted it.",
)
