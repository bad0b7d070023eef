"""Reading a phone's hand-over code (pure: the standard library only).

When a phone cannot reach the server at all, it shows its outbox as QR codes; an organizer's
barcode scanner types them into the hand-over page. A code is ``DOKO1.<B64>.<MAC>``: ``B64``
is base64url (no padding) of the UTF-8 JSON
``{"v":1,"table":<id>,"games":[{"key":…,"number":n,"fields":{…}},…]}`` and ``MAC`` is
base64url (no padding) of HMAC-SHA256 over the ASCII bytes of ``B64``, keyed with the table's
captain token (its UTF-8 bytes). Whoever holds the table's link can sign; nobody else.

``read_code`` refuses anything else with a code (``HandoverRefused.code``), never an
exception of another kind: the input comes from a scanner, or from anyone.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

PREFIX = "DOKO1"
MAX_CODE = 2_000  # characters of one code (phones keep theirs under about 1,000)
MAX_GAMES = 40  # games in one code (a sheet has at most 30 and its forced solos)
MAX_FIELDS = 80  # fields of one game
MAX_NAME = 40  # characters of a field's name
MAX_VALUE = 200  # characters of a field's value (or of one item of a list)
MAX_ITEMS = 10  # items of a list value (the Re players' checkboxes)
MAX_NUMBER = 999

_B64 = re.compile(r"[A-Za-z0-9_-]+")
_KEY = re.compile(r"[\x21-\x7e]{8,64}")
_MAC_CHARS = 43  # 32 bytes in base64url without padding

FieldValue = str | tuple[str, ...]


class HandoverRefused(Exception):
    """Why a code is not taken: ``too_long``, ``not_a_code``, ``unknown_table``, ``forged``,
    ``bad_payload``, ``wrong_table``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class HandedGame:
    key: str
    number: int
    fields: tuple[tuple[str, FieldValue], ...]


@dataclass(frozen=True)
class HandedOver:
    table: int
    games: tuple[HandedGame, ...]


def b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def b64decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(body: str, token: str) -> str:
    """The MAC of ``body`` (the code's B64 part) under a table's captain token."""
    digest = hmac.new(token.encode("utf-8"), body.encode("ascii"), hashlib.sha256).digest()
    return b64encode(digest)


def make_code(table: int, games: list[dict[str, Any]], token: str) -> str:
    """A code as a phone makes it (for tests and documentation)."""
    payload = {"v": 1, "table": table, "games": games}
    body = b64encode(json.dumps(payload, separators=(",", ":")).encode("utf-8"))
    return f"{PREFIX}.{body}.{sign(body, token)}"


def read_code(code: str, token_of: Callable[[int], str | None]) -> HandedOver:
    """The games of a verified code. ``token_of(table id)`` is the captain token of a table
    the reader may take codes for (None for any other)."""
    text = code.strip()
    if len(text) > MAX_CODE:
        raise HandoverRefused("too_long")
    parts = text.split(".")
    if len(parts) != 3 or parts[0] != PREFIX:
        raise HandoverRefused("not_a_code")
    body, mac = parts[1], parts[2]
    if not _B64.fullmatch(body) or not _B64.fullmatch(mac) or len(mac) != _MAC_CHARS:
        raise HandoverRefused("not_a_code")
    payload = _decode(body)
    table = payload.get("table") if isinstance(payload, dict) else None
    if type(table) is not int:
        raise HandoverRefused("bad_payload")
    token = token_of(table)
    if token is None:
        raise HandoverRefused("unknown_table")
    if not hmac.compare_digest(sign(body, token).encode("ascii"), mac.encode("ascii")):
        raise HandoverRefused("forged")
    return HandedOver(table, _games(payload))


def _decode(body: str) -> Any:
    try:
        raw = b64decode(body)
        return json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError, UnicodeDecodeError, RecursionError):
        raise HandoverRefused("bad_payload") from None


def _games(payload: dict[str, Any]) -> tuple[HandedGame, ...]:
    if set(payload) != {"v", "table", "games"} or payload["v"] != 1:
        raise HandoverRefused("bad_payload")
    games = payload["games"]
    if not isinstance(games, list) or not 1 <= len(games) <= MAX_GAMES:
        raise HandoverRefused("bad_payload")
    return tuple(_game(g) for g in games)


def _game(game: Any) -> HandedGame:
    if not isinstance(game, dict) or set(game) != {"key", "number", "fields"}:
        raise HandoverRefused("bad_payload")
    key, number, fields = game["key"], game["number"], game["fields"]
    if not isinstance(key, str) or not _KEY.fullmatch(key):
        raise HandoverRefused("bad_payload")
    if type(number) is not int or not 1 <= number <= MAX_NUMBER:
        raise HandoverRefused("bad_payload")
    if not isinstance(fields, dict) or len(fields) > MAX_FIELDS:
        raise HandoverRefused("bad_payload")
    return HandedGame(key, number, tuple(_field(n, v) for n, v in fields.items()))


def _field(name: str, value: Any) -> tuple[str, FieldValue]:
    if not 1 <= len(name) <= MAX_NAME:
        raise HandoverRefused("bad_payload")
    if isinstance(value, str) and len(value) <= MAX_VALUE:
        return name, value
    if (
        isinstance(value, list)
        and len(value) <= MAX_ITEMS
        and all(isinstance(v, str) and len(v) <= MAX_VALUE for v in value)
    ):
        return name, tuple(value)
    raise HandoverRefused("bad_payload")
